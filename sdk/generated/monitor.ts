// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { type LookupQuery, lookupObject } from "../lookups.js";
import { resourceArguments } from "../runtime.js";

/**
 * The arguments of the {@link Monitor} resource: An uptime check of a URL, host, port or DNS name, run from several regions on an interval. Incidents go to the attached notification channels and escalation policy.
 *
 * One interface per `monitorType`, each with the fields that type needs.
 */
export type MonitorArgs = PingMonitorArgs | TcpMonitorArgs | DnsMonitorArgs | HttpMonitorArgs;

/**
 * The arguments every {@link Monitor} takes, whatever its `monitorType`.
 */
export interface MonitorCommonArgs {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  name?: pulumi.Input<string>;

  /**
   * Seconds between checks, at least 10. A client's template may apply another default.
   *
   * Default: `60` (applied by the service).
   *
   * API field: `interval_seconds`.
   *
   * Assumption (not shown by the spec): the default of 60 s is not shown.
   */
  intervalSeconds?: pulumi.Input<number>;

  /**
   * Regions the checks run from, among those the service offers (the stack may list them in `monitoring:offeredRegions`). Order does not matter. Left out, the service's default regions.
   *
   * API field: `regions`.
   *
   * Assumption (not shown by the spec): region names and the default regions are not shown: any name passes check unless `monitoring:offeredRegions` is set.
   */
  regions?: pulumi.Input<pulumi.Input<"us-east-1" | "us-west-2" | "ca-central-1" | "sa-east-1" | "eu-west-1" | "eu-central-1" | "eu-north-1" | "ap-south-1" | "ap-southeast-1" | "ap-southeast-2" | "ap-northeast-1" | (string & {})>[]>;

  /**
   * Budget of one check in seconds; a timeout is a failed check.
   *
   * Default: `30` (applied by the service).
   *
   * API field: `request_timeout_s`.
   *
   * Assumption (not shown by the spec): the default is not shown.
   */
  requestTimeoutS?: pulumi.Input<number>;

  /**
   * Warn this many days before the domain registration expires.
   *
   * API field: `domain_expiry_alert_days`.
   */
  domainExpiryAlertDays?: pulumi.Input<number>;

  /**
   * Force checks over IPv4 or IPv6 (`ipv4`, `ipv6`).
   *
   * API field: `ip_version`.
   *
   * Assumption (not shown by the spec): the spelling of the values is not shown.
   */
  ipVersion?: pulumi.Input<"ipv4" | "ipv6" | (string & {})>;

  /**
   * Start (HH:MM) of a recurring maintenance window during which failures do not alert; needs `maintenanceTo` and `maintenanceTimezone`.
   *
   * API field: `maintenance_from`.
   */
  maintenanceFrom?: pulumi.Input<string>;

  /**
   * End (HH:MM) of the maintenance window; needs `maintenanceFrom`.
   *
   * API field: `maintenance_to`.
   */
  maintenanceTo?: pulumi.Input<string>;

  /**
   * IANA time zone of the maintenance window, e.g. `Europe/Berlin`.
   *
   * API field: `maintenance_timezone`.
   */
  maintenanceTimezone?: pulumi.Input<string>;

  /**
   * Restrict the maintenance window to these weekdays (`mon` to `sun`); every day when left out.
   *
   * API field: `maintenance_weekdays`.
   *
   * Assumption (not shown by the spec): the spelling of weekdays is not shown.
   */
  maintenanceWeekdays?: pulumi.Input<pulumi.Input<"mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun" | (string & {})>[]>;

  /**
   * Seconds a failure must last before the monitor turns DOWN. A client's template may apply another default.
   *
   * API field: `confirmation_period`.
   *
   * Assumption (not shown by the spec): the unit (seconds) is not shown.
   */
  confirmationPeriod?: pulumi.Input<number>;

  /**
   * Seconds a recovery must last before the monitor turns UP again. A client's template may apply another default.
   *
   * API field: `recovery_period`.
   *
   * Assumption (not shown by the spec): the unit (seconds) is not shown.
   */
  recoveryPeriod?: pulumi.Input<number>;

  /**
   * Id (UUID) of the escalation policy (alert plan) that handles this monitor's incidents.
   *
   * API field: `escalation_policy_id`.
   *
   * Assumption (not shown by the spec): PATCH accepts it like create does, and null detaches the policy.
   */
  escalationPolicyId?: pulumi.Input<string>;

  /**
   * Id (UUID) of the client (agency partition) the monitor lives in; changing it replaces the monitor.
   *
   * Changing it replaces the monitor.
   *
   * API field: `client_id`.
   *
   * Assumption (not shown by the spec): a monitor cannot move between clients.
   */
  clientId?: pulumi.Input<string>;

  /**
   * Pause (`true`) or resume (`false`) checks. Left out, the pause state is not managed unless `pauses` is declared.
   *
   * API field: `paused`.
   *
   * Assumption (not shown by the spec): the monitor object reports it as `paused`.
   */
  paused?: pulumi.Input<boolean>;

  /**
   * Windows during which the monitor is paused, each `{ from, to, reason }` with ISO 8601 instants with an offset. A deploy inside a window pauses it, the first deploy after the window resumes it; a window that has ended changes nothing, even left in the program. Declaring it makes the provider manage the pause state: outside windows, `paused` as declared, else resumed. See docs/overrides-and-maintenance.md.
   *
   * Steers the provider: never sent to the service.
   */
  pauses?: pulumi.Input<pulumi.Input<MonitorPauseArgs>[]>;

  /**
   * Notification channels attached to the monitor (ids, order does not matter). Left out, attachments are not managed; `[]` detaches all.
   *
   * API field: `notification_channel_ids`.
   */
  notificationChannelIds?: pulumi.Input<pulumi.Input<string>[]>;

  /**
   * Id of an existing object to take over instead of creating one: the first deployment reads it and converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is the way to bring objects created elsewhere under management. Ignored after creation.
   *
   * Steers the provider: never sent to the service.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * The arguments of a monitor of type `ping` (`monitorType` `"ping"`).
 */
export interface PingMonitorArgs extends MonitorCommonArgs {
  /**
   * What the monitor checks: `http` (a URL answers), `ping` (a host answers ICMP), `tcp` (a port accepts connections) or `dns` (a name resolves).
   *
   * Default: `"http"` (applied by the service).
   *
   * API field: `monitor_type`.
   *
   * `"ping"` selects the arguments of {@link PingMonitorArgs}. Given as a plain value (not an Output), as it decides which arguments apply.
   */
  monitorType: "ping";

  /**
   * Target of `http` and `ping` monitors; required for them.
   *
   * API field: `url`.
   */
  url: pulumi.Input<string>;
}

/**
 * The arguments of a monitor of type `tcp` (`monitorType` `"tcp"`).
 */
export interface TcpMonitorArgs extends MonitorCommonArgs {
  /**
   * What the monitor checks: `http` (a URL answers), `ping` (a host answers ICMP), `tcp` (a port accepts connections) or `dns` (a name resolves).
   *
   * Default: `"http"` (applied by the service).
   *
   * API field: `monitor_type`.
   *
   * `"tcp"` selects the arguments of {@link TcpMonitorArgs}. Given as a plain value (not an Output), as it decides which arguments apply.
   */
  monitorType: "tcp";

  /**
   * `tcp` only: host to connect to; required for tcp monitors.
   *
   * API field: `tcp_host`.
   */
  tcpHost: pulumi.Input<string>;

  /**
   * `tcp` only: port to connect to, 1 to 65535; required for tcp monitors.
   *
   * API field: `tcp_port`.
   */
  tcpPort: pulumi.Input<number>;
}

/**
 * The arguments of a monitor of type `dns` (`monitorType` `"dns"`).
 */
export interface DnsMonitorArgs extends MonitorCommonArgs {
  /**
   * What the monitor checks: `http` (a URL answers), `ping` (a host answers ICMP), `tcp` (a port accepts connections) or `dns` (a name resolves).
   *
   * Default: `"http"` (applied by the service).
   *
   * API field: `monitor_type`.
   *
   * `"dns"` selects the arguments of {@link DnsMonitorArgs}. Given as a plain value (not an Output), as it decides which arguments apply.
   */
  monitorType: "dns";

  /**
   * `dns` only: name to resolve; required for dns monitors.
   *
   * API field: `dns_query`.
   */
  dnsQuery: pulumi.Input<string>;

  /**
   * `dns` only: resolver to ask; the service's own when left out.
   *
   * API field: `dns_server`.
   */
  dnsServer?: pulumi.Input<string>;

  /**
   * `dns` only: record type to query (`A`, `AAAA`, `CNAME`, `MX`, ...).
   *
   * API field: `dns_type`.
   *
   * Assumption (not shown by the spec): the record types the service supports are not shown.
   */
  dnsType?: pulumi.Input<"A" | "AAAA" | "CNAME" | "MX" | "NS" | "TXT" | "SRV" | "CAA" | "PTR" | "SOA" | (string & {})>;

  /**
   * `dns` only: the answer the check asserts.
   *
   * API field: `dns_expected`.
   */
  dnsExpected?: pulumi.Input<string>;
}

/**
 * The arguments of a monitor of type `http` (`monitorType` `"http"` or left out).
 */
export interface HttpMonitorArgs extends MonitorCommonArgs {
  /**
   * What the monitor checks: `http` (a URL answers), `ping` (a host answers ICMP), `tcp` (a port accepts connections) or `dns` (a name resolves).
   *
   * Default: `"http"` (applied by the service).
   *
   * API field: `monitor_type`.
   *
   * `"http"` selects the arguments of {@link HttpMonitorArgs}. Given as a plain value (not an Output), as it decides which arguments apply.
   */
  monitorType?: "http";

  /**
   * Target of `http` and `ping` monitors; required for them.
   *
   * API field: `url`.
   */
  url: pulumi.Input<string>;

  /**
   * `http` only: the check passes only when the response has this status.
   *
   * API field: `expected_status_code`.
   */
  expectedStatusCode?: pulumi.Input<number>;

  /**
   * `http` only: content check. `keyword` fails when `keyword` is missing from the response, `keyword_absence` when it is present.
   *
   * API field: `alert_type`.
   */
  alertType?: pulumi.Input<"keyword" | "keyword_absence">;

  /**
   * `http` only: the text searched for by `alertType`; required with it.
   *
   * API field: `keyword`.
   */
  keyword?: pulumi.Input<string>;

  /**
   * `http` only: request method.
   *
   * Default: `"GET"` (applied by the service).
   *
   * API field: `http_method`.
   *
   * Assumption (not shown by the spec): the default is not shown.
   */
  httpMethod?: pulumi.Input<"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE">;

  /**
   * `http` only: request body, sent with POST, PUT or PATCH.
   *
   * API field: `request_body`.
   */
  requestBody?: pulumi.Input<string>;

  /**
   * `http` only: extra headers sent with every check, in this order. Secret: header values often carry tokens.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * API field: `request_headers`.
   */
  requestHeaders?: pulumi.Input<pulumi.Input<MonitorRequestHeaderArgs>[]>;

  /**
   * `http` only: follow 3xx redirects. A client's template may apply another default.
   *
   * Default: `true` (applied by the service).
   *
   * API field: `follow_redirects`.
   */
  followRedirects?: pulumi.Input<boolean>;

  /**
   * `http` only: keep cookies across a redirect chain.
   *
   * API field: `keep_cookies`.
   */
  keepCookies?: pulumi.Input<boolean>;

  /**
   * `http` only: HTTP basic auth user.
   *
   * API field: `auth_username`.
   */
  authUsername?: pulumi.Input<string>;

  /**
   * `http` only: HTTP basic auth password. The service stores it encrypted and never returns it.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * Write-only: the service never returns it; the value is kept from state.
   *
   * API field: `auth_password`.
   */
  authPassword?: pulumi.Input<string>;

  /**
   * `http` only: fail the check on a broken certificate chain.
   *
   * API field: `ssl_verification`.
   */
  sslVerification?: pulumi.Input<boolean>;

  /**
   * `http` only: warn this many days before the certificate expires.
   *
   * API field: `ssl_expiry_alert_days`.
   */
  sslExpiryAlertDays?: pulumi.Input<number>;

  /**
   * `http` only: run the check through this proxy host; needs `proxyPort`.
   *
   * API field: `proxy_host`.
   */
  proxyHost?: pulumi.Input<string>;

  /**
   * `http` only: proxy port, 1 to 65535; needs `proxyHost`.
   *
   * API field: `proxy_port`.
   */
  proxyPort?: pulumi.Input<number>;
}

/**
 * An uptime check of a URL, host, port or DNS name, run from several regions on an interval. Incidents go to the attached notification channels and escalation policy.
 *
 * Assumption: response fields are not shown: the object is assumed to echo the request fields under their request names.
 */
export class Monitor extends pulumi.dynamic.Resource {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  declare public readonly name: pulumi.Output<string | undefined>;

  /**
   * What the monitor checks: `http` (a URL answers), `ping` (a host answers ICMP), `tcp` (a port accepts connections) or `dns` (a name resolves).
   *
   * Default: `"http"` (applied by the service).
   *
   * API field: `monitor_type`.
   */
  declare public readonly monitorType: pulumi.Output<"http" | "ping" | "tcp" | "dns" | undefined>;

  /**
   * Target of `http` and `ping` monitors; required for them.
   *
   * API field: `url`.
   */
  declare public readonly url: pulumi.Output<string | undefined>;

  /**
   * Seconds between checks, at least 10. A client's template may apply another default.
   *
   * Default: `60` (applied by the service).
   *
   * API field: `interval_seconds`.
   *
   * Assumption (not shown by the spec): the default of 60 s is not shown.
   */
  declare public readonly intervalSeconds: pulumi.Output<number | undefined>;

  /**
   * Regions the checks run from, among those the service offers (the stack may list them in `monitoring:offeredRegions`). Order does not matter. Left out, the service's default regions.
   *
   * API field: `regions`.
   *
   * Assumption (not shown by the spec): region names and the default regions are not shown: any name passes check unless `monitoring:offeredRegions` is set.
   */
  declare public readonly regions: pulumi.Output<("us-east-1" | "us-west-2" | "ca-central-1" | "sa-east-1" | "eu-west-1" | "eu-central-1" | "eu-north-1" | "ap-south-1" | "ap-southeast-1" | "ap-southeast-2" | "ap-northeast-1" | (string & {}))[] | undefined>;

  /**
   * `http` only: the check passes only when the response has this status.
   *
   * API field: `expected_status_code`.
   */
  declare public readonly expectedStatusCode: pulumi.Output<number | undefined>;

  /**
   * `http` only: content check. `keyword` fails when `keyword` is missing from the response, `keyword_absence` when it is present.
   *
   * API field: `alert_type`.
   */
  declare public readonly alertType: pulumi.Output<"keyword" | "keyword_absence" | undefined>;

  /**
   * `http` only: the text searched for by `alertType`; required with it.
   *
   * API field: `keyword`.
   */
  declare public readonly keyword: pulumi.Output<string | undefined>;

  /**
   * `http` only: request method.
   *
   * Default: `"GET"` (applied by the service).
   *
   * API field: `http_method`.
   *
   * Assumption (not shown by the spec): the default is not shown.
   */
  declare public readonly httpMethod: pulumi.Output<"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | undefined>;

  /**
   * Budget of one check in seconds; a timeout is a failed check.
   *
   * Default: `30` (applied by the service).
   *
   * API field: `request_timeout_s`.
   *
   * Assumption (not shown by the spec): the default is not shown.
   */
  declare public readonly requestTimeoutS: pulumi.Output<number | undefined>;

  /**
   * `http` only: request body, sent with POST, PUT or PATCH.
   *
   * API field: `request_body`.
   */
  declare public readonly requestBody: pulumi.Output<string | undefined>;

  /**
   * `http` only: extra headers sent with every check, in this order. Secret: header values often carry tokens.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * API field: `request_headers`.
   */
  declare public readonly requestHeaders: pulumi.Output<MonitorRequestHeader[] | undefined>;

  /**
   * `http` only: follow 3xx redirects. A client's template may apply another default.
   *
   * Default: `true` (applied by the service).
   *
   * API field: `follow_redirects`.
   */
  declare public readonly followRedirects: pulumi.Output<boolean | undefined>;

  /**
   * `http` only: keep cookies across a redirect chain.
   *
   * API field: `keep_cookies`.
   */
  declare public readonly keepCookies: pulumi.Output<boolean | undefined>;

  /**
   * `http` only: HTTP basic auth user.
   *
   * API field: `auth_username`.
   */
  declare public readonly authUsername: pulumi.Output<string | undefined>;

  /**
   * `http` only: HTTP basic auth password. The service stores it encrypted and never returns it.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * Write-only: the service never returns it; the value is kept from state.
   *
   * API field: `auth_password`.
   */
  declare public readonly authPassword: pulumi.Output<string | undefined>;

  /**
   * `http` only: fail the check on a broken certificate chain.
   *
   * API field: `ssl_verification`.
   */
  declare public readonly sslVerification: pulumi.Output<boolean | undefined>;

  /**
   * `http` only: warn this many days before the certificate expires.
   *
   * API field: `ssl_expiry_alert_days`.
   */
  declare public readonly sslExpiryAlertDays: pulumi.Output<number | undefined>;

  /**
   * Warn this many days before the domain registration expires.
   *
   * API field: `domain_expiry_alert_days`.
   */
  declare public readonly domainExpiryAlertDays: pulumi.Output<number | undefined>;

  /**
   * `http` only: run the check through this proxy host; needs `proxyPort`.
   *
   * API field: `proxy_host`.
   */
  declare public readonly proxyHost: pulumi.Output<string | undefined>;

  /**
   * `http` only: proxy port, 1 to 65535; needs `proxyHost`.
   *
   * API field: `proxy_port`.
   */
  declare public readonly proxyPort: pulumi.Output<number | undefined>;

  /**
   * Force checks over IPv4 or IPv6 (`ipv4`, `ipv6`).
   *
   * API field: `ip_version`.
   *
   * Assumption (not shown by the spec): the spelling of the values is not shown.
   */
  declare public readonly ipVersion: pulumi.Output<"ipv4" | "ipv6" | (string & {}) | undefined>;

  /**
   * Start (HH:MM) of a recurring maintenance window during which failures do not alert; needs `maintenanceTo` and `maintenanceTimezone`.
   *
   * API field: `maintenance_from`.
   */
  declare public readonly maintenanceFrom: pulumi.Output<string | undefined>;

  /**
   * End (HH:MM) of the maintenance window; needs `maintenanceFrom`.
   *
   * API field: `maintenance_to`.
   */
  declare public readonly maintenanceTo: pulumi.Output<string | undefined>;

  /**
   * IANA time zone of the maintenance window, e.g. `Europe/Berlin`.
   *
   * API field: `maintenance_timezone`.
   */
  declare public readonly maintenanceTimezone: pulumi.Output<string | undefined>;

  /**
   * Restrict the maintenance window to these weekdays (`mon` to `sun`); every day when left out.
   *
   * API field: `maintenance_weekdays`.
   *
   * Assumption (not shown by the spec): the spelling of weekdays is not shown.
   */
  declare public readonly maintenanceWeekdays: pulumi.Output<("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun" | (string & {}))[] | undefined>;

  /**
   * `tcp` only: host to connect to; required for tcp monitors.
   *
   * API field: `tcp_host`.
   */
  declare public readonly tcpHost: pulumi.Output<string | undefined>;

  /**
   * `tcp` only: port to connect to, 1 to 65535; required for tcp monitors.
   *
   * API field: `tcp_port`.
   */
  declare public readonly tcpPort: pulumi.Output<number | undefined>;

  /**
   * `dns` only: resolver to ask; the service's own when left out.
   *
   * API field: `dns_server`.
   */
  declare public readonly dnsServer: pulumi.Output<string | undefined>;

  /**
   * `dns` only: name to resolve; required for dns monitors.
   *
   * API field: `dns_query`.
   */
  declare public readonly dnsQuery: pulumi.Output<string | undefined>;

  /**
   * `dns` only: record type to query (`A`, `AAAA`, `CNAME`, `MX`, ...).
   *
   * API field: `dns_type`.
   *
   * Assumption (not shown by the spec): the record types the service supports are not shown.
   */
  declare public readonly dnsType: pulumi.Output<"A" | "AAAA" | "CNAME" | "MX" | "NS" | "TXT" | "SRV" | "CAA" | "PTR" | "SOA" | (string & {}) | undefined>;

  /**
   * `dns` only: the answer the check asserts.
   *
   * API field: `dns_expected`.
   */
  declare public readonly dnsExpected: pulumi.Output<string | undefined>;

  /**
   * Seconds a failure must last before the monitor turns DOWN. A client's template may apply another default.
   *
   * API field: `confirmation_period`.
   *
   * Assumption (not shown by the spec): the unit (seconds) is not shown.
   */
  declare public readonly confirmationPeriod: pulumi.Output<number | undefined>;

  /**
   * Seconds a recovery must last before the monitor turns UP again. A client's template may apply another default.
   *
   * API field: `recovery_period`.
   *
   * Assumption (not shown by the spec): the unit (seconds) is not shown.
   */
  declare public readonly recoveryPeriod: pulumi.Output<number | undefined>;

  /**
   * Id (UUID) of the escalation policy (alert plan) that handles this monitor's incidents.
   *
   * API field: `escalation_policy_id`.
   *
   * Assumption (not shown by the spec): PATCH accepts it like create does, and null detaches the policy.
   */
  declare public readonly escalationPolicyId: pulumi.Output<string | undefined>;

  /**
   * Id (UUID) of the client (agency partition) the monitor lives in; changing it replaces the monitor.
   *
   * Changing it replaces the monitor.
   *
   * API field: `client_id`.
   *
   * Assumption (not shown by the spec): a monitor cannot move between clients.
   */
  declare public readonly clientId: pulumi.Output<string | undefined>;

  /**
   * Pause (`true`) or resume (`false`) checks. Left out, the pause state is not managed unless `pauses` is declared.
   *
   * API field: `paused`.
   *
   * Assumption (not shown by the spec): the monitor object reports it as `paused`.
   */
  declare public readonly paused: pulumi.Output<boolean | undefined>;

  /**
   * Windows during which the monitor is paused, each `{ from, to, reason }` with ISO 8601 instants with an offset. A deploy inside a window pauses it, the first deploy after the window resumes it; a window that has ended changes nothing, even left in the program. Declaring it makes the provider manage the pause state: outside windows, `paused` as declared, else resumed. See docs/overrides-and-maintenance.md.
   *
   * Steers the provider: never sent to the service.
   */
  declare public readonly pauses: pulumi.Output<MonitorPause[] | undefined>;

  /**
   * Notification channels attached to the monitor (ids, order does not matter). Left out, attachments are not managed; `[]` detaches all.
   *
   * API field: `notification_channel_ids`.
   */
  declare public readonly notificationChannelIds: pulumi.Output<string[] | undefined>;

  /**
   * `UP`, `DOWN` or `PAUSED` (the spec's status filter values); the emulator reports `PENDING` until the first check.
   *
   * API field: `status`.
   *
   * Assumption (not shown by the spec): the states and transitions are not shown.
   */
  declare public readonly status: pulumi.Output<"PENDING" | "UP" | "DOWN" | "PAUSED" | (string & {})>;

  /**
   * Declares a monitor.
   *
   * An uptime check of a URL, host, port or DNS name, run from several regions on an interval. Incidents go to the attached notification channels and escalation policy.
   *
   * @param name The unique name of the resource.
   * @param args The arguments of the monitor.
   * @param opts A bag of options that control this resource's behavior.
   */
  constructor(name: string, args: MonitorArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArguments("Monitor", name, args, opts));
  }
}

/**
 * Finds a monitor managed elsewhere, by id or by exact name (among the objects of one client, or outside any client).
 * The connection comes from the stack configuration (`monitoring:apiUrl`, `monitoring:apiKey`) or MONITORING_API_URL / MONITORING_API_KEY.
 */
export function getMonitor(query: LookupQuery): Promise<GetMonitorResult> {
  return lookupObject<GetMonitorResult>("Monitor", query);
}

/**
 * A monitor found by {@link getMonitor}: its fields as the service returns them, associations included. Secret fields come as secret Outputs, so that exporting them keeps them encrypted in state.
 */
export interface GetMonitorResult {
  /**
   * The monitor's id.
   */
  readonly id: string;

  /**
   * Display name.
   *
   * API field: `name`.
   */
  readonly name?: string;

  /**
   * What the monitor checks: `http` (a URL answers), `ping` (a host answers ICMP), `tcp` (a port accepts connections) or `dns` (a name resolves).
   *
   * Default: `"http"` (applied by the service).
   *
   * API field: `monitor_type`.
   */
  readonly monitorType?: "http" | "ping" | "tcp" | "dns";

  /**
   * Target of `http` and `ping` monitors; required for them.
   *
   * API field: `url`.
   */
  readonly url?: string;

  /**
   * Seconds between checks, at least 10. A client's template may apply another default.
   *
   * Default: `60` (applied by the service).
   *
   * API field: `interval_seconds`.
   *
   * Assumption (not shown by the spec): the default of 60 s is not shown.
   */
  readonly intervalSeconds?: number;

  /**
   * Regions the checks run from, among those the service offers (the stack may list them in `monitoring:offeredRegions`). Order does not matter. Left out, the service's default regions.
   *
   * API field: `regions`.
   *
   * Assumption (not shown by the spec): region names and the default regions are not shown: any name passes check unless `monitoring:offeredRegions` is set.
   */
  readonly regions?: ("us-east-1" | "us-west-2" | "ca-central-1" | "sa-east-1" | "eu-west-1" | "eu-central-1" | "eu-north-1" | "ap-south-1" | "ap-southeast-1" | "ap-southeast-2" | "ap-northeast-1" | (string & {}))[];

  /**
   * `http` only: the check passes only when the response has this status.
   *
   * API field: `expected_status_code`.
   */
  readonly expectedStatusCode?: number;

  /**
   * `http` only: content check. `keyword` fails when `keyword` is missing from the response, `keyword_absence` when it is present.
   *
   * API field: `alert_type`.
   */
  readonly alertType?: "keyword" | "keyword_absence";

  /**
   * `http` only: the text searched for by `alertType`; required with it.
   *
   * API field: `keyword`.
   */
  readonly keyword?: string;

  /**
   * `http` only: request method.
   *
   * Default: `"GET"` (applied by the service).
   *
   * API field: `http_method`.
   *
   * Assumption (not shown by the spec): the default is not shown.
   */
  readonly httpMethod?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

  /**
   * Budget of one check in seconds; a timeout is a failed check.
   *
   * Default: `30` (applied by the service).
   *
   * API field: `request_timeout_s`.
   *
   * Assumption (not shown by the spec): the default is not shown.
   */
  readonly requestTimeoutS?: number;

  /**
   * `http` only: request body, sent with POST, PUT or PATCH.
   *
   * API field: `request_body`.
   */
  readonly requestBody?: string;

  /**
   * `http` only: extra headers sent with every check, in this order. Secret: header values often carry tokens.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * API field: `request_headers`.
   */
  readonly requestHeaders?: pulumi.Output<MonitorRequestHeader[]>;

  /**
   * `http` only: follow 3xx redirects. A client's template may apply another default.
   *
   * Default: `true` (applied by the service).
   *
   * API field: `follow_redirects`.
   */
  readonly followRedirects?: boolean;

  /**
   * `http` only: keep cookies across a redirect chain.
   *
   * API field: `keep_cookies`.
   */
  readonly keepCookies?: boolean;

  /**
   * `http` only: HTTP basic auth user.
   *
   * API field: `auth_username`.
   */
  readonly authUsername?: string;

  /**
   * `http` only: HTTP basic auth password. The service stores it encrypted and never returns it.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * Write-only: the service never returns it; the value is kept from state.
   *
   * API field: `auth_password`.
   */
  readonly authPassword?: pulumi.Output<string>;

  /**
   * `http` only: fail the check on a broken certificate chain.
   *
   * API field: `ssl_verification`.
   */
  readonly sslVerification?: boolean;

  /**
   * `http` only: warn this many days before the certificate expires.
   *
   * API field: `ssl_expiry_alert_days`.
   */
  readonly sslExpiryAlertDays?: number;

  /**
   * Warn this many days before the domain registration expires.
   *
   * API field: `domain_expiry_alert_days`.
   */
  readonly domainExpiryAlertDays?: number;

  /**
   * `http` only: run the check through this proxy host; needs `proxyPort`.
   *
   * API field: `proxy_host`.
   */
  readonly proxyHost?: string;

  /**
   * `http` only: proxy port, 1 to 65535; needs `proxyHost`.
   *
   * API field: `proxy_port`.
   */
  readonly proxyPort?: number;

  /**
   * Force checks over IPv4 or IPv6 (`ipv4`, `ipv6`).
   *
   * API field: `ip_version`.
   *
   * Assumption (not shown by the spec): the spelling of the values is not shown.
   */
  readonly ipVersion?: "ipv4" | "ipv6" | (string & {});

  /**
   * Start (HH:MM) of a recurring maintenance window during which failures do not alert; needs `maintenanceTo` and `maintenanceTimezone`.
   *
   * API field: `maintenance_from`.
   */
  readonly maintenanceFrom?: string;

  /**
   * End (HH:MM) of the maintenance window; needs `maintenanceFrom`.
   *
   * API field: `maintenance_to`.
   */
  readonly maintenanceTo?: string;

  /**
   * IANA time zone of the maintenance window, e.g. `Europe/Berlin`.
   *
   * API field: `maintenance_timezone`.
   */
  readonly maintenanceTimezone?: string;

  /**
   * Restrict the maintenance window to these weekdays (`mon` to `sun`); every day when left out.
   *
   * API field: `maintenance_weekdays`.
   *
   * Assumption (not shown by the spec): the spelling of weekdays is not shown.
   */
  readonly maintenanceWeekdays?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun" | (string & {}))[];

  /**
   * `tcp` only: host to connect to; required for tcp monitors.
   *
   * API field: `tcp_host`.
   */
  readonly tcpHost?: string;

  /**
   * `tcp` only: port to connect to, 1 to 65535; required for tcp monitors.
   *
   * API field: `tcp_port`.
   */
  readonly tcpPort?: number;

  /**
   * `dns` only: resolver to ask; the service's own when left out.
   *
   * API field: `dns_server`.
   */
  readonly dnsServer?: string;

  /**
   * `dns` only: name to resolve; required for dns monitors.
   *
   * API field: `dns_query`.
   */
  readonly dnsQuery?: string;

  /**
   * `dns` only: record type to query (`A`, `AAAA`, `CNAME`, `MX`, ...).
   *
   * API field: `dns_type`.
   *
   * Assumption (not shown by the spec): the record types the service supports are not shown.
   */
  readonly dnsType?: "A" | "AAAA" | "CNAME" | "MX" | "NS" | "TXT" | "SRV" | "CAA" | "PTR" | "SOA" | (string & {});

  /**
   * `dns` only: the answer the check asserts.
   *
   * API field: `dns_expected`.
   */
  readonly dnsExpected?: string;

  /**
   * Seconds a failure must last before the monitor turns DOWN. A client's template may apply another default.
   *
   * API field: `confirmation_period`.
   *
   * Assumption (not shown by the spec): the unit (seconds) is not shown.
   */
  readonly confirmationPeriod?: number;

  /**
   * Seconds a recovery must last before the monitor turns UP again. A client's template may apply another default.
   *
   * API field: `recovery_period`.
   *
   * Assumption (not shown by the spec): the unit (seconds) is not shown.
   */
  readonly recoveryPeriod?: number;

  /**
   * Id (UUID) of the escalation policy (alert plan) that handles this monitor's incidents.
   *
   * API field: `escalation_policy_id`.
   *
   * Assumption (not shown by the spec): PATCH accepts it like create does, and null detaches the policy.
   */
  readonly escalationPolicyId?: string;

  /**
   * Id (UUID) of the client (agency partition) the monitor lives in; changing it replaces the monitor.
   *
   * Changing it replaces the monitor.
   *
   * API field: `client_id`.
   *
   * Assumption (not shown by the spec): a monitor cannot move between clients.
   */
  readonly clientId?: string;

  /**
   * Pause (`true`) or resume (`false`) checks. Left out, the pause state is not managed unless `pauses` is declared.
   *
   * API field: `paused`.
   *
   * Assumption (not shown by the spec): the monitor object reports it as `paused`.
   */
  readonly paused?: boolean;

  /**
   * Windows during which the monitor is paused, each `{ from, to, reason }` with ISO 8601 instants with an offset. A deploy inside a window pauses it, the first deploy after the window resumes it; a window that has ended changes nothing, even left in the program. Declaring it makes the provider manage the pause state: outside windows, `paused` as declared, else resumed. See docs/overrides-and-maintenance.md.
   *
   * Steers the provider: never sent to the service.
   */
  readonly pauses?: MonitorPause[];

  /**
   * Notification channels attached to the monitor (ids, order does not matter). Left out, attachments are not managed; `[]` detaches all.
   *
   * API field: `notification_channel_ids`.
   */
  readonly notificationChannelIds?: string[];

  /**
   * `UP`, `DOWN` or `PAUSED` (the spec's status filter values); the emulator reports `PENDING` until the first check.
   *
   * API field: `status`.
   *
   * Assumption (not shown by the spec): the states and transitions are not shown.
   */
  readonly status?: "PENDING" | "UP" | "DOWN" | "PAUSED" | (string & {});
}

/**
 * A monitor pause as given to the provider.
 */
export interface MonitorPauseArgs {
  /**
   * When the window starts (ISO 8601 with an offset, e.g. `2030-11-28T22:00:00Z`): the first deploy from then on pauses the object.
   *
   * API field: `from`.
   */
  from: pulumi.Input<string>;

  /**
   * When the window ends, after `from`: the first deploy from then on resumes the object.
   *
   * API field: `to`.
   */
  to: pulumi.Input<string>;

  /**
   * Why, shown by preview and up (`Black Friday freeze`).
   *
   * API field: `reason`.
   */
  reason: pulumi.Input<string>;
}

/**
 * A monitor request header as given to the provider.
 */
export interface MonitorRequestHeaderArgs {
  /**
   * Header name.
   *
   * API field: `name`.
   */
  name: pulumi.Input<string>;

  /**
   * Header value.
   *
   * API field: `value`.
   */
  value: pulumi.Input<string>;
}

/**
 * A monitor request header as the provider reports it.
 */
export interface MonitorRequestHeader {
  /**
   * Header name.
   *
   * API field: `name`.
   */
  name: string;

  /**
   * Header value.
   *
   * API field: `value`.
   */
  value: string;
}

/**
 * A monitor pause as the provider reports it.
 */
export interface MonitorPause {
  /**
   * When the window starts (ISO 8601 with an offset, e.g. `2030-11-28T22:00:00Z`): the first deploy from then on pauses the object.
   *
   * API field: `from`.
   */
  from: string;

  /**
   * When the window ends, after `from`: the first deploy from then on resumes the object.
   *
   * API field: `to`.
   */
  to: string;

  /**
   * Why, shown by preview and up (`Black Friday freeze`).
   *
   * API field: `reason`.
   */
  reason: string;
}
