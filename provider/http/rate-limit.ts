/**
 * How fast attempts start: the process's own AIMD limiter, the interface a fleet's shared budget
 * (provider/fleet-budget.ts) implements too, and the bound on requests in flight. Apart from the
 * client so that the fleet's budget server uses the same limiter without loading the transport.
 */
import { setTimeout as delay } from "node:timers/promises";

/**
 * What an attempt's outcome says about the rate, as opposed to whether to retry it:
 * - `limit`: a 429, the key's rate limit, which every client of the key shares: slow down;
 * - `fault`: a 5xx, a dropped connection or a timeout, a fault of the service or the network:
 *   retried with jitter, but no reason to send less (slowing down would not make it go away);
 * - `served`: any other answer, errors included: the service keeps up with the rate.
 */
export type RateSignal = "limit" | "fault" | "served";

/** `status` 0: no response arrived (connection refused or dropped, timeout). */
export function rateSignal(status: number): RateSignal {
  if (status === 429) return "limit";
  return status === 0 || status >= 500 ? "fault" : "served";
}

/** Time as the rate limiter sees it; tests substitute a clock they advance by hand. */
export interface Clock {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: Clock = { now: () => performance.now(), sleep: (ms) => delay(ms) };

/**
 * Paces the starts of attempts and learns from the answers. {@link RateLimiter} is the process's
 * own; a fleet's shared budget (provider/fleet-budget.ts) implements the same three calls.
 */
export interface RequestLimiter {
  /**
   * Resolves when an attempt may start, with a ticket: handed back to {@link throttled} when the
   * attempt is answered 429, it tells whether the attempt went out before the last decrease.
   */
  acquire(): Promise<number>;
  /** The attempt of `ticket` was answered 429 (`retryAfterMs`: its `Retry-After`, capped). */
  throttled(ticket: number, retryAfterMs?: number): void;
  /** An attempt was served (see {@link rateSignal}). */
  succeeded(): void;
}

export interface RateLimiterOptions {
  /** The most attempt starts per second, ever; absent, only the service's 429s set a limit. */
  maxRequestsPerSecond?: number;
  clock?: Clock;
}

/** The rate a 429 can lower the limit to, at the least. */
const MIN_RATE_PER_SECOND = 1;
/**
 * How much each success raises the rate, in starts per second: back from 20 to 40 per second
 * takes 20 successes, where one 429 halves it. A smaller step would let a service that refuses
 * a share of requests at random (a bad minute rather than a rate limit) hold the deploy near
 * the floor.
 */
const RECOVERY_PER_SUCCESS = 1;
/** How long starts pause after a 429 that names no `Retry-After`. */
const DEFAULT_THROTTLE_PAUSE_MS = 1000;
/** The window over which the rate actually sent is measured. */
const RATE_WINDOW_MS = 1000;

/**
 * Paces the starts of attempts, retries included, for every client that shares the instance (one
 * per provider process, so one for the whole deploy).
 *
 * A 429 means the service wants the caller as a whole to slow down, not only the request that
 * got it, so `throttled` pauses every start until its `Retry-After` has passed and halves the rate
 * (the first time, the rate sent in the last second); each success then raises it by a small
 * step (additive increase, multiplicative decrease). A 429 for an attempt started before the last
 * decrease extends the pause but does not halve again: it tells nothing about the rate now in
 * force. `maxRequestsPerSecond` is the ceiling the rate never exceeds.
 */
export class RateLimiter implements RequestLimiter {
  readonly #ceiling: number;
  readonly #clock: Clock;
  /** Current limit in starts per second; `Infinity` until the first 429 when no ceiling is set. */
  #rate: number;
  #nextSlotMs = Number.NEGATIVE_INFINITY;
  #pausedUntilMs = Number.NEGATIVE_INFINITY;
  #lastDecreaseMs = Number.NEGATIVE_INFINITY;
  /** Start times within the last {@link RATE_WINDOW_MS}, oldest first. */
  readonly #recentStarts: number[] = [];

  constructor(options: RateLimiterOptions = {}) {
    const { maxRequestsPerSecond } = options;
    if (maxRequestsPerSecond !== undefined && (!(maxRequestsPerSecond > 0) || !Number.isFinite(maxRequestsPerSecond))) {
      throw new RangeError(`maxRequestsPerSecond must be a positive number, got ${maxRequestsPerSecond}`);
    }
    this.#ceiling = maxRequestsPerSecond ?? Number.POSITIVE_INFINITY;
    this.#rate = this.#ceiling;
    this.#clock = options.clock ?? systemClock;
  }

  /** The limit in force, in starts per second (`Infinity` for none). */
  get rate(): number {
    return this.#rate;
  }

  /**
   * Resolves, with the start time, when the caller may start its attempt: once no pause is in
   * force and at least `1 / rate` after the previous start. A start that came late (its process
   * was busy) moves the next free slot along, so that two starts never crowd together to make up.
   */
  async acquire(): Promise<number> {
    for (;;) {
      const now = this.#clock.now();
      const slot = Math.max(now, this.#nextSlotMs, this.#pausedUntilMs);
      this.#nextSlotMs = slot + 1000 / this.#rate;
      if (slot > now) await this.#clock.sleep(slot - now);
      const start = this.#clock.now();
      // A 429 that arrived during the wait pauses this start too: queue again behind the pause.
      if (this.#pausedUntilMs <= start) {
        this.#recordStart(start);
        this.#nextSlotMs = Math.max(this.#nextSlotMs, start + 1000 / this.#rate);
        return start;
      }
    }
  }

  /** The service answered 429 to an attempt started at `startedAtMs` (a time from `acquire`). */
  throttled(startedAtMs: number, retryAfterMs: number = DEFAULT_THROTTLE_PAUSE_MS): void {
    const now = this.#clock.now();
    this.#pausedUntilMs = Math.max(this.#pausedUntilMs, now + retryAfterMs);
    if (startedAtMs < this.#lastDecreaseMs) return;
    this.#lastDecreaseMs = now;
    // Without a limit yet, what was sent in the last second is the rate the service refused.
    const refusedRate = Number.isFinite(this.#rate) ? this.#rate : this.#startsWithinWindow(now);
    this.#rate = Math.max(MIN_RATE_PER_SECOND, refusedRate / 2);
  }

  /** An attempt succeeded: the rate grows back towards the ceiling. */
  succeeded(): void {
    this.#rate = Math.min(this.#ceiling, this.#rate + RECOVERY_PER_SUCCESS);
  }

  #recordStart(start: number): void {
    this.#recentStarts.push(start);
    // Stryker disable next-line CallExpression: only bounds the memory of a long deploy with a limit; the count drops old starts itself before it counts
    this.#startsWithinWindow(start);
  }

  /** Drops starts older than the window and counts the rest. */
  #startsWithinWindow(now: number): number {
    while ((this.#recentStarts[0] ?? Number.POSITIVE_INFINITY) <= now - RATE_WINDOW_MS) this.#recentStarts.shift();
    return this.#recentStarts.length;
  }
}

/** Admits at most `limit` holders at once; the others wait in arrival order. */
export class Semaphore {
  #available: number;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#available = limit;
  }

  async acquire(): Promise<void> {
    if (this.#available > 0) {
      this.#available -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Hands the place straight to the longest waiter, if any. */
  release(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#available += 1;
    else next();
  }
}
