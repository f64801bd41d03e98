/**
 * Monitors (spec 2.4, 4.2): CRUD, batch creation, pause/resume, channel attachments, the
 * escalation policy, simulated checks and the read-only views of their results.
 */
// @ts-nocheck

import type { JsonObject, StoredRecord } from "../state/collection.js";
import { conflict, HttpError, invalidParameter, notFound } from "../http/errors.js";
import {
  checkClientId,
  checkReference,
  listComputed,
  listKind,
  newId,
  requireActiveClient,
  requireRecord,
  stringField,
  writeDoc,
  type KindSpec,
} from "./common.js";
import { accepted, created, noContent, ok, type ApiRequest, type RouteRegistrar, type Services } from "./context.js";
import { simulateCheck, syntheticCertificates } from "./checks.js";
import { incidentKind, openAutomaticIncident, resolveAutomaticIncident } from "./incidents.js";
import { channelKind } from "./notification-channels.js";
import { availabilityReport } from "./availability.js";
import { throwIfIssues, type FieldIssues, type WriteMode } from "./validation.js";
import { MAX_BATCH_SIZE, MONITOR_STATUS_FILTERS, MONITOR_TYPES } from "./fields.js";

export const monitorKind: KindSpec = {
  collection: "monitors",
  label: "monitor",
  clientScoped: true,
  nameOf: (doc) => stringField(doc, "name"),
  searchTexts: (doc) => [doc["name"], doc["url"]],
  serverFields: ["status", "paused", "last_checked_at", "auth_password_set"],
  writeOnly: ["auth_password"],
  table: "monitor",
  selfPath: "/monitors",
};

/** Defaults that only make sense for http monitors, so other types do not echo them. */
const HTTP_ONLY_DEFAULTS = ["http_method", "follow_redirects"];

/** Check results, listed per monitor; `sort=name` orders them by region. */
const resultKind: KindSpec = {
  collection: "results",
  label: "result",
  clientScoped: false,
  nameOf: (doc) => stringField(doc, "region"),
  searchTexts: (doc) => [doc["region"], doc["status"]],
  serverFields: [],
  writeOnly: [],
};

export function registerMonitorRoutes(route: RouteRegistrar, services: Services): void {
  const { store, clock, events, outbox, profile } = services;
  const monitorOf = (request: ApiRequest): StoredRecord => requireRecord(store, monitorKind, request.params["monitorID"]!);

  route("GET", "/monitors", "monitor.write", (request) => {
    const filter = monitorListFilter(services, request.query);
    return listKind(services, monitorKind, request, filter);
  });

  route("POST", "/monitors", "monitor.write", (request) => {
    const record = insertMonitor(services, prepareMonitor(services, request.body, "create", undefined, {}));
    return created(record.doc, monitorKind);
  });

  route("POST", "/monitors/batch", "monitor.write", (request) => {
    const prepared = prepareBatch(services, request.body);
    return created(prepared.map((monitor) => insertMonitor(services, monitor).doc), monitorKind);
  });

  route("POST", "/monitors/batch/dry-run", "monitor.write", (request) => {
    const prepared = prepareBatch(services, request.body);
    const monitors = prepared.map(({ doc }) => services.present(monitorKind, { ...doc, id: null }));
    return created({ valid: true, count: prepared.length, monitors });
  });

  route("GET", "/monitors/{monitorID}", "monitor.delete", (request) => ok(monitorOf(request).doc, monitorKind));

  const update = (mode: WriteMode) => (request: ApiRequest) => {
    const record = monitorOf(request);
    const next = prepareMonitor(services, request.body, mode, record, {});
    const { auth_password: _previousPassword, ...internal } = record.internal;
    record.doc = next.doc;
    record.internal = { ...internal, ...next.internal };
    events.emit("monitor.updated", record.doc);
    return ok(record.doc, monitorKind);
  };
  route("PUT", "/monitors/{monitorID}", "monitor.delete", update("replace"));
  route("PATCH", "/monitors/{monitorID}", "monitor.delete", update("patch"));

  route("DELETE", "/monitors/{monitorID}", "monitor.delete", (request) => {
    const record = monitorOf(request);
    const results = store.collection("results");
    for (const result of [...results.where("monitor_id", record.doc["id"])]) results.remove(String(result.doc["id"]));
    store.collection("monitors").remove(String(record.doc["id"]));
    events.emit("monitor.deleted", record.doc);
    return noContent();
  });

  route("GET", "/monitors/{monitorID}/availability", "monitor.read", (request) => {
    const record = monitorOf(request);
    const results = store.collection("results").where("monitor_id", record.doc["id"]);
    return ok({ monitor_id: record.doc["id"], ...availabilityReport(services, record.doc, "monitor_id", results) });
  });

  route("GET", "/monitors/{monitorID}/certificates", "monitor.read", (request) => {
    const record = monitorOf(request);
    return listComputed(services, syntheticCertificates(record.doc, clock.now()), request, (doc) => stringField(doc, "subject"));
  });

  route("POST", "/monitors/{monitorID}/check", "monitor.write", (request) => {
    const record = monitorOf(request);
    if (record.doc["paused"] === true) throw conflict("The monitor is paused; resume it to run checks", { status: "PAUSED" });
    const checkId = newId();
    const now = clock.nowIso();
    const results = simulateCheck(record, checkId, now, profile.regions);
    for (const result of results) store.insert("results", result);
    record.internal = { ...record.internal, check_count: Number(record.internal["check_count"] ?? 0) + 1 };
    applyCheckOutcome(services, record, results.some((result) => result.status === "down") ? "DOWN" : "UP", now);
    return accepted({ check_id: checkId, monitor_id: record.doc["id"], accepted_at: now });
  });

  route("PUT", "/monitors/{monitorID}/escalation-policy", "monitor.delete", (request) => {
    const record = monitorOf(request);
    const issues = services.rules.escalationPolicyReference.check(request.body, "create");
    checkReference(store, request.body, "escalation_policy_id", "escalation_policies", record.doc["client_id"], issues);
    throwIfIssues(issues);
    record.doc = { ...record.doc, escalation_policy_id: request.body["escalation_policy_id"], updated_at: clock.nowIso() };
    events.emit("monitor.updated", record.doc);
    return ok(record.doc, monitorKind);
  });

  route("DELETE", "/monitors/{monitorID}/escalation-policy", "monitor.delete", (request) => {
    const record = monitorOf(request);
    if (record.doc["escalation_policy_id"] !== undefined) {
      const { escalation_policy_id: _detached, ...rest } = record.doc;
      record.doc = { ...rest, updated_at: clock.nowIso() };
      events.emit("monitor.updated", record.doc);
    }
    return noContent();
  });

  route("GET", "/monitors/{monitorID}/incidents", "monitor.read", (request) => {
    const record = monitorOf(request);
    return listKind(services, incidentKind, request, undefined, store.collection("incidents").where("monitor_id", record.doc["id"]));
  });

  route("GET", "/monitors/{monitorID}/notification_channels", "monitor.read", (request) => {
    const record = monitorOf(request);
    const channels = store.collection("notification_channels");
    const attached = attachedChannelIds(record)
      .map((id) => channels.get(id))
      .filter((channel): channel is StoredRecord => channel !== undefined)
      .sort((left, right) => left.seq - right.seq);
    return listKind(services, channelKind, request, undefined, attached);
  });

  route("POST", "/monitors/{monitorID}/notification_channels/{channelID}", "monitor.delete", (request) => {
    const record = monitorOf(request);
    const channelId = request.params["channelID"]!;
    const channel = store.collection("notification_channels").get(channelId);
    if (channel === undefined || (channel.doc["client_id"] ?? null) !== (record.doc["client_id"] ?? null)) {
      throw notFound("notification channel in the monitor's client", channelId);
    }
    const ids = attachedChannelIds(record);
    if (!ids.includes(channelId)) record.internal = { ...record.internal, notification_channel_ids: [...ids, channelId] };
    return created(channel.doc, channelKind);
  });

  route("DELETE", "/monitors/{monitorID}/notification_channels/{channelID}", "monitor.delete", (request) => {
    const record = monitorOf(request);
    const channelId = request.params["channelID"]!;
    const ids = attachedChannelIds(record);
    if (!ids.includes(channelId)) throw notFound("notification channel attached to this monitor", channelId);
    record.internal = { ...record.internal, notification_channel_ids: ids.filter((id) => id !== channelId) };
    return noContent();
  });

  route("POST", "/monitors/{monitorID}/pause", "monitor.write", (request) => {
    const record = monitorOf(request);
    if (record.doc["paused"] !== true) {
      record.internal = { ...record.internal, status_before_pause: record.doc["status"] };
      record.doc = { ...record.doc, paused: true, status: "PAUSED", updated_at: clock.nowIso() };
      events.emit("monitor.paused", record.doc);
    }
    return created(record.doc, monitorKind);
  });

  route("POST", "/monitors/{monitorID}/resume", "monitor.write", (request) => {
    const record = monitorOf(request);
    if (record.doc["paused"] === true) {
      const { status_before_pause: status = "PENDING", ...internal } = record.internal;
      record.internal = internal;
      record.doc = { ...record.doc, paused: false, status, updated_at: clock.nowIso() };
      events.emit("monitor.resumed", record.doc);
    }
    return created(record.doc, monitorKind);
  });

  route("GET", "/monitors/{monitorID}/regions", "monitor.read", (request) => {
    const record = monitorOf(request);
    const results = store.collection("results").where("monitor_id", record.doc["id"]);
    const regions = (record.doc["regions"] as string[]).map((region) => {
      const latest = results.findLast((result) => result.doc["region"] === region)?.doc;
      return {
        region,
        name: profile.regions[region]?.name ?? region,
        status: latest === undefined ? "PENDING" : String(latest["status"]).toUpperCase(),
        last_checked_at: latest?.["checked_at"] ?? null,
        last_response_time_ms: latest?.["response_time_ms"] ?? null,
      };
    });
    return listComputed(services, regions, request, (doc) => stringField(doc, "region"));
  });

  route("GET", "/monitors/{monitorID}/response_times", "monitor.read", (request) => {
    const record = monitorOf(request);
    return ok(responseTimes(record, store.collection("results").where("monitor_id", record.doc["id"]), clock.now()));
  });

  route("GET", "/monitors/{monitorID}/results", "monitor.read", (request) => {
    const record = monitorOf(request);
    return listKind(services, resultKind, request, undefined, store.collection("results").where("monitor_id", record.doc["id"]));
  });

  route("POST", "/monitors/{monitorID}/test-alert", "monitor.write", (request) => {
    const record = monitorOf(request);
    const now = clock.nowIso();
    const notifications = alertChannelIds(services, record).map((channel) =>
      outbox.send({
        channel_id: String(channel.doc["id"]),
        channel_kind: String(channel.doc["kind"]),
        reason: "test_alert",
        subject: `Test alert: ${stringField(record.doc, "name") || String(record.doc["id"])}`,
        incident_id: null,
        monitor_id: String(record.doc["id"]),
        sent_at: now,
      }),
    );
    return accepted({
      monitor_id: record.doc["id"],
      notification_channel_ids: notifications.map((notification) => notification.channel_id),
      accepted_at: now,
    });
  });
}

interface PreparedMonitor {
  doc: JsonObject;
  internal: JsonObject;
}

/** Validates a monitor write and returns the object it results in; nothing is stored yet. */
function prepareMonitor(
  services: Services,
  body: JsonObject,
  mode: WriteMode,
  existing: StoredRecord | undefined,
  issues: FieldIssues,
  issuePrefix = "",
): PreparedMonitor {
  const { store, clock } = services;
  const ownIssues = services.rules.monitor.check(body, mode);
  checkClientId(store, body, existing?.doc, ownIssues);
  const clientId = existing === undefined ? (body["client_id"] ?? null) : existing.doc["client_id"];
  checkReference(store, body, "escalation_policy_id", "escalation_policies", clientId, ownIssues);
  for (const [field, message] of Object.entries(ownIssues)) issues[`${issuePrefix}${field}`] = message;
  if (issuePrefix === "") throwIfIssues(issues);
  if (Object.keys(ownIssues).length > 0) return { doc: {}, internal: {} };
  if (existing === undefined) requireActiveClient(store, clientId);

  const type = (mode === "patch" ? (body["monitor_type"] ?? existing?.doc["monitor_type"]) : body["monitor_type"]) ?? "http";
  const doc = writeDoc(monitorKind, mode, existing?.doc, body, monitorDefaults(services, clientId, type), clock.nowIso());
  const internal: JsonObject = {};
  const password = "auth_password" in body ? body["auth_password"] : mode === "patch" ? existing?.internal["auth_password"] : undefined;
  if (typeof password === "string") internal["auth_password"] = password;
  doc["auth_password_set"] = internal["auth_password"] !== undefined;
  if (existing === undefined) {
    doc["status"] = "PENDING";
    doc["paused"] = false;
    doc["last_checked_at"] = null;
  }
  return { doc, internal };
}

function prepareBatch(services: Services, body: JsonObject): PreparedMonitor[] {
  const items = body["monitors"];
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_SIZE) {
    throw new HttpError(422, "validation_failed", "Invalid request: monitors", {
      monitors: `must be an array of 1 to ${MAX_BATCH_SIZE} monitor objects`,
    });
  }
  const issues: FieldIssues = {};
  const prepared = items.map((item, index) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      issues[`monitors[${index}]`] = "must be a monitor object";
      return { doc: {}, internal: {} };
    }
    return prepareMonitor(services, { ...(item as JsonObject) }, "create", undefined, issues, `monitors[${index}].`);
  });
  throwIfIssues(issues);
  return prepared;
}

function insertMonitor(services: Services, prepared: PreparedMonitor): StoredRecord {
  const record = services.store.insert("monitors", prepared.doc, prepared.internal);
  services.events.emit("monitor.created", record.doc);
  return record;
}

/** Server defaults, overridden by the monitor defaults of the client's template. */
function monitorDefaults(services: Services, clientId: unknown, type: unknown): JsonObject {
  const defaults = services.rules.monitor.defaults();
  if (type !== "http") for (const field of HTTP_ONLY_DEFAULTS) delete defaults[field];
  return { ...defaults, ...templateDefaults(services, clientId, "monitor_defaults") };
}

/** The `monitor_defaults` or `heartbeat_defaults` of the template of the client, if any. */
export function templateDefaults(services: Services, clientId: unknown, field: "monitor_defaults" | "heartbeat_defaults"): JsonObject {
  if (typeof clientId !== "string") return {};
  const templateId = services.store.collection("clients").get(clientId)?.doc["template_id"];
  if (typeof templateId !== "string") return {};
  const defaults = services.store.collection("client_templates").get(templateId)?.doc[field];
  return defaults !== null && typeof defaults === "object" ? (defaults as JsonObject) : {};
}

function monitorListFilter(services: Services, query: URLSearchParams): ((doc: JsonObject) => boolean) | undefined {
  const status = query.get("status");
  const type = query.get("monitor_type");
  const region = query.get("region");
  if (status !== null && !(MONITOR_STATUS_FILTERS as readonly string[]).includes(status)) {
    throw invalidParameter("status", `must be one of ${MONITOR_STATUS_FILTERS.join(", ")}`);
  }
  if (type !== null && !(MONITOR_TYPES as readonly string[]).includes(type)) {
    throw invalidParameter("monitor_type", `must be one of ${MONITOR_TYPES.join(", ")}`);
  }
  if (region !== null && !Object.hasOwn(services.profile.regions, region)) {
    throw invalidParameter("region", "must be an offered region");
  }
  if (status === null && type === null && region === null) return undefined;
  return (doc) =>
    (status === null || doc["status"] === status) &&
    (type === null || doc["monitor_type"] === type) &&
    (region === null || (Array.isArray(doc["regions"]) && doc["regions"].includes(region)));
}

/** A check outcome changes the status and opens or resolves the monitor's incident. */
function applyCheckOutcome(services: Services, record: StoredRecord, outcome: "UP" | "DOWN", now: string): void {
  const changed = record.doc["status"] !== outcome;
  record.doc = { ...record.doc, status: outcome, last_checked_at: now, ...(changed ? { updated_at: now } : {}) };
  if (!changed) return;
  if (outcome === "DOWN") {
    services.events.emit("monitor.down", record.doc);
    openAutomaticIncident(services, { monitor: record.doc }, "check_failed", `${stringField(record.doc, "name") || "Monitor"} is down`);
  } else {
    services.events.emit("monitor.up", record.doc);
    resolveAutomaticIncident(services, { monitor: record.doc });
  }
}

export function attachedChannelIds(record: StoredRecord): string[] {
  return (record.internal["notification_channel_ids"] as string[] | undefined) ?? [];
}

/** Channels an alert for the monitor reaches: attached ones and those of its policy's first step. */
function alertChannelIds(services: Services, record: StoredRecord): StoredRecord[] {
  const ids = new Set(attachedChannelIds(record));
  const policyId = record.doc["escalation_policy_id"];
  const policy = typeof policyId === "string" ? services.store.collection("escalation_policies").get(policyId) : undefined;
  const firstStep = (policy?.doc["steps"] as JsonObject[] | undefined)?.[0];
  for (const id of (firstStep?.["notification_channel_ids"] as string[] | undefined) ?? []) ids.add(id);
  return [...ids]
    .map((id) => services.store.collection("notification_channels").get(id))
    .filter((channel): channel is StoredRecord => channel !== undefined);
}

/** Response time statistics of the last 24 hours, overall and per region. */
function responseTimes(record: StoredRecord, results: readonly StoredRecord[], nowMs: number): JsonObject {
  const from = nowMs - 86_400_000;
  const recent = results.filter((result) => Date.parse(String(result.doc["checked_at"])) >= from && typeof result.doc["response_time_ms"] === "number");
  const samplesOf = (records: readonly StoredRecord[]) => records.map((result) => Number(result.doc["response_time_ms"]));
  return {
    monitor_id: record.doc["id"],
    from: new Date(from).toISOString(),
    to: new Date(nowMs).toISOString(),
    ...statistics(samplesOf(recent)),
    regions: (record.doc["regions"] as string[]).map((region) => ({
      region,
      ...statistics(samplesOf(recent.filter((result) => result.doc["region"] === region))),
    })),
    points: recent.slice(-100).map((result) => ({
      checked_at: result.doc["checked_at"],
      region: result.doc["region"],
      response_time_ms: result.doc["response_time_ms"],
    })),
  };
}

function statistics(samples: number[]): JsonObject {
  if (samples.length === 0) return { samples: 0, avg_ms: null, p50_ms: null, p95_ms: null, min_ms: null, max_ms: null };
  const sorted = [...samples].sort((left, right) => left - right);
  const percentile = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
  return {
    samples: sorted.length,
    avg_ms: Math.round(sorted.reduce((sum, value) => sum + value, 0) / sorted.length),
    p50_ms: percentile(0.5),
    p95_ms: percentile(0.95),
    min_ms: sorted[0],
    max_ms: sorted[sorted.length - 1],
  };
}

