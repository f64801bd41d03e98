/**
 * Clients (spec 4.9), the partitions of agency mode, with their portal settings, share links and
 * teams, and client templates (4.10). Clients cannot be deleted, only archived; nothing new can be
 * created inside an archived client.
 */
// @ts-nocheck

import { randomBytes } from "node:crypto";
import type { JsonObject, StoredRecord } from "../state/collection.js";
import { conflict, HttpError } from "../http/errors.js";
import { checkReference, listKind, newId, requestFields, requireRecord, stringField, writeDoc, type KindSpec } from "./common.js";
import { created, noContent, ok, type ApiRequest, type RouteRegistrar, type Services } from "./context.js";
import { throwIfIssues, type WriteMode } from "./validation.js";

export const clientKind: KindSpec = {
  collection: "clients",
  label: "client",
  clientScoped: false,
  nameOf: (doc) => stringField(doc, "name"),
  searchTexts: (doc) => [doc["name"], doc["description"], doc["website"], doc["contact_email"]],
  serverFields: ["archived", "archived_at"],
  writeOnly: [],
  table: "client",
  selfPath: "/clients",
};

export const templateKind: KindSpec = {
  collection: "client_templates",
  label: "client template",
  clientScoped: false,
  nameOf: (doc) => stringField(doc, "name"),
  searchTexts: (doc) => [doc["name"], doc["description"]],
  serverFields: [],
  writeOnly: [],
  table: "clientTemplate",
  selfPath: "/client-templates",
};

const shareLinkKind: KindSpec = {
  collection: "share_links",
  label: "share link",
  clientScoped: false,
  nameOf: (doc) => stringField(doc, "label"),
  searchTexts: (doc) => [doc["label"]],
  serverFields: ["token", "url"],
  writeOnly: [],
  table: "shareLink",
};

const teamKind: KindSpec = {
  collection: "teams",
  label: "team",
  clientScoped: false,
  nameOf: (doc) => stringField(doc, "name"),
  searchTexts: (doc) => [doc["name"]],
  serverFields: [],
  writeOnly: [],
};

/** Portal settings of a client that never set them; every field is always present. */
export const DEFAULT_PORTAL_SETTINGS: JsonObject = {
  enabled: false,
  title: null,
  logo_url: null,
  primary_color: null,
  custom_domain: null,
  show_incident_history: true,
};

export function registerClientRoutes(route: RouteRegistrar, services: Services): void {
  const { store, clock, events } = services;
  const clientOf = (request: ApiRequest) => requireRecord(store, clientKind, request.params["clientID"]!);
  const templateOf = (request: ApiRequest) => requireRecord(store, templateKind, request.params["templateID"]!);

  const writeClient = (mode: WriteMode, existing: StoredRecord | undefined, request: ApiRequest): StoredRecord => {
    const body = request.body;
    const issues = services.rules.client.check(body, mode);
    checkReference(store, body, "template_id", "client_templates", null, issues);
    throwIfIssues(issues);
    const doc = writeDoc(clientKind, mode, existing?.doc, body, {}, clock.nowIso());
    if (existing !== undefined) {
      existing.doc = doc;
      updateOwnersTeam(services, existing);
      return existing;
    }
    Object.assign(doc, { archived: false, archived_at: null });
    const record = store.insert("clients", doc, { portal_settings: { ...DEFAULT_PORTAL_SETTINGS } });
    store.insert("teams", { id: newId(), client_id: doc["id"], name: "Owners", members: ownersOf(doc), created_at: doc["created_at"], updated_at: doc["created_at"] });
    return record;
  };

  route("GET", "/clients", "client.write", (request) => listKind(services, clientKind, request));

  route("POST", "/clients", "client.write", (request) => {
    const record = writeClient("create", undefined, request);
    events.emit("client.created", record.doc);
    return created(record.doc, clientKind);
  });

  route("GET", "/clients/{clientID}", "client.write", (request) => ok(clientOf(request).doc, clientKind));

  route("PUT", "/clients/{clientID}", "client.write", (request) => {
    const record = writeClient("replace", clientOf(request), request);
    events.emit("client.updated", record.doc);
    return ok(record.doc, clientKind);
  });

  const setArchived = (archived: boolean) => (request: ApiRequest) => {
    const record = clientOf(request);
    if (record.doc["archived"] === archived) {
      throw conflict(`The client is ${archived ? "already" : "not"} archived`, { archived: record.doc["archived"] });
    }
    const now = clock.nowIso();
    record.doc = { ...record.doc, archived, archived_at: archived ? now : null, updated_at: now };
    events.emit(archived ? "client.archived" : "client.unarchived", record.doc);
    return created(record.doc, clientKind);
  };
  route("POST", "/clients/{clientID}/archive", "client.write", setArchived(true));
  route("POST", "/clients/{clientID}/unarchive", "client.write", setArchived(false));

  route("GET", "/clients/{clientID}/portal-settings", "client.write", (request) => ok(clientOf(request).internal["portal_settings"]));

  route("PUT", "/clients/{clientID}/portal-settings", "client.write", (request) => {
    const record = clientOf(request);
    throwIfIssues(services.rules.portalSettings.check(request.body, "replace"));
    const settings = { ...DEFAULT_PORTAL_SETTINGS };
    for (const [field, value] of Object.entries(request.body)) {
      if (value !== null) settings[field] = value;
    }
    record.internal = { ...record.internal, portal_settings: settings };
    return ok(settings);
  });

  route("GET", "/clients/{clientID}/share-links", "client.write", (request) => {
    const record = clientOf(request);
    return listKind(services, shareLinkKind, request, undefined, store.collection("share_links").where("client_id", record.doc["id"]));
  });

  route("POST", "/clients/{clientID}/share-links", "client.write", (request) => {
    const client = clientOf(request);
    const body = request.body;
    const issues = services.rules.shareLink.check(body, "create");
    const expiresAt = body["expires_at"];
    if (issues["expires_at"] === undefined && typeof expiresAt === "string" && Date.parse(expiresAt) <= clock.now()) {
      issues["expires_at"] = "must be in the future";
    }
    throwIfIssues(issues);
    if (client.doc["archived"] === true) throw conflict("The client is archived; unarchive it first", { client_id: client.doc["id"] });
    const token = `shr_${randomBytes(24).toString("base64url")}`;
    const now = clock.nowIso();
    const doc: JsonObject = {
      id: newId(),
      ...requestFields(shareLinkKind, body),
      client_id: client.doc["id"],
      expires_at: expiresAt ?? null,
      token,
      url: shareUrl(services, token),
      created_at: now,
      updated_at: now,
    };
    store.insert("share_links", doc);
    return created(doc, shareLinkKind);
  });

  route("DELETE", "/clients/{clientID}/share-links/{linkID}", "client.write", (request) => {
    const client = clientOf(request);
    const linkId = request.params["linkID"]!;
    const link = store.collection("share_links").get(linkId);
    if (link === undefined || link.doc["client_id"] !== client.doc["id"]) {
      throw new HttpError(404, "not_found", `No share link ${linkId} in this client`, { id: linkId });
    }
    store.collection("share_links").remove(linkId);
    return noContent();
  });

  route("GET", "/clients/{clientID}/teams", "client.read", (request) => {
    const record = clientOf(request);
    return listKind(services, teamKind, request, undefined, store.collection("teams").where("client_id", record.doc["id"]));
  });

  const writeTemplate = (mode: WriteMode, existing: StoredRecord | undefined, request: ApiRequest): StoredRecord => {
    throwIfIssues(services.rules.clientTemplate.check(request.body, mode));
    const doc = writeDoc(templateKind, mode, existing?.doc, request.body, {}, clock.nowIso());
    if (existing === undefined) return store.insert("client_templates", doc);
    existing.doc = doc;
    return existing;
  };

  route("GET", "/client-templates", null, (request) => listKind(services, templateKind, request));
  route("POST", "/client-templates", null, (request) => created(writeTemplate("create", undefined, request).doc, templateKind));
  route("GET", "/client-templates/{templateID}", null, (request) => ok(templateOf(request).doc, templateKind));
  route("PUT", "/client-templates/{templateID}", null, (request) => ok(writeTemplate("replace", templateOf(request), request).doc, templateKind));
  route("DELETE", "/client-templates/{templateID}", null, (request) => {
    const template = templateOf(request);
    const users = store
      .collection("clients")
      .all()
      .filter((client) => client.doc["template_id"] === template.doc["id"]);
    // Clients cannot be deleted, only archived, so archived ones must not keep a template alive forever.
    const activeUsers = users.filter((client) => client.doc["archived"] !== true).map((client) => client.doc["id"]);
    if (activeUsers.length > 0) throw conflict("Clients still use this template; change their template_id first", { client_ids: activeUsers });
    for (const client of users) client.doc = { ...client.doc, template_id: null, updated_at: clock.nowIso() };
    store.collection("client_templates").remove(String(template.doc["id"]));
    return noContent();
  });
}

/** The public status page a share link opens, or `undefined` for an unknown or expired token. */
export function sharedStatus(services: Services, token: string): JsonObject | undefined {
  const link = services.store.collection("share_links").all().find((record) => record.doc["token"] === token);
  if (link === undefined) return undefined;
  const expiresAt = link.doc["expires_at"];
  if (typeof expiresAt === "string" && Date.parse(expiresAt) <= services.clock.now()) return undefined;
  const clientId = link.doc["client_id"];
  const client = services.store.collection("clients").get(String(clientId));
  if (client === undefined) return undefined;
  const summary = (record: StoredRecord) => ({ id: record.doc["id"], name: record.doc["name"] ?? null, status: record.doc["status"] });
  return {
    client: { id: client.doc["id"], name: client.doc["name"] },
    monitors: services.store.collection("monitors").where("client_id", clientId).map(summary),
    heartbeats: services.store.collection("heartbeats").where("client_id", clientId).map(summary),
  };
}

/** Points share link URLs at the current origin (the port may differ after a restart). */
export function refreshShareUrls(services: Services): void {
  for (const record of services.store.collection("share_links").all()) {
    const url = shareUrl(services, String(record.doc["token"]));
    if (record.doc["url"] !== url) record.doc = { ...record.doc, url };
  }
}

function shareUrl(services: Services, token: string): string {
  return `${services.origin()}/share/${token}`;
}

function ownersOf(client: JsonObject): JsonObject[] {
  return typeof client["contact_email"] === "string" ? [{ email: client["contact_email"], role: "owner" }] : [];
}

function updateOwnersTeam(services: Services, client: StoredRecord): void {
  const owners = services.store.collection("teams").where("client_id", client.doc["id"]).find((team) => team.doc["name"] === "Owners");
  if (owners !== undefined) owners.doc = { ...owners.doc, members: ownersOf(client.doc), updated_at: client.doc["updated_at"] };
}
