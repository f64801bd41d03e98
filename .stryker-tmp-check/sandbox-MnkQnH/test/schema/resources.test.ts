/**
 * The rules of every kind, as tables: inputs that pass, and inputs that fail with the field and
 * the rule each failure names. Adding a kind means adding one entry to `cases`.
 */
// @ts-nocheck

import { describe, expect, it } from "vitest";
import { type AnyResourceDefinition, definitions } from "../../schema/index.js";
import { check } from "../../provider/check.js";

const ID = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const OTHER_ID = "7a1e2b3c-4d5e-4f60-8172-93a4b5c6d7e8";

interface Case {
  valid: [string, Record<string, unknown>][];
  /** Inputs and the failures they cause: field path and a fragment of the rule. */
  invalid: [string, Record<string, unknown>, Record<string, string>][];
  /**
   * Inputs that pass but may be a mistake, and the fields preview warns about: keys the spec does
   * not show and this package does not know (sent as written), settings assumed to be another kind's.
   */
  warned?: [string, Record<string, unknown>, string[]][];
}

const cases: Record<string, Case> = {
  Monitor: {
    valid: [
      ["an http monitor with only a url", { url: "https://example.com" }],
      ["a ping monitor", { monitorType: "ping", url: "example.com" }],
      ["a tcp monitor", { monitorType: "tcp", tcpHost: "db.example.com", tcpPort: 5432 }],
      ["a dns monitor", { monitorType: "dns", dnsQuery: "example.com", dnsType: "AAAA", dnsServer: "1.1.1.1" }],
      ["a POST with a body and headers", { url: "https://x.io", httpMethod: "POST", requestBody: "{}", requestHeaders: [{ name: "A", value: "b" }] }],
      ["a keyword check", { url: "https://x.io", alertType: "keyword_absence", keyword: "error" }],
      ["a full maintenance window", { url: "https://x.io", maintenanceFrom: "22:00", maintenanceTo: "23:30", maintenanceTimezone: "Europe/Berlin", maintenanceWeekdays: ["sat", "sun"] }],
      ["UTC as the window's time zone", { url: "https://x.io", maintenanceFrom: "00:00", maintenanceTo: "01:00", maintenanceTimezone: "UTC" }],
      ["the shortest interval and every region field", { url: "https://x.io", intervalSeconds: 10, regions: ["ap-northeast-1", "sa-east-1"] }],
      ["associations", { url: "https://x.io", paused: true, notificationChannelIds: [ID, OTHER_ID], escalationPolicyId: ID, clientId: OTHER_ID }],
      ["a proxy", { url: "https://x.io", proxyHost: "proxy.local", proxyPort: 3128 }],
      // Open domains: the spec does not list them, so a real server may accept these.
      ["regions another server offers", { url: "https://x.io", regions: ["us-east", "mars-1"] }],
      ["weekdays spelled out", { url: "https://x.io", maintenanceFrom: "01:00", maintenanceTo: "02:00", maintenanceTimezone: "UTC", maintenanceWeekdays: ["monday"] }],
      ["a record type this package does not know", { monitorType: "dns", dnsQuery: "example.com", dnsType: "HTTPS" }],
    ],
    invalid: [
      ["an interval under 10 s", { url: "https://x.io", intervalSeconds: 5 }, { intervalSeconds: "must be at least 10 (got 5)" }],
      ["a fractional interval", { url: "https://x.io", intervalSeconds: 12.5 }, { intervalSeconds: "must be a whole number" }],
      ["an http monitor without url", { name: "x" }, { url: "is required for http monitors" }],
      ["a ping monitor without url", { monitorType: "ping" }, { url: "is required for ping monitors" }],
      ["a tcp monitor without host and port", { monitorType: "tcp" }, { tcpHost: "is required for tcp monitors", tcpPort: "is required for tcp monitors" }],
      ["a dns monitor without query", { monitorType: "dns" }, { dnsQuery: "is required for dns monitors" }],
      ["tcpHost on an http monitor", { url: "https://x.io", tcpHost: "h" }, { tcpHost: "applies only to tcp monitors, not http" }],
      ["dnsQuery on a tcp monitor", { monitorType: "tcp", tcpHost: "h", tcpPort: 1, dnsQuery: "x" }, { dnsQuery: "applies only to dns monitors, not tcp" }],
      ["url on a dns monitor", { monitorType: "dns", dnsQuery: "x", url: "https://x.io" }, { url: "applies only to http and ping monitors, not dns" }],
      [
        "http-only fields on a tcp monitor",
        { monitorType: "tcp", tcpHost: "h", tcpPort: 1, httpMethod: "GET", requestHeaders: [], expectedStatusCode: 200, followRedirects: true },
        {
          httpMethod: "applies only to http monitors, not tcp",
          requestHeaders: "applies only to http monitors, not tcp",
          expectedStatusCode: "applies only to http monitors, not tcp",
          followRedirects: "applies only to http monitors, not tcp",
        },
      ],
      ["an unknown monitor type", { monitorType: "smtp" }, { monitorType: 'must be one of http, ping, tcp, dns (got "smtp")' }],
      ["a keyword alert without keyword", { url: "https://x.io", alertType: "keyword" }, { keyword: "is required when alertType is keyword" }],
      ["a keyword without alert type", { url: "https://x.io", keyword: "ok" }, { alertType: "is required when keyword is set" }],
      ["a body with GET", { url: "https://x.io", requestBody: "{}" }, { requestBody: "is only sent with POST, PUT, PATCH (httpMethod is GET)" }],
      ["a body with HEAD", { url: "https://x.io", httpMethod: "HEAD", requestBody: "x" }, { requestBody: "is only sent with POST, PUT, PATCH (httpMethod is HEAD)" }],
      ["an unknown method", { url: "https://x.io", httpMethod: "TRACE" }, { httpMethod: "must be one of GET, HEAD, POST, PUT, PATCH, DELETE" }],
      ["a window without its end", { url: "https://x.io", maintenanceFrom: "22:00", maintenanceTimezone: "UTC" }, { maintenanceTo: "is required with maintenanceFrom and maintenanceTimezone" }],
      ["a window without a time zone", { url: "https://x.io", maintenanceFrom: "22:00", maintenanceTo: "23:00" }, { maintenanceTimezone: "is required with maintenanceFrom and maintenanceTo" }],
      ["a time that is not HH:MM", { url: "https://x.io", maintenanceFrom: "7pm", maintenanceTo: "24:00", maintenanceTimezone: "UTC" }, { maintenanceFrom: "must be a time of day as HH:MM", maintenanceTo: "must be a time of day as HH:MM" }],
      ["a time zone that does not exist", { url: "https://x.io", maintenanceFrom: "01:00", maintenanceTo: "02:00", maintenanceTimezone: "Mars/Olympus" }, { maintenanceTimezone: "must be an IANA time zone" }],
      ["a UTC offset instead of a zone", { url: "https://x.io", maintenanceFrom: "01:00", maintenanceTo: "02:00", maintenanceTimezone: "+01:00" }, { maintenanceTimezone: "must be an IANA time zone" }],
      ["weekdays without a window", { url: "https://x.io", maintenanceWeekdays: ["mon"] }, { maintenanceWeekdays: "needs a maintenance window" }],
      ["a tcp port out of range", { monitorType: "tcp", tcpHost: "h", tcpPort: 70000 }, { tcpPort: "must be a port from 1 to 65535 (got 70000)" }],
      ["port zero", { monitorType: "tcp", tcpHost: "h", tcpPort: 0 }, { tcpPort: "must be a port from 1 to 65535 (got 0)" }],
      ["a proxy without port", { url: "https://x.io", proxyHost: "p" }, { proxyPort: "is required with proxyHost" }],
      ["a region twice", { url: "https://x.io", regions: ["us-east-1", "us-east-1"] }, { regions: "must not list the same value twice" }],
      ["no regions at all", { url: "https://x.io", regions: [] }, { regions: "must name at least one region" }],
      ["an escalation policy id that is not a UUID", { url: "https://x.io", escalationPolicyId: "policy-1" }, { escalationPolicyId: 'must be a UUID (got "policy-1")' }],
      ["a channel id that is not a UUID", { url: "https://x.io", notificationChannelIds: [ID, "x"] }, { "notificationChannelIds[1]": "must be a UUID" }],
      ["a header without value", { url: "https://x.io", requestHeaders: [{ name: "A" }] }, { "requestHeaders[0].value": "is required" }],
      ["a misspelt field", { url: "https://x.io", intervalSecond: 30 }, { intervalSecond: "unknown field (did you mean intervalSeconds?)" }],
      ["an API (snake_case) field name", { url: "https://x.io", tcp_port: 1 }, { tcp_port: "unknown field (did you mean tcpPort?)" }],
      ["an expected status that is not HTTP", { url: "https://x.io", expectedStatusCode: 1000 }, { expectedStatusCode: "must be an HTTP status from 100 to 599" }],
    ],
  },
  Heartbeat: {
    valid: [
      ["no field at all", {}],
      ["every field", { name: "nightly", expectedIntervalSeconds: 86400, gracePeriodSeconds: 0, heartbeatGroupId: ID, clientId: OTHER_ID, paused: false }],
      ["an interval the spec sets no floor for", { expectedIntervalSeconds: 10 }],
    ],
    invalid: [
      ["a negative grace period", { gracePeriodSeconds: -1 }, { gracePeriodSeconds: "must be at least 0 (got -1)" }],
      ["a group id that is not a UUID", { heartbeatGroupId: "g" }, { heartbeatGroupId: "must be a UUID" }],
      ["paused as a string", { paused: "yes" }, { paused: 'must be true or false (got "yes")' }],
    ],
  },
  HeartbeatGroup: {
    valid: [["a name", { name: "jobs" }], ["every field", { name: "jobs", description: "cron", clientId: ID }]],
    invalid: [
      ["no name", {}, { name: "is required" }],
      ["an empty name", { name: "" }, { name: "must not be empty" }],
    ],
  },
  EscalationPolicy: {
    valid: [
      ["one step", { name: "on-call", steps: [{ delayMinutes: 0, notificationChannelIds: [ID] }] }],
      ["several steps and repeats", { name: "p", repeatCount: 10, steps: [{ delayMinutes: 0, notificationChannelIds: [ID], urgency: "low" }, { delayMinutes: 1440, notificationChannelIds: [ID, OTHER_ID] }] }],
      ["limits and urgencies the spec does not show", { name: "p", repeatCount: 11, steps: [{ delayMinutes: 2880, notificationChannelIds: [ID], urgency: "urgent" }] }],
    ],
    invalid: [
      ["no steps", { name: "p", steps: [] }, { steps: "must have at least one step" }],
      ["a step without channels", { name: "p", steps: [{ delayMinutes: 0, notificationChannelIds: [] }] }, { "steps[0].notificationChannelIds": "must name at least one channel" }],
      ["a misspelt step field", { name: "p", steps: [{ delay: 0, notificationChannelIds: [ID] }] }, { "steps[0].delayMinutes": "is required" }],
    ],
    warned: [["a step key this package does not know", { name: "p", steps: [{ delayMinutes: 0, notificationChannelIds: [ID], escalateTo: "manager" }] }, ["steps[0].escalateTo"]]],
  },
  NotificationChannel: {
    valid: [
      ["email", { name: "ops", kind: "email", config: { address: "ops@example.com" } }],
      ["slack", { name: "s", kind: "slack", config: { channel: "#alerts" }, credentials: { webhookUrl: "https://hooks.slack.com/services/x" } }],
      ["msteams", { name: "t", kind: "msteams", credentials: { webhookUrl: "https://example.webhook.office.com/x" } }],
      ["sms", { name: "p", kind: "sms", config: { phoneNumber: "+14155550100" } }],
      ["pagerduty", { name: "pd", kind: "pagerduty", credentials: { integrationKey: "0123456789abcdef0123456789abcdef" } }],
      ["webhook with headers", { name: "w", kind: "webhook", config: { url: "https://hooks.example.com" }, credentials: { headers: [{ name: "Authorization", value: "Bearer x" }] } }],
      ["a kind this package does not know", { name: "x", kind: "pigeon" }],
      ["a PagerDuty key of another length", { name: "x", kind: "pagerduty", credentials: { integrationKey: "abc" } }],
      // Which settings a kind needs is not shown: the server decides.
      ["email without address", { name: "x", kind: "email" }],
      ["slack without webhook (a server with its own Slack app)", { name: "x", kind: "slack", config: { channel: "#a" } }],
    ],
    invalid: [
      ["no kind", { name: "x" }, { kind: "is required" }],
      ["a bad email address", { name: "x", kind: "email", config: { address: "ops" } }, { "config.address": "must be an email address" }],
      ["a slack webhook over http", { name: "x", kind: "slack", credentials: { webhookUrl: "http://hooks.slack.com/x" } }, { "credentials.webhookUrl": "must be an https URL" }],
      ["a phone number with spaces", { name: "x", kind: "sms", config: { phoneNumber: "+1 415 555" } }, { "config.phoneNumber": "must be a phone number in E.164 form" }],
      ["a header without a name", { name: "x", kind: "webhook", config: { url: "https://x.io" }, credentials: { headers: [{ value: "v" }] } }, { "credentials.headers[0].name": "is required" }],
    ],
    warned: [
      ["an unknown config key", { name: "x", kind: "email", config: { address: "a@b.io", adress: "c@d.io" } }, ["config.adress"]],
      ["an unknown credentials key", { name: "x", kind: "slack", credentials: { botToken: "xoxb-1" } }, ["credentials.botToken"]],
      ["an email address on a pagerduty channel", { name: "x", kind: "pagerduty", config: { address: "a@b.io" } }, ["config.address"]],
      ["settings of a kind this package does not know", { name: "x", kind: "pigeon", config: { loft: "north" }, credentials: { ring: "r-1" } }, ["config.loft", "credentials.ring"]],
    ],
  },
  WebhookSubscription: {
    valid: [
      ["all events", { url: "https://hooks.example.com/in", events: ["*"] }],
      ["some events, disabled", { url: "http://hooks.example.com/in", events: ["monitor.down", "monitor.up"], enabled: false, description: "x", clientId: ID }],
    ],
    invalid: [
      ["no events", { url: "https://x.io", events: [] }, { events: "must name at least one event kind" }],
      ["an event twice", { url: "https://x.io", events: ["a", "a"] }, { events: "must not list the same value twice" }],
      ["an ftp URL", { url: "ftp://x.io", events: ["*"] }, { url: "must be an http(s) URL" }],
      ["no url", { events: ["*"] }, { url: "is required" }],
    ],
  },
  Client: {
    valid: [
      ["a name", { name: "Acme" }],
      ["every field", { name: "Acme", description: "d", website: "https://acme.example", contactEmail: "it@acme.example", templateId: ID, archived: false, portalSettings: { enabled: true, title: "Acme status", primaryColor: "#00FF7f", logoUrl: "https://acme.example/logo.png", customDomain: "status.acme.example", showIncidentHistory: false } }],
    ],
    invalid: [
      ["no name", { website: "https://acme.example" }, { name: "is required" }],
      ["a color name", { name: "A", portalSettings: { primaryColor: "green" } }, { "portalSettings.primaryColor": "must be a color as #RRGGBB" }],
      ["a bad contact address", { name: "A", contactEmail: "acme" }, { contactEmail: "must be an email address" }],
    ],
    warned: [["an unknown portal setting", { name: "A", portalSettings: { theme: "dark" } }, ["portalSettings.theme"]]],
  },
  ClientTemplate: {
    valid: [
      ["a name", { name: "standard" }],
      ["defaults for both", { name: "s", monitorDefaults: { intervalSeconds: 30, regions: ["eu-west-1"], followRedirects: false }, heartbeatDefaults: { expectedIntervalSeconds: 60, gracePeriodSeconds: 10 } }],
    ],
    invalid: [
      ["a monitor interval under 10 s", { name: "s", monitorDefaults: { intervalSeconds: 1 } }, { "monitorDefaults.intervalSeconds": "must be at least 10" }],
    ],
    warned: [
      ["a heartbeat field among monitor defaults", { name: "s", monitorDefaults: { gracePeriodSeconds: 1 } }, ["monitorDefaults.gracePeriodSeconds"]],
      ["an unknown heartbeat default", { name: "s", heartbeatDefaults: { timezone: "UTC" } }, ["heartbeatDefaults.timezone"]],
    ],
  },
  ClientShareLink: {
    valid: [
      ["a label", { clientId: ID, label: "board" }],
      ["an expiry", { clientId: ID, label: "board", expiresAt: "2031-01-01T00:00:00Z" }],
    ],
    invalid: [
      ["no client", { label: "board" }, { clientId: "is required" }],
      ["an expiry that is not ISO-8601", { clientId: ID, label: "b", expiresAt: "tomorrow" }, { expiresAt: "must be an ISO-8601 date and time" }],
    ],
  },
};

describe("every kind has a case table", () => {
  it.each(definitions.map((definition) => definition.kind))("%s", (kind) => {
    expect(cases[kind], `add ${kind} to the cases of this file`).toBeDefined();
  });
});

describe.each(definitions.map((definition) => [definition.kind, definition] as [string, AnyResourceDefinition]))("%s", (kind, definition) => {
  const table = cases[kind] as Case;

  it.each(table.valid)("accepts %s", (_title, inputs) => {
    expect(check(definition, inputs)).toMatchObject({ failures: [], warnings: [] });
  });

  it.each(table.warned ?? [])("accepts %s, warning about the field", (_title, inputs, fields) => {
    const { failures, inputs: checked, warnings } = check(definition, { ...inputs, __urn: `urn:pulumi:dev::p::pulumi-nodejs:dynamic/monitoring:${kind}::probe` });
    expect(failures).toEqual([]);
    expect(warnings).toEqual(fields.map((field) => expect.stringMatching(new RegExp(`^${kind} "probe": ${field.replace(/[[\].]/g, "\\$&")} `))));
    // Sent as written: the value check passes on keeps the key.
    const [top, ...rest] = (fields[0] as string).split(/[.[\]]+/).filter(Boolean);
    expect(JSON.stringify(checked[top as string])).toContain(rest.at(-1));
  });

  it.each(table.invalid)("rejects %s", (_title, inputs, expected) => {
    const { failures } = check(definition, inputs);
    // Keyed by the field path the reason names: secret fields leave `property` empty (see provider/check.ts).
    const fieldOf = (reason: string) => reason.slice(kind.length + 1).split(": ", 1)[0];
    expect(Object.fromEntries(failures.map((failure) => [fieldOf(failure.reason), failure.reason]))).toEqual(
      Object.fromEntries(
        Object.entries(expected).map(([field, rule]) => [field, expect.stringContaining(`${kind}.${field}: ${rule}`)]),
      ),
    );
  });
});
