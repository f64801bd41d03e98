import { z } from "zod";
import { defineResource, field } from "../define.js";
import { oneOfRule, typeRule } from "../rule-messages.js";
import { client } from "./client.js";
import { clientTemplate } from "./client-template.js";
import {
  ALERT_TYPES,
  HTTP_METHODS,
  KNOWN_DNS_RECORD_TYPES,
  KNOWN_IP_VERSIONS,
  KNOWN_WEEKDAYS,
  METHODS_WITH_BODY,
  MONITOR_TYPES,
  type VariantFields,
  checkVariantFields,
  ianaTimeZone,
  idOf,
  nonEmpty,
  openEnum,
  pauseWindows,
  port,
  region,
  setOf,
  timeOfDay,
  uuid,
  wholeNumber,
} from "../rules.js";

const TEMPLATE_MAY_CHANGE = "A client's template may apply another default.";

// Spec 2.4 states every field's name and type, the types, methods and alert types, and the minimum interval.
const inputs = z.object({
  name: field(nonEmpty.optional(), { description: "Display name." }),
  monitorType: field(z.enum(MONITOR_TYPES, { error: oneOfRule(MONITOR_TYPES) }).optional(), {
    description: "What the monitor checks: `http` (a URL answers), `ping` (a host answers ICMP), `tcp` (a port accepts connections) or `dns` (a name resolves).",
    default: "http",
  }),
  url: field(nonEmpty.optional(), { description: "Target of `http` and `ping` monitors; required for them." }),
  intervalSeconds: field(wholeNumber(10).optional(), {
    description: `Seconds between checks, at least 10. ${TEMPLATE_MAY_CHANGE}`,
    default: 60,
    assumption: "the default of 60 s is not shown",
  }),
  regions: field(setOf(region).min(1, { error: "must name at least one region" }).optional(), {
    description:
      "Regions the checks run from, among those the service offers (the stack may list them in `monitoring:offeredRegions`). Order does not matter. Left out, the service's default regions.",
    assumption: "region names and the default regions are not shown: any name passes check unless `monitoring:offeredRegions` is set",
  }),
  expectedStatusCode: field(
    z.int({ error: typeRule("int") }).min(100, { error: "must be an HTTP status from 100 to 599" }).max(599, { error: "must be an HTTP status from 100 to 599" }).optional(),
    { description: "`http` only: the check passes only when the response has this status." },
  ),
  alertType: field(z.enum(ALERT_TYPES, { error: oneOfRule(ALERT_TYPES) }).optional(), {
    description: "`http` only: content check. `keyword` fails when `keyword` is missing from the response, `keyword_absence` when it is present.",
  }),
  keyword: field(nonEmpty.optional(), { description: "`http` only: the text searched for by `alertType`; required with it." }),
  httpMethod: field(z.enum(HTTP_METHODS, { error: oneOfRule(HTTP_METHODS) }).optional(), {
    description: "`http` only: request method.",
    default: "GET",
    assumption: "the default is not shown",
  }),
  requestTimeoutS: field(wholeNumber(1).optional(), {
    description: "Budget of one check in seconds; a timeout is a failed check.",
    default: 30,
    assumption: "the default is not shown",
  }),
  requestBody: field(z.string().optional(), { description: "`http` only: request body, sent with POST, PUT or PATCH." }),
  requestHeaders: field(
    z.array(z.object({ name: nonEmpty.describe("Header name."), value: z.string().describe("Header value.") }).strict()).optional(),
    { description: "`http` only: extra headers sent with every check, in this order. Secret: header values often carry tokens.", secret: true },
  ),
  followRedirects: field(z.boolean().optional(), { description: `\`http\` only: follow 3xx redirects. ${TEMPLATE_MAY_CHANGE}`, default: true }),
  keepCookies: field(z.boolean().optional(), { description: "`http` only: keep cookies across a redirect chain." }),
  authUsername: field(z.string().optional(), { description: "`http` only: HTTP basic auth user." }),
  authPassword: field(z.string().optional(), {
    description: "`http` only: HTTP basic auth password. The service stores it encrypted and never returns it.",
    secret: true,
    writeOnly: true,
    setWith: "authUsername",
  }),
  sslVerification: field(z.boolean().optional(), { description: "`http` only: fail the check on a broken certificate chain." }),
  sslExpiryAlertDays: field(wholeNumber(1).optional(), { description: "`http` only: warn this many days before the certificate expires." }),
  domainExpiryAlertDays: field(wholeNumber(1).optional(), { description: "Warn this many days before the domain registration expires." }),
  proxyHost: field(nonEmpty.optional(), { description: "`http` only: run the check through this proxy host; needs `proxyPort`." }),
  proxyPort: field(port.optional(), { description: "`http` only: proxy port, 1 to 65535; needs `proxyHost`." }),
  ipVersion: field(openEnum(KNOWN_IP_VERSIONS).optional(), {
    description: "Force checks over IPv4 or IPv6 (`ipv4`, `ipv6`).",
    assumption: "the spelling of the values is not shown",
  }),
  maintenanceFrom: field(timeOfDay.optional(), {
    description: "Start (HH:MM) of a recurring maintenance window during which failures do not alert; needs `maintenanceTo` and `maintenanceTimezone`.",
  }),
  maintenanceTo: field(timeOfDay.optional(), { description: "End (HH:MM) of the maintenance window; needs `maintenanceFrom`." }),
  maintenanceTimezone: field(ianaTimeZone.optional(), { description: "IANA time zone of the maintenance window, e.g. `Europe/Berlin`." }),
  maintenanceWeekdays: field(setOf(openEnum(KNOWN_WEEKDAYS)).optional(), {
    description: "Restrict the maintenance window to these weekdays (`mon` to `sun`); every day when left out.",
    assumption: "the spelling of weekdays is not shown",
  }),
  tcpHost: field(nonEmpty.optional(), { description: "`tcp` only: host to connect to; required for tcp monitors." }),
  tcpPort: field(port.optional(), { description: "`tcp` only: port to connect to, 1 to 65535; required for tcp monitors." }),
  dnsServer: field(nonEmpty.optional(), { description: "`dns` only: resolver to ask; the service's own when left out." }),
  dnsQuery: field(nonEmpty.optional(), { description: "`dns` only: name to resolve; required for dns monitors." }),
  dnsType: field(openEnum(KNOWN_DNS_RECORD_TYPES).optional(), {
    description: "`dns` only: record type to query (`A`, `AAAA`, `CNAME`, `MX`, ...).",
    assumption: "the record types the service supports are not shown",
  }),
  dnsExpected: field(nonEmpty.optional(), { description: "`dns` only: the answer the check asserts." }),
  confirmationPeriod: field(wholeNumber(0).optional(), {
    description: `Seconds a failure must last before the monitor turns DOWN. ${TEMPLATE_MAY_CHANGE}`,
    assumption: "the unit (seconds) is not shown",
  }),
  recoveryPeriod: field(wholeNumber(0).optional(), {
    description: `Seconds a recovery must last before the monitor turns UP again. ${TEMPLATE_MAY_CHANGE}`,
    assumption: "the unit (seconds) is not shown",
  }),
  escalationPolicyId: field(uuid.optional(), {
    description: "Id (UUID) of the escalation policy (alert plan) that handles this monitor's incidents.",
    assumption: "PATCH accepts it like create does, and null detaches the policy",
  }),
  clientId: field(uuid.optional(), {
    description: "Id (UUID) of the client (agency partition) the monitor lives in; changing it replaces the monitor.",
    replaceOnChange: true,
    assumption: "a monitor cannot move between clients",
  }),
  paused: field(z.boolean().optional(), {
    description: "Pause (`true`) or resume (`false`) checks. Left out, the pause state is not managed unless `pauses` is declared.",
    assumption: "the monitor object reports it as `paused`",
  }),
  pauses: field(pauseWindows.optional(), {
    description:
      "Windows during which the monitor is paused, each `{ from, to, reason }` with ISO 8601 instants with an offset. " +
      "A deploy inside a window pauses it, the first deploy after the window resumes it; a window that has ended changes nothing, even left in the program. " +
      "Declaring it makes the provider manage the pause state: outside windows, `paused` as declared, else resumed. " +
      "See docs/overrides-and-maintenance.md.",
    providerOnly: true,
  }),
  notificationChannelIds: field(setOf(idOf("a notification channel")).optional(), {
    description: "Notification channels attached to the monitor (ids, order does not matter). Left out, attachments are not managed; `[]` detaches all.",
  }),
});

type MonitorField = keyof z.output<typeof inputs>;

/**
 * Fields that only make sense for some monitor types. Every other field applies to all types.
 * `required` fields must be set for that type; setting a field of another type is an error.
 * The spec says which type each field serves (2.4) but marks none required: requiring a target
 * for each type is this package's rule.
 */
const FIELDS_BY_TYPE: Record<(typeof MONITOR_TYPES)[number], VariantFields<MonitorField>> = {
  http: {
    required: ["url"],
    optional: [
      "expectedStatusCode", "alertType", "keyword", "httpMethod", "requestBody", "requestHeaders", "followRedirects",
      "keepCookies", "authUsername", "authPassword", "sslVerification", "sslExpiryAlertDays", "proxyHost", "proxyPort",
    ],
  },
  ping: { required: ["url"], optional: [] },
  tcp: { required: ["tcpHost", "tcpPort"], optional: [] },
  dns: { required: ["dnsQuery"], optional: ["dnsServer", "dnsType", "dnsExpected"] },
};

export const monitor = defineResource({
  kind: "Monitor",
  description:
    "An uptime check of a URL, host, port or DNS name, run from several regions on an interval. Incidents go to " +
    "the attached notification channels and escalation policy.",
  assumption: "response fields are not shown: the object is assumed to echo the request fields under their request names",
  // Reading attached channels needs monitor.read; reading the monitor itself needs monitor.delete (spec 4.2).
  path: "/monitors",
  readBy: "get",
  updateMethod: "PATCH",
  deletion: {
    method: "DELETE",
    path: "/monitors/{id}",
    alreadyGone: [404],
    assumption:
      "a monitor's attachments (notification channels) go with it, so destroy sends one DELETE: not shown; " +
      "where a server refuses the DELETE (409, 422), each attached channel is detached first and the DELETE sent again",
  },
  inputs,
  variants: { field: "monitorType", default: "http", fields: FIELDS_BY_TYPE },
  refine(monitor, issue) {
    const type = monitor.monitorType ?? "http";
    checkVariantFields(FIELDS_BY_TYPE, type, "monitors", (field) => monitor[field] !== undefined, issue);
    if (type === "http") {
      if (monitor.alertType !== undefined && monitor.keyword === undefined) {
        issue("keyword", `is required when alertType is ${monitor.alertType}`);
      }
      if (monitor.keyword !== undefined && monitor.alertType === undefined) {
        issue("alertType", "is required when keyword is set (keyword or keyword_absence)");
      }
      const method = monitor.httpMethod ?? "GET";
      if (monitor.requestBody !== undefined && !METHODS_WITH_BODY.includes(method)) {
        issue("requestBody", `is only sent with ${METHODS_WITH_BODY.join(", ")} (httpMethod is ${method})`);
      }
      if (monitor.proxyHost !== undefined && monitor.proxyPort === undefined) issue("proxyPort", "is required with proxyHost");
      if (monitor.proxyPort !== undefined && monitor.proxyHost === undefined) issue("proxyHost", "is required with proxyPort");
    }
    const window = { maintenanceFrom: monitor.maintenanceFrom, maintenanceTo: monitor.maintenanceTo, maintenanceTimezone: monitor.maintenanceTimezone };
    const windowFields = Object.keys(window) as (keyof typeof window)[];
    const windowSet = windowFields.filter((field) => window[field] !== undefined);
    if (windowSet.length > 0) {
      for (const field of windowFields.filter((field) => window[field] === undefined)) {
        issue(field, `is required with ${windowSet.join(" and ")} (a maintenance window needs from, to and time zone)`);
      }
    } else if (monitor.maintenanceWeekdays !== undefined) {
      issue("maintenanceWeekdays", "needs a maintenance window (maintenanceFrom, maintenanceTo, maintenanceTimezone)");
    }
  },
  templateDefaults: { client, template: clientTemplate, field: "monitorDefaults" },
  associations: {
    paused: {
      kind: "toggle",
      on: { method: "POST", path: "/monitors/{id}/pause" },
      off: { method: "POST", path: "/monitors/{id}/resume" },
    },
    notificationChannelIds: {
      kind: "set",
      list: { path: "/monitors/{id}/notification_channels" },
      add: { method: "POST", path: "/monitors/{id}/notification_channels/{value}" },
      remove: { method: "DELETE", path: "/monitors/{id}/notification_channels/{value}" },
    },
  },
  outputs: z.object({
    status: field(openEnum(["PENDING", "UP", "DOWN", "PAUSED"]), {
      description: "`UP`, `DOWN` or `PAUSED` (the spec's status filter values); the emulator reports `PENDING` until the first check.",
      assumption: "the states and transitions are not shown",
    }),
  }),
});
