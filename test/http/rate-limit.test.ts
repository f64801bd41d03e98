import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiClient, RateLimiter } from "../../provider/http.js";
import { apiError, FaultServer } from "./fault-server.js";
import { API_KEY, clientFor } from "./support.js";

let server: FaultServer;
const clients: ApiClient[] = [];

beforeEach(async () => {
  server = await FaultServer.start();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close();
});

function connect(overrides: Parameters<typeof clientFor>[1]): ApiClient {
  const client = clientFor(server, overrides);
  clients.push(client);
  return client;
}

/** Timers may fire a fraction of a millisecond early relative to performance.now(). */
const TIMER_SLACK_MS = 3;
/*
 * Bounds are measured on the client: the limiter spaces the starts of attempts, and the server's
 * receipt times add a loopback latency that is larger for a cold first connection.
 */

describe("client-side rate limit", () => {
  it.each([
    [8, 20],
    [5, 10],
  ])("spaces %i concurrent requests at %i per second", async (count, perSecond) => {
    const client = connect({ maxRequestsPerSecond: perSecond });
    const started = performance.now();
    await Promise.all(Array.from({ length: count }, (_, index) => client.request("GET", `/monitors/m${index}`)));
    const elapsed = performance.now() - started;

    expect(elapsed).toBeGreaterThanOrEqual(((count - 1) * 1000) / perSecond - TIMER_SLACK_MS);
    expect(server.requests).toHaveLength(count);
  });

  it("counts retries against the limit", async () => {
    server.script(apiError(503, "unavailable", "busy"));
    const started = performance.now();
    const response = await connect({ maxRequestsPerSecond: 10 }).request("GET", "/monitors");
    expect(response.attempts).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100 - TIMER_SLACK_MS);
  });

  it("shares one limiter between clients", async () => {
    const limiter = new RateLimiter(20);
    const first = connect({ rateLimiter: limiter });
    const second = connect({ rateLimiter: limiter });
    const started = performance.now();
    await Promise.all(
      [first, second, first, second, first, second].map((client, index) => client.request("GET", `/monitors/m${index}`)),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(250 - TIMER_SLACK_MS);
    expect(server.requests).toHaveLength(6);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])("rejects a limiter of %d requests per second", (rate) => {
    expect(() => new RateLimiter(rate)).toThrow(RangeError);
  });

  it("rejects a client given both a shared limiter and its own rate", () => {
    expect(
      () =>
        new ApiClient({
          baseUrl: server.baseUrl,
          apiKey: API_KEY,
          rateLimiter: new RateLimiter(5),
          maxRequestsPerSecond: 5,
        }),
    ).toThrow(TypeError);
  });
});
