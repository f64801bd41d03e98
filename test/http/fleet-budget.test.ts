/**
 * The fleet's shared rate budget: the token server (cli/fleet/runners/budget.ts) and each provider's side
 * of it (provider/fleet-budget.ts), over a real local socket; and how the API client tells a
 * limit (429: slow every stack down) from a fault (503, a dropped connection: retry this request
 * with jitter, slow nobody down). Clocks are fast: the server's is moved by hand, Retry-After is
 * a few hundredths of a second.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { once } from "node:events";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { BudgetServer } from "../../cli/fleet/runners/budget.js";
import { FleetBudgetClient } from "../../provider/fleet-budget.js";
import type { ApiClient } from "../../provider/http/client.js";
import { RateLimiter, rateSignal, type RequestLimiter } from "../../provider/http/rate-limit.js";
import { apiError, FaultServer } from "./fault-server.js";
import { clientFor, ManualClock } from "./support.js";

const closing: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function budgetServer(budget: number, clock: ManualClock, guardMs = 0): Promise<BudgetServer> {
  const server = await BudgetServer.start(budget, { clock, guardMs });
  closing.push(() => server.close());
  return server;
}

function provider(address: string, options: ConstructorParameters<typeof FleetBudgetClient>[2] = {}, own = new RateLimiter()): FleetBudgetClient {
  const client = new FleetBudgetClient(address, own, options);
  closing.push(() => client.close());
  return client;
}

/** Starts `count` attempts; the array fills with the name of each as it is granted. */
function ask(client: FleetBudgetClient, name: string, count: number, granted: string[]): void {
  for (let index = 0; index < count; index++) void client.acquire().then(() => granted.push(name));
}

describe("the fleet's token server", () => {
  it("grants every provider's starts from one budget, evenly spaced, in the order asked", async () => {
    const clock = new ManualClock();
    const server = await budgetServer(10, clock);
    const [north, south] = [provider(server.address), provider(server.address)];
    const granted: string[] = [];
    ask(north, "north", 2, granted);
    await expect.poll(() => granted).toEqual(["north"]);
    ask(south, "south", 2, granted);
    // One start every 100 ms at 10 per second, whoever asks: a provider running alone would get all of them.
    for (const expected of [["north", "north"], ["north", "north", "south"], ["north", "north", "south", "south"]]) {
      await clock.advance(99);
      expect(granted).toHaveLength(expected.length - 1);
      await clock.advance(1);
      await expect.poll(() => granted).toEqual(expected);
    }
    expect(server.use).toEqual({ granted: 4, late: 0, limited: 0 });
  });

  it("keeps a guard, so that starts a little late to reach the service still fit its seconds", async () => {
    const clock = new ManualClock();
    const server = await budgetServer(10, clock, 100);
    const granted: string[] = [];
    ask(provider(server.address), "one", 2, granted);
    await expect.poll(() => granted).toHaveLength(1);
    await clock.advance(109);
    expect(granted).toHaveLength(1);
    await clock.advance(1);
    await expect.poll(() => granted).toHaveLength(2);
  });

  it("halves the shared rate on a 429 any provider reports, pauses every start until Retry-After, and grows back with successes", async () => {
    const clock = new ManualClock();
    const server = await budgetServer(8, clock);
    const [north, south] = [provider(server.address), provider(server.address)];
    const ticket = await north.acquire();
    north.throttled(ticket, 500);
    await expect.poll(() => server.rate).toBe(4);
    const granted: string[] = [];
    ask(south, "south", 1, granted);
    await clock.advance(499);
    expect(granted).toEqual([]);
    await clock.advance(1);
    await expect.poll(() => granted).toEqual(["south"]);
    for (let index = 0; index < 4; index++) south.succeeded();
    await expect.poll(() => server.rate).toBe(8);
    expect(server.use).toEqual({ granted: 2, late: 0, limited: 1 });
  });
});

describe("a grant's deadline", () => {
  it("is half the guard away: the other half is the way from the provider to the service", async () => {
    const server = await budgetServer(10, new ManualClock(), 100);
    const raw = createConnection(server.address);
    closing.push(() => raw.destroy());
    raw.setEncoding("utf8");
    const sentAfter = Date.now();
    raw.write("take\n");
    const [line] = (await once(raw, "data")) as [string];
    const deadline = Number(/^grant \d+ (\d+)\n/.exec(line)?.[1]);
    expect(deadline).toBeGreaterThanOrEqual(sentAfter + 50);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 50);
  });
});

describe("a grant that reaches a busy provider after its deadline", () => {
  it("goes back unused, once per attempt: the provider takes again and uses the next whenever it comes", async () => {
    const heard: string[] = [];
    const fake: Server = createServer((socket) => {
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        for (const line of chunk.split("\n").filter((text) => text !== "")) {
          heard.push(line);
          // Every grant's deadline has passed already.
          socket.write(`grant ${heard.length} ${Date.now() - 1}\n`);
        }
      });
    });
    const address = join(tmpdir(), `late-budget-${process.pid}.sock`);
    fake.listen(address);
    await once(fake, "listening");
    closing.push(() => fake.close());
    expect(await provider(address).acquire()).toBe(2);
    expect(heard).toEqual(["take", "late"]);
  });

  it("counts as taken again, not as used, at the server", async () => {
    const clock = new ManualClock();
    const server = await budgetServer(10, clock, 100);
    const client = provider(server.address);
    await client.acquire();
    // What a provider sends for a grant it got too late.
    const raw = createConnection(server.address);
    closing.push(() => raw.destroy());
    raw.write("take\n");
    await clock.advance(110);
    raw.write("late\n");
    await expect.poll(() => server.use.late).toBe(1);
    expect(server.use.granted).toBe(1);
  });
});

describe("a provider whose token server is gone", () => {
  it("sends what waited, and all that follows, within its own limit once the server closes", async () => {
    const clock = new ManualClock();
    const server = await budgetServer(1, clock);
    const reasons: string[] = [];
    const client = provider(server.address, { onFallback: (reason) => reasons.push(reason) });
    const granted: string[] = [];
    ask(client, "first", 1, granted);
    await expect.poll(() => granted).toEqual(["first"]);
    // The next start is a second away on the server's clock, which never moves.
    ask(client, "waiting", 1, granted);
    await server.close();
    await expect.poll(() => granted).toEqual(["first", "waiting"]);
    await client.acquire();
    // Closed, or broken while the provider was writing to it.
    expect(reasons).toEqual([expect.stringMatching(/^(it closed the connection|the connection to it failed \((EPIPE|ECONNRESET)\))$/)]);
    expect(client.fallbackReason).toBe(reasons[0]);
  });

  it("uses its own limit when nothing listens at the address", async () => {
    const client = provider(join(tmpdir(), `no-budget-here-${process.pid}.sock`));
    await client.acquire();
    expect(client.fallbackReason).toMatch(/^the connection to it failed \((ENOENT|ECONNREFUSED)\)$/);
  });

  it("stops waiting for a server that accepts but never answers", async () => {
    const accepted: Socket[] = [];
    const silent: Server = createServer((socket) => accepted.push(socket));
    const address = join(tmpdir(), `silent-budget-${process.pid}.sock`);
    silent.listen(address);
    await once(silent, "listening");
    closing.push(() => (silent.close(), accepted.forEach((socket) => socket.destroy())));
    const client = provider(address, { silenceMs: 100 });
    const started = performance.now();
    await client.acquire();
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect(client.fallbackReason).toBe("it was silent for 100 ms");
  });

  it("keeps its own limit as a ceiling while the server grants more", async () => {
    const serverClock = new ManualClock();
    const server = await budgetServer(1000, serverClock);
    const ownClock = new ManualClock();
    const client = provider(server.address, {}, new RateLimiter({ maxRequestsPerSecond: 2, clock: ownClock }));
    const granted: string[] = [];
    ask(client, "a", 2, granted);
    await expect.poll(() => granted).toEqual(["a"]);
    await serverClock.advance(1000);
    expect(granted).toEqual(["a"]);
    await ownClock.advance(500);
    await expect.poll(() => granted).toEqual(["a", "a"]);
  });
});

/** A limiter that lets everything through and records what the client told it. */
class RecordingLimiter implements RequestLimiter {
  readonly told: string[] = [];
  #tickets = 0;
  async acquire(): Promise<number> {
    return ++this.#tickets;
  }
  throttled(ticket: number, retryAfterMs?: number): void {
    this.told.push(`throttled ${ticket} ${retryAfterMs}`);
  }
  succeeded(): void {
    this.told.push("succeeded");
  }
}

describe("back-off: a limit or a fault", () => {
  it.each<[number, string]>([
    [429, "limit"],
    [503, "fault"],
    [500, "fault"],
    [0, "fault"],
    [200, "served"],
    [404, "served"],
    [409, "served"],
  ])("status %i is a %s", (status, expected) => {
    expect(rateSignal(status)).toBe(expected);
  });

  let api: FaultServer;
  async function connect(limiter: RequestLimiter): Promise<ApiClient> {
    api = await FaultServer.start();
    const client = clientFor(api, { rateLimiter: limiter });
    closing.push(() => api.close(), () => client.close());
    return client;
  }

  it("a 429 slows everyone down, with its Retry-After; the request itself waits that long", async () => {
    const limiter = new RecordingLimiter();
    const client = await connect(limiter);
    api.script(apiError(429, "rate_limited", "slow down", { headers: { "retry-after": "0.05" } }));
    await client.request("GET", "/monitors");
    expect(limiter.told).toEqual(["throttled 1 50", "succeeded"]);
    expect((api.requests[1]?.receivedAtMs ?? 0) - (api.requests[0]?.receivedAtMs ?? 0)).toBeGreaterThanOrEqual(45);
  });

  it("a 503 is retried, after its own Retry-After when it names one, and slows no one down", async () => {
    const limiter = new RecordingLimiter();
    const client = await connect(limiter);
    api.script(apiError(503, "unavailable", "busy"), apiError(503, "unavailable", "busy", { headers: { "retry-after": "0.05" } }));
    const response = await client.request("GET", "/monitors");
    expect(response.attempts).toBe(3);
    expect(limiter.told).toEqual(["succeeded"]);
    expect((api.requests[2]?.receivedAtMs ?? 0) - (api.requests[1]?.receivedAtMs ?? 0)).toBeGreaterThanOrEqual(45);
  });

  it("a dropped connection is retried and slows no one down", async () => {
    const limiter = new RecordingLimiter();
    const client = await connect(limiter);
    api.script({ dropConnection: true });
    const response = await client.request("DELETE", "/monitors/m1");
    expect(response.attempts).toBe(2);
    expect(limiter.told).toEqual(["succeeded"]);
  });

  it("a 429 reaches the fleet's server, which cuts the rate every stack shares", async () => {
    const clock = new ManualClock();
    const server = await budgetServer(10, clock);
    const fleetClient = provider(server.address);
    const client = await connect(fleetClient);
    api.script(apiError(429, "rate_limited", "slow down", { headers: { "retry-after": "0" } }));
    const request = client.request("GET", "/monitors");
    await expect.poll(() => server.use.limited).toBe(1);
    expect(server.rate).toBe(5);
    // The retry's start is 200 ms away at the halved rate.
    await clock.advance(200);
    await request;
    await expect.poll(() => server.rate).toBe(6);
    expect(server.use).toEqual({ granted: 2, late: 0, limited: 1 });
  });
});
