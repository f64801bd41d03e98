/**
 * The provider's only API client (spec 2.1-2.3, 4.1, 5, 7, 8): one keep-alive connection pool,
 * bearer auth, per-attempt timeouts, retries by the rules of retry.ts within a time budget, starts
 * paced by a {@link RequestLimiter} (rate-limit.ts), and cursor pagination. Its failures are one
 * error type, `ApiError`, and a {@link SettingError} when a setting cannot work.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Pool } from "undici";
import { type SettingSources, shownKey } from "../config.js";
import { ApiError } from "../errors.js";
import { RateLimiter, rateSignal, type RequestLimiter, Semaphore } from "./rate-limit.js";
import { type Call, encodeQuery, type HttpMethod, newIdempotencyKey, type Query, type RequestEvent, type RequestOptions, type RetryEvent } from "./request.js";
import { type Answer, type ApiResponse, type AttemptResult, header, invalidResponse, isJsonOrEmpty, isReplayed, isSuccess, parseErrorBody, successResponse } from "./responses.js";
import { attemptFailure, classifyNetworkError, parseRetryAfter, retryDecision, type RetryPolicy, UNREACHABLE_ATTEMPTS, UNREACHABLE_BACKOFF_MS, unreachableCause } from "./retry.js";
import { scopeRefusal } from "./scope-refusal.js";
import { SettingError } from "./setting-error.js";

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

const DEFAULT_RETRY_BUDGET_MS = 120_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_BASE_DELAY_MS = 200;
const DEFAULT_MAX_DELAY_MS = 20_000;
const DEFAULT_RETRY_AFTER_MAX_MS = 60_000;
const DEFAULT_MAX_CONNECTIONS = 32;
const PAGE_LIMIT = 250;

export class ApiClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #basePath: string;
  /**
   * Made at the first request: loading undici costs a process about 0.1 CPU-s, which a provider
   * host that sends no request (a preview, a deploy with nothing to change) spares.
   */
  #pool: Pool | undefined;
  readonly #origin: string;
  readonly #maxConnections: number;
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
    this.#origin = url.origin;
    this.#maxConnections = maxConnections;
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
    await this.#pool?.close();
  }

  #connections(): Pool {
    if (this.#pool === undefined) {
      const { Pool } = require("undici") as typeof import("undici");
      // undici's own timeouts are off: they tick at about one-second resolution, and the attempt
      // timer below already bounds headers and body together.
      this.#pool = new Pool(this.#origin, { connections: this.#maxConnections, headersTimeout: 0, bodyTimeout: 0 });
    }
    return this.#pool;
  }

  /**
   * One attempt: waits for a free connection and the rate limit, then times the exchange alone,
   * and tells the limiter how the service took it.
   */
  async #send(call: Call): Promise<{ result: AttemptResult; startedMs: number; durationMs: number }> {
    await this.#inFlight.acquire();
    try {
      // Loaded before the grant: the first request's grant is spent on sending, not on loading undici.
      const connections = this.#connections();
      const ticket = await this.#limiter.acquire();
      const startedMs = performance.now();
      const result = await this.#exchange(connections, call);
      const signal = rateSignal(result.status);
      if (signal === "limit") {
        // Only a response carries a 429. The request itself waits out its Retry-After (retryDecision); the limiter slows the rest.
        const { headers } = result as Answer;
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

  async #exchange(connections: Pool, call: Call): Promise<AttemptResult> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.#timeoutMs);
    try {
      const response = await connections.request({
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
    const requestId = result.kind === "response" ? header(result.headers, "x-request-id") : undefined;
    notify(this.#onRequest, { ...attemptFacts(call, attempt, result), durationMs, ...(requestId === undefined ? {} : { requestId }) });
  }

  #announceRetry(call: Call, attempt: number, elapsedMs: number, delayMs: number, result: AttemptResult): void {
    if (this.#onRetry === undefined) return;
    notify(this.#onRetry, { ...attemptFacts(call, attempt, result), elapsedMs: Math.round(elapsedMs), delayMs });
  }

  #failureError(call: Call, attempts: number, elapsedMs: number, result: AttemptResult): ApiError {
    const base = { method: call.method, path: call.path, attempts, elapsedMs: Math.round(elapsedMs) };
    switch (result.kind) {
      case "timeout":
        return new ApiError({ ...base, status: 0, code: "timeout", reason: `no complete response within ${this.#timeoutMs} ms` });
      case "no_response":
        return new ApiError({ ...base, status: 0, code: "network_error", reason: result.reason, cause: result.cause });
      case "response": {
        const { reason, ...body } = parseErrorBody(result);
        if (body.code === "unknown_error" && !isJsonOrEmpty(result)) return this.#notTheApi(call, attempts, result, "unknown_error");
        const answered = { ...base, status: result.status, replayed: isReplayed(result.headers), ...body };
        if (result.status === 401 || result.status === 403) {
          const problem =
            result.status === 401
              ? { kind: "key refused" as const, serviceReason: reason }
              : { kind: "no access" as const, serviceReason: reason, lacks: scopeRefusal(call.method, call.path, this.baseUrl) };
          return new SettingError({ ...answered, problem, source: this.#sourcesNow().apiKey, url: this.baseUrl, keySent: shownKey(this.#apiKey) });
        }
        return new ApiError({ ...answered, reason });
      }
    }
  }

  #sourcesNow(): SettingSources {
    const sources = typeof this.#sources === "function" ? this.#sources() : this.#sources;
    return sources ?? { apiUrl: "the client's baseUrl", apiKey: "the client's apiKey" };
  }

  /** Nothing answers at the URL: the service is not running there, or the URL is wrong. */
  #unreachableError(call: Call, attempts: number, elapsedMs: number, result: Extract<AttemptResult, { kind: "no_response" }>, cause: "refused" | "unresolved"): SettingError {
    const base = { method: call.method, path: call.path, attempts, elapsedMs: Math.round(elapsedMs), status: 0, code: "network_error", cause: result.cause };
    return new SettingError({ ...base, problem: { kind: cause }, source: this.#sourcesNow().apiUrl, url: this.baseUrl });
  }

  /** An answer that is not JSON: whatever answers at the URL is not the service's API. */
  #notTheApi(call: Call, attempts: number, result: Answer, code: "invalid_response" | "unknown_error"): SettingError {
    const problem = { kind: "not the API" as const, contentType: header(result.headers, "content-type") ?? "no content type" };
    const requestId = header(result.headers, "x-request-id");
    const base = { method: call.method, path: call.path, attempts, status: result.status, code, ...(requestId === undefined ? {} : { requestId }) };
    return new SettingError({ ...base, problem, source: this.#sourcesNow().apiUrl, url: this.baseUrl });
  }
}

/** What the request and retry events say of one attempt: no header, body or query. */
function attemptFacts(call: Call, attempt: number, result: AttemptResult): Pick<RequestEvent, "method" | "path" | "status" | "attempt" | "errorCode"> {
  const facts = { method: call.method, path: call.path, status: result.status, attempt };
  return result.kind === "response" ? facts : { ...facts, errorCode: result.kind === "timeout" ? "timeout" : "network_error" };
}

/** Hands an event to its observer, which must not be able to fail or alter the request it observes. */
function notify<E>(observer: (event: E) => void, event: E): void {
  try {
    observer(event);
  } catch {
    // The observer's failure is its own.
  }
}
