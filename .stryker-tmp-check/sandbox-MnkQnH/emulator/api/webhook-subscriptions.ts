/**
 * Webhook subscriptions (spec 4.8, beta). The signing secret is returned once, in the create
 * response; later responses show its last four characters.
 */
// @ts-nocheck

import { randomBytes } from "node:crypto";
import type { JsonObject, StoredRecord } from "../state/collection.js";
import { HttpError } from "../http/errors.js";
import { checkClientId, listKind, requireActiveClient, requireRecord, stringField, writeDoc, type KindSpec } from "./common.js";
import { accepted, created, noContent, ok, type ApiRequest, type RouteRegistrar, type Services } from "./context.js";
import { throwIfIssues, type FieldIssues, type WriteMode } from "./validation.js";
import { ALL_EVENTS, EVENT_TYPES } from "../webhooks/events.js";
import type { WebhookDeliverer } from "../webhooks/deliverer.js";

export const subscriptionKind: KindSpec = {
  collection: "webhook_subscriptions",
  label: "webhook subscription",
  clientScoped: true,
  nameOf: (doc) => stringField(doc, "description") || stringField(doc, "url"),
  searchTexts: (doc) => [doc["url"], doc["description"]],
  serverFields: ["signing_secret", "signing_secret_last4"],
  writeOnly: [],
  table: "webhookSubscription",
};

const deliveryKind: KindSpec = {
  collection: "deliveries",
  label: "delivery",
  clientScoped: false,
  nameOf: (doc) => stringField(doc, "event_type"),
  searchTexts: (doc) => [doc["event_type"], doc["status"]],
  serverFields: [],
  writeOnly: [],
};


export function registerSubscriptionRoutes(route: RouteRegistrar, services: Services, deliverer: WebhookDeliverer): void {
  const { store, clock, events } = services;
  const subscriptionOf = (request: ApiRequest) => requireRecord(store, subscriptionKind, request.params["subscriptionID"]!);

  const write = (mode: WriteMode, existing: StoredRecord | undefined, request: ApiRequest): StoredRecord => {
    const body = request.body;
    const issues = services.rules.webhookSubscription.check(body, mode);
    checkClientId(store, body, existing?.doc, issues);
    checkEventKinds(body, issues);
    throwIfIssues(issues);
    if (existing === undefined) requireActiveClient(store, body["client_id"]);
    const doc = writeDoc(subscriptionKind, mode, existing?.doc, body, services.rules.webhookSubscription.defaults(), clock.nowIso());
    if (existing !== undefined) {
      existing.doc = doc;
      return existing;
    }
    const secret = `whsec_${randomBytes(16).toString("hex")}`;
    doc["signing_secret_last4"] = secret.slice(-4);
    return store.insert("webhook_subscriptions", doc, { signing_secret: secret });
  };

  route("GET", "/webhook-subscriptions", "webhook.write", (request) => listKind(services, subscriptionKind, request));

  route("POST", "/webhook-subscriptions", "webhook.write", (request) => {
    const record = write("create", undefined, request);
    return created({ ...record.doc, signing_secret: record.internal["signing_secret"] }, subscriptionKind);
  });

  route("PUT", "/webhook-subscriptions/{subscriptionID}", "webhook.write", (request) =>
    ok(write("replace", subscriptionOf(request), request).doc, subscriptionKind),
  );

  route("DELETE", "/webhook-subscriptions/{subscriptionID}", "webhook.write", (request) => {
    const subscription = subscriptionOf(request);
    const deliveries = store.collection("deliveries");
    for (const delivery of [...deliveries.where("subscription_id", subscription.doc["id"])]) deliveries.remove(String(delivery.doc["id"]));
    store.collection("webhook_subscriptions").remove(String(subscription.doc["id"]));
    return noContent();
  });

  route("GET", "/webhook-subscriptions/{subscriptionID}/deliveries", "webhook.read", (request) => {
    const subscription = subscriptionOf(request);
    return listKind(services, deliveryKind, request, undefined, store.collection("deliveries").where("subscription_id", subscription.doc["id"]));
  });

  route("POST", "/webhook-subscriptions/{subscriptionID}/redeliver/{deliveryID}", "webhook.write", (request) => {
    const subscription = subscriptionOf(request);
    const deliveryId = request.params["deliveryID"]!;
    const delivery = store.collection("deliveries").get(deliveryId);
    if (delivery === undefined || delivery.doc["subscription_id"] !== subscription.doc["id"]) {
      throw new HttpError(404, "not_found", `No delivery ${deliveryId} of this subscription`, { id: deliveryId });
    }
    return accepted(deliverer.redeliver(delivery), deliveryKind);
  });

  route("POST", "/webhook-subscriptions/{subscriptionID}/test", "webhook.write", (request) => {
    const subscription = subscriptionOf(request);
    return accepted(events.sendTest(String(subscription.doc["id"])), deliveryKind);
  });
}

/** `events` must name known event kinds, or be `["*"]`. */
function checkEventKinds(body: JsonObject, issues: FieldIssues): void {
  const kinds = body["events"];
  if (!Array.isArray(kinds)) return;
  kinds.forEach((kind: unknown, index) => {
    const field = `events[${index}]`;
    if (typeof kind !== "string" || issues[field] !== undefined || issues["events"] !== undefined) return;
    if (kind === ALL_EVENTS) {
      if (kinds.length > 1) issues[field] = `"*" subscribes to every event and must be the only entry`;
    } else if (!(EVENT_TYPES as readonly string[]).includes(kind)) {
      issues[field] = `unknown event kind; known kinds: ${EVENT_TYPES.join(", ")}`;
    }
  });
}
