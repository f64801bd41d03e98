/**
 * A fleet's shared rate budget, as a provider process takes part in it. `pulumi-monitoring fleet`
 * runs one token server (cli/fleet/runners/budget.ts) for all the stacks it deploys and names its local
 * socket in the environment ({@link FLEET_BUDGET_ENV}); the Pulumi CLI passes that environment on
 * to the dynamic provider's host, so each stack's provider asks the server before every attempt,
 * and tells it of every 429 (the key's limit, which every stack shares) and every success.
 *
 * The protocol is one short line per message, over one connection per provider process:
 *   provider → server   `take`                     one attempt wants to start
 *                       `late`                     a grant came after its deadline: unused, take again
 *                       `throttled <ticket> <ms>`  that attempt was answered 429 (Retry-After, ms)
 *                       `ok`                       an attempt was served
 *   server → provider   `grant <ticket> [<deadline>]`  the oldest waiting `take` may start, until
 *                                              the wall-clock deadline (ms since 1970) if one is given
 *                       `alive`                    once a second, so silence means the server is gone
 *
 * The deadline keeps the budget true at the service: a grant read late by a busy provider
 * process would go out right behind the next one, and two grants 1/R apart would reach the
 * service in one of its seconds with more than R others. So a late grant goes back unused, once
 * per attempt; the second is used whenever it comes, so that a slow process still gets its turn.
 *
 * A server that cannot be reached, closes the connection, or stays silent for
 * {@link SILENCE_MS} is gone for good: every waiting and later attempt goes through the
 * provider's own limiter (`monitoring:maxRequestsPerSecond`, or none until a 429), so no request
 * waits forever on a fleet that stopped. While the server answers, the own limiter is a ceiling
 * only: a stack that asks for less than the fleet's budget never sends more than it asked for.
 */
import { createConnection, type Socket } from "node:net";
import { RateLimiter, type RequestLimiter } from "./http.js";

/** The environment variable that names the token server's socket (a path, or a Windows pipe). */
export const FLEET_BUDGET_ENV = "PULUMI_MONITORING_FLEET_BUDGET";

/** How often the server says it is alive. */
export const HEARTBEAT_MS = 1000;
/**
 * A server silent this long, while attempts wait for it, is taken as gone. Generous: on a busy
 * machine a process may get no CPU for seconds, and a fallback is for good.
 */
export const SILENCE_MS = 15 * HEARTBEAT_MS;

export interface FleetBudgetClientOptions {
  /** Default {@link SILENCE_MS}; tests shorten it. */
  silenceMs?: number;
  /** Told once when the server is gone and the own limit takes over (why, in a few words). */
  onFallback?: (reason: string) => void;
}

/** The provider's side of the fleet's budget; see the module comment. */
export class FleetBudgetClient implements RequestLimiter {
  readonly #address: string;
  readonly #own: RateLimiter;
  readonly #silenceMs: number;
  readonly #onFallback: ((reason: string) => void) | undefined;
  #socket: Socket | undefined;
  /** Set once the server is gone; from then on only the own limiter counts. */
  #gone: string | undefined;
  #lastHeardMs = 0;
  #received = "";
  /** Attempts waiting for a grant, oldest first. */
  readonly #waiting: Array<{ grant: (ticket: number) => void; fallBack: () => void; late?: true }> = [];
  #watchdog: NodeJS.Timeout | undefined;

  constructor(address: string, own: RateLimiter, options: FleetBudgetClientOptions = {}) {
    this.#address = address;
    this.#own = own;
    this.#silenceMs = options.silenceMs ?? SILENCE_MS;
    this.#onFallback = options.onFallback;
  }

  /** Why the server is no longer used, or `undefined` while it is. */
  get fallbackReason(): string | undefined {
    return this.#gone;
  }

  async acquire(): Promise<number> {
    // The own limit first: a ceiling while the server answers, the whole limit once it is gone.
    const ownTicket = await this.#own.acquire();
    if (this.#gone !== undefined) return ownTicket;
    const socket = this.#connected();
    return new Promise<number>((resolve) => {
      this.#waiting.push({ grant: resolve, fallBack: () => resolve(ownTicket) });
      if (this.#waiting.length === 1) {
        // Silence counts only while something waits; and while it does, the socket keeps the process.
        this.#lastHeardMs = performance.now();
        socket.ref();
      }
      this.#send(socket, "take");
    });
  }

  throttled(ticket: number, retryAfterMs?: number): void {
    if (this.#gone !== undefined || this.#socket === undefined) return this.#own.throttled(ticket, retryAfterMs);
    this.#send(this.#socket, `throttled ${ticket} ${retryAfterMs === undefined ? "-" : Math.round(retryAfterMs)}`);
  }

  succeeded(): void {
    if (this.#gone !== undefined || this.#socket === undefined) return this.#own.succeeded();
    this.#send(this.#socket, "ok");
  }

  /** Disconnects; later attempts use the own limit. */
  close(): void {
    this.#fallBack("closed");
  }

  #connected(): Socket {
    if (this.#socket !== undefined) return this.#socket;
    const socket = createConnection(this.#address);
    this.#socket = socket;
    this.#lastHeardMs = performance.now();
    socket.setEncoding("utf8");
    // The provider process must be free to exit while the fleet still runs.
    socket.unref();
    socket.on("data", (chunk: string) => this.#receive(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => this.#fallBack(`the connection to it failed (${error.code ?? error.message})`));
    socket.on("close", () => this.#fallBack("it closed the connection"));
    const silent = (): boolean => this.#waiting.length > 0 && performance.now() - this.#lastHeardMs > this.#silenceMs;
    this.#watchdog = setInterval(() => {
      // After this process itself was held up, timers run before the socket's waiting lines are
      // read: judge again once they have been (setImmediate runs after the loop's I/O).
      if (silent()) setImmediate(() => silent() && this.#fallBack(`it was silent for ${this.#silenceMs} ms`));
    }, Math.min(HEARTBEAT_MS, this.#silenceMs / 2));
    this.#watchdog.unref();
    return socket;
  }

  #send(socket: Socket, line: string): void {
    if (!socket.destroyed) socket.write(`${line}\n`);
  }

  #receive(chunk: string): void {
    this.#lastHeardMs = performance.now();
    this.#received += chunk;
    let end: number;
    while ((end = this.#received.indexOf("\n")) !== -1) {
      const { word, values } = parseBudgetLine(this.#received.slice(0, end));
      this.#received = this.#received.slice(end + 1);
      if (word !== "grant") continue;
      const ticket = Number(values[0]);
      const deadline = values[1] === undefined ? Number.POSITIVE_INFINITY : Number(values[1]);
      const waiter = this.#waiting.shift();
      if (waiter === undefined) return this.#fallBack("it granted more than was asked");
      if (Date.now() > deadline && waiter.late === undefined) {
        // Grants on one connection come in the order of its takes: this one's is now the last.
        waiter.late = true;
        this.#waiting.push(waiter);
        this.#send(this.#socket!, "late");
        continue;
      }
      waiter.grant(Number.isFinite(ticket) ? ticket : 0);
      if (this.#waiting.length === 0) this.#socket?.unref();
    }
  }

  #fallBack(reason: string): void {
    if (this.#gone !== undefined) return;
    this.#gone = reason;
    clearInterval(this.#watchdog);
    this.#socket?.destroy();
    for (const waiter of this.#waiting.splice(0)) waiter.fallBack();
    if (reason !== "closed") this.#onFallback?.(reason);
  }
}

/**
 * The limiter of a process's API client: its own (`maxRequestsPerSecond`, else none until a 429),
 * within the fleet's budget when the environment names one (`env`, the process's by default).
 */
export function limiterFor(maxRequestsPerSecond: number | undefined, options: FleetBudgetClientOptions = {}, env: NodeJS.ProcessEnv = process.env): RequestLimiter {
  const own = new RateLimiter(maxRequestsPerSecond === undefined ? {} : { maxRequestsPerSecond });
  const address = env[FLEET_BUDGET_ENV]?.trim();
  return address ? new FleetBudgetClient(address, own, options) : own;
}

/** `grant 12.5` → `{ word: "grant", values: ["12.5"] }`; the server and the client read lines alike. */
export function parseBudgetLine(line: string): { word: string; values: string[] } {
  const [word = "", ...values] = line.trim().split(/\s+/);
  return { word, values };
}
