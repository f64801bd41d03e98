/**
 * The one error type of the API client.
 *
 * It carries what a caller needs to decide what to do (status, code, details) and what a human
 * needs to report a problem (request id, attempts), and nothing that could leak a secret: no
 * request headers, no request body, no response body beyond the server's own error envelope.
 */
// @ts-nocheck


/** Codes the client itself assigns when the server's envelope cannot supply one. */
export type ClientErrorCode =
  /** The connection failed or dropped before a complete response arrived. */
  | "network_error"
  /** An attempt exceeded the per-attempt time limit. */
  | "timeout"
  /** A success response the client cannot use (not JSON, no `data`, unexpected status, looping cursor). */
  | "invalid_response"
  /** An error response without the envelope of spec 2.3 (e.g. a proxy's HTML page). */
  | "unknown_error";

export interface ApiErrorInit {
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  /** The envelope's `error.code` (any value the server sends), or a {@link ClientErrorCode}. */
  code: string;
  /** What went wrong, without the request line (that is added to `message`). */
  reason: string;
  requestId?: string;
  details?: Record<string, unknown>;
  method: string;
  /** Path relative to the base URL, without the query string. */
  path: string;
  attempts: number;
  /** The server answered from its idempotency store: this is the stored answer of an earlier request. */
  replayed?: boolean;
  /** Time from the start of the first attempt to the end of the last one. */
  elapsedMs?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown>;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  readonly replayed: boolean;
  readonly elapsedMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(formatMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details ?? {};
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.replayed = init.replayed ?? false;
    this.elapsedMs = init.elapsedMs;
  }

  /** `Error#message` is not enumerable, so without this `JSON.stringify` would drop the message. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      requestId: this.requestId,
      details: this.details,
      method: this.method,
      path: this.path,
      attempts: this.attempts,
      elapsedMs: this.elapsedMs,
    };
  }
}

/**
 * `POST /monitors failed with 422 validation_failed: Invalid monitor (interval_seconds: must be
 * at least 10) [request_id req_1]`, plus `after N attempts over T s` when the client retried.
 */
function formatMessage(init: ApiErrorInit): string {
  const outcome = init.status === 0 ? `failed with ${init.code}` : `failed with ${init.status} ${init.code}`;
  const over = init.elapsedMs === undefined ? "" : ` over ${formatSeconds(init.elapsedMs)}`;
  const retried = init.attempts > 1 ? ` after ${init.attempts} attempts${over}` : "";
  const details = formatDetails(init.details);
  const requestId = init.requestId === undefined ? "" : ` [request_id ${init.requestId}]`;
  return `${init.method} ${init.path} ${outcome}${retried}: ${init.reason}${details}${requestId}`;
}

function formatDetails(details: Record<string, unknown> | undefined): string {
  if (details === undefined) return "";
  const entries = Object.entries(details).map(
    ([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
  return entries.length === 0 ? "" : ` (${entries.join(", ")})`;
}

/** `0.4 s`, `9.5 s`, `121 s`: tenths only while they matter. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return seconds < 10 ? `${seconds.toFixed(1)} s` : `${Math.round(seconds)} s`;
}
