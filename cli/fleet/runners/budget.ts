/**
 * The API rate budget of a fleet run: one token server that every stack's provider asks before
 * each attempt (the provider's side: provider/fleet-budget.ts), over a private local socket. How
 * it shares and guards the budget and reacts to 429s: docs/architecture.md, "The shared rate budget".
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { HEARTBEAT_MS, limiterFor, parseBudgetLine } from "../../../provider/fleet-budget.js";
import { type Clock, RateLimiter, type RequestLimiter } from "../../../provider/http/rate-limit.js";

/**
 * A request granted at one moment reaches the service a little later, and not every one equally
 * late on a busy machine: two granted 1/R apart can arrive in one second of the service's. So
 * starts are spaced as if each second lasted this much longer: at most R in any 1.1 s, hence at
 * most R in any second the service counts, as long as the delays differ by less than this. A
 * provider must read its grant within half of it (or hand it back), which leaves the other half
 * for the way from the provider to the service. The price is a tenth of the budget (91 % of it
 * used under full load).
 */
export const GRANT_GUARD_MS = 100;

/** What the fleet's runs have spent of the budget so far. */
export interface BudgetUse {
  /** Attempt starts granted and used, over every stack. */
  granted: number;
  /** Grants that reached a busy provider after their deadline and went back unused. */
  late: number;
  /** Attempts the service answered 429, as the providers reported them. */
  limited: number;
}

export interface BudgetServerOptions {
  clock?: Clock;
  /** Default {@link GRANT_GUARD_MS}. */
  guardMs?: number;
}

/**
 * The fleet's token server: starts on a private local socket (a Unix socket in a folder only its
 * user can enter, a named pipe on Windows), serves every provider that connects, and closes with
 * the run, after which the providers still running fall back to their own limit.
 */
export class BudgetServer {
  readonly #server: Server;
  readonly #limiter: RateLimiter;
  readonly #dir: string | undefined;
  readonly #sockets = new Set<Socket>();
  /** Takes waiting for a grant, oldest first; one entry per `take` line. */
  readonly #waiting: Socket[] = [];
  #pumping = false;
  readonly #heartbeat: NodeJS.Timeout;
  readonly use: BudgetUse = { granted: 0, late: 0, limited: 0 };
  readonly #guardMs: number;

  private constructor(
    readonly address: string,
    server: Server,
    limiter: RateLimiter,
    dir: string | undefined,
    guardMs: number,
  ) {
    this.#server = server;
    this.#limiter = limiter;
    this.#dir = dir;
    this.#guardMs = guardMs;
    server.on("connection", (socket) => this.#serve(socket));
    this.#heartbeat = setInterval(() => {
      for (const socket of this.#sockets) socket.write("alive\n");
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** A server granting at most `budget` requests per second across all its providers. */
  static async start(budget: number, options: BudgetServerOptions = {}): Promise<BudgetServer> {
    if (!(budget > 0) || !Number.isFinite(budget)) throw new RangeError(`the rate budget must be a positive number, got ${budget}`);
    const guardMs = options.guardMs ?? GRANT_GUARD_MS;
    const limiter = new RateLimiter({ maxRequestsPerSecond: (budget * 1000) / (1000 + guardMs), ...(options.clock ? { clock: options.clock } : {}) });
    const server = createServer();
    const { address, dir } = await listenPrivately(server, "budget");
    return new BudgetServer(address, server, limiter, dir, guardMs);
  }

  /** The shared rate now in force, in requests per second (lower than the budget after a 429). */
  get rate(): number {
    return this.#limiter.rate;
  }

  /** Stops serving: connected providers see the connection close and use their own limit. */
  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    // Not waiting for the server's close event: it comes only once every connection has ended,
    // and a provider that is connecting right now may hold one a while longer.
    this.#server.close();
    for (const socket of this.#sockets) socket.destroy();
    this.#waiting.length = 0;
    if (this.#dir !== undefined) await rm(this.#dir, { recursive: true, force: true });
  }

  #serve(socket: Socket): void {
    // A provider that is gone frees its place in the queue; an error is its closing too.
    serveLines(socket, this.#sockets, (line) => this.#handle(socket, line));
  }

  #handle(socket: Socket, line: string): void {
    const { word, values } = parseBudgetLine(line);
    switch (word) {
      case "late":
      case "take":
        // A late grant went unused, and its provider takes again.
        if (word === "late") [this.use.granted, this.use.late] = [this.use.granted - 1, this.use.late + 1];
        this.#waiting.push(socket);
        void this.#pump();
        return;
      case "throttled": {
        const ticket = Number(values[0]);
        const retryAfterMs = values[1] === undefined || values[1] === "-" ? undefined : Number(values[1]);
        this.use.limited += 1;
        // Tickets are this server's start times; anything else counts as sent before the last cut.
        this.#limiter.throttled(Number.isFinite(ticket) ? ticket : Number.NEGATIVE_INFINITY, retryAfterMs !== undefined && Number.isFinite(retryAfterMs) ? retryAfterMs : undefined);
        return;
      }
      case "ok":
        this.#limiter.succeeded();
        return;
      default:
      // Unknown lines are ignored, so that a newer provider can talk to an older fleet.
    }
  }

  /** Grants the waiting takes one slot at a time, skipping those whose provider has gone. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#live() !== undefined) {
        const ticket = await this.#limiter.acquire();
        const socket = this.#live();
        if (socket === undefined) break;
        this.#waiting.shift();
        this.use.granted += 1;
        // Read within half the guard, the grant leaves the other half for the way to the service.
        socket.write(this.#guardMs > 0 ? `grant ${ticket} ${Date.now() + this.#guardMs / 2}\n` : `grant ${ticket}\n`);
      }
    } finally {
      this.#pumping = false;
    }
  }

  /** The oldest waiting take whose provider is still connected, dropping the others. */
  #live(): Socket | undefined {
    while (this.#waiting.length > 0 && this.#waiting[0]!.destroyed) this.#waiting.shift();
    return this.#waiting[0];
  }
}

/**
 * Serves a connection of a private socket that speaks one line of text per message: each whole
 * line goes to `onLine`; `sockets` holds the connection until it closes, and an error closes it.
 */
export function serveLines(socket: Socket, sockets: Set<Socket>, onLine: (line: string) => void): void {
  sockets.add(socket);
  socket.setEncoding("utf8");
  let received = "";
  socket.on("data", (chunk: string) => {
    received += chunk;
    let end: number;
    while ((end = received.indexOf("\n")) !== -1) {
      onLine(received.slice(0, end));
      received = received.slice(end + 1);
    }
  });
  socket.on("error", () => socket.destroy());
  socket.on("close", () => sockets.delete(socket));
}

/**
 * Starts `server` on a socket only this user can reach: a Unix socket in a new folder only its
 * user can enter (`dir`, to remove after), a named pipe on Windows.
 */
export async function listenPrivately(server: Server, name: string): Promise<{ address: string; dir: string | undefined }> {
  const dir = process.platform === "win32" ? undefined : await mkdtemp(join(tmpdir(), `pulumi-monitoring-${name}-`));
  const address = dir === undefined ? `\\\\.\\pipe\\pulumi-monitoring-${name}-${process.pid}-${randomBytes(6).toString("hex")}` : join(dir, `${name}.sock`);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(address, () => (server.off("error", reject), resolve()));
    });
  } catch (error) {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { address, dir };
}

/** A fleet run's budget as its main thread holds it: the server runs on a thread of its own. */
export interface SharedBudget {
  /** The socket to name in the environment. */
  readonly address: string;
  /** Stops the server (the providers still running fall back to their own limit) and tells what was spent. */
  close(): Promise<BudgetUse>;
}

/** Starts the run's token server on a worker thread (budget-thread.ts, run from the built package). */
export async function startSharedBudget(budget: number): Promise<SharedBudget> {
  const worker = new Worker(join(__dirname, "budget-thread.js"), { workerData: { budget } });
  const [started] = (await once(worker, "message")) as [{ address?: string; error?: string }];
  if (started.address === undefined) {
    await worker.terminate();
    throw new Error(`the fleet's rate budget could not start: ${started.error}`);
  }
  return {
    address: started.address,
    async close() {
      worker.postMessage("close");
      const [{ use }] = (await once(worker, "message")) as [{ use: BudgetUse }];
      await worker.terminate();
      return use;
    },
  };
}

/** How many stacks run at once: `--parallel`, but never more than there are stacks. */
export function stacksAtOnce(parallel: number, stackCount: number): number {
  return Math.max(1, Math.min(parallel, stackCount));
}

/**
 * This runner's budget: the fleet's, or under `--shard I/N` (runners working at the same time on
 * one key) an N-th of it, unless `--shard-rps` names this runner's own.
 */
export function runnerBudget(fleetBudget: number | undefined, shardCount: number | undefined, runnerOwn: number | undefined): number | undefined {
  if (runnerOwn !== undefined) return runnerOwn;
  return fleetBudget === undefined || shardCount === undefined ? fleetBudget : fleetBudget / shardCount;
}

/**
 * The limiter of this process's own API calls (drift's lists, verify's checks): within the run's
 * budget when its token server is at `address`, else within `maxRequestsPerSecond`.
 */
export function limiterWithin(address: string | undefined, maxRequestsPerSecond: number | undefined): RequestLimiter {
  return limiterFor(maxRequestsPerSecond, address);
}
