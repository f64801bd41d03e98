import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../provider/http/client.js";
import type { RequestLimiter } from "../../provider/http/rate-limit.js";
import { describeRetry, type RequestEvent, type RetryEvent } from "../../provider/http/request.js";
import { apiError, FaultServer, ok, type Reply } from "./fault-server.js";
import { API_KEY, clientFor, rejection } from "./support.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: FaultServer;
const clients: ApiClient[] = [];

/**
 * A limiter that starts every attempt at once: for retry tests with a 429 among the answers, whose
 * point is the retry, not the second-long pause a 429 puts on the whole client (that pause is
 * test/http/rate-limit.test.ts's, on a clock advanced by hand).
 */
const unpaced: RequestLimiter = { acquire: async () => performance.now(), throttled: () => {}, succeeded: () => {} };

function connect(overrides: Parameters<typeof clientFor>[1] = {}): ApiClient {
  const client = clientFor(server, overrides);
  clients.push(client);
  return client;
}

beforeEach(async () => {
  server = await FaultServer.start();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close();
});

/** Milliseconds between the server's receipt of request `index - 1` and `index`. */
function gapBefore(index: number): number {
  const previous = server.requests[index - 1];
  const current = server.requests[index];
  if (previous === undefined || current === undefined) throw new Error(`no request pair at ${index}`);
  return current.receivedAtMs - previous.receivedAtMs;
}

describe("requests and responses", () => {
  it("sends bearer auth, JSON and an encoded query, and unwraps the envelope", async () => {
    server.script({ status: 201, json: { data: { id: "m1", name: "api" } }, headers: { "x-request-id": "req_create" } });
    const response = await connect().request<{ id: string }>("POST", "/monitors", {
      query: { q: "a b&c/é", all_clients: true, limit: 10, client_id: undefined },
      body: { name: "api", interval_seconds: 30 },
    });

    expect(response).toEqual({
      status: 201,
      data: { id: "m1", name: "api" },
      requestId: "req_create",
      replayed: false,
      attempts: 1,
    });
    const [seen] = server.requests;
    expect(seen?.method).toBe("POST");
    expect(seen?.path).toBe("/monitors");
    expect(seen?.query.toString()).toBe("q=a+b%26c%2F%C3%A9&all_clients=true&limit=10");
    expect(seen?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(seen?.headers["content-type"]).toBe("application/json");
    expect(seen?.headers.accept).toBe("application/json");
    expect(seen?.headers["user-agent"]).toMatch(/^pulumi-monitoring /);
    expect(seen?.headers["idempotency-key"]).toBeUndefined();
    expect(JSON.parse(seen?.body ?? "")).toEqual({ name: "api", interval_seconds: 30 });
  });

  it("sends no body or content type on a GET and accepts a trailing slash on the base URL", async () => {
    await connect({ baseUrl: `${server.baseUrl}/`, userAgent: "deploy-bot/2" }).request("GET", "/monitors/m1");
    const [seen] = server.requests;
    expect(seen?.path).toBe("/monitors/m1");
    expect(seen?.body).toBe("");
    expect(seen?.headers["content-type"]).toBeUndefined();
    expect(seen?.headers["user-agent"]).toBe("deploy-bot/2");
  });

  it("answers 204 with undefined data", async () => {
    server.script({ status: 204 });
    const response = await connect().request("DELETE", "/monitors/m1");
    expect(response.status).toBe(204);
    expect(response.data).toBeUndefined();
  });

  it("reports a replay from the server's idempotency store", async () => {
    server.script({ status: 201, json: { data: { id: "m1" } }, headers: { "idempotent-replayed": "true" } });
    const response = await connect().request("POST", "/monitors", { body: {}, idempotencyKey: "create-m1" });
    expect(response.replayed).toBe(true);
  });

  it("tolerates extra fields in the envelope and the pagination object", async () => {
    server.script(
      ok([{ id: "a", brand_new_field: { nested: true } }], {
        pagination: { has_more: false, next_cursor: null, limit: 250, cursor: null, prev_cursor: null, total: 1 },
        meta: { server: "v1.9" },
      }),
    );
    const response = await connect().request<unknown[]>("GET", "/monitors");
    expect(response.data).toEqual([{ id: "a", brand_new_field: { nested: true } }]);
    expect(response.pagination).toEqual({ cursor: null, has_more: false, limit: 250, next_cursor: null, prev_cursor: null });
  });

  it.each<[string, Reply]>([
    ["a non-JSON success body", { status: 200, text: "<html>welcome</html>", headers: { "content-type": "text/html" } }],
    ["a JSON body without data", { status: 200, json: { result: 1 } }],
    ["a JSON array body", { status: 200, json: [1, 2] }],
  ])("turns %s into invalid_response without retrying", async (_, reply) => {
    server.script(reply);
    const error = await rejection(connect().request("GET", "/monitors"));
    expect(error.code).toBe("invalid_response");
    expect(error.status).toBe(200);
    expect(server.requests).toHaveLength(1);
  });

  it("checks the success status against expectedStatus", async () => {
    server.script(ok({ id: "m1" }), { status: 201, json: { data: { id: "m2" } } });
    const client = connect();
    const error = await rejection(client.request("POST", "/monitors", { body: {}, expectedStatus: [201] }));
    expect(error.code).toBe("invalid_response");
    expect(error.message).toContain("status 200, expected 201");
    await expect(client.request("POST", "/monitors", { body: {}, expectedStatus: 201 })).resolves.toMatchObject({
      status: 201,
      data: { id: "m2" },
    });
  });

  it("reuses keep-alive connections for sequential requests", async () => {
    const client = connect();
    for (let index = 0; index < 20; index++) await client.request("GET", `/monitors/m${index}`);
    expect(server.requests).toHaveLength(20);
    // undici frees a connection a tick after the body ends, so the pool may open a second one.
    expect(server.connectionCount).toBeLessThanOrEqual(2);
  });

  it("opens no more than maxConnections sockets for concurrent requests", async () => {
    server.respondWith(() => ({ status: 200, json: { data: {} }, delayMs: 20 }));
    const client = connect({ maxConnections: 4 });
    await Promise.all(Array.from({ length: 40 }, (_, index) => client.request("GET", `/monitors/m${index}`)));
    expect(server.requests).toHaveLength(40);
    expect(server.connectionCount).toBe(4);
  });

  it.each(["monitors", "/monitors?limit=5", "/monitors#top"])("rejects the path %j", async (path) => {
    await expect(connect().request("GET", path)).rejects.toThrow(new TypeError(`path must start with "/" and carry no query (use options.query): ${path}`));
    expect(server.requests).toHaveLength(0);
  });
});

describe("retries", () => {
  it.each([503, 500, 502, 504, 429])("retries a GET answered %i, then succeeds", async (status) => {
    server.script(apiError(status, "transient", "try again"), apiError(status, "transient", "try again"));
    const response = await connect(status === 429 ? { rateLimiter: unpaced } : {}).request("GET", "/monitors");
    expect(response.status).toBe(200);
    expect(response.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
  });

  it("waits the seconds of Retry-After before the retry, a wait that fits in the retry budget", async () => {
    server.script(apiError(429, "rate_limited", "slow down", { headers: { "retry-after": "1" } }));
    const response = await connect({ retryBudgetMs: 1_500 }).request("GET", "/monitors");
    expect(response.attempts).toBe(2);
    expect(gapBefore(1)).toBeGreaterThanOrEqual(990);
  });

  it("waits until the HTTP date of Retry-After before the retry", async () => {
    // HTTP dates have whole seconds, so "now + 2 s" truncated is still more than a second away.
    const retryAt = new Date(Date.now() + 2000).toUTCString();
    server.script(apiError(503, "unavailable", "maintenance", { headers: { "retry-after": retryAt } }));
    await connect().request("GET", "/monitors");
    // The retry arrives at the date, not before (on the same clock as the date, give or take its rounding).
    const retriedAt = performance.timeOrigin + (server.requests[1]?.receivedAtMs ?? 0);
    expect(retriedAt).toBeGreaterThanOrEqual(Date.parse(retryAt) - 20);
  });

  it("caps a long Retry-After at retryAfterMaxMs", async () => {
    server.script(apiError(503, "unavailable", "maintenance", { headers: { "retry-after": "3600" } }));
    const response = await connect({ retryAfterMaxMs: 50 }).request("GET", "/monitors");
    expect(response.attempts).toBe(2);
    expect(gapBefore(1)).toBeGreaterThanOrEqual(45);
    expect(gapBefore(1)).toBeLessThan(1000);
  });

  it("sends one idempotency key on every retry of an operation and a new one per operation", async () => {
    const client = connect();
    server.script(apiError(503, "unavailable", "busy"), apiError(500, "internal_error", "oops"));
    await client.request("POST", "/monitors", { body: { name: "a" }, idempotencyKey: "auto" });
    await client.request("POST", "/monitors", { body: { name: "b" }, idempotencyKey: "auto" });
    await client.request("POST", "/monitors", { body: { name: "c" }, idempotencyKey: "create-monitor-c" });

    const keys = server.requests.map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(5);
    const [first, firstRetry, secondRetry, second, caller] = keys;
    expect(first).toMatch(UUID);
    expect([firstRetry, secondRetry]).toEqual([first, first]);
    expect(second).toMatch(UUID);
    expect(second).not.toBe(first);
    expect(caller).toBe("create-monitor-c");
  });

  it.each(["POST", "PATCH"] as const)("sends a %s without idempotency key once, even on 503", async (method) => {
    server.respondWith(() => apiError(503, "unavailable", "busy", { requestId: "req_once" }));
    const error = await rejection(connect().request(method, "/monitors/m1", { body: { name: "x" } }));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ status: 503, code: "unavailable", attempts: 1, requestId: "req_once" });
  });

  it.each<[string, "GET" | "POST", string | undefined]>([
    ["a GET", "GET", undefined],
    ["a keyed POST", "POST", "auto"],
  ])("retries %s whose connection the server drops", async (_, method, idempotencyKey) => {
    server.script({ dropConnection: true }, { dropConnection: true });
    const response = await connect().request(method, "/monitors", {
      ...(method === "POST" ? { body: { name: "x" } } : {}),
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    expect(response.status).toBe(200);
    expect(response.attempts).toBe(3);
  });

  it("does not repeat a POST without key whose connection dropped: the server may have acted", async () => {
    server.script({ dropConnection: true });
    const error = await rejection(connect().request("POST", "/monitors", { body: { name: "x" } }));
    expect(error).toMatchObject({ status: 0, code: "network_error", attempts: 1 });
    expect(error.message).toMatch(/^POST \/monitors failed with network_error: /);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a refused connection of a server that answered before, even for a POST without key, then reports network_error", async () => {
    const leaving = await FaultServer.start();
    leaving.script(ok({ id: "m1" }));
    const client = connect({ baseUrl: leaving.baseUrl, maxRetries: 2 });
    await client.request("GET", "/monitors/m1");
    await leaving.close();
    const error = await rejection(client.request("POST", "/monitors", { body: { name: "x" } }));
    expect(error).toMatchObject({ status: 0, code: "network_error", attempts: 3 });
    expect(error.message).toContain("after 3 attempts");
    expect(error.message).not.toContain("nothing answers");
  });

  it("times out slow attempts, retries them and finally gives up with code timeout", async () => {
    server.respondWith(() => ({ status: 200, json: { data: {} }, delayMs: 1000 }));
    const client = connect({ requestTimeoutMs: 100, maxRetries: 2 });
    const started = performance.now();
    const error = await rejection(client.request("GET", "/monitors"));
    expect(performance.now() - started).toBeLessThan(900);
    expect(error).toMatchObject({ status: 0, code: "timeout", attempts: 3 });
    expect(error.message).toMatch(
      /^GET \/monitors failed with timeout after 3 attempts over 0\.[3-8] s: no complete response within 100 ms$/,
    );
    expect(server.requests).toHaveLength(3);
  });

  it("does not count the wait for a free connection against the timeout", async () => {
    // Six answers of 100 ms in a row through one connection: the last waits 500 ms for it, past the
    // 350 ms timeout, while each answer itself leaves 250 ms of slack for a busy machine.
    server.respondWith(() => ({ status: 200, json: { data: {} }, delayMs: 100 }));
    const client = connect({ maxConnections: 1, requestTimeoutMs: 350 });
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) => client.request("GET", `/monitors/m${index}`)),
    );
    expect(responses.map((response) => response.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(server.connectionCount).toBe(1);
  });

  it.each<[string, Reply]>([
    ["slow headers", { status: 200, json: { data: {} }, delayMs: 1000 }],
    ["a stalled body", { status: 200, json: { data: { padding: "x".repeat(64) } }, stallBodyMs: 1000 }],
  ])("recovers from a timeout on %s with the next attempt", async (_, slowReply) => {
    server.script(slowReply, ok({ id: "m1" }));
    const response = await connect({ requestTimeoutMs: 150 }).request("GET", "/monitors/m1");
    expect(response).toMatchObject({ status: 200, data: { id: "m1" }, attempts: 2 });
  });

  it("gives up after maxRetries with status, code, message and request id in the error", async () => {
    server.respondWith(() => apiError(503, "unavailable", "Service is down", { requestId: "req_0123abcd" }));
    const error = await rejection(connect({ maxRetries: 3 }).request("GET", "/monitors", { query: { limit: 5 } }));
    expect(server.requests).toHaveLength(4);
    expect(error).toMatchObject({ status: 503, code: "unavailable", requestId: "req_0123abcd", attempts: 4 });
    expect(error.message).toMatch(
      /^GET \/monitors failed with 503 unavailable after 4 attempts over 0\.\d s: Service is down \[request_id req_0123abcd\]$/,
    );
  });
});

describe("retrying within a time budget", () => {
  it("keeps retrying past any fixed count while the budget lasts, then says how many attempts over how long", async () => {
    // Waits of 20 ms on average, 40 ms at most: dozens of attempts fit in 0.6 s.
    server.respondWith(() => apiError(503, "unavailable", "Service is down", { requestId: "req_last" }));
    const started = performance.now();
    const error = await rejection(
      connect({ retryBudgetMs: 600, retryBaseDelayMs: 10, retryMaxDelayMs: 40 }).request("GET", "/monitors"),
    );
    const elapsedMs = performance.now() - started;

    // Five attempts were the most the client made when it counted them.
    expect(error.attempts).toBeGreaterThan(5);
    expect(server.requests).toHaveLength(error.attempts);
    expect(elapsedMs).toBeGreaterThanOrEqual(600 - 40);
    expect(elapsedMs).toBeLessThan(600 + 500);
    expect(error.elapsedMs).toBeGreaterThanOrEqual(600 - 40);
    expect(error.message).toMatch(
      new RegExp(`^GET /monitors failed with 503 unavailable after ${error.attempts} attempts over (0\\.[6-9]|1\\.[01]) s: Service is down \\[request_id req_last\\]$`),
    );
  });

  it("caps each backoff wait at retryMaxDelayMs", async () => {
    server.script(...Array.from({ length: 8 }, () => apiError(503, "unavailable", "busy")));
    const response = await connect({ retryBaseDelayMs: 100, retryMaxDelayMs: 150 }).request("GET", "/monitors");
    expect(response.attempts).toBe(9);
    // Uncapped, the waits after attempts 5 to 8 would be drawn below 1.6, 3.2, 6.4 and 12.8 s.
    for (let index = 1; index < server.requests.length; index++) expect(gapBefore(index)).toBeLessThan(500);
  });

  it("does not start a Retry-After wait that would end past the budget", async () => {
    server.script(apiError(429, "rate_limited", "slow down", { requestId: "req_429", headers: { "retry-after": "3" } }));
    const started = performance.now();
    const error = await rejection(connect({ retryBudgetMs: 2_000 }).request("GET", "/monitors"));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it("sends the same idempotency key on every attempt of a long retry sequence", async () => {
    server.script(
      apiError(503, "unavailable", "busy"),
      { dropConnection: true },
      apiError(429, "rate_limited", "slow down", { headers: { "retry-after": "0" } }),
      apiError(502, "bad_gateway", "upstream"),
      { dropConnection: true },
      apiError(500, "internal_error", "oops"),
    );
    const response = await connect({ rateLimiter: unpaced }).request("POST", "/monitors", { body: { name: "a" }, idempotencyKey: "auto" });
    expect(response.attempts).toBe(7);
    const keys = new Set(server.requests.map((request) => request.headers["idempotency-key"]));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(UUID);
  });

  it("announces each retry to onRetry with the time spent so far, and nothing secret", async () => {
    const retries: RetryEvent[] = [];
    server.script(
      apiError(503, "unavailable", "busy"),
      { dropConnection: true },
      { status: 200, json: { data: {} }, delayMs: 1000 },
    );
    const client = connect({ requestTimeoutMs: 150, onRetry: (event) => retries.push(event) });
    await client.request("PUT", "/monitors/m1", { body: { password: "hunter2" }, query: { q: "secret-search" } });

    expect(retries.map(({ elapsedMs, delayMs, ...rest }) => rest)).toEqual([
      { method: "PUT", path: "/monitors/m1", status: 503, attempt: 1 },
      { method: "PUT", path: "/monitors/m1", status: 0, errorCode: "network_error", attempt: 2 },
      { method: "PUT", path: "/monitors/m1", status: 0, errorCode: "timeout", attempt: 3 },
    ]);
    expect(retries[2]?.elapsedMs).toBeGreaterThanOrEqual(150);
    // Each waits its jittered back-off, below the client's retryMaxDelayMs of 5 (test/http/support.ts), a timeout too.
    for (const { delayMs } of retries) {
      expect(delayMs).toBeGreaterThanOrEqual(0);
      expect(delayMs).toBeLessThan(5);
    }
    const rendered = JSON.stringify(retries) + retries.map(describeRetry).join();
    for (const secret of [API_KEY, "hunter2", "secret-search"]) expect(rendered).not.toContain(secret);
  });

  it("describes a retry for a person", () => {
    const event: RetryEvent = { method: "POST", path: "/monitors", status: 503, attempt: 4, elapsedMs: 9_400, delayMs: 800 };
    expect(describeRetry(event)).toBe("retrying POST /monitors after 503 (attempt 4, 9 s so far)");
    expect(describeRetry({ ...event, status: 0, errorCode: "network_error", elapsedMs: 12_600 })).toBe(
      "retrying POST /monitors after network_error (attempt 4, 13 s so far)",
    );
  });
});

describe("errors", () => {
  it("maps a 422 envelope onto ApiError without retrying", async () => {
    server.respondWith(() =>
      apiError(422, "validation_failed", "The monitor is invalid", {
        requestId: "req_5f2c",
        details: { interval_seconds: "must be at least 10", "regions[1]": "not an offered region: mars-1" },
      }),
    );
    const error = await rejection(
      connect().request("POST", "/monitors", { body: { interval_seconds: 5 }, idempotencyKey: "auto" }),
    );
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({
      name: "ApiError",
      status: 422,
      code: "validation_failed",
      requestId: "req_5f2c",
      details: { interval_seconds: "must be at least 10", "regions[1]": "not an offered region: mars-1" },
      method: "POST",
      path: "/monitors",
      attempts: 1,
    });
    expect(error.message).toBe(
      "POST /monitors failed with 422 validation_failed: The monitor is invalid " +
        "(interval_seconds: must be at least 10, regions[1]: not an offered region: mars-1) [request_id req_5f2c]",
    );
    expect(String(error)).toBe(`ApiError: ${error.message}`);
  });

  it.each<[number, string, "GET" | "POST"]>([
    // Only 2xx is a success: a 3xx is an error too (the client follows no redirect).
    [300, "multiple_choices", "GET"],
    [400, "invalid_parameter", "GET"],
    [401, "unauthorized", "GET"],
    [403, "forbidden", "GET"],
    [404, "not_found", "GET"],
    [409, "idempotency_key_reused", "POST"],
    [409, "conflict", "POST"],
    [418, "a_code_nobody_documented", "GET"],
  ])("does not retry %i %s and keeps the code", async (status, code, method) => {
    server.respondWith(() => apiError(status, code, "no"));
    const error = await rejection(connect().request(method, "/monitors", { idempotencyKey: "auto" }));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ status, code, attempts: 1, details: {} });
  });

  it.each<[string, Reply]>([
    ["an HTML page", { status: 400, text: "<html>Bad gateway config</html>", headers: { "content-type": "text/html" } }],
    ["an empty body", { status: 400 }],
    ["JSON without the envelope", { status: 400, json: { message: "bad" } }],
    ["an envelope without code", { status: 400, json: { error: { message: "bad" } } }],
  ])("turns %s into unknown_error with the status and the header's request id", async (_, reply) => {
    server.script(reply);
    const error = await rejection(connect().request("GET", "/monitors"));
    expect(error).toMatchObject({ status: 400, code: "unknown_error", requestId: "req_1", details: {} });
    // A body that is not JSON at all is the answer of something other than the API (test/http/settings-failures.test.ts).
    expect(error.message).toMatch(/^GET \/monitors failed with 400 unknown_error: (the response has no error envelope|the answer is not JSON \(text\/html\))/);
    expect(error.message).not.toContain("Bad gateway config");
  });

  it("retries a non-JSON 502 from a proxy like any 502", async () => {
    server.script({ status: 502, text: "<html>upstream down</html>" });
    const response = await connect().request("GET", "/monitors");
    expect(response.attempts).toBe(2);
  });
});

describe("observability and secrets", () => {
  it("reports every attempt to onRequest without secrets or query", async () => {
    const events: RequestEvent[] = [];
    server.script(apiError(503, "unavailable", "busy", { requestId: "req_first" }), { dropConnection: true });
    const client = connect({ onRequest: (event) => events.push(event) });
    const started = performance.now();
    await client.request("GET", "/monitors", { query: { q: "secret-search" } });
    const elapsedMs = performance.now() - started;

    expect(events.map(({ durationMs, ...rest }) => rest)).toEqual([
      { method: "GET", path: "/monitors", status: 503, attempt: 1, requestId: "req_first" },
      { method: "GET", path: "/monitors", status: 0, attempt: 2, errorCode: "network_error" },
      { method: "GET", path: "/monitors", status: 200, attempt: 3, requestId: "req_3" },
    ]);
    // Each attempt's own exchange, which lies within the request's time.
    for (const event of events) {
      expect(event.durationMs).toBeGreaterThanOrEqual(0);
      expect(event.durationMs).toBeLessThanOrEqual(Math.ceil(elapsedMs));
    }
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });

  it("is not disturbed by an onRequest hook that throws", async () => {
    const client = connect({
      onRequest: () => {
        throw new Error("observer bug");
      },
    });
    await expect(client.request("GET", "/monitors")).resolves.toMatchObject({ status: 200 });
  });

  it("never exposes the API key in the client or in errors", async () => {
    const client = connect({ maxRetries: 1, requestTimeoutMs: 250 });
    server.script(
      apiError(422, "validation_failed", "bad", { details: { name: "required" } }),
      { dropConnection: true },
      { status: 200, json: { data: {} }, delayMs: 1000 },
      { status: 200, json: { data: {} }, delayMs: 1000 },
    );
    const errors = [
      await rejection(client.request("POST", "/monitors", { body: { password: "hunter2" } })),
      await rejection(client.request("POST", "/monitors", { body: { password: "hunter2" } })),
      await rejection(client.request("GET", "/monitors")),
    ];
    expect(errors.map((error) => error.code)).toEqual(["validation_failed", "network_error", "timeout"]);

    const renderings = [
      inspect(client, { showHidden: true, depth: Infinity }),
      JSON.stringify(client),
      String(client),
      ...errors.flatMap((error) => [
        String(error),
        error.stack ?? "",
        JSON.stringify(error),
        inspect(error, { showHidden: true, depth: Infinity }),
      ]),
    ];
    for (const rendering of renderings) {
      expect(rendering).not.toContain(API_KEY);
      expect(rendering).not.toContain("hunter2");
    }
    expect(JSON.parse(JSON.stringify(errors[0]))).toMatchObject({ message: errors[0]?.message, code: "validation_failed" });
  });
});
