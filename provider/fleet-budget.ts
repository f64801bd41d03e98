/**
 * A fleet's shared rate budget as one provider process takes part in it: every attempt asks the
 * fleet's token server first, so all stacks together keep to the key's limit. The line protocol and
 * why a late grant goes back are in docs/architecture.md (The fleet's rate budget).
 */
import { createConnection, type Socket } from "node:net";
import { RateLimiter, type RequestLimiter } from "./http/rate-limit.js";

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
 * within the fleet's budget when the run has one (`budget`: its token server's address).
 */
export function limiterFor(maxRequestsPerSecond: number | undefined, budget: string | undefined, options: FleetBudgetClientOptions = {}): RequestLimiter {
  const own = new RateLimiter(maxRequestsPerSecond === undefined ? {} : { maxRequestsPerSecond });
  return budget === undefined ? own : new FleetBudgetClient(budget, own, options);
}

/** `grant 12.5` → `{ word: "grant", values: ["12.5"] }`; the server and the client read lines alike. */
export function parseBudgetLine(line: string): { word: string; values: string[] } {
  const [word = "", ...values] = line.trim().split(/\s+/);
  return { word, values };
}
