/**
 * Delivers webhook events as real HTTP POSTs, signed, retried with exponential backoff, and
 * records every attempt on the delivery object that `GET .../deliveries` lists.
 *
 * A delivery is `PENDING` while attempts remain, `SUCCEEDED` after a 2xx, and `FAILED` once the
 * last attempt failed (a non-2xx answer, a timeout or a connection error). Pending deliveries
 * survive a restart with a data file and resume on start.
 */
import { Agent, request } from "undici";
import type { JsonObject, StoredRecord } from "../state/collection.js";
import type { Store } from "../state/store.js";
import type { Clock } from "../clock.js";
import { newId } from "../api/common.js";
import { signPayload } from "./signature.js";

export interface DeliveryOptions {
  /** Attempts per delivery, the first included. Default 5. */
  maxAttempts: number;
  /** Wait before the second attempt; it doubles for each further one. Default 1000 ms. */
  backoffBaseMs: number;
  /** Limit of one attempt, from connecting to the end of the answer. Default 10 000 ms. */
  timeoutMs: number;
  /**
   * Deliver to loopback hosts only (`localhost`, 127.0.0.0/8, `[::1]`). An attempt to any other
   * host fails at once, with no DNS lookup and no connection: for machines without a network, where
   * each lookup of a made-up host can hold a resolver thread for seconds. Default false.
   */
  loopbackOnly: boolean;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = { maxAttempts: 5, backoffBaseMs: 1000, timeoutMs: 10_000, loopbackOnly: false };

/** The error an attempt records when `loopbackOnly` keeps it from leaving the machine. */
export const NOT_LOOPBACK = "not delivered: the emulator delivers to loopback hosts only (--webhook-loopback-only)";

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export const USER_AGENT = "pulumi-monitoring-emulator/0.1";

/** Attempts kept on a delivery object; the oldest go first. */
const ATTEMPTS_SHOWN = 20;

export class WebhookDeliverer {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly agent = new Agent({ keepAliveTimeout: 1000 });
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly options: DeliveryOptions,
  ) {}

  /** Records a new `PENDING` delivery of an event to `subscription` and schedules its first attempt. */
  enqueue(subscription: StoredRecord, eventType: string, eventId: string, body: string, redeliveryOf: string | null = null): JsonObject {
    const now = this.clock.nowIso();
    const doc: JsonObject = {
      id: newId(),
      subscription_id: subscription.doc["id"],
      event_id: eventId,
      event_type: eventType,
      status: "PENDING",
      attempt_count: 0,
      max_attempts: this.options.maxAttempts,
      next_attempt_at: now,
      last_attempt_at: null,
      last_response_status: null,
      redelivery_of: redeliveryOf,
      attempts: [],
      created_at: now,
      updated_at: now,
    };
    this.store.insert("deliveries", doc, { body });
    this.schedule(String(doc["id"]), 0);
    return doc;
  }

  /** A new delivery of the same event (same body, fresh timestamp and signature). */
  redeliver(original: StoredRecord): JsonObject {
    const subscription = this.store.collection("webhook_subscriptions").get(String(original.doc["subscription_id"]))!;
    return this.enqueue(
      subscription,
      String(original.doc["event_type"]),
      String(original.doc["event_id"]),
      String(original.internal["body"]),
      String(original.doc["id"]),
    );
  }

  /** Schedules every `PENDING` delivery of the state, e.g. after a restart. */
  resumePending(): void {
    for (const record of this.store.collection("deliveries").all()) {
      if (record.doc["status"] !== "PENDING") continue;
      const due = Date.parse(String(record.doc["next_attempt_at"])) - this.clock.now();
      this.schedule(String(record.doc["id"]), Math.max(0, due));
    }
  }

  cancelAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelAll();
    await this.agent.close();
  }

  private schedule(deliveryId: string, delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(deliveryId));
    const timer = setTimeout(() => {
      this.timers.delete(deliveryId);
      void this.attempt(deliveryId);
    }, delayMs);
    timer.unref();
    this.timers.set(deliveryId, timer);
  }

  private async attempt(deliveryId: string): Promise<void> {
    const delivery = this.store.collection("deliveries").get(deliveryId);
    if (delivery === undefined || delivery.doc["status"] !== "PENDING") return;
    const subscription = this.store.collection("webhook_subscriptions").get(String(delivery.doc["subscription_id"]));
    if (subscription === undefined) return;

    const number = Number(delivery.doc["attempt_count"]) + 1;
    const startedAt = this.clock.now();
    const timestamp = Math.floor(startedAt / 1000);
    const body = String(delivery.internal["body"]);
    let responseStatus: number | null = null;
    let error: string | null = null;
    try {
      if (this.options.loopbackOnly && !isLoopback(String(subscription.doc["url"]))) throw new Error(NOT_LOOPBACK);
      const response = await request(String(subscription.doc["url"]), {
        method: "POST",
        dispatcher: this.agent,
        headers: {
          "content-type": "application/json",
          "user-agent": USER_AGENT,
          "x-monitoring-event-id": String(delivery.doc["event_id"]),
          "x-monitoring-event-type": String(delivery.doc["event_type"]),
          "x-monitoring-delivery-id": deliveryId,
          "x-monitoring-attempt": String(number),
          "x-monitoring-timestamp": String(timestamp),
          "x-monitoring-signature": signPayload(String(subscription.internal["signing_secret"]), timestamp, body),
        },
        body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await response.body.dump();
      responseStatus = response.statusCode;
    } catch (failure) {
      error = describeFailure(failure);
    }
    if (this.stopped) return;
    // The delivery may have been deleted with its subscription while the request was in flight.
    if (this.store.collection("deliveries").get(deliveryId) !== delivery) return;

    const finishedAt = this.clock.now();
    const succeeded = responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
    const attempts = [
      ...(delivery.doc["attempts"] as JsonObject[]),
      {
        number,
        started_at: new Date(startedAt).toISOString(),
        duration_ms: finishedAt - startedAt,
        response_status: responseStatus,
        error,
      },
    ].slice(-ATTEMPTS_SHOWN);
    const exhausted = number >= Number(delivery.doc["max_attempts"]);
    const retryDelay = this.options.backoffBaseMs * 2 ** (number - 1);
    delivery.doc = {
      ...delivery.doc,
      status: succeeded ? "SUCCEEDED" : exhausted ? "FAILED" : "PENDING",
      attempt_count: number,
      attempts,
      last_attempt_at: new Date(startedAt).toISOString(),
      last_response_status: responseStatus,
      next_attempt_at: succeeded || exhausted ? null : new Date(finishedAt + retryDelay).toISOString(),
      updated_at: new Date(finishedAt).toISOString(),
    };
    if (!succeeded && !exhausted) this.schedule(deliveryId, retryDelay);
    this.store.commit()?.catch((failure: unknown) => console.error("emulator: could not save a delivery attempt:", failure));
  }
}

function describeFailure(failure: unknown): string {
  if (failure instanceof Error) {
    const code = (failure as NodeJS.ErrnoException).code;
    if (failure.name === "TimeoutError" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") return "timeout";
    return code === undefined ? failure.message : `${code}: ${failure.message}`;
  }
  return String(failure);
}
