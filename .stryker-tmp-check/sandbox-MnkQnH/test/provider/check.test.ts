/**
 * How check treats inputs, whatever the kind: what it returns, how failures read, secrets,
 * values unknown during a preview, and the provider's own properties.
 */
// @ts-nocheck

import { describe, expect, it } from "vitest";
import { clientTemplate, escalationPolicy, monitor, notificationChannel } from "../../schema/index.js";
import { UNKNOWN, check } from "../../provider/check.js";

const ID = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const PROVIDER = "exports.handler = __f0; /* serialized provider */";

describe("check", () => {
  it("returns the parsed inputs with schema defaults, keeping internal properties", () => {
    const result = check(escalationPolicy, {
      __provider: PROVIDER,
      __urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:EscalationPolicy::oncall",
      name: "on-call",
      steps: [{ delayMinutes: 5, notificationChannelIds: [ID] }],
    });
    expect(result).toEqual({
      failures: [],
      inputs: {
        __provider: PROVIDER,
        __urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:EscalationPolicy::oncall",
        name: "on-call",
        steps: [{ delayMinutes: 5, notificationChannelIds: [ID], urgency: "high" }],
      },
      warnings: [],
    });
  });

  it("fills only the defaults the provider owns, not those the service applies", () => {
    expect(check(monitor, { url: "https://x.io" }).inputs).toEqual({ url: "https://x.io" });
  });

  it("returns the inputs unchanged when a rule fails", () => {
    const news = { url: "https://x.io", intervalSeconds: 5 };
    expect(check(monitor, news).inputs).toBe(news);
  });

  it("names kind, field and rule, and shows the offending value", () => {
    expect(check(monitor, { url: "https://x.io", intervalSeconds: 5 }).failures).toEqual([
      { property: "intervalSeconds", reason: "Monitor.intervalSeconds: must be at least 10 (got 5)" },
    ]);
  });

  it("reports one failure per field, the first rule it breaks", () => {
    const { failures } = check(monitor, { url: "https://x.io", regions: ["", "venus-1", "venus-1"] });
    expect(failures).toHaveLength(1);
    expect(failures[0]?.property).toBe("regions[0]");
  });

  describe("open domains: the spec lists no regions, so any name passes unless the stack lists the offered ones", () => {
    it.each([
      ["no list: any region", {}, ["us-east", "mars-1"], []],
      ["a list: its regions pass", { region: ["us-east", "eu-west"] }, ["eu-west"], []],
      ["a list: others fail at preview", { region: ["us-east", "eu-west"] }, ["us-east", "mars-1"], ["regions[1]"]],
    ] as const)("%s", (_title, closed, regions, failing) => {
      const { failures } = check(monitor, { url: "https://x.io", regions: [...regions] }, closed);
      expect(failures.map((failure) => failure.property)).toEqual(failing);
    });

    it("names the config that closed the domain, at any depth", () => {
      const { failures } = check(clientTemplate, { name: "t", monitorDefaults: { regions: ["moon-1"] } }, { region: ["us-east"] });
      expect(failures).toEqual([
        {
          property: "monitorDefaults.regions[0]",
          reason: 'ClientTemplate.monitorDefaults.regions[0]: must be one of the regions in monitoring:offeredRegions (us-east) (got "moon-1")',
        },
      ]);
    });

    it.each([
      ["a weekday spelled out", { maintenanceWeekdays: ["monday"], maintenanceFrom: "01:00", maintenanceTo: "02:00", maintenanceTimezone: "UTC" }],
      ["an IP version spelled otherwise", { ipVersion: "IPv6" }],
    ])("accepts %s", (_title, fields) => {
      expect(check(monitor, { url: "https://x.io", ...fields }).failures).toEqual([]);
    });

    it("accepts a channel kind this package does not know, without checking its settings", () => {
      expect(check(notificationChannel, { name: "d", kind: "discord", credentials: { webhookUrl: "https://discord.example/x" } }).failures).toEqual([]);
    });
  });

  describe("keys the spec does not show (open objects: channel settings, portal settings, template defaults, policy steps)", () => {
    const urn = (kind: string) => `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:${kind}::alerts`;

    it("passes an unknown key, keeps it as written and warns naming the resource and the key, never the value", () => {
      const result = check(notificationChannel, { __urn: urn("NotificationChannel"), name: "s", kind: "slack", config: { channel: "#ops", threadTs: "s3cr3t-ish" } });
      expect(result.failures).toEqual([]);
      expect(result.inputs["config"]).toEqual({ channel: "#ops", threadTs: "s3cr3t-ish" });
      expect(result.warnings).toEqual([
        'NotificationChannel "alerts": config.threadTs is not a key this package knows; it is sent as written and the server decides (check the spelling)',
      ]);
      expect(result.warnings.join()).not.toContain("s3cr3t");
    });

    it("passes a missing setting without a word: which settings a kind needs is the server's to say", () => {
      expect(check(notificationChannel, { name: "s", kind: "slack" })).toMatchObject({ failures: [], warnings: [] });
    });

    it("warns about a setting assumed to belong to another kind", () => {
      expect(check(notificationChannel, { __urn: urn("NotificationChannel"), name: "p", kind: "pagerduty", config: { phoneNumber: "+14155550100" } }).warnings).toEqual([
        'NotificationChannel "alerts": config.phoneNumber applies only to sms channels, not pagerduty as far as this package knows; it is sent as written and the server decides',
      ]);
    });

    it("still refuses what the package knows of a known key, and unknown keys where the spec states the fields", () => {
      expect(check(notificationChannel, { name: "e", kind: "email", config: { address: "ops" } }).failures.map(({ reason }) => reason)).toEqual([
        'NotificationChannel.config.address: must be an email address (got "ops")',
      ]);
      expect(check(monitor, { url: "https://x.io", intervalSecs: 30 }).failures.map(({ reason }) => reason)).toEqual([
        "Monitor.intervalSecs: unknown field (did you mean intervalSeconds?)",
      ]);
    });

    it("warns about unknown keys at any depth, naming the item", () => {
      const { warnings } = check(escalationPolicy, {
        __urn: urn("EscalationPolicy"),
        name: "p",
        steps: [{ delayMinutes: 0, notificationChannelIds: [ID] }, { delayMinutes: 5, notificationChannelIds: [ID], repeatEvery: 3 }],
      });
      expect(warnings).toEqual([expect.stringMatching(/^EscalationPolicy "alerts": steps\[1\]\.repeatEvery is not a key/)]);
    });
  });

  it("reports every failing field at once", () => {
    const { failures } = check(monitor, { url: 42, intervalSeconds: 1, httpMethod: "FETCH", typo: true });
    expect(failures.map((failure) => failure.property).sort()).toEqual(["httpMethod", "intervalSeconds", "typo", "url"]);
  });

  it("runs cross-field rules only once every field passes its own rules", () => {
    // An invalid monitorType must not also produce "url is required for http monitors".
    expect(check(monitor, { monitorType: "smtp" }).failures.map((failure) => failure.property)).toEqual(["monitorType"]);
  });

  it.each([
    ["a wrong type", { kind: "pagerduty", name: "pd", credentials: { integrationKey: 12345678901234567890 } }],
    ["a header of the wrong type", { kind: "webhook", name: "w", config: { url: "https://x.io" }, credentials: { headers: [{ name: "s3cr3t", value: 1234567890 }] } }],
    ["a bad URL", { kind: "slack", name: "s", credentials: { webhookUrl: "http://hooks.example.com/s3cr3t" } }],
  ])("never shows the value of a secret field (%s)", (_title, news) => {
    const { failures } = check(notificationChannel, news);
    expect(failures).toHaveLength(1);
    expect(JSON.stringify(failures)).not.toMatch(/s3cr3t|1234567890/);
    expect(failures[0]?.reason).toMatch(/^NotificationChannel\.credentials\.[\w.[\]]+: /);
  });

  // The engine prints a failure's property with its value, so secret fields are named only in the reason.
  it("never shows a secret monitor password", () => {
    const { failures } = check(monitor, { monitorType: "tcp", tcpHost: "h", tcpPort: 1, authPassword: "hunter2" });
    expect(failures).toEqual([
      { property: "", reason: "Monitor.authPassword: applies only to http monitors, not tcp" },
    ]);
    expect(check(monitor, { url: "https://x.io", authPassword: 1234 }).failures).toEqual([
      { property: "", reason: "Monitor.authPassword: must be a string" },
    ]);
  });

  it("leaves values unknown during a preview unchecked, and defers cross-field rules", () => {
    const news = { monitorType: "tcp", tcpHost: UNKNOWN, tcpPort: UNKNOWN, notificationChannelIds: [ID, UNKNOWN] };
    expect(check(monitor, news)).toEqual({ failures: [], inputs: news, warnings: [] });
  });

  it("still checks the known fields next to unknown ones", () => {
    expect(check(monitor, { url: UNKNOWN, intervalSeconds: 3 }).failures).toEqual([
      { property: "intervalSeconds", reason: "Monitor.intervalSeconds: must be at least 10 (got 3)" },
    ]);
  });

  it.each([
    ["intervalSecond", "unknown field (did you mean intervalSeconds?)"],
    ["interval_seconds", "unknown field (did you mean intervalSeconds?)"],
    ["IntervalSeconds", "unknown field (did you mean intervalSeconds?)"],
    ["color", "unknown field"],
  ])("flags the unknown field %s", (field, rule) => {
    expect(check(monitor, { url: "https://x.io", [field]: 1 }).failures).toEqual([
      { property: field, reason: `Monitor.${field}: ${rule}` },
    ]);
  });

  it("accepts adoptId on every kind and checks it is a UUID", () => {
    expect(check(monitor, { url: "https://x.io", adoptId: ID }).inputs).toMatchObject({ adoptId: ID });
    expect(check(monitor, { url: "https://x.io", adoptId: "mon-1" }).failures).toEqual([
      { property: "adoptId", reason: 'Monitor.adoptId: must be a UUID (got "mon-1")' },
    ]);
  });
});
