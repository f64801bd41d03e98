/**
 * How each answer of the service moves the rate limit a deploy shares (provider/http/rate-limit.ts): a 429
 * halves it and pauses every start for its Retry-After (capped like the retry's own wait), any
 * other answer below 500 (errors included) shows the service keeps up and raises it, and a 5xx
 * leaves it as it is. Observed through a limiter shared with the client, as every resource of a
 * deploy shares one.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../../provider/http/client.js";
import { RateLimiter } from "../../provider/http/rate-limit.js";
import { apiError, FaultServer, ok } from "./fault-server.js";
import { clientFor, ManualClock } from "./support.js";

let server: FaultServer;
let client: ApiClient | undefined;

beforeEach(async () => {
  server = await FaultServer.start();
});

afterEach(async () => {
  await client?.close();
  client = undefined;
  await server.close();
});

const throttle = (retryAfter: string) => apiError(429, "rate_limited", "slow down", { headers: { "retry-after": retryAfter } });

describe("the shared rate after each answer", () => {
  it.each([
    ["a 429, then a success: halved, then one step back up", [throttle("0"), ok({})], 100, 51],
    ["a success at the ceiling: unchanged", [ok({})], 100, 100],
    ["a 404 (an error, but an answer at this rate): one step up after a 429", [throttle("0"), apiError(404, "not_found", "gone")], 100, 51],
    ["a dropped connection (a fault, not a refusal): unchanged between the 429 and the success", [throttle("0"), { dropConnection: true }, ok({})], 100, 51],
  ] as const)("%s", async (_title, replies, ceiling, rate) => {
    const limiter = new RateLimiter({ maxRequestsPerSecond: ceiling });
    client = clientFor(server, { rateLimiter: limiter });
    server.script(...replies);
    await client.request("GET", "/monitors/m1").catch(() => undefined);
    expect(server.requests).toHaveLength(replies.length);
    expect(limiter.rate).toBe(rate);
  });

  it("a 5xx leaves the rate as it is: the service is failing, not refusing the rate", async () => {
    const limiter = new RateLimiter({ maxRequestsPerSecond: 100 });
    client = clientFor(server, { rateLimiter: limiter });
    server.script(throttle("0"), apiError(503, "unavailable", "busy"), apiError(500, "internal", "oops"), ok({}));
    await client.request("GET", "/monitors/m1");
    expect(server.requests).toHaveLength(4);
    // Halved by the 429, untouched by the 503 and the 500, one step up for the success.
    expect(limiter.rate).toBe(51);
  });

  it("a 429 without Retry-After pauses every start of the deploy for a second", async () => {
    const clock = new ManualClock();
    client = clientFor(server, { rateLimiter: new RateLimiter({ clock }) });
    server.script(apiError(429, "rate_limited", "slow down"), ok({ id: "m1" }));
    const request = client.request("GET", "/monitors/m1");
    // The retry's own back-off is a few real milliseconds; the pause is on the limiter's clock.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await clock.advance(999);
    expect(server.requests).toHaveLength(1);
    await clock.advance(1);
    await expect(request).resolves.toMatchObject({ data: { id: "m1" }, attempts: 2 });
  });

  it("a 429's Retry-After pauses every start of the deploy, capped at retryAfterMaxMs", async () => {
    const limiter = new RateLimiter();
    client = clientFor(server, { rateLimiter: limiter, retryAfterMaxMs: 200 });
    server.script(throttle("30"));
    const started = performance.now();
    await client.request("GET", "/monitors/m1");
    const elapsed = performance.now() - started;
    // The retry waits the capped 200 ms, not 30 s, and so does the limiter's pause.
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(5_000);
    expect(server.requests).toHaveLength(2);
  });
});
