/**
 * Building blocks shared by the operation handlers: reading objects by id, lists with the client
 * parameters of agency mode, and turning request bodies into stored objects.
 */
// @ts-nocheck

import { randomUUID } from "node:crypto";
import { StoredRecord, type JsonObject } from "../state/collection.js";
import type { CollectionName, Store } from "../state/store.js";
import { HttpError, invalidParameter, notFound } from "../http/errors.js";
import type { ApiRequest, ApiResult, Services } from "./context.js";
import { matchesSearch, paginate, parseListParams } from "./pagination.js";
import { isUuid, type FieldIssues, type WriteMode } from "./validation.js";
import type { TableName } from "./fields.js";

/** How a kind of object is stored and shown. */
export interface KindSpec {
  collection: CollectionName;
  /** Singular noun for messages: "monitor". */
  label: string;
  /** Whether objects live in clients (agency mode) and lists take `client_id` / `all_clients`. */
  clientScoped: boolean;
  /** The text `sort=name` orders by. */
  nameOf(doc: JsonObject): string;
  /** The texts `q` searches. */
  searchTexts(doc: JsonObject): unknown[];
  /** Fields only the server sets: ignored in request bodies and kept when a PUT replaces the rest. */
  serverFields: readonly string[];
  /** Request fields stored but never returned. */
  writeOnly: readonly string[];
  /** The field table of its request fields, when it has one. */
  table?: TableName;
  /** The collection path under which each object can be read by id (`/monitors`), when it can. */
  selfPath?: string;
}

const ALWAYS_SERVER_FIELDS = ["id", "client_id", "created_at", "updated_at"];

export function requireRecord(store: Store, kind: KindSpec, id: string): StoredRecord {
  const record = store.collection(kind.collection).get(id);
  if (record === undefined) throw notFound(kind.label, id);
  return record;
}

export function newId(): string {
  return randomUUID();
}

/**
 * A list of `kind` under the parameters of spec 4.1: for client-scoped kinds the objects outside
 * any client, or those of `client_id`, or all with `all_clients=true`.
 */
export function listKind(
  services: Services,
  kind: KindSpec,
  request: ApiRequest,
  filter?: (doc: JsonObject) => boolean,
  source?: readonly StoredRecord[],
): ApiResult {
  const params = parseListParams(request.query, services.profile);
  const records = source ?? (kind.clientScoped ? clientScopedRecords(services.store, kind, request.query) : services.store.collection(kind.collection).all());
  const matches =
    params.q === null && filter === undefined
      ? undefined
      : (doc: JsonObject) => matchesSearch(params.q, ...kind.searchTexts(doc)) && (filter === undefined || filter(doc));
  const page = paginate(records, params, { matches, nameOf: kind.nameOf });
  return { status: 200, data: page.data, pagination: page.pagination, kind };
}

function clientScopedRecords(store: Store, kind: KindSpec, query: URLSearchParams): readonly StoredRecord[] {
  const allClients = query.get("all_clients");
  if (allClients !== null && allClients !== "true" && allClients !== "false") {
    throw invalidParameter("all_clients", "must be true or false");
  }
  const clientId = query.get("client_id");
  if (clientId !== null) {
    if (allClients === "true") throw invalidParameter("all_clients", "cannot be combined with client_id");
    if (!isUuid(clientId)) throw invalidParameter("client_id", "must be a UUID");
    const id = clientId.toLowerCase();
    if (store.collection("clients").get(id) === undefined) throw notFound("client", id);
    return store.collection(kind.collection).where("client_id", id);
  }
  const collection = store.collection(kind.collection);
  return allClients === "true" ? collection.all() : collection.where("client_id", null);
}

/** The request fields of a body: everything but server fields and write-only fields. */
export function requestFields(kind: KindSpec, body: JsonObject): JsonObject {
  const fields: JsonObject = {};
  for (const [name, value] of Object.entries(body)) {
    if (ALWAYS_SERVER_FIELDS.includes(name) || kind.serverFields.includes(name) || kind.writeOnly.includes(name)) continue;
    if (value === null || value === undefined) continue;
    fields[name] = value;
  }
  return fields;
}

/**
 * The object after a write. `create` and `replace` (PUT) set every request field from the body,
 * falling back to `defaults`; `patch` changes the fields sent, and `null` resets a field to its
 * default or removes it. Server fields come from `existing` and are then updated by the caller.
 */
export function writeDoc(
  kind: KindSpec,
  mode: WriteMode,
  existing: JsonObject | undefined,
  body: JsonObject,
  defaults: JsonObject,
  now: string,
): JsonObject {
  if (mode === "patch" && existing !== undefined) {
    const doc: JsonObject = { ...existing };
    for (const [name, value] of Object.entries(body)) {
      if (ALWAYS_SERVER_FIELDS.includes(name) || kind.serverFields.includes(name) || kind.writeOnly.includes(name)) continue;
      if (value !== null) doc[name] = value;
      else if (defaults[name] !== undefined) doc[name] = structuredClone(defaults[name]);
      else delete doc[name];
    }
    doc["updated_at"] = now;
    return doc;
  }
  const doc: JsonObject = { id: existing?.["id"] ?? newId() };
  Object.assign(doc, structuredClone(defaults), requestFields(kind, body));
  if (kind.clientScoped) doc["client_id"] = existing === undefined ? (body["client_id"] ?? null) : existing["client_id"];
  for (const name of kind.serverFields) {
    if (existing !== undefined && name in existing) doc[name] = existing[name];
  }
  doc["created_at"] = existing?.["created_at"] ?? now;
  doc["updated_at"] = now;
  return doc;
}

/**
 * Checks `client_id` of a write: on create it must name an existing client that is not archived;
 * afterwards it cannot change.
 */
export function checkClientId(
  store: Store,
  body: JsonObject,
  existing: JsonObject | undefined,
  issues: FieldIssues,
): void {
  if (!("client_id" in body) || issues["client_id"] !== undefined) return;
  const requested = body["client_id"] ?? null;
  if (existing !== undefined) {
    const normalized = typeof requested === "string" ? requested.toLowerCase() : requested;
    if (normalized !== (existing["client_id"] ?? null)) {
      issues["client_id"] = "cannot change; create a new object in the other client";
    }
    return;
  }
  if (requested === null) return;
  if (!isUuid(requested)) return;
  body["client_id"] = requested.toLowerCase();
  const client = store.collection("clients").get(requested.toLowerCase());
  if (client === undefined) issues["client_id"] = "no client with this id";
}

/** 409 when creating inside an archived client. Runs after validation passed. */
export function requireActiveClient(store: Store, clientId: unknown): void {
  if (typeof clientId !== "string") return;
  const client = store.collection("clients").get(clientId);
  if (client?.doc["archived"] === true) {
    throw new HttpError(409, "conflict", `Client ${clientId} is archived; unarchive it first`, { client_id: clientId });
  }
}

/**
 * Checks that `body[field]` names an existing object of `collection` in the same client as the
 * object being written (both outside any client, or both in the same one). Normalizes the id.
 */
export function checkReference(
  store: Store,
  body: JsonObject,
  field: string,
  collection: CollectionName,
  clientId: unknown,
  issues: FieldIssues,
): void {
  const value = body[field];
  if (value === undefined || value === null || issues[field] !== undefined || !isUuid(value)) return;
  const id = value.toLowerCase();
  body[field] = id;
  const issue = referenceIssue(store, collection, id, clientId);
  if (issue !== undefined) issues[field] = issue;
}

/** Why `id` cannot be referenced from an object in `clientId`, or `undefined` when it can. */
export function referenceIssue(store: Store, collection: CollectionName, id: string, clientId: unknown): string | undefined {
  const target = store.collection(collection).get(id);
  if (target === undefined) return "no object with this id";
  if ((target.doc["client_id"] ?? null) !== (clientId ?? null)) return "belongs to another client";
  return undefined;
}

/** Every record of `collection` whose `field` holds `id` (for "still referenced" checks on delete). */
export function referrers(store: Store, collection: CollectionName, field: string, id: string): string[] {
  return store
    .collection(collection)
    .all()
    .filter((record) => record.doc[field] === id)
    .map((record) => String(record.doc["id"]));
}

export function stringField(doc: JsonObject, field: string): string {
  const value = doc[field];
  return typeof value === "string" ? value : "";
}

/**
 * A list computed on request (not stored), paginated like any other; its order is the array's
 * (leaf certificate first, the monitor's regions in order), whatever the profile's default sort.
 */
export function listComputed(services: Services, docs: readonly JsonObject[], request: ApiRequest, nameOf: (doc: JsonObject) => string): ApiResult {
  const params = parseListParams(request.query, { defaultSort: "created_at", cursorFormat: services.profile.cursorFormat });
  const records = docs.map((doc, index) => new StoredRecord(index + 1, doc));
  const matches = params.q === null ? undefined : (doc: JsonObject) => matchesSearch(params.q, nameOf(doc));
  const page = paginate(records, params, { matches, nameOf });
  return { status: 200, data: page.data, pagination: page.pagination };
}
