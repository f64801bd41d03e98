/**
 * Notification channels (spec 4.7). `credentials` are write-only in the default profile: stored,
 * never returned (`credentials_set` tells whether there are any); the alt profile returns them. The emulator sends nothing to the destination;
 * notifications land in the outbox of the admin API.
 */
// @ts-nocheck

import type { StoredRecord } from "../state/collection.js";
import { conflict } from "../http/errors.js";
import { checkClientId, listKind, requireActiveClient, requireRecord, stringField, writeDoc, type KindSpec } from "./common.js";
import { accepted, created, noContent, ok, type ApiRequest, type RouteRegistrar, type Services } from "./context.js";
import { throwIfIssues, type WriteMode } from "./validation.js";

export const channelKind: KindSpec = {
  collection: "notification_channels",
  label: "notification channel",
  clientScoped: true,
  nameOf: (doc) => stringField(doc, "name"),
  searchTexts: (doc) => [doc["name"], doc["kind"]],
  serverFields: ["credentials_set"],
  writeOnly: ["credentials"],
  table: "notificationChannel",
  selfPath: "/notification_channels",
};

export function registerChannelRoutes(route: RouteRegistrar, services: Services): void {
  const { store, clock, outbox } = services;
  const channelOf = (request: ApiRequest): StoredRecord => requireRecord(store, channelKind, request.params["channelID"]!);

  const write = (mode: WriteMode, existing: StoredRecord | undefined, request: ApiRequest): StoredRecord => {
    const body = request.body;
    const issues = services.rules.notificationChannel.check(body, mode);
    checkClientId(store, body, existing?.doc, issues);
    if (existing !== undefined && body["kind"] !== undefined && body["kind"] !== existing.doc["kind"]) {
      issues["kind"] ??= "cannot change; create a new channel of the other kind";
    }
    throwIfIssues(issues);
    if (existing === undefined) requireActiveClient(store, body["client_id"]);
    const doc = writeDoc(channelKind, mode, existing?.doc, body, {}, clock.nowIso());
    const credentials = body["credentials"];
    const hasCredentials = credentials !== null && typeof credentials === "object" && Object.keys(credentials).length > 0;
    const internal = hasCredentials ? { credentials } : {};
    doc["credentials_set"] = hasCredentials;
    // The alt profile shows credentials in its answers, as some servers do.
    if (services.profile.channels.returnCredentials && hasCredentials) doc["credentials"] = structuredClone(credentials);
    if (existing === undefined) return store.insert("notification_channels", doc, internal);
    existing.doc = doc;
    existing.internal = internal;
    return existing;
  };

  route("GET", "/notification_channels", "notification_channel.write", (request) => listKind(services, channelKind, request));
  route("POST", "/notification_channels", "notification_channel.write", (request) => created(write("create", undefined, request).doc, channelKind));
  route("GET", "/notification_channels/{channelID}", "notification_channel.write", (request) => ok(channelOf(request).doc, channelKind));
  route("PUT", "/notification_channels/{channelID}", "notification_channel.write", (request) =>
    ok(write("replace", channelOf(request), request).doc, channelKind),
  );

  route("DELETE", "/notification_channels/{channelID}", "notification_channel.write", (request) => {
    const channel = channelOf(request);
    const id = String(channel.doc["id"]);
    const policies = store
      .collection("escalation_policies")
      .all()
      .filter((policy) => (policy.doc["steps"] as { notification_channel_ids?: string[] }[]).some((step) => step.notification_channel_ids?.includes(id)))
      .map((policy) => policy.doc["id"]);
    if (policies.length > 0) {
      throw conflict("The channel is named in escalation policy steps; remove it from them first", { escalation_policy_ids: policies });
    }
    for (const monitor of store.collection("monitors").where("client_id", channel.doc["client_id"] ?? null)) {
      const attached = monitor.internal["notification_channel_ids"] as string[] | undefined;
      if (attached?.includes(id)) {
        monitor.internal = { ...monitor.internal, notification_channel_ids: attached.filter((other) => other !== id) };
      }
    }
    store.collection("notification_channels").remove(id);
    return noContent();
  });

  route("POST", "/notification_channels/{channelID}/test", "notification_channel.write", (request) => {
    const channel = channelOf(request);
    const notification = outbox.send({
      channel_id: String(channel.doc["id"]),
      channel_kind: String(channel.doc["kind"]),
      reason: "channel_test",
      subject: `Test notification for ${stringField(channel.doc, "name")}`,
      incident_id: null,
      monitor_id: null,
      sent_at: clock.nowIso(),
    });
    return accepted({ notification_channel_id: channel.doc["id"], notification_id: notification.id, accepted_at: notification.sent_at });
  });
}
