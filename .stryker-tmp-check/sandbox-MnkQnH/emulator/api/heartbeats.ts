/**
 * Heartbeats (spec 2.5, 4.3), heartbeat groups (4.4) and the ping URL jobs call.
 *
 * States: `NEW` until the first ping; `UP` after a ping; `LATE` once `expected_interval_seconds`
 * pass without one; `DOWN` once the grace period passes too (an incident opens); `PAUSED` while
 * paused. A ping makes the heartbeat `UP` and resolves its incident. The lateness clock restarts
 * at the last ping, or at resume.
 */
// @ts-nocheck

import { randomBytes } from "node:crypto";
import type { JsonObject, StoredRecord } from "../state/collection.js";
import { conflict, validationFailed } from "../http/errors.js";
import {
  checkClientId,
  checkReference,
  listKind,
  newId,
  referenceIssue,
  requireActiveClient,
  requireRecord,
  stringField,
  writeDoc,
  type KindSpec,
} from "./common.js";
import { created, noContent, ok, type ApiRequest, type RouteRegistrar, type Services } from "./context.js";
import { availabilityReport } from "./availability.js";
import { openAutomaticIncident, resolveAutomaticIncident } from "./incidents.js";
import { templateDefaults } from "./monitors.js";
import { throwIfIssues, type WriteMode } from "./validation.js";

export const heartbeatKind: KindSpec = {
  collection: "heartbeats",
  label: "heartbeat",
  clientScoped: true,
  nameOf: (doc) => stringField(doc, "name"),
  searchTexts: (doc) => [doc["name"]],
  serverFields: ["status", "paused", "ping_url", "last_ping_at"],
  writeOnly: [],
  table: "heartbeat",
  selfPath: "/heartbeats",
};

export const groupKind: KindSpec = {
  collection: "heartbeat_groups",
  label: "heartbeat group",
  clientScoped: true,
  nameOf: (doc) => stringField(doc, "name"),
  searchTexts: (doc) => [doc["name"], doc["description"]],
  serverFields: ["heartbeat_count"],
  writeOnly: [],
  table: "heartbeatGroup",
  selfPath: "/heartbeat-groups",
};

const pingKind: KindSpec = {
  collection: "pings",
  label: "ping",
  clientScoped: false,
  nameOf: (doc) => stringField(doc, "method"),
  searchTexts: (doc) => [doc["method"], doc["user_agent"], doc["source_ip"]],
  serverFields: [],
  writeOnly: [],
};

/** Token → heartbeat id, for the ping URL. Derived from the heartbeats, rebuilt when the state is replaced. */
export class PingTokens {
  private readonly byToken = new Map<string, string>();

  constructor(private readonly services: Services) {
    services.store.onReload(() => {
      this.byToken.clear();
      for (const record of services.store.collection("heartbeats").all()) {
        this.byToken.set(String(record.internal["ping_token"]), String(record.doc["id"]));
      }
    });
  }

  add(token: string, heartbeatId: string): void {
    this.byToken.set(token, heartbeatId);
  }

  remove(token: string): void {
    this.byToken.delete(token);
  }

  heartbeat(token: string): StoredRecord | undefined {
    const id = this.byToken.get(token);
    return id === undefined ? undefined : this.services.store.collection("heartbeats").get(id);
  }
}

export function registerHeartbeatRoutes(route: RouteRegistrar, services: Services, tokens: PingTokens): void {
  const { store, clock, events } = services;
  const heartbeatOf = (request: ApiRequest) => requireRecord(store, heartbeatKind, request.params["heartbeatID"]!);
  const groupOf = (request: ApiRequest) => requireRecord(store, groupKind, request.params["groupID"]!);

  const writeHeartbeat = (mode: WriteMode, existing: StoredRecord | undefined, request: ApiRequest): StoredRecord => {
    const body = request.body;
    const issues = services.rules.heartbeat.check(body, mode);
    checkClientId(store, body, existing?.doc, issues);
    const clientId = existing === undefined ? (body["client_id"] ?? null) : existing.doc["client_id"];
    checkReference(store, body, "heartbeat_group_id", "heartbeat_groups", clientId, issues);
    throwIfIssues(issues);
    if (existing === undefined) requireActiveClient(store, clientId);
    const defaults = { ...services.rules.heartbeat.defaults(), ...templateDefaults(services, clientId, "heartbeat_defaults") };
    const doc = writeDoc(heartbeatKind, mode, existing?.doc, body, defaults, clock.nowIso());
    if (existing !== undefined) {
      moveBetweenGroups(services, existing.doc["heartbeat_group_id"], doc["heartbeat_group_id"]);
      existing.doc = doc;
      return existing;
    }
    const token = randomBytes(18).toString("base64url");
    Object.assign(doc, { status: "NEW", paused: false, ping_url: pingUrl(services, token), last_ping_at: null });
    const record = store.insert("heartbeats", doc, { ping_token: token, deadline_base_ms: null });
    tokens.add(token, String(doc["id"]));
    moveBetweenGroups(services, undefined, doc["heartbeat_group_id"]);
    return record;
  };

  route("GET", "/heartbeats", "heartbeat.write", (request) => listKind(services, heartbeatKind, request));

  route("POST", "/heartbeats", "heartbeat.write", (request) => {
    const record = writeHeartbeat("create", undefined, request);
    events.emit("heartbeat.created", record.doc);
    return created(record.doc, heartbeatKind);
  });

  route("GET", "/heartbeats/{heartbeatID}", "heartbeat.write", (request) => ok(heartbeatOf(request).doc, heartbeatKind));

  const update = (mode: WriteMode) => (request: ApiRequest) => {
    const record = writeHeartbeat(mode, heartbeatOf(request), request);
    events.emit("heartbeat.updated", record.doc);
    return ok(record.doc, heartbeatKind);
  };
  route("PUT", "/heartbeats/{heartbeatID}", "heartbeat.write", update("replace"));
  route("PATCH", "/heartbeats/{heartbeatID}", "heartbeat.write", update("patch"));

  route("DELETE", "/heartbeats/{heartbeatID}", "heartbeat.write", (request) => {
    const record = heartbeatOf(request);
    const pings = store.collection("pings");
    for (const ping of [...pings.where("heartbeat_id", record.doc["id"])]) pings.remove(String(ping.doc["id"]));
    moveBetweenGroups(services, record.doc["heartbeat_group_id"], undefined);
    tokens.remove(String(record.internal["ping_token"]));
    store.collection("heartbeats").remove(String(record.doc["id"]));
    events.emit("heartbeat.deleted", record.doc);
    return noContent();
  });

  route("GET", "/heartbeats/{heartbeatID}/availability", "heartbeat.read", (request) => {
    const record = heartbeatOf(request);
    const pings = store.collection("pings").where("heartbeat_id", record.doc["id"]);
    return ok({ heartbeat_id: record.doc["id"], ...availabilityReport(services, record.doc, "heartbeat_id", pings) });
  });

  const pause = (status: 200 | 201) => (request: ApiRequest) => {
    const record = heartbeatOf(request);
    if (record.doc["paused"] !== true) {
      record.doc = { ...record.doc, paused: true, status: "PAUSED", updated_at: clock.nowIso() };
      events.emit("heartbeat.paused", record.doc);
    }
    return { status, data: record.doc, kind: heartbeatKind };
  };
  const resume = (status: 200 | 201) => (request: ApiRequest) => {
    const record = heartbeatOf(request);
    if (record.doc["paused"] === true) {
      const pinged = record.doc["last_ping_at"] !== null;
      record.internal = { ...record.internal, deadline_base_ms: pinged ? clock.now() : null };
      record.doc = { ...record.doc, paused: false, status: pinged ? "UP" : "NEW", updated_at: clock.nowIso() };
      events.emit("heartbeat.resumed", record.doc);
    }
    return { status, data: record.doc, kind: heartbeatKind };
  };
  route("POST", "/heartbeats/{heartbeatID}/pause", "heartbeat.write", pause(201));
  route("PUT", "/heartbeats/{heartbeatID}/pause", "heartbeat.write", pause(200));
  route("POST", "/heartbeats/{heartbeatID}/resume", "heartbeat.write", resume(201));
  route("PUT", "/heartbeats/{heartbeatID}/resume", "heartbeat.write", resume(200));

  route("GET", "/heartbeats/{heartbeatID}/pings", "heartbeat.read", (request) => {
    const record = heartbeatOf(request);
    return listKind(services, pingKind, request, undefined, store.collection("pings").where("heartbeat_id", record.doc["id"]));
  });

  const writeGroup = (mode: WriteMode, existing: StoredRecord | undefined, request: ApiRequest): StoredRecord => {
    const body = request.body;
    const issues = services.rules.heartbeatGroup.check(body, mode);
    checkClientId(store, body, existing?.doc, issues);
    throwIfIssues(issues);
    if (existing === undefined) requireActiveClient(store, body["client_id"]);
    const doc = writeDoc(groupKind, mode, existing?.doc, body, {}, clock.nowIso());
    if (existing !== undefined) {
      existing.doc = doc;
      return existing;
    }
    doc["heartbeat_count"] = 0;
    return store.insert("heartbeat_groups", doc);
  };

  route("GET", "/heartbeat-groups", "heartbeat.write", (request) => listKind(services, groupKind, request));
  route("POST", "/heartbeat-groups", "heartbeat.write", (request) => created(writeGroup("create", undefined, request).doc, groupKind));

  /** Files the heartbeat in the group (or in none, for `null`); callers have checked that the group is in its client. */
  const assign = (record: StoredRecord, groupId: string | null): void => {
    if ((record.doc["heartbeat_group_id"] ?? null) === groupId) return;
    moveBetweenGroups(services, record.doc["heartbeat_group_id"], groupId);
    const { heartbeat_group_id: _previous, ...rest } = record.doc;
    record.doc = { ...rest, ...(groupId === null ? {} : { heartbeat_group_id: groupId }), updated_at: clock.nowIso() };
    events.emit("heartbeat.updated", record.doc);
  };

  /** The alt profile's body: `{ "group_id": uuid | null, "heartbeat_ids": [uuid, ...] }`, all or nothing. */
  const assignMany = (request: ApiRequest) => {
    const body = request.body;
    const issues = services.rules.bulkAssignment.check(body, "create");
    if (!("group_id" in body)) issues["group_id"] = "is required (null unassigns)";
    throwIfIssues(issues);
    const groupId = body["group_id"] === null ? null : String(body["group_id"]).toLowerCase();
    const group = groupId === null ? undefined : store.collection("heartbeat_groups").get(groupId);
    if (groupId !== null && group === undefined) throw validationFailed({ group_id: "no object with this id" });
    const records: StoredRecord[] = [];
    (body["heartbeat_ids"] as string[]).forEach((id, index) => {
      const record = store.collection("heartbeats").get(id.toLowerCase());
      if (record === undefined) issues[`heartbeat_ids[${index}]`] = "no heartbeat with this id";
      else if (group !== undefined && (group.doc["client_id"] ?? null) !== (record.doc["client_id"] ?? null)) {
        issues[`heartbeat_ids[${index}]`] = "belongs to another client than the group";
      } else records.push(record);
    });
    throwIfIssues(issues);
    for (const record of records) assign(record, groupId);
    return created({ group_id: groupId, heartbeats: records.map((record) => services.present(heartbeatKind, record.doc)) });
  };

  route("POST", "/heartbeat-groups/assign", "heartbeat.write", (request) => {
    if (services.profile.assignBody === "many heartbeats") return assignMany(request);
    const body = request.body;
    const issues = services.rules.assignment.check(body, "create");
    if (!("heartbeat_group_id" in body)) issues["heartbeat_group_id"] = "is required (null unassigns)";
    throwIfIssues(issues);
    const record = store.collection("heartbeats").get(String(body["heartbeat_id"]).toLowerCase());
    if (record === undefined) throw validationFailed({ heartbeat_id: "no heartbeat with this id" });
    const groupId = body["heartbeat_group_id"] === null ? null : String(body["heartbeat_group_id"]).toLowerCase();
    const groupIssue = groupId === null ? undefined : referenceIssue(store, "heartbeat_groups", groupId, record.doc["client_id"]);
    if (groupIssue !== undefined) throw validationFailed({ heartbeat_group_id: groupIssue });
    assign(record, groupId);
    return created(record.doc, heartbeatKind);
  });

  route("GET", "/heartbeat-groups/{groupID}", "heartbeat.write", (request) => ok(groupOf(request).doc, groupKind));
  route("PUT", "/heartbeat-groups/{groupID}", "heartbeat.write", (request) => ok(writeGroup("replace", groupOf(request), request).doc, groupKind));

  route("DELETE", "/heartbeat-groups/{groupID}", "heartbeat.write", (request) => {
    const group = groupOf(request);
    const count = Number(group.doc["heartbeat_count"]);
    if (count > 0) throw conflict(`The group still holds ${count} heartbeat(s); move or delete them first`, { heartbeat_count: count });
    store.collection("heartbeat_groups").remove(String(group.doc["id"]));
    return noContent();
  });
}

/** Records a ping from the job: the heartbeat turns `UP` (unless paused) and its incident resolves. */
export function recordPing(services: Services, heartbeat: StoredRecord, ping: { method: string; sourceIp: string; userAgent: string | null }): JsonObject {
  const now = services.clock.nowIso();
  const doc: JsonObject = {
    id: newId(),
    heartbeat_id: heartbeat.doc["id"],
    method: ping.method,
    source_ip: ping.sourceIp,
    user_agent: ping.userAgent,
    received_at: now,
    created_at: now,
  };
  services.store.insert("pings", doc);
  const previous = heartbeat.doc["status"];
  heartbeat.doc = { ...heartbeat.doc, last_ping_at: now };
  if (heartbeat.doc["paused"] === true) return doc;
  heartbeat.internal = { ...heartbeat.internal, deadline_base_ms: services.clock.now() };
  if (previous !== "UP") {
    heartbeat.doc = { ...heartbeat.doc, status: "UP", updated_at: now };
    services.events.emit("heartbeat.up", heartbeat.doc);
    resolveAutomaticIncident(services, { heartbeat: heartbeat.doc });
  }
  return doc;
}

/**
 * Moves heartbeats that stayed silent too long to `LATE` or `DOWN`. Runs on a timer and after the
 * admin API advances the clock. Returns whether anything changed.
 */
export function sweepHeartbeats(services: Services): boolean {
  const now = services.clock.now();
  let changed = false;
  for (const record of services.store.collection("heartbeats").all()) {
    const status = record.doc["status"];
    if (status !== "UP" && status !== "LATE") continue;
    const base = Number(record.internal["deadline_base_ms"]);
    const interval = Number(record.doc["expected_interval_seconds"]) * 1000;
    const grace = Number(record.doc["grace_period_seconds"]) * 1000;
    const silence = now - base;
    const next = silence > interval + grace ? "DOWN" : silence > interval ? "LATE" : "UP";
    if (next === status) continue;
    changed = true;
    record.doc = { ...record.doc, status: next, updated_at: new Date(now).toISOString() };
    if (next === "LATE") services.events.emit("heartbeat.late", record.doc);
    if (next === "DOWN") {
      services.events.emit("heartbeat.down", record.doc);
      openAutomaticIncident(services, { heartbeat: record.doc }, "heartbeat_missed", `${stringField(record.doc, "name") || "Heartbeat"} missed its check-in`);
    }
  }
  return changed;
}

/** Points the ping URLs at the current origin (the port may differ after a restart). */
export function refreshPingUrls(services: Services): void {
  for (const record of services.store.collection("heartbeats").all()) {
    const url = pingUrl(services, String(record.internal["ping_token"]));
    if (record.doc["ping_url"] !== url) record.doc = { ...record.doc, ping_url: url };
  }
}

function pingUrl(services: Services, token: string): string {
  return `${services.origin()}/ping/${token}`;
}

function moveBetweenGroups(services: Services, from: unknown, to: unknown): void {
  if (from === to) return;
  const groups = services.store.collection("heartbeat_groups");
  for (const [id, delta] of [[from, -1], [to, 1]] as const) {
    if (typeof id !== "string") continue;
    const group = groups.get(id);
    if (group !== undefined) group.doc = { ...group.doc, heartbeat_count: Number(group.doc["heartbeat_count"]) + delta };
  }
}
