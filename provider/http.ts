/**
 * The provider's only HTTP module: one keep-alive connection pool per client, bearer auth,
 * retries with backoff for failures that are safe to repeat (within a time budget per request),
 * per-attempt timeouts, a client-side rate limit that backs off when the service answers 429 (a
 * limit) but not on a 503 or a dropped connection (a fault), one error type and cursor pagination
 * (spec 2.1-2.3, 4.1, 5, 7, 8). The limit is the process's own or a fleet's shared budget
 * (provider/fleet-budget.ts), behind one interface, {@link RequestLimiter}.
 *
 *
 * Settings that cannot work fail fast and say which setting to fix: until the service has
 * answered once, a refused connection or a host name that does not resolve gets one short
 * back-off, not the retry budget (a server that answered before and goes away mid-deploy keeps
 * the budget); that error, a 401 or 403, and an answer that is not JSON name the URL and where the
 * URL or the key came from (never the key itself). {@link settingFailureIn} finds them in a message.
 */
import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { Pool } from "undici";
import { isRecord } from "../schema/naming.js";
import type { SettingSources } from "./config.js";
import { ApiError } from "./errors.js";
import { scopeRefusal } from "./scope-refusal.js";

export { ApiError } from "./errors.js";

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** Spec 2.2. Cursors are opaque: they are passed back verbatim and never parsed. */
export interface Pagination {
  cursor: string | null;
  has_more: boolean;
  limit?: number;
  next_cursor: string | null;
  prev_cursor: string | null;
}

export interface ApiResponse<T> {
  status: number;
  /** The envelope's `data`; `undefined` for 204 and other empty bodies. */
  data: T;
  pagination?: Pagination;
  requestId?: string;
  /** The server answered from its idempotency store (`Idempotent-Replayed: true`). */
  replayed: boolean;
  /** How many attempts the request took (1 when it was not retried). */
  attempts: number;
}

/** Reported once per attempt. Carries no header, body or query, so it can be logged as is. */
export interface RequestEvent {
  method: HttpMethod;
  /** Path relative to the base URL, without the query string. */
  path: string;
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  /** 1-based. */
  attempt: number;
  durationMs: number;
  requestId?: string;
  /** Set when no response arrived. */
  errorCode?: "network_error" | "timeout";
}

/**
 * Reported before each wait for a retry. Like {@link RequestEvent} it carries no header, body or
 * query, so it can be logged as is.
 */
export interface RetryEvent {
  method: HttpMethod;
  /** Path relative to the base URL, without the query string. */
  path: string;
  /** HTTP status of the failed attempt, or 0 when no response arrived. */
  status: number;
  /** Set when no response arrived. */
  errorCode?: "network_error" | "timeout";
  /** The attempt that failed (1-based). */
  attempt: number;
  /** Time since the first attempt of the request started. */
  elapsedMs: number;
  /** The wait before the next attempt. */
  delayMs: number;
}

export interface ApiClientOptions {
  /** Service root; ends in `/v1`. */
  baseUrl: string;
  apiKey: string;
  /**
   * Time after the first attempt of a request within which failures are retried; a wait that
   * would end later is not started. Default 120 s.
   */
  retryBudgetMs?: number;
  /** An upper bound on the retries after the first attempt. Default: none, only the budget. */
  maxRetries?: number;
  /**
   * Limit for one attempt, from sending the request to the end of the response body. Waiting
   * for a free connection or for the rate limit does not count, so a deep queue of requests
   * never times out unsent. Default 30 s.
   */
  requestTimeoutMs?: number;
  /** Most attempt starts per second for this client; 0 or absent means no fixed limit. */
  maxRequestsPerSecond?: number;
  /**
   * A limiter shared with other clients of the process, or a fleet's (provider/fleet-budget.ts);
   * excludes `maxRequestsPerSecond`. Without one, the client has a limiter of its own: a 429
   * slows every request of the client.
   */
  rateLimiter?: RequestLimiter;
  userAgent?: string;
  onRequest?: (event: RequestEvent) => void;
  /** Called before each wait for a retry, e.g. to tell the user that a request is struggling. */
  onRetry?: (event: RetryEvent) => void;
  /** First backoff step before jitter. Default 200 ms. */
  retryBaseDelayMs?: number;
  /** Largest backoff step before jitter: no single backoff wait is longer. Default 20 s. */
  retryMaxDelayMs?: number;
  /** Largest wait a server's `Retry-After` can impose. Default 60 s. */
  retryAfterMaxMs?: number;
  /** Requests in flight at once, and so sockets open to the service. Default 32. */
  maxConnections?: number;
  /**
   * Where `baseUrl` and `apiKey` came from (`monitoring:apiUrl of stack acme`, `MONITORING_API_URL`),
   * for the messages of failures that a setting causes; a function is asked only when one happens.
   */
  sources?: SettingSources | (() => SettingSources);
}

export type QueryValue = string | number | boolean | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  /** Serialized as JSON. */
  body?: unknown;
  /**
   * A key makes a POST/PATCH safe to retry; it is sent unchanged on every attempt of this call.
   * `"auto"` asks for a random one. Without a key, POST and PATCH are sent once: the client does
   * not invent keys on its own because several POSTs (pause, resume, attach) are idempotent by
   * nature, and a create needs a key derived from the resource, not a random one per call, to
   * survive a provider restart.
   */
  idempotencyKey?: string | "auto";
  /** Success statuses the operation documents; any other 2xx is an `invalid_response`. Default: any 2xx. */
  expectedStatus?: number | readonly number[];
}

/** `retrying POST /monitors after 503 (attempt 4, 9 s so far)`: no header, body, query or secret. */
export function describeRetry(event: RetryEvent): string {
  const cause = event.errorCode ?? String(event.status);
  const seconds = Math.round(event.elapsedMs / 1000);
  return `retrying ${event.method} ${event.path} after ${cause} (attempt ${event.attempt}, ${seconds} s so far)`;
}

/** A random key for callers that need one per operation and have nothing to derive it from. */
export function newIdempotencyKey(): string {
  return randomUUID();
}

// ---------------------------------------------------------------------------------------------
// Retry rules

/** Why an attempt did not produce a usable response. */
export type AttemptFailure =
  /** The connection was never established, so the server cannot have seen the request. */
  | { kind: "connect" }
  /** The connection dropped mid-exchange; the server may or may not have acted. */
  | { kind: "network" }
  | { kind: "timeout" }
  /** A failure that repeating cannot fix (malformed response, client closed, bad argument). */
  | { kind: "fatal" }
  | { kind: "status"; status: number; retryAfterMs?: number };

export interface RetryContext {
  method: HttpMethod;
  hasIdempotencyKey: boolean;
  failure: AttemptFailure;
  /** Time since the first attempt of the request started. */
  elapsedMs: number;
}

export interface RetryPolicy {
  /** No wait is started that would end more than this long after the first attempt started. */
  budgetMs: number;
  /** An optional upper bound on the number of retries; absent, only the budget limits them. */
  maxRetries?: number;
  baseDelayMs: number;
  maxDelayMs: number;
  retryAfterMaxMs: number;
  /** Source of jitter in [0, 1). */
  random?: () => number;
}

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * Every retry rule of the client. `attempt` is the number of attempts already made (1-based).
 * Repeating is safe for idempotent methods, for POST/PATCH with an `Idempotency-Key`, and for any
 * request that never left the machine. Backoff is exponential with full jitter, each wait capped at
 * `maxDelayMs`; a `Retry-After` from the server replaces it, capped at `retryAfterMaxMs`. Retries go
 * on until the time budget is spent (or `maxRetries`, when set, is reached): a wait that would end
 * past the budget is not started, since the attempt after it could not finish within it either.
 */
export function retryDecision(attempt: number, context: RetryContext, policy: RetryPolicy): RetryDecision {
  if (attempt > (policy.maxRetries ?? Infinity)) return { retry: false };
  const { failure } = context;
  // A malformed answer, a closed client or a bad argument: repeating cannot help.
  if (failure.kind === "fatal") return { retry: false };
  const safeToRepeat =
    failure.kind === "connect" || IDEMPOTENT_METHODS.has(context.method) || context.hasIdempotencyKey;
  if (!safeToRepeat) return { retry: false };

  let delayMs: number;
  switch (failure.kind) {
    case "status":
      if (!RETRYABLE_STATUSES.has(failure.status)) return { retry: false };
      delayMs =
        failure.retryAfterMs === undefined
          ? jitteredBackoff(attempt, policy)
          : Math.min(failure.retryAfterMs, policy.retryAfterMaxMs);
      break;
    case "connect":
    case "network":
    case "timeout":
      delayMs = jitteredBackoff(attempt, policy);
      break;
  }
  if (context.elapsedMs + delayMs > policy.budgetMs) return { retry: false };
  return { retry: true, delayMs };
}

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

/** Full jitter: a uniform draw below min(maxDelayMs, baseDelayMs * 2^(attempt - 1)). */
function jitteredBackoff(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor((policy.random ?? Math.random)() * ceiling);
}

/** `Retry-After` in milliseconds from delay-seconds or an HTTP date; `undefined` when unusable. */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Every HTTP-date form names its month; without this, V8's lenient parser reads "-5" as a year.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

// ---------------------------------------------------------------------------------------------
// Rate limit

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
class Semaphore {
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

// ---------------------------------------------------------------------------------------------
// Client

const DEFAULT_RETRY_BUDGET_MS = 120_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_BASE_DELAY_MS = 200;
const DEFAULT_MAX_DELAY_MS = 20_000;
const DEFAULT_RETRY_AFTER_MAX_MS = 60_000;
const DEFAULT_MAX_CONNECTIONS = 32;
const PAGE_LIMIT = 250;
/**
 * Before the service's first answer, a refused connection or an unknown host is retried once,
 * after this wait (an emulator or server just starting), and then reported as a setting to fix.
 */
const UNREACHABLE_BACKOFF_MS = 1_000;
const UNREACHABLE_ATTEMPTS = 2;

/** Error codes of failures to reach the server at all: the request was not sent. */
const CONNECT_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
]);
/** Error codes of connections that broke while the request was in flight. */
const TRANSIENT_ERROR_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
]);

/** `status` 0: no response arrived, as in {@link RequestEvent} and {@link rateSignal}. */
type AttemptResult =
  | { kind: "response"; status: number; headers: IncomingHttpHeaders; text: string }
  | { kind: "timeout"; status: 0 }
  | { kind: "no_response"; status: 0; failure: "connect" | "network" | "fatal"; reason: string; cause: unknown };

interface Call {
  method: HttpMethod;
  path: string;
  target: string;
  headers: Record<string, string | undefined>;
  body: string | undefined;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #basePath: string;
  readonly #pool: Pool;
  /** Keeps requests out of undici's own queue, where time would count against their timeout. */
  readonly #inFlight: Semaphore;
  readonly #limiter: RequestLimiter;
  readonly #timeoutMs: number;
  readonly #retryPolicy: RetryPolicy;
  readonly #userAgent: string;
  readonly #onRequest: ((event: RequestEvent) => void) | undefined;
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;
  readonly #sources: SettingSources | (() => SettingSources) | undefined;
  /** Whether the service has answered this client once (any status): then it exists, and failures are outages. */
  #answered = false;

  constructor(options: ApiClientOptions) {
    const url = new URL(options.baseUrl);
    if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
      throw new TypeError("baseUrl must not carry credentials, a query or a fragment");
    }
    if (options.apiKey === "") throw new TypeError("apiKey must not be empty");
    if (options.rateLimiter !== undefined && options.maxRequestsPerSecond) {
      throw new TypeError("pass either rateLimiter or maxRequestsPerSecond, not both");
    }
    const { maxRetries } = options;
    if (maxRetries !== undefined && (!Number.isInteger(maxRetries) || maxRetries < 0)) {
      throw new RangeError(`maxRetries must be a non-negative integer, got ${maxRetries}`);
    }
    const budgetMs = options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
    if (!(budgetMs >= 0) || !Number.isFinite(budgetMs)) {
      throw new RangeError(`retryBudgetMs must be a non-negative number, got ${budgetMs}`);
    }
    this.#timeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(this.#timeoutMs > 0)) throw new RangeError(`requestTimeoutMs must be positive, got ${this.#timeoutMs}`);
    const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    if (!Number.isInteger(maxConnections) || maxConnections < 1) {
      throw new RangeError(`maxConnections must be a positive integer, got ${maxConnections}`);
    }

    this.#basePath = url.pathname.replace(/\/+$/, "");
    this.baseUrl = url.origin + this.#basePath;
    this.#apiKey = options.apiKey;
    this.#inFlight = new Semaphore(maxConnections);
    // undici's own timeouts are off: they tick at about one-second resolution, and the attempt
    // timer below already bounds headers and body together.
    this.#pool = new Pool(url.origin, { connections: maxConnections, headersTimeout: 0, bodyTimeout: 0 });
    this.#limiter =
      options.rateLimiter ??
      new RateLimiter(options.maxRequestsPerSecond ? { maxRequestsPerSecond: options.maxRequestsPerSecond } : {});
    this.#retryPolicy = {
      budgetMs,
      ...(maxRetries === undefined ? {} : { maxRetries }),
      baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_BASE_DELAY_MS,
      maxDelayMs: options.retryMaxDelayMs ?? DEFAULT_MAX_DELAY_MS,
      retryAfterMaxMs: options.retryAfterMaxMs ?? DEFAULT_RETRY_AFTER_MAX_MS,
    };
    this.#userAgent = options.userAgent ?? `pulumi-monitoring node/${process.version}`;
    this.#onRequest = options.onRequest;
    this.#onRetry = options.onRetry;
    this.#sources = options.sources;
  }

  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    if (!path.startsWith("/") || path.includes("?") || path.includes("#")) {
      throw new TypeError(`path must start with "/" and carry no query (use options.query): ${path}`);
    }
    const idempotencyKey = options.idempotencyKey === "auto" ? newIdempotencyKey() : options.idempotencyKey;
    // undici sends no header whose value is undefined.
    const headers: Record<string, string | undefined> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: "application/json",
      "user-agent": this.#userAgent,
      "content-type": options.body === undefined ? undefined : "application/json",
      "idempotency-key": idempotencyKey,
    };
    const call: Call = {
      method,
      path,
      target: this.#basePath + path + encodeQuery(options.query),
      headers,
      // JSON.stringify(undefined) is undefined: no body.
      body: JSON.stringify(options.body) as string | undefined,
    };

    let firstStartedMs: number | undefined;
    for (let attempt = 1; ; attempt++) {
      const { result, startedMs, durationMs } = await this.#send(call);
      firstStartedMs ??= startedMs;
      this.#report(call, attempt, durationMs, result);
      if (result.kind === "response") this.#answered = true;

      if (isSuccess(result)) {
        if (!isJsonOrEmpty(result)) throw this.#notTheApi(call, attempt, result, "invalid_response");
        return successResponse<T>(call, attempt, result, options.expectedStatus);
      }
      const failure = attemptFailure(result);
      const elapsedMs = performance.now() - firstStartedMs;
      // A service that never answered is most likely not there at all: a setting to fix, not an outage to wait out.
      if (
        !this.#answered &&
        // Stryker disable next-line ConditionalExpression: the kind only narrows the type: a timeout carries no error, so nothing unreachable
        result.kind === "no_response"
      ) {
        const unreachable = unreachableCause(result.cause);
        if (unreachable !== undefined) {
          if (attempt >= UNREACHABLE_ATTEMPTS) throw this.#unreachableError(call, attempt, elapsedMs, result, unreachable);
          this.#announceRetry(call, attempt, elapsedMs, UNREACHABLE_BACKOFF_MS, result);
          await delay(UNREACHABLE_BACKOFF_MS);
          continue;
        }
      }
      const decision = retryDecision(
        attempt,
        { method, hasIdempotencyKey: idempotencyKey !== undefined, failure, elapsedMs },
        this.#retryPolicy,
      );
      if (!decision.retry) throw this.#failureError(call, attempt, elapsedMs, result);
      this.#announceRetry(call, attempt, elapsedMs, decision.delayMs, result);
      await delay(decision.delayMs);
    }
  }

  /**
   * Every item of a list operation, page after page (`limit=250` unless `query.limit` says
   * otherwise), following `next_cursor` until `has_more` is false or no cursor comes back.
   */
  async *paginate<T>(path: string, query: Query = {}): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages<T>(path, query)) yield* page.items;
  }

  /** The pages of a list operation, one request each, as {@link paginate} walks them; `more`: another page follows. */
  async *pages<T>(path: string, query: Query = {}): AsyncGenerator<{ items: T[]; more: boolean }, void, undefined> {
    const followed = new Set<string>();
    let cursor = query.cursor === undefined ? undefined : String(query.cursor);
    if (cursor !== undefined) followed.add(cursor);
    for (;;) {
      const page = await this.request<unknown>("GET", path, { query: { limit: PAGE_LIMIT, ...query, cursor } });
      if (!Array.isArray(page.data)) {
        throw invalidResponse("GET", path, page, "a list response whose data is not an array");
      }
      const next = page.pagination?.has_more === true ? page.pagination.next_cursor : null;
      yield { items: page.data as T[], more: next !== null };
      if (next === null) return;
      if (followed.has(next)) {
        throw invalidResponse("GET", path, page, "the server returned a cursor it had returned before");
      }
      followed.add(next);
      cursor = next;
    }
  }

  async listAll<T>(path: string, query?: Query): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this.paginate<T>(path, query)) items.push(item);
    return items;
  }

  /** Closes the pooled connections; pending requests finish first. */
  async close(): Promise<void> {
    await this.#pool.close();
  }

  /**
   * One attempt: waits for a free connection and the rate limit, then times the exchange alone,
   * and tells the limiter how the service took it.
   */
  async #send(call: Call): Promise<{ result: AttemptResult; startedMs: number; durationMs: number }> {
    await this.#inFlight.acquire();
    try {
      const ticket = await this.#limiter.acquire();
      const startedMs = performance.now();
      const result = await this.#exchange(call);
      const signal = rateSignal(result.status);
      if (signal === "limit") {
        // Only a response carries a 429. The request itself waits out its Retry-After (retryDecision); the limiter slows the rest.
        const { headers } = result as Extract<AttemptResult, { kind: "response" }>;
        const retryAfterMs = parseRetryAfter(header(headers, "retry-after"));
        this.#limiter.throttled(ticket, retryAfterMs === undefined ? undefined : Math.min(retryAfterMs, this.#retryPolicy.retryAfterMaxMs));
      } else if (signal === "served") {
        this.#limiter.succeeded();
      }
      return { result, startedMs, durationMs: Math.round(performance.now() - startedMs) };
    } finally {
      this.#inFlight.release();
    }
  }

  async #exchange(call: Call): Promise<AttemptResult> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.#timeoutMs);
    try {
      const response = await this.#pool.request({
        path: call.target,
        method: call.method,
        headers: call.headers,
        body: call.body,
        signal: timeout.signal,
      });
      const text = await response.body.text();
      return { kind: "response", status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (timeout.signal.aborted) return { kind: "timeout", status: 0 };
      return { kind: "no_response", status: 0, ...classifyNetworkError(error), cause: error };
    } finally {
      clearTimeout(timer);
    }
  }

  #report(call: Call, attempt: number, durationMs: number, result: AttemptResult): void {
    if (this.#onRequest === undefined) return;
    const event: RequestEvent = {
      method: call.method,
      path: call.path,
      status: result.status,
      attempt,
      durationMs,
    };
    if (result.kind === "response") {
      const requestId = header(result.headers, "x-request-id");
      if (requestId !== undefined) event.requestId = requestId;
    } else {
      event.errorCode = result.kind === "timeout" ? "timeout" : "network_error";
    }
    try {
      this.#onRequest(event);
    } catch {
      // An observer must not be able to fail or alter the request it observes.
    }
  }

  #announceRetry(call: Call, attempt: number, elapsedMs: number, delayMs: number, result: AttemptResult): void {
    if (this.#onRetry === undefined) return;
    const event: RetryEvent = {
      method: call.method,
      path: call.path,
      status: result.status,
      attempt,
      elapsedMs: Math.round(elapsedMs),
      delayMs,
    };
    if (result.kind !== "response") event.errorCode = result.kind === "timeout" ? "timeout" : "network_error";
    try {
      this.#onRetry(event);
    } catch {
      // An observer must not be able to fail or alter the request it observes.
    }
  }

  #failureError(call: Call, attempts: number, elapsedMs: number, result: AttemptResult): ApiError {
    const base = { method: call.method, path: call.path, attempts, elapsedMs: Math.round(elapsedMs) };
    switch (result.kind) {
      case "timeout":
        return new ApiError({ ...base, status: 0, code: "timeout", reason: `no complete response within ${this.#timeoutMs} ms` });
      case "no_response":
        return new ApiError({ ...base, status: 0, code: "network_error", reason: result.reason, cause: result.cause });
      case "response": {
        const body = parseErrorBody(result);
        if (body.code === "unknown_error" && !isJsonOrEmpty(result)) return this.#notTheApi(call, attempts, result, "unknown_error");
        if (result.status === 401 || result.status === 403) {
          const refused = result.status === 401 ? `was refused: check that it is a key of the account at ${this.baseUrl}` : scopeRefusal(call.method, call.path, this.baseUrl);
          body.reason += ` (${describeSetting("apiKey", this.#sourcesNow().apiKey)} ${refused})`;
        }
        return new ApiError({ ...base, status: result.status, replayed: isReplayed(result.headers), ...body });
      }
    }
  }

  #sourcesNow(): SettingSources {
    const sources = typeof this.#sources === "function" ? this.#sources() : this.#sources;
    return sources ?? { apiUrl: "the client's baseUrl", apiKey: "the client's apiKey" };
  }

  /** Nothing answers at the URL: the service is not running there, or the URL is wrong. */
  #unreachableError(call: Call, attempts: number, elapsedMs: number, result: Extract<AttemptResult, { kind: "no_response" }>, cause: "refused" | "unresolved"): ApiError {
    const url = `${this.baseUrl} (${describeSetting("apiUrl", this.#sourcesNow().apiUrl)})`;
    const reason =
      cause === "refused"
        ? `nothing answers at ${url}: the connection was refused. Start the service there (for the emulator: npx pulumi-monitoring-emulator), or correct the host or the port`
        : `the host name of ${url} does not resolve: correct the URL (a typo in the host name?), or check this machine's name resolution`;
    return new ApiError({ method: call.method, path: call.path, attempts, elapsedMs: Math.round(elapsedMs), status: 0, code: "network_error", reason, cause: result.cause });
  }

  /** An answer that is not JSON: whatever answers at the URL is not the service's API. */
  #notTheApi(call: Call, attempts: number, result: Extract<AttemptResult, { kind: "response" }>, code: "invalid_response" | "unknown_error"): ApiError {
    const contentType = header(result.headers, "content-type") ?? "no content type";
    const reason =
      `the answer is not JSON (${contentType}): ${this.baseUrl} (${describeSetting("apiUrl", this.#sourcesNow().apiUrl)}) does not look like ` +
      "the monitoring service's API. Check the URL: the API's root, which ends in /v1, not a web page";
    const requestId = header(result.headers, "x-request-id");
    return new ApiError({ method: call.method, path: call.path, attempts, status: result.status, code, reason, ...(requestId === undefined ? {} : { requestId }) });
  }
}

// ---------------------------------------------------------------------------------------------
// Settings that cannot work

/** `the URL from monitoring:apiUrl of stack acme`, `the API key from MONITORING_API_KEY`. */
function describeSetting(setting: keyof SettingSources, source: string): string {
  return `${setting === "apiUrl" ? "the URL" : "the API key"} from ${source}`;
}

const SETTING_FAILURE = /the (URL|API key) from (MONITORING_API_URL|MONITORING_API_KEY|--api-url|--api-key|monitoring:api(?:Url|Key)(?: of stack ([^\s):]+))?)(?=[)\s:])/;

/**
 * The setting a failure message blames, when it is one of the failures above (nothing answers at
 * the URL, the key refused, an answer that is not JSON): every request with the same setting would
 * fail the same way. `stack` is set when the message names the stack the value came from.
 */
export function settingFailureIn(text: string): { setting: keyof SettingSources; source: string; stack?: string } | undefined {
  const match = SETTING_FAILURE.exec(text);
  if (match === null) return undefined;
  const failure = { setting: match[1] === "URL" ? ("apiUrl" as const) : ("apiKey" as const), source: match[2] ?? "" };
  return match[3] === undefined ? failure : { ...failure, stack: match[3] };
}

/** Which failure to connect means nothing is there: refused, or the host name unknown. */
function unreachableCause(error: unknown): "refused" | "unresolved" | undefined {
  const codes = errorCodes(error);
  if (codes.includes("ECONNREFUSED")) return "refused";
  if (codes.some((code) => code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME")) return "unresolved";
  return undefined;
}

/** A 2xx answer (an attempt without one has status 0). */
function isSuccess(result: AttemptResult): result is Extract<AttemptResult, { kind: "response" }> {
  return result.status >= 200 && result.status < 300;
}

function isJsonOrEmpty(result: Extract<AttemptResult, { kind: "response" }>): boolean {
  if (result.status === 204 || result.text.trim() === "") return true;
  try {
    JSON.parse(result.text);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Response handling

function successResponse<T>(
  call: Call,
  attempts: number,
  result: Extract<AttemptResult, { kind: "response" }>,
  expectedStatus: number | readonly number[] | undefined,
): ApiResponse<T> {
  const response: ApiResponse<T> = {
    status: result.status,
    data: undefined as T,
    replayed: isReplayed(result.headers),
    attempts,
  };
  const requestId = header(result.headers, "x-request-id");
  if (requestId !== undefined) response.requestId = requestId;

  const expected = typeof expectedStatus === "number" ? [expectedStatus] : expectedStatus;
  if (expected !== undefined && !expected.includes(result.status)) {
    throw invalidResponse(call.method, call.path, response, `status ${result.status}, expected ${expected.join(" or ")}`);
  }
  if (result.status === 204 || result.text.trim() === "") return response;

  const envelope = parseJsonObject(result.text);
  if (envelope === undefined || !("data" in envelope)) {
    throw invalidResponse(call.method, call.path, response, "a success body that is not a JSON object with data");
  }
  response.data = envelope.data as T;
  const pagination = parsePagination(envelope.pagination);
  if (pagination !== undefined) response.pagination = pagination;
  return response;
}

function invalidResponse(
  method: HttpMethod,
  path: string,
  response: Pick<ApiResponse<unknown>, "status" | "requestId" | "attempts">,
  what: string,
): ApiError {
  return new ApiError({
    status: response.status,
    code: "invalid_response",
    reason: `unusable response: ${what}`,
    requestId: response.requestId,
    method,
    path,
    attempts: response.attempts,
  });
}

/** Spec 2.3 envelope; anything else keeps its status and becomes `unknown_error`. */
function parseErrorBody(result: Extract<AttemptResult, { kind: "response" }>): {
  code: string;
  reason: string;
  requestId?: string;
  details?: Record<string, unknown>;
} {
  const headerRequestId = header(result.headers, "x-request-id");
  const error = parseJsonObject(result.text)?.error;
  if (isRecord(error) && typeof error.code === "string" && error.code !== "") {
    return {
      code: error.code,
      reason: typeof error.message === "string" && error.message !== "" ? error.message : "no message",
      requestId: typeof error.request_id === "string" ? error.request_id : headerRequestId,
      details: isRecord(error.details) ? error.details : undefined,
    };
  }
  // The body itself stays out of the message: it is not the service's envelope and may echo anything.
  const contentType = header(result.headers, "content-type") ?? "no content type";
  return {
    code: "unknown_error",
    reason: `the response has no error envelope (${contentType})`,
    requestId: headerRequestId,
  };
}

function parsePagination(raw: unknown): Pagination | undefined {
  if (!isRecord(raw)) return undefined;
  const pagination: Pagination = {
    cursor: opaqueCursor(raw.cursor),
    has_more: raw.has_more === true,
    next_cursor: opaqueCursor(raw.next_cursor),
    prev_cursor: opaqueCursor(raw.prev_cursor),
  };
  if (typeof raw.limit === "number") pagination.limit = raw.limit;
  return pagination;
}

function opaqueCursor(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return null;
}

function attemptFailure(result: AttemptResult): AttemptFailure {
  switch (result.kind) {
    case "timeout":
      return { kind: "timeout" };
    case "no_response":
      return { kind: result.failure };
    case "response": {
      return { kind: "status", status: result.status, retryAfterMs: parseRetryAfter(header(result.headers, "retry-after")) };
    }
  }
}

function classifyNetworkError(error: unknown): { failure: "connect" | "network" | "fatal"; reason: string } {
  const codes = errorCodes(error);
  const failure = codes.some((code) => CONNECT_ERROR_CODES.has(code))
    ? "connect"
    : codes.some((code) => TRANSIENT_ERROR_CODES.has(code))
      ? "network"
      : "fatal";
  const message = error instanceof Error && error.message !== "" ? error.message : undefined;
  return { failure, reason: message ?? codes[0] ?? "the connection failed" };
}

/** Codes of an error, its cause and, for happy-eyeballs connects, each address tried. */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const pending: unknown[] = [error];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (!isRecord(next)) continue;
    if (typeof next.code === "string") codes.push(next.code);
    if (next.cause !== undefined) pending.push(next.cause);
    if (Array.isArray(next.errors)) pending.push(...next.errors);
  }
  return codes;
}

function encodeQuery(query: Query | undefined): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const encoded = params.toString();
  return encoded === "" ? "" : `?${encoded}`;
}

/** Whether the server answered from its idempotency store (a "not shown" header name: the emulator's). */
function isReplayed(headers: IncomingHttpHeaders): boolean {
  return header(headers, "idempotent-replayed")?.toLowerCase() === "true";
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
