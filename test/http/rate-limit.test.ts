import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../provider/http/client.js";
import { RateLimiter } from "../../provider/http/rate-limit.js";
import type { RequestEvent } from "../../provider/http/request.js";
import { apiError, FaultServer } from "./fault-server.js";
import { API_KEY, clientFor, ManualClock } from "./support.js";

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
    const limiter = new RateLimiter({ maxRequestsPerSecond: 20 });
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
    expect(() => new RateLimiter({ maxRequestsPerSecond: rate })).toThrow(new RangeError(`maxRequestsPerSecond must be a positive number, got ${rate}`));
  });

  it("rejects a client given both a shared limiter and its own rate", () => {
    expect(
      () =>
        new ApiClient({
          baseUrl: server.baseUrl,
          apiKey: API_KEY,
          rateLimiter: new RateLimiter({ maxRequestsPerSecond: 5 }),
          maxRequestsPerSecond: 5,
        }),
    ).toThrow(TypeError);
  });
});

/** Starts `count` acquisitions; the array fills with the start time of each as it is granted. */
function startAll(limiter: RateLimiter, count: number): number[] {
  const grantedAt: number[] = [];
  for (let index = 0; index < count; index++) void limiter.acquire().then((start) => grantedAt.push(start));
  return grantedAt;
}

describe("back-off after a 429, shared by every request", () => {
  it("pauses every start until Retry-After has passed, then halves the rate actually sent", async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock });
    expect(await Promise.all([0, 1, 2, 3].map(() => limiter.acquire()))).toEqual([0, 0, 0, 0]);

    await clock.advance(10);
    limiter.throttled(0, 1000);
    // Four starts in the last second: the limit becomes two per second.
    expect(limiter.rate).toBe(2);
    const grantedAt = startAll(limiter, 3);
    await clock.advance(999);
    expect(grantedAt).toEqual([]);
    await clock.advance(2000);
    expect(grantedAt).toEqual([1010, 1510, 2010]);
  });

  it("pauses every start for a second after a 429 that names no Retry-After", async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock });
    await limiter.acquire();
    limiter.throttled(0);
    const grantedAt = startAll(limiter, 1);
    await clock.advance(999);
    expect(grantedAt).toEqual([]);
    await clock.advance(1);
    expect(grantedAt).toEqual([1000]);
  });

  it("sends a start that was waiting for its slot behind a pause that began meanwhile", async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, maxRequestsPerSecond: 10 });
    const grantedAt = startAll(limiter, 3);
    await clock.advance(50);
    expect(grantedAt).toEqual([0]);
    limiter.throttled(0, 500);
    await clock.advance(2000);
    // The start due at 100 goes after the pause, the next one 200 ms later: half of 10 per second.
    expect(grantedAt).toEqual([0, 550, 750]);
  });

  it("halves once for the attempts sent at the old rate; later 429s of those only extend the pause", async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, maxRequestsPerSecond: 16 });
    const grantedAt = startAll(limiter, 16);
    await clock.advance(950);
    expect(grantedAt).toHaveLength(16);
    limiter.throttled(900, 1000);
    expect(limiter.rate).toBe(8);
    await clock.advance(100);
    limiter.throttled(937.5, 1000);
    expect(limiter.rate).toBe(8);
    const next = startAll(limiter, 2);
    await clock.advance(999);
    expect(next).toEqual([]);
    await clock.advance(1000);
    expect(next).toEqual([2050, 2175]);
    // An attempt sent after the decrease is refused as well: the rate halves again.
    limiter.throttled(2050, 1000);
    expect(limiter.rate).toBe(4);
  });

  it("grows back by one request per second with each success, up to maxRequestsPerSecond", () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, maxRequestsPerSecond: 6 });
    limiter.throttled(0);
    expect(limiter.rate).toBe(3);
    limiter.succeeded();
    expect(limiter.rate).toBe(4);
    limiter.succeeded();
    expect(limiter.rate).toBe(5);
    for (let index = 0; index < 10; index++) limiter.succeeded();
    expect(limiter.rate).toBe(6);
  });

  it("never halves below one request per second", async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, maxRequestsPerSecond: 1.5 });
    limiter.throttled(await limiter.acquire());
    expect(limiter.rate).toBe(1);
    await clock.advance(2000);
    limiter.throttled(await limiter.acquire());
    expect(limiter.rate).toBe(1);
  });

  it("keeps no limit until the first 429 when none is configured", async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock });
    expect(limiter.rate).toBe(Number.POSITIVE_INFINITY);
    limiter.succeeded();
    expect(limiter.rate).toBe(Number.POSITIVE_INFINITY);
    expect(await Promise.all(Array.from({ length: 50 }, () => limiter.acquire()))).toEqual(Array(50).fill(0));
  });

  it("holds back the requests of every client of the limiter after one of them got a 429", async () => {
    server.script(apiError(429, "rate_limited", "slow down", { headers: { "retry-after": "1" } }));
    // A ceiling far above what two requests send: the 429 halves it to 50 a second, so its pause
    // alone holds the other client back. Without one, it halves the one request sent in the second
    // before it to the floor of 1 a second, which spaces the starts after the pause a second apart.
    const limiter = new RateLimiter({ maxRequestsPerSecond: 100 });
    const second = connect({ rateLimiter: limiter });
    let secondRequest: Promise<unknown> | undefined;
    const first = connect({
      rateLimiter: limiter,
      // The other client asks the moment the 429 is in.
      onRequest: (event: RequestEvent) => {
        if (event.status === 429) secondRequest = second.request("GET", "/monitors/other");
      },
    });
    await first.request("GET", "/monitors/throttled");
    await secondRequest;

    const other = server.requests.find((request) => request.path === "/monitors/other");
    const throttled = server.requests[0];
    expect(throttled?.path).toBe("/monitors/throttled");
    expect((other?.receivedAtMs ?? 0) - (throttled?.receivedAtMs ?? 0)).toBeGreaterThanOrEqual(1000 - TIMER_SLACK_MS);
  });
});

/** A clock whose sleeps overrun by the given lateness, one per sleep, as on a busy machine. */
class LateClock {
  #now = 0;
  readonly #lateness: number[];
  constructor(lateness: number[]) {
    this.#lateness = lateness;
  }
  now(): number {
    return this.#now;
  }
  async sleep(ms: number): Promise<void> {
    this.#now += ms + (this.#lateness.shift() ?? 0);
  }
}

describe("the spacing of starts", () => {
  it("puts a full interval after a start that came late, so that no two starts crowd together to make up", async () => {
    const limiter = new RateLimiter({ clock: new LateClock([50]), maxRequestsPerSecond: 10 });
    const starts = [await limiter.acquire(), await limiter.acquire(), await limiter.acquire()];
    // The second was due at 100 and came at 150: the third comes 100 ms after it, not at 200.
    expect(starts).toEqual([0, 150, 250]);
  });

  it("sets its first limit from the starts of the last second only", async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock });
    await clock.advance(100);
    await Promise.all(Array.from({ length: 6 }, () => limiter.acquire()));
    await clock.advance(500);
    await Promise.all(Array.from({ length: 8 }, () => limiter.acquire()));
    await clock.advance(500);
    // At 1100 the six starts of 100 are a full second old: eight were sent in the last second.
    limiter.throttled(600, 0);
    expect(limiter.rate).toBe(4);
  });

  it("halves again for a 429 of an attempt granted after the decrease, even at the same instant", async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ clock, maxRequestsPerSecond: 4 });
    await limiter.acquire();
    await clock.advance(1000);
    limiter.throttled(0, 0);
    expect(limiter.rate).toBe(2);
    // Retry-After: 0 puts no pause on the next start, which is granted at 1000, at the halved rate.
    const granted = await limiter.acquire();
    expect(granted).toBe(1000);
    limiter.throttled(granted, 0);
    expect(limiter.rate).toBe(1);
  });
});
