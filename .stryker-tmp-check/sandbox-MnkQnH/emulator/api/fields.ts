/**
 * The request fields of every kind and their rules, as this server states them. Written from the
 * spec where it speaks (monitor and heartbeat fields and types, spec 2.4 and 2.5; the enums it
 * lists; interval >= 10; UUIDs) and from the emulator's own contract (emulator/README.md) where
 * it does not (fields of the other kinds, bounds, formats, defaults). Keys are the API's
 * snake_case names, at every depth. Regions are the profile's.
 */
// @ts-nocheck

import { z } from "zod";
import type { Profile } from "../profile.js";

/** A field of a request body. */
export interface FieldRule {
  /** The rule of a value that is sent (not `null`). */
  schema: z.ZodType;
  /** Must be present on create and replace, and never `null`. */
  required?: boolean;
  /** What the server stores when a create leaves the field out. */
  default?: unknown;
}

export type FieldTable = Readonly<Record<string, FieldRule>>;

// Spec 2.4, 3 and 4.1: the enums the spec lists.
export const MONITOR_TYPES = ["http", "ping", "tcp", "dns"] as const;
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
const ALERT_TYPES = ["keyword", "keyword_absence"] as const;
export const MONITOR_STATUS_FILTERS = ["UP", "DOWN", "PAUSED"] as const;
const MINIMUM_INTERVAL_SECONDS = 10;

// The emulator's own choices.
const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
const DNS_RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "NS", "TXT", "SRV", "CAA", "PTR", "SOA"] as const;
const IP_VERSIONS = ["ipv4", "ipv6"] as const;
const CHANNEL_KINDS = ["email", "slack", "msteams", "sms", "pagerduty", "webhook"] as const;
const INCIDENT_SEVERITIES = ["critical", "major", "minor"] as const;
const URGENCIES = ["low", "high"] as const;
export const MAX_BATCH_SIZE = 100;
const MAX_APPLY = 100;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const uuid = z.string({ error: "must be a UUID" }).regex(UUID_PATTERN, { error: "must be a UUID" });
const text = z.string();
const nonEmpty = z.string().min(1, { error: "must not be empty" });
const flag = z.boolean();

function oneOf(values: readonly string[]): z.ZodType {
  return z.enum(values as [string, ...string[]], { error: `must be one of ${values.join(", ")}` });
}

function wholeNumber(minimum: number, maximum?: number): z.ZodType {
  const atLeast = z.int({ error: "must be a whole number" }).min(minimum, { error: `must be at least ${minimum}` });
  return maximum === undefined ? atLeast : atLeast.max(maximum, { error: `must be at most ${maximum}` });
}

/** A list whose order carries no meaning; the same value twice is refused. */
function setOf(item: z.ZodType) {
  return z.array(item).refine((items) => new Set(items.map((value) => JSON.stringify(value))).size === items.length, {
    error: "must not list the same value twice",
  });
}

const port = z
  .int({ error: "must be a whole number" })
  .min(1, { error: "must be a port from 1 to 65535" })
  .max(65535, { error: "must be a port from 1 to 65535" });
const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "must be a time of day as HH:MM (00:00 to 23:59)" });
/** The runtime's time zone database decides; the name shape keeps out UTC offsets (`+01:00`), which Intl also accepts. */
const ianaTimeZone = z.string().refine(isIanaTimeZone, { error: "must be an IANA time zone such as Europe/Berlin" });
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const httpsUrl = z.url({ protocol: /^https$/, error: "must be an https URL" });
const email = z.email({ error: "must be an email address" });
const e164PhoneNumber = z.string().regex(/^\+[1-9]\d{6,14}$/, { error: "must be a phone number in E.164 form such as +14155550100" });
const hexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, { error: "must be a color as #RRGGBB" });
const isoDateTime = z.iso.datetime({ offset: true, error: "must be an ISO-8601 date and time such as 2030-01-31T12:00:00Z" });
const header = z.object({ name: nonEmpty, value: text }).strict();

function isIanaTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const optional = (schema: z.ZodType, defaultValue?: unknown): FieldRule =>
  defaultValue === undefined ? { schema } : { schema, default: defaultValue };
const required = (schema: z.ZodType): FieldRule => ({ schema, required: true });

/** Every field table, for the regions of `profile`. */
export function fieldTables(profile: Profile) {
  const offered = Object.keys(profile.regions);
  const region = z.enum(offered as [string, ...string[]], { error: `must be an offered region (${offered.join(", ")})` });
  const regions = setOf(region).min(1, { error: "must name at least one region" });

  const monitor = {
    // Spec 2.4.
    name: optional(nonEmpty),
    url: optional(nonEmpty),
    monitor_type: optional(oneOf(MONITOR_TYPES), "http"),
    interval_seconds: optional(wholeNumber(MINIMUM_INTERVAL_SECONDS), 60),
    regions: optional(regions, [...profile.defaultRegions]),
    expected_status_code: optional(
      z.int({ error: "must be a whole number" }).min(100, { error: "must be an HTTP status from 100 to 599" }).max(599, { error: "must be an HTTP status from 100 to 599" }),
    ),
    alert_type: optional(oneOf(ALERT_TYPES)),
    keyword: optional(nonEmpty),
    http_method: optional(oneOf(HTTP_METHODS), "GET"),
    request_timeout_s: optional(wholeNumber(1), 30),
    request_body: optional(text),
    request_headers: optional(z.array(header)),
    follow_redirects: optional(flag, true),
    keep_cookies: optional(flag),
    auth_username: optional(text),
    auth_password: optional(text),
    ssl_verification: optional(flag),
    ssl_expiry_alert_days: optional(wholeNumber(1)),
    domain_expiry_alert_days: optional(wholeNumber(1)),
    proxy_host: optional(nonEmpty),
    proxy_port: optional(port),
    ip_version: optional(oneOf(IP_VERSIONS)),
    maintenance_from: optional(timeOfDay),
    maintenance_to: optional(timeOfDay),
    maintenance_timezone: optional(ianaTimeZone),
    maintenance_weekdays: optional(setOf(oneOf(WEEKDAYS))),
    tcp_host: optional(nonEmpty),
    tcp_port: optional(port),
    dns_server: optional(nonEmpty),
    dns_query: optional(nonEmpty),
    dns_type: optional(oneOf(DNS_RECORD_TYPES)),
    dns_expected: optional(nonEmpty),
    confirmation_period: optional(wholeNumber(0)),
    recovery_period: optional(wholeNumber(0)),
    escalation_policy_id: optional(uuid),
    client_id: optional(uuid),
  } satisfies FieldTable;

  const heartbeat = {
    // Spec 2.5; the bounds and defaults are the emulator's.
    name: optional(nonEmpty),
    expected_interval_seconds: optional(wholeNumber(30), 3600),
    grace_period_seconds: optional(wholeNumber(0), 300),
    heartbeat_group_id: optional(uuid),
    client_id: optional(uuid),
  } satisfies FieldTable;

  // The remaining kinds are not shown by the spec (2.6): the emulator's contract.
  const heartbeatGroup = {
    name: required(nonEmpty),
    description: optional(text),
    client_id: optional(uuid),
  } satisfies FieldTable;

  const step = z
    .object({
      delay_minutes: wholeNumber(0, 1440),
      notification_channel_ids: setOf(uuid).min(1, { error: "must name at least one channel" }),
      urgency: oneOf(URGENCIES).optional(),
    })
    .strict();
  const escalationPolicy = {
    name: required(nonEmpty),
    description: optional(text),
    client_id: optional(uuid),
    repeat_count: optional(wholeNumber(0, 10), 0),
    steps: required(z.array(step).min(1, { error: "must have at least one step" }).max(10, { error: "must have at most 10 steps" })),
  } satisfies FieldTable;

  // The default profile knows six kinds and their keys; the alt profile takes any kind and key, as sent.
  const settings = (shape: z.ZodRawShape) => (profile.channels.acceptUnknownSettings ? z.object(shape).loose() : z.object(shape).strict());
  const notificationChannel = {
    name: required(nonEmpty),
    kind: required(profile.channels.acceptUnknownSettings ? nonEmpty : oneOf(CHANNEL_KINDS)),
    client_id: optional(uuid),
    config: optional(
      settings({
        address: email.optional(),
        channel: z.string().regex(/^#\S+$/, { error: "must be a Slack channel such as #alerts" }).optional(),
        phone_number: e164PhoneNumber.optional(),
        url: httpsUrl.optional(),
      }),
    ),
    credentials: optional(
      settings({
        webhook_url: httpsUrl.optional(),
        integration_key: z.string().length(32, { error: "must be 32 characters" }).optional(),
        headers: z.array(header).optional(),
      }),
    ),
  } satisfies FieldTable;

  const webhookSubscription = {
    url: required(httpUrl),
    events: required(setOf(nonEmpty).min(1, { error: "must name at least one event kind" })),
    description: optional(text),
    enabled: optional(flag, true),
    client_id: optional(uuid),
  } satisfies FieldTable;

  const incident = {
    title: required(nonEmpty),
    description: optional(text),
    severity: optional(oneOf(INCIDENT_SEVERITIES), "major"),
    monitor_id: optional(uuid),
    heartbeat_id: optional(uuid),
    client_id: optional(uuid),
  } satisfies FieldTable;

  const acknowledgement = {
    acknowledged_by: optional(nonEmpty),
    note: optional(text),
  } satisfies FieldTable;

  const client = {
    name: required(nonEmpty),
    description: optional(text),
    website: optional(httpUrl),
    contact_email: optional(email),
    template_id: optional(uuid),
  } satisfies FieldTable;

  const clientTemplate = {
    name: required(nonEmpty),
    description: optional(text),
    monitor_defaults: optional(
      z
        .object({
          interval_seconds: wholeNumber(MINIMUM_INTERVAL_SECONDS).optional(),
          regions: regions.optional(),
          confirmation_period: wholeNumber(0).optional(),
          recovery_period: wholeNumber(0).optional(),
          follow_redirects: flag.optional(),
          ssl_expiry_alert_days: wholeNumber(1).optional(),
        })
        .strict(),
    ),
    heartbeat_defaults: optional(
      z.object({ expected_interval_seconds: wholeNumber(30).optional(), grace_period_seconds: wholeNumber(0).optional() }).strict(),
    ),
  } satisfies FieldTable;

  const shareLink = {
    label: required(nonEmpty),
    expires_at: optional(isoDateTime),
  } satisfies FieldTable;

  const portalSettings = {
    enabled: optional(flag),
    title: optional(text),
    logo_url: optional(httpUrl),
    primary_color: optional(hexColor),
    custom_domain: optional(nonEmpty),
    show_incident_history: optional(flag),
  } satisfies FieldTable;

  const escalationPolicyReference = { escalation_policy_id: required(uuid) } satisfies FieldTable;

  /** `heartbeat_group_id` must be present but may be null (unassign); the handler checks its presence. */
  const assignment = { heartbeat_id: required(uuid), heartbeat_group_id: optional(uuid) } satisfies FieldTable;
  /** The alt profile's assignment: one group (or null), many heartbeats. */
  const bulkAssignment = {
    group_id: optional(uuid),
    heartbeat_ids: required(setOf(uuid).min(1, { error: "must name at least one heartbeat" }).max(MAX_BATCH_SIZE, { error: `must name at most ${MAX_BATCH_SIZE} heartbeats` })),
  } satisfies FieldTable;

  const advisorApply = {
    recommendation_ids: required(
      z.array(nonEmpty).min(1, { error: "must name at least one recommendation" }).max(MAX_APPLY, { error: `must name at most ${MAX_APPLY} recommendations` }),
    ),
  } satisfies FieldTable;

  return {
    monitor,
    heartbeat,
    heartbeatGroup,
    escalationPolicy,
    notificationChannel,
    webhookSubscription,
    incident,
    acknowledgement,
    client,
    clientTemplate,
    shareLink,
    portalSettings,
    escalationPolicyReference,
    assignment,
    bulkAssignment,
    advisorApply,
  };
}

export type FieldTables = ReturnType<typeof fieldTables>;
export type TableName = keyof FieldTables;
