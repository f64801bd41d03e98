import { z } from "zod";
import { defineResource } from "../define.js";
import {
  ALERT_TYPES,
  DEFAULT_REGIONS,
  DNS_RECORD_TYPES,
  HTTP_METHODS,
  IP_VERSIONS,
  METHODS_WITH_BODY,
  MONITOR_TYPES,
  WEEKDAYS,
  checkVariantFields,
  ianaTimeZone,
  idOf,
  nonEmpty,
  port,
  region,
  serverDefault,
  setOf,
  timeOfDay,
  wholeNumber,
} from "../rules.js";

const inputs = z.object({
  name: nonEmpty.optional().describe("Display name."),
  monitorType: z
    .enum(MONITOR_TYPES, { error: `must be one of ${MONITOR_TYPES.join(", ")}` })
    .default("http")
    .describe("What the monitor checks: `http` (a URL answers), `ping` (a host answers ICMP), `tcp` (a port accepts connections) or `dns` (a name resolves)."),
  url: z.string().min(1, { error: "must not be empty" }).optional().describe("Target of `http` and `ping` monitors; required for them."),
  intervalSeconds: serverDefault(wholeNumber(10).optional(), 60, "Seconds between checks, at least 10. The client's template may set another default."),
  regions: serverDefault(setOf(region).min(1, { error: "must name at least one region" }).optional(), [...DEFAULT_REGIONS], "Regions the checks run from; only offered regions. Order does not matter. The client's template may set another default."),
  expectedStatusCode: z.int({ error: "must be a whole number" }).min(100, { error: "must be an HTTP status from 100 to 599" }).max(599, { error: "must be an HTTP status from 100 to 599" }).optional().describe("`http` only: the check passes only when the response has this status."),
  alertType: z.enum(ALERT_TYPES, { error: `must be one of ${ALERT_TYPES.join(", ")}` }).optional().describe("`http` only: content check. `keyword` fails when `keyword` is missing from the response, `keyword_absence` when it is present."),
  keyword: nonEmpty.optional().describe("`http` only: the text searched for by `alertType`; required with it."),
  httpMethod: serverDefault(z.enum(HTTP_METHODS, { error: `must be one of ${HTTP_METHODS.join(", ")}` }).optional(), "GET", "`http` only: request method."),
  requestTimeoutS: serverDefault(wholeNumber(1).optional(), 30, "Budget of one check in seconds; a timeout is a failed check."),
  requestBody: z.string().optional().describe("`http` only: request body, sent with POST, PUT or PATCH."),
  requestHeaders: z
    .array(z.object({ name: nonEmpty.describe("Header name."), value: z.string().describe("Header value.") }).strict())
    .optional()
    .describe("`http` only: extra headers sent with every check, in this order."),
  followRedirects: serverDefault(z.boolean().optional(), true, "`http` only: follow 3xx redirects. The client's template may set another default."),
  keepCookies: z.boolean().optional().describe("`http` only: keep cookies across a redirect chain."),
  authUsername: z.string().optional().describe("`http` only: HTTP basic auth user."),
  authPassword: z.string().optional().describe("`http` only: HTTP basic auth password. Secret and write-only: the service never returns it."),
  sslVerification: z.boolean().optional().describe("`http` only: fail the check on a broken certificate chain."),
  sslExpiryAlertDays: wholeNumber(1).optional().describe("`http` only: warn this many days before the certificate expires."),
  domainExpiryAlertDays: wholeNumber(1).optional().describe("Warn this many days before the domain registration expires."),
  proxyHost: nonEmpty.optional().describe("`http` only: run the check through this proxy host; needs `proxyPort`."),
  proxyPort: port.optional().describe("`http` only: proxy port, 1 to 65535; needs `proxyHost`."),
  ipVersion: z.enum(IP_VERSIONS, { error: `must be one of ${IP_VERSIONS.join(", ")}` }).optional().describe("Force checks over IPv4 or IPv6."),
  maintenanceFrom: timeOfDay.optional().describe("Start (HH:MM) of a recurring maintenance window during which failures do not alert; needs `maintenanceTo` and `maintenanceTimezone`."),
  maintenanceTo: timeOfDay.optional().describe("End (HH:MM) of the maintenance window; needs `maintenanceFrom`."),
  maintenanceTimezone: ianaTimeZone.optional().describe("IANA time zone of the maintenance window, e.g. `Europe/Berlin`."),
  maintenanceWeekdays: setOf(z.enum(WEEKDAYS, { error: `must be one of ${WEEKDAYS.join(", ")}` }))
    .optional()
    .describe("Restrict the maintenance window to these weekdays (`mon` to `sun`); every day when left out."),
  tcpHost: nonEmpty.optional().describe("`tcp` only: host to connect to; required for tcp monitors."),
  tcpPort: port.optional().describe("`tcp` only: port to connect to, 1 to 65535; required for tcp monitors."),
  dnsServer: nonEmpty.optional().describe("`dns` only: resolver to ask; the service's own when left out."),
  dnsQuery: nonEmpty.optional().describe("`dns` only: name to resolve; required for dns monitors."),
  dnsType: z.enum(DNS_RECORD_TYPES, { error: `must be one of ${DNS_RECORD_TYPES.join(", ")}` }).optional().describe("`dns` only: record type to query."),
  dnsExpected: nonEmpty.optional().describe("`dns` only: the answer the check asserts."),
  confirmationPeriod: wholeNumber(0).optional().describe("Seconds a failure must last before the monitor turns DOWN. The client's template may set a default."),
  recoveryPeriod: wholeNumber(0).optional().describe("Seconds a recovery must last before the monitor turns UP again. The client's template may set a default."),
  escalationPolicyId: idOf("the escalation policy (alert plan) that handles this monitor's incidents").optional(),
  clientId: idOf("the client (agency partition) the monitor lives in; changing it replaces the monitor").optional(),
  paused: z.boolean().optional().describe("Pause (`true`) or resume (`false`) checks. Left out, the pause state is not managed."),
  notificationChannelIds: setOf(idOf("a notification channel"))
    .optional()
    .describe("Notification channels attached to the monitor (ids, order does not matter). Left out, attachments are not managed; `[]` detaches all."),
});

type MonitorField = keyof z.output<typeof inputs>;

/**
 * Fields that only make sense for some monitor types. Every other field applies to all types.
 * `required` fields must be set for that type; setting a field of another type is an error.
 */
const FIELDS_BY_TYPE: Record<(typeof MONITOR_TYPES)[number], { required: MonitorField[]; optional: MonitorField[] }> = {
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
  // Reading attached channels needs monitor.read; reading the monitor itself needs monitor.delete (spec 4.2).
  scopes: ["monitor.read", "monitor.write", "monitor.delete"],
  path: "/monitors",
  readBy: "get",
  updateMethod: "PATCH",
  inputs,
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
  replaceOnChanges: ["clientId"],
  // Header values often carry tokens, so the whole header list is kept secret.
  secrets: ["authPassword", "requestHeaders"],
  writeOnly: ["authPassword"],
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
    escalationPolicyId: {
      kind: "reference",
      sentOnCreate: true,
      set: { method: "PUT", path: "/monitors/{id}/escalation-policy", body: (_id, value) => ({ escalation_policy_id: value }) },
      clear: { method: "DELETE", path: "/monitors/{id}/escalation-policy" },
    },
  },
  outputs: z.object({
    status: z
      .enum(["PENDING", "UP", "DOWN", "PAUSED"])
      .describe("`PENDING` until the first check, then `UP` or `DOWN`; `PAUSED` while paused."),
  }),
  secretOutputs: [],
  keepFromState: [],
});
