/**
 * Webhooks (spec 6, README "Webhooks"): events arrive as signed HTTP POSTs at a local receiver;
 * the signature is checked by a verifier written here from the documented scheme, independent of
 * the emulator's code. Deliveries are recorded with their attempts, retried with backoff,
 * redelivered on request, and /test sends a test event.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { beforeEach, describe, expect, test } from "vitest";
import { NOT_LOOPBACK } from "../../emulator/webhooks/deliverer.js";
import { FAST_WEBHOOKS, useEmulatorWith } from "../support/emulator.js";
import { contractClientOn, dataOf, type Json } from "./support/api.js";
import { eventually, startReceiver, type ReceivedRequest, type Receiver } from "../support/receiver.js";

let receiver: Receiver;

const on = useEmulatorWith(contractClientOn);


beforeEach(async () => {
  await on.emulator.admin.reset();
  receiver = await startReceiver();
  return () => receiver.close();
});

/**
 * The documented scheme: `X-Monitoring-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`,
 * keyed with the subscription's signing secret, `X-Monitoring-Timestamp` in Unix seconds.
 */
function verifySignature(request: ReceivedRequest, secret: string): boolean {
  const timestamp = request.headers["x-monitoring-timestamp"];
  const signature = request.headers["x-monitoring-signature"];
  if (typeof timestamp !== "string" || typeof signature !== "string" || !signature.startsWith("v1=")) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${request.body}`).digest();
  const given = Buffer.from(signature.slice(3), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function subscribe(events: string[], extra: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
  const subscription = dataOf(await on.api.post("/webhook-subscriptions", { url: receiver.url, events, ...extra }), 201);
  expect(subscription.signing_secret).toMatch(/^whsec_[0-9a-f]{32}$/);
  expect(subscription.signing_secret_last4).toBe(subscription.signing_secret.slice(-4));
  return { id: subscription.id, secret: subscription.signing_secret };
}

const eventType = (request: ReceivedRequest) => JSON.parse(request.body).type as string;

async function deliveries(subscriptionId: string): Promise<Json[]> {
  return dataOf(await on.api.get(`/webhook-subscriptions/${subscriptionId}/deliveries`), 200);
}

describe("delivery", () => {
  test("monitor and incident events arrive signed, with the documented payload and headers", async () => {
    const { id, secret } = await subscribe(["*"]);
    const monitor = dataOf(await on.api.post("/monitors", { name: "Shop", url: "https://shop.example.com" }), 201);
    dataOf(await on.api.post(`/monitors/${monitor.id}/pause`), 201);
    dataOf(await on.api.post(`/monitors/${monitor.id}/resume`), 201);
    const incident = dataOf(await on.api.post("/incidents", { title: "Checkout slow", monitor_id: monitor.id }), 201);
    dataOf(await on.api.post(`/incidents/${incident.id}/acknowledge`, { acknowledged_by: "alice@example.com" }), 201);

    const wanted = ["monitor.created", "monitor.paused", "monitor.resumed", "incident.created", "incident.acknowledged"];
    const received = await receiver.waitFor(wanted.length);
    expect(received.map(eventType).sort()).toEqual([...wanted].sort());
    for (const request of received) {
      expect(verifySignature(request, secret), request.body).toBe(true);
      expect(verifySignature(request, "whsec_00000000000000000000000000000000")).toBe(false);
      expect(request.headers["content-type"]).toBe("application/json");
      const payload = JSON.parse(request.body);
      expect(payload).toEqual({
        id: request.headers["x-monitoring-event-id"],
        type: request.headers["x-monitoring-event-type"],
        api_version: "2026-07-09",
        created_at: expect.any(String),
        client_id: null,
        data: { object: expect.objectContaining({ id: expect.any(String) }) },
      });
      expect(Math.abs(Number(request.headers["x-monitoring-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    }
    const paused = received.find((request) => eventType(request) === "monitor.paused")!;
    expect(JSON.parse(paused.body).data.object).toMatchObject({ id: monitor.id, status: "PAUSED", paused: true });

    const recorded = await eventually(() => deliveries(id), (items) => items.every((item) => item.status === "SUCCEEDED"));
    expect(recorded).toHaveLength(wanted.length);
    expect(recorded[0]).toMatchObject({
      subscription_id: id,
      event_id: expect.any(String),
      event_type: "monitor.created",
      status: "SUCCEEDED",
      attempt_count: 1,
      last_response_status: 204,
      attempts: [{ number: 1, started_at: expect.any(String), duration_ms: expect.any(Number), response_status: 204, error: null }],
    });
  });

  test("the signing secret is returned only at creation", async () => {
    const { id, secret } = await subscribe(["monitor.created"]);
    const listed = dataOf(await on.api.get("/webhook-subscriptions"), 200).find((item: Json) => item.id === id);
    expect(listed).not.toHaveProperty("signing_secret");
    expect(listed.signing_secret_last4).toBe(secret.slice(-4));
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  test("a subscription receives only the event kinds it names, and none while disabled", async () => {
    const { id } = await subscribe(["monitor.paused"]);
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://quiet.example.com" }), 201);
    dataOf(await on.api.post(`/monitors/${monitor.id}/pause`), 201);
    await receiver.waitFor(1);
    dataOf(await on.api.put(`/webhook-subscriptions/${id}`, { url: receiver.url, events: ["monitor.paused"], enabled: false }), 200);
    dataOf(await on.api.post(`/monitors/${monitor.id}/resume`), 201);
    dataOf(await on.api.post(`/monitors/${monitor.id}/pause`), 201);
    const test = dataOf(await on.api.post(`/webhook-subscriptions/${id}/test`), 202);
    await eventually(() => deliveries(id), (items) => items.some((item) => item.id === test.id && item.status === "SUCCEEDED"));
    expect(receiver.received.map(eventType)).toEqual(["monitor.paused", "webhook.test"]);
  });

  test("a client's subscription receives that client's events only", async () => {
    const client = dataOf(await on.api.post("/clients", { name: "Acme" }), 201);
    const { secret } = await subscribe(["monitor.created"], { client_id: client.id });
    dataOf(await on.api.post("/monitors", { url: "https://outside.example.com" }), 201);
    const inside = dataOf(await on.api.post("/monitors", { url: "https://inside.example.com", client_id: client.id }), 201);
    const [request] = await receiver.waitFor(1);
    expect(JSON.parse(request!.body)).toMatchObject({ client_id: client.id, data: { object: { id: inside.id } } });
    expect(verifySignature(request!, secret)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(1);
  });

  test("/test sends a signed webhook.test event and answers with its delivery", async () => {
    const { id, secret } = await subscribe(["monitor.created"]);
    const delivery = dataOf(await on.api.post(`/webhook-subscriptions/${id}/test`), 202);
    expect(delivery).toMatchObject({ subscription_id: id, event_type: "webhook.test", status: "PENDING" });
    const [request] = await receiver.waitFor(1);
    expect(eventType(request!)).toBe("webhook.test");
    expect(request!.headers["x-monitoring-delivery-id"]).toBe(delivery.id);
    expect(verifySignature(request!, secret)).toBe(true);
  });
});

describe("retries and redelivery", () => {
  test("a failing receiver is retried with growing delays until it succeeds", async () => {
    const { id } = await subscribe(["webhook.test"]);
    receiver.answerWith(500, 503);
    dataOf(await on.api.post(`/webhook-subscriptions/${id}/test`), 202);
    const attempts = await receiver.waitFor(3);
    expect(attempts.map((request) => request.headers["x-monitoring-attempt"])).toEqual(["1", "2", "3"]);
    const firstGap = attempts[1]!.receivedAt - attempts[0]!.receivedAt;
    const secondGap = attempts[2]!.receivedAt - attempts[1]!.receivedAt;
    expect(firstGap).toBeGreaterThanOrEqual(FAST_WEBHOOKS.backoffBaseMs - 5);
    expect(secondGap).toBeGreaterThanOrEqual(2 * FAST_WEBHOOKS.backoffBaseMs - 5);
    expect(new Set(attempts.map((request) => request.headers["x-monitoring-event-id"])).size).toBe(1);

    const [delivery] = await eventually(() => deliveries(id), (items) => items[0]?.status === "SUCCEEDED");
    expect(delivery.attempt_count).toBe(3);
    expect(delivery.attempts.map((attempt: Json) => attempt.response_status)).toEqual([500, 503, 204]);
  });

  test("a delivery that fails every attempt ends FAILED, and redelivery sends the same event again", async () => {
    const { id, secret } = await subscribe(["webhook.test"]);
    receiver.answerWith(500, 500, 500);
    const original = dataOf(await on.api.post(`/webhook-subscriptions/${id}/test`), 202);
    const [failed] = await eventually(() => deliveries(id), (items) => items[0]?.status === "FAILED");
    expect(failed).toMatchObject({ id: original.id, attempt_count: FAST_WEBHOOKS.maxAttempts, next_attempt_at: null, last_response_status: 500 });

    const redelivery = dataOf(await on.api.post(`/webhook-subscriptions/${id}/redeliver/${original.id}`), 202);
    expect(redelivery).toMatchObject({ redelivery_of: original.id, event_id: original.event_id, status: "PENDING" });
    const succeeded = await eventually(() => deliveries(id), (items) => items.find((item) => item.id === redelivery.id)?.status === "SUCCEEDED");
    expect(succeeded.find((item) => item.id === original.id).status).toBe("FAILED");
    const last = receiver.received.at(-1)!;
    expect(last.headers["x-monitoring-delivery-id"]).toBe(redelivery.id);
    expect(last.body).toBe(receiver.received[0]!.body);
    expect(verifySignature(last, secret)).toBe(true);
  });

  test("an unreachable receiver is recorded as a connection error", async () => {
    const url = receiver.url;
    await receiver.close();
    const subscription = dataOf(await on.api.post("/webhook-subscriptions", { url, events: ["webhook.test"] }), 201);
    dataOf(await on.api.post(`/webhook-subscriptions/${subscription.id}/test`), 202);
    const [failed] = await eventually(() => deliveries(subscription.id), (items) => items[0]?.status === "FAILED");
    expect(failed.attempts[0]).toMatchObject({ response_status: null, error: expect.stringContaining("ECONNREFUSED") });
    receiver = await startReceiver();
  });

  test("with deliveries kept to loopback hosts (the tests' setting), each attempt at another host fails at once, sent nowhere", async () => {
    const subscription = dataOf(await on.api.post("/webhook-subscriptions", { url: "https://hooks.example.com/in", events: ["webhook.test"] }), 201);
    dataOf(await on.api.post(`/webhook-subscriptions/${subscription.id}/test`), 202);
    const [failed] = await eventually(() => deliveries(subscription.id), (items) => items[0]?.status === "FAILED");
    expect(failed.attempts).toEqual(
      Array.from({ length: FAST_WEBHOOKS.maxAttempts }, (_, index) => expect.objectContaining({ number: index + 1, response_status: null, error: NOT_LOOPBACK })),
    );
    expect(receiver.received).toEqual([]);
  });

  test("redelivering a delivery of another subscription is 404", async () => {
    const first = await subscribe(["webhook.test"]);
    const second = await subscribe(["webhook.test"]);
    const delivery = dataOf(await on.api.post(`/webhook-subscriptions/${first.id}/test`), 202);
    const answer = await on.api.post(`/webhook-subscriptions/${second.id}/redeliver/${delivery.id}`);
    expect(answer.status).toBe(404);
  });
});
