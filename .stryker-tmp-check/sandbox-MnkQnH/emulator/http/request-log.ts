/**
 * The record of every request under the base URL, faulted ones included, for tests that assert
 * how many calls a client made ("zero API requests during preview"). It holds no secret: of the
 * bearer key only its first characters, and no header or body.
 */
// @ts-nocheck

export interface RequestLogEntry {
  request_id: string;
  method: string;
  /** Relative to the base URL: `/monitors/…`, without the query string. */
  path: string;
  /** The raw query string without `?`, or `""`. */
  query: string;
  /** `null` when the connection was dropped by an injected fault. */
  status: number | null;
  idempotency_key: string | null;
  /** `pls_test_` and four more characters of the key sent, or `null` when none was sent. */
  key_prefix: string | null;
  /** The kind of injected fault that shaped the answer, if any. */
  fault: "status" | "latency" | "drop_connection" | "drop_response" | null;
  /** Answered from the idempotency store. */
  replayed: boolean;
  /** ISO-8601 time the request arrived. */
  time: string;
  duration_ms: number;
}

/** Oldest entries are dropped past this many, so a long benchmark cannot exhaust memory. */
export const REQUEST_LOG_CAPACITY = 10_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > REQUEST_LOG_CAPACITY * 2) this.entries = this.entries.slice(-REQUEST_LOG_CAPACITY);
  }

  list(): RequestLogEntry[] {
    return this.entries.slice(-REQUEST_LOG_CAPACITY);
  }

  clear(): void {
    this.entries = [];
  }
}

/** Shown instead of a bearer key: enough to tell keys apart, too little to use one. */
export function keyPrefix(key: string): string {
  const visible = key.startsWith("pls_test_") ? "pls_test_".length + 4 : 4;
  return `${key.slice(0, visible)}…`;
}
