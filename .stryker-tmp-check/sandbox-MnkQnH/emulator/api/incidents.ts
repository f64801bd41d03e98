/**
 * Incidents (spec 4.5). States: `OPEN` → `ACKNOWLEDGED` → `RESOLVED`; `OPEN` may also go straight
 * to `RESOLVED`. The emulator opens an incident when a monitor's check fails or a heartbeat goes
 * DOWN, and resolves it when the monitor checks UP again or the heartbeat pings; incidents created
 * through the API are resolved only by the service's console (not part of the API).
 */
// @ts-nocheck

import type { JsonObject, StoredRecord } from "../state/collection.js";
import { conflict } from "../http/errors.js";
import {
  checkClientId,
  checkReference,
  listKind,
  newId,
  requestFields,
  requireActiveClient,
  requireRecord,
  stringField,
  type KindSpec,
} from "./common.js";
import { created, ok, type RouteRegistrar, type Services } from "./context.js";
import { throwIfIssues } from "./validation.js";
import type { NotificationReason } from "../notifications.js";

export const incidentKind: KindSpec = {
  collection: "incidents",
  label: "incident",
  clientScoped: true,
  nameOf: (doc) => stringField(doc, "title"),
  searchTexts: (doc) => [doc["title"], doc["description"]],
  serverFields: ["status", "cause", "started_at", "acknowledged_at", "acknowledged_by", "acknowledgement_note", "resolved_at"],
  writeOnly: [],
  table: "incident",
  selfPath: "/incidents",
};

export function registerIncidentRoutes(route: RouteRegistrar, services: Services): void {
  const { store, clock, events } = services;

  route("GET", "/incidents", "incident.write", (request) => listKind(services, incidentKind, request));

  route("POST", "/incidents", "incident.write", (request) => {
    const body = request.body;
    const issues = services.rules.incident.check(body, "create");
    checkClientId(store, body, undefined, issues);
    const clientId = body["client_id"] ?? null;
    checkReference(store, body, "monitor_id", "monitors", clientId, issues);
    checkReference(store, body, "heartbeat_id", "heartbeats", clientId, issues);
    throwIfIssues(issues);
    requireActiveClient(store, clientId);
    const now = clock.nowIso();
    const doc = newIncidentDoc(now, {
      ...requestFields(incidentKind, body),
      severity: body["severity"] ?? "major",
      cause: "manual",
      monitor_id: body["monitor_id"] ?? null,
      heartbeat_id: body["heartbeat_id"] ?? null,
      client_id: clientId,
    });
    store.insert("incidents", doc);
    events.emit("incident.created", doc);
    notifyForIncident(services, doc, "incident_opened");
    return created(doc, incidentKind);
  });

  route("GET", "/incidents/{incidentID}", "incident.read", (request) =>
    ok(requireRecord(store, incidentKind, request.params["incidentID"]!).doc, incidentKind),
  );

  const acknowledge = (status: 200 | 201) => (request: { params: Record<string, string>; body: JsonObject }) => {
    const record = requireRecord(store, incidentKind, request.params["incidentID"]!);
    throwIfIssues(services.rules.acknowledgement.check(request.body, "patch"));
    const state = record.doc["status"];
    if (state === "RESOLVED") throw conflict("The incident is resolved and can no longer be acknowledged", { status: state });
    if (state === "OPEN") {
      const now = clock.nowIso();
      record.doc = {
        ...record.doc,
        status: "ACKNOWLEDGED",
        acknowledged_at: now,
        acknowledged_by: request.body["acknowledged_by"] ?? null,
        acknowledgement_note: request.body["note"] ?? null,
        updated_at: now,
      };
      events.emit("incident.acknowledged", record.doc);
    }
    return { status, data: record.doc, kind: incidentKind };
  };
  route("POST", "/incidents/{incidentID}/acknowledge", "incident.write", acknowledge(201));
  route("PUT", "/incidents/{incidentID}/acknowledge", "incident.write", acknowledge(200));

  route("GET", "/incidents/{incidentID}/ai", null, (request) => {
    const record = requireRecord(store, incidentKind, request.params["incidentID"]!);
    return ok(incidentAnalysis(services, record, clock.nowIso()));
  });
}

export function newIncidentDoc(now: string, fields: JsonObject): JsonObject {
  return {
    id: newId(),
    title: fields["title"],
    ...fields,
    status: "OPEN",
    started_at: now,
    acknowledged_at: null,
    acknowledged_by: null,
    acknowledgement_note: null,
    resolved_at: null,
    created_at: now,
    updated_at: now,
  };
}

/** Opens an incident for a failing monitor or a silent heartbeat, unless one is still unresolved. */
export function openAutomaticIncident(
  services: Services,
  subject: { monitor?: JsonObject; heartbeat?: JsonObject },
  cause: "check_failed" | "heartbeat_missed",
  title: string,
): JsonObject | undefined {
  const owner = subject.monitor ?? subject.heartbeat!;
  if (unresolvedIncidentOf(services, subject) !== undefined) return undefined;
  const doc = newIncidentDoc(services.clock.nowIso(), {
    title,
    severity: "major",
    cause,
    monitor_id: subject.monitor?.["id"] ?? null,
    heartbeat_id: subject.heartbeat?.["id"] ?? null,
    client_id: owner["client_id"] ?? null,
  });
  services.store.insert("incidents", doc);
  services.events.emit("incident.created", doc);
  notifyForIncident(services, doc, "incident_opened");
  return doc;
}

/** Resolves the unresolved automatic incident of a monitor or heartbeat, if there is one. */
export function resolveAutomaticIncident(services: Services, subject: { monitor?: JsonObject; heartbeat?: JsonObject }): void {
  const record = unresolvedIncidentOf(services, subject);
  if (record === undefined) return;
  const now = services.clock.nowIso();
  record.doc = { ...record.doc, status: "RESOLVED", resolved_at: now, updated_at: now };
  services.events.emit("incident.resolved", record.doc);
  notifyForIncident(services, record.doc, "incident_resolved");
}

function unresolvedIncidentOf(services: Services, subject: { monitor?: JsonObject; heartbeat?: JsonObject }): StoredRecord | undefined {
  const [field, id] = subject.monitor !== undefined ? ["monitor_id", subject.monitor["id"]] : ["heartbeat_id", subject.heartbeat!["id"]];
  const incidents = services.store.collection("incidents").where(field, id);
  for (let index = incidents.length - 1; index >= 0; index--) {
    const record = incidents[index]!;
    if (record.doc["cause"] !== "manual" && record.doc["status"] !== "RESOLVED") return record;
  }
  return undefined;
}

/**
 * Tells the channels of the incident's monitor (attached channels and the first step of its
 * escalation policy) through the notification outbox.
 */
function notifyForIncident(services: Services, incident: JsonObject, reason: NotificationReason): void {
  const monitorId = incident["monitor_id"];
  if (typeof monitorId !== "string") return;
  const monitor = services.store.collection("monitors").get(monitorId);
  if (monitor === undefined) return;
  const channelIds = new Set((monitor.internal["notification_channel_ids"] as string[] | undefined) ?? []);
  const policyId = monitor.doc["escalation_policy_id"];
  const policy = typeof policyId === "string" ? services.store.collection("escalation_policies").get(policyId) : undefined;
  const firstStep = (policy?.doc["steps"] as JsonObject[] | undefined)?.[0];
  for (const id of (firstStep?.["notification_channel_ids"] as string[] | undefined) ?? []) channelIds.add(id);
  for (const channelId of channelIds) {
    const channel = services.store.collection("notification_channels").get(channelId);
    if (channel === undefined) continue;
    services.outbox.send({
      channel_id: channelId,
      channel_kind: String(channel.doc["kind"]),
      reason,
      subject: `${reason === "incident_opened" ? "Incident" : "Resolved"}: ${String(incident["title"])}`,
      incident_id: String(incident["id"]),
      monitor_id: monitorId,
      sent_at: services.clock.nowIso(),
    });
  }
}

/**
 * The incident AI endpoint's answer. The emulator has no model: it derives a summary, likely
 * causes and next steps from the incident and its monitor, deterministically.
 */
function incidentAnalysis(services: Services, record: StoredRecord, now: string): JsonObject {
  const incident = record.doc;
  const monitorId = incident["monitor_id"];
  const monitor = typeof monitorId === "string" ? services.store.collection("monitors").get(monitorId)?.doc : undefined;
  const target = monitor === undefined ? undefined : String(monitor["url"] ?? monitor["tcp_host"] ?? monitor["dns_query"] ?? "");
  const causes: string[] = [];
  const actions: string[] = [];
  if (incident["cause"] === "check_failed") {
    causes.push(target === undefined ? "The target did not answer the check" : `${target} did not answer the check`);
    causes.push("DNS resolution or network path failure");
    actions.push("Check the target from another network", "Look at the monitor's results per region");
  } else if (incident["cause"] === "heartbeat_missed") {
    causes.push("The scheduled job did not run or crashed before calling its ping URL");
    actions.push("Check the job scheduler and the job's logs", "Confirm the job can reach the ping URL");
  } else {
    causes.push("Reported manually; no automatic signal");
    actions.push("Add details to the incident as they become known");
  }
  if (incident["status"] === "OPEN") actions.push("Acknowledge the incident so the escalation stops");
  return {
    incident_id: incident["id"],
    summary: `${String(incident["title"])} (${String(incident["severity"])}, ${String(incident["status"]).toLowerCase()}) since ${String(incident["started_at"])}.`,
    probable_causes: causes,
    suggested_actions: actions,
    model: "emulator-rules",
    generated_at: now,
  };
}
