/**
 * What a request is, as callers and observers of the client see it: its method, query and
 * options, and the events reported per attempt and per retry, which carry no header, body,
 * query or secret so that they can be logged as they are.
 */
import { randomUUID } from "node:crypto";

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

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

/** One request as the transport sends each of its attempts. */
export interface Call {
  method: HttpMethod;
  path: string;
  target: string;
  headers: Record<string, string | undefined>;
  body: string | undefined;
}

export function encodeQuery(query: Query | undefined): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const encoded = params.toString();
  return encoded === "" ? "" : `?${encoded}`;
}
