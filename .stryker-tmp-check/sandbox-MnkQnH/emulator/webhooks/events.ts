/**
 * Events and their fan-out to webhook subscriptions. Emitting an event records one delivery per
 * matching subscription (in the same state change as the cause, so a committed change never loses
 * its deliveries) and hands it to the deliverer.
 */
// @ts-nocheck

import { randomUUID } from "node:crypto";
import type { JsonObject } from "../state/collection.js";
import type { Store } from "../state/store.js";
import type { Clock } from "../clock.js";
import type { WebhookDeliverer } from "./deliverer.js";

export const API_VERSION = "2026-07-09";

export const EVENT_TYPES = [
  "monitor.created",
  "monitor.updated",
  "monitor.deleted",
  "monitor.paused",
  "monitor.resumed",
  "monitor.down",
  "monitor.up",
  "heartbeat.created",
  "heartbeat.updated",
  "heartbeat.deleted",
  "heartbeat.paused",
  "heartbeat.resumed",
  "heartbeat.up",
  "heartbeat.late",
  "heartbeat.down",
  "incident.created",
  "incident.acknowledged",
  "incident.resolved",
  "client.created",
  "client.updated",
  "client.archived",
  "client.unarchived",
  "webhook.test",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Subscribes to every event type. */
export const ALL_EVENTS = "*";

export class EventBus {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly deliverer: WebhookDeliverer,
    /** The event's object as the profile shows objects in responses. */
    private readonly present: (type: EventType, object: JsonObject) => unknown,
  ) {}

  /**
   * Delivers `type` about `object` to every enabled subscription that wants it: subscriptions
   * outside any client get every client's events; a client's subscriptions get that client's.
   */
  emit(type: EventType, object: JsonObject): void {
    const clientId = (object["client_id"] as string | null | undefined) ?? null;
    const subscriptions = this.store.collection("webhook_subscriptions");
    const interested = clientId === null ? subscriptions.where("client_id", null) : [...subscriptions.where("client_id", null), ...subscriptions.where("client_id", clientId)];
    let payload: { id: string; body: string } | undefined;
    for (const subscription of interested) {
      const doc = subscription.doc;
      if (doc["enabled"] === false) continue;
      const events = doc["events"] as unknown[];
      if (!events.includes(ALL_EVENTS) && !events.includes(type)) continue;
      payload ??= this.payload(type, object, clientId);
      this.deliverer.enqueue(subscription, type, payload.id, payload.body);
    }
  }

  /** A `webhook.test` event to one subscription, whatever its `events` and `enabled`. */
  sendTest(subscriptionId: string): JsonObject {
    const subscription = this.store.collection("webhook_subscriptions").get(subscriptionId)!;
    const clientId = (subscription.doc["client_id"] as string | null) ?? null;
    const payload = this.payload("webhook.test", { subscription_id: subscriptionId, message: "This is a test event." }, clientId);
    return this.deliverer.enqueue(subscription, "webhook.test", payload.id, payload.body);
  }

  private payload(type: EventType, object: JsonObject, clientId: string | null): { id: string; body: string } {
    const id = randomUUID();
    const body = JSON.stringify({
      id,
      type,
      api_version: API_VERSION,
      created_at: this.clock.nowIso(),
      client_id: clientId,
      data: { object: this.present(type, object) },
    });
    return { id, body };
  }
}
