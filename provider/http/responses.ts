/**
 * Reading the service's answers (spec 2.1-2.3): the success envelope and its pagination, the error
 * envelope, and the answers the client cannot use, which become an `invalid_response`.
 */
import type { IncomingHttpHeaders } from "node:http";
import { isRecord } from "../../schema/naming.js";
import { ApiError } from "../errors.js";
import type { Call, HttpMethod } from "./request.js";

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

/** One attempt's outcome. `status` 0: no response arrived (as in `RequestEvent` and `rateSignal`). */
export type AttemptResult =
  | { kind: "response"; status: number; headers: IncomingHttpHeaders; text: string }
  | { kind: "timeout"; status: 0 }
  | { kind: "no_response"; status: 0; failure: "connect" | "network" | "fatal"; reason: string; cause: unknown };

/** An attempt the service answered, whatever the status. */
export type Answer = Extract<AttemptResult, { kind: "response" }>;

/** A 2xx answer (an attempt without one has status 0). */
export function isSuccess(result: AttemptResult): result is Answer {
  return result.status >= 200 && result.status < 300;
}

export function isJsonOrEmpty(result: Answer): boolean {
  if (result.status === 204 || result.text.trim() === "") return true;
  try {
    JSON.parse(result.text);
    return true;
  } catch {
    return false;
  }
}

export function successResponse<T>(
  call: Call,
  attempts: number,
  result: Answer,
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

export function invalidResponse(
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
export function parseErrorBody(result: Answer): {
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

/** Whether the server answered from its idempotency store (a "not shown" header name: the emulator's). */
export function isReplayed(headers: IncomingHttpHeaders): boolean {
  return header(headers, "idempotent-replayed")?.toLowerCase() === "true";
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
