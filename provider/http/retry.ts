/**
 * The retry rules, as pure functions over what an attempt ended with: which failures are worth
 * repeating and safe to repeat, the backoff, `Retry-After`, the time budget, and the early stop
 * for a service that has never answered (a setting to fix, not an outage to wait out).
 */
import { isRecord } from "../../schema/naming.js";
import type { HttpMethod } from "./request.js";
import { type AttemptResult, header } from "./responses.js";

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

/** Full jitter: a uniform draw below min(maxDelayMs, baseDelayMs * 2^(attempt - 1)). */
export function jitteredBackoff(attempt: number, policy: RetryPolicy): number {
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

/**
 * Before the service's first answer, a refused connection or an unknown host is retried once,
 * after this wait (an emulator or server just starting), and then reported as a setting to fix.
 */
export const UNREACHABLE_BACKOFF_MS = 1_000;
export const UNREACHABLE_ATTEMPTS = 2;

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

/** What the retry rules need to know of an attempt that produced no usable response. */
export function attemptFailure(result: AttemptResult): AttemptFailure {
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

/** A transport error as a failure kind (the connection never made, broken mid-exchange, or neither), and words for it. */
export function classifyNetworkError(error: unknown): { failure: "connect" | "network" | "fatal"; reason: string } {
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

/** Which failure to connect means nothing is there: refused, or the host name unknown. */
export function unreachableCause(error: unknown): "refused" | "unresolved" | undefined {
  const codes = errorCodes(error);
  if (codes.includes("ECONNREFUSED")) return "refused";
  if (codes.some((code) => code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME")) return "unresolved";
  return undefined;
}
