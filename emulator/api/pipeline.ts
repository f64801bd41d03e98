/**
 * Everything between a request under `/v1` and its response: injected faults, authentication,
 * routing, scopes, path ids, the body, idempotency, the handler, durability and the request log.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { HttpError, invalidParameter } from "../http/errors.js";
import type { FaultTable, Fault } from "../http/faults.js";
import { errorEnvelope, newRequestId, parseJsonObject, readBody, send } from "../http/io.js";
import { keyPrefix, type RequestLog, type RequestLogEntry } from "../http/request-log.js";
import type { Router } from "../http/router.js";
import type { Store } from "../state/store.js";
import { authenticate, requireScope } from "./auth.js";
import type { ApiHandler, ApiResult } from "./context.js";
import type { Idempotency } from "./idempotency.js";
import type { Presenter } from "./presentation.js";
import { errorCodeIn, type Profile } from "../profile.js";
import type { RateLimit } from "./rate-limit.js";
import { isUuid } from "./validation.js";
import type { Clock } from "../clock.js";

export interface PipelineParts {
  store: Store;
  clock: Clock;
  router: Router<ApiHandler>;
  faults: FaultTable;
  requestLog: RequestLog;
  /** Absent when the emulator ignores `Idempotency-Key` (every request runs as new). */
  idempotency: Idempotency | undefined;
  rateLimit: RateLimit | undefined;
  profile: Profile;
  presenter: Presenter;
}

interface Outcome {
  status: number;
  body: string;
  headers: Record<string, string>;
  replayed: boolean;
}

const MUTATING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function createApiPipeline(parts: PipelineParts) {
  return async function handleApiRequest(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    query: string,
  ): Promise<void> {
    const startedAt = performance.now();
    const requestId = newRequestId();
    const method = request.method ?? "GET";
    const authorization = request.headers.authorization;
    const bearer = /^Bearer\s+(\S+)/i.exec(authorization ?? "")?.[1];
    const idempotencyHeader = request.headers["idempotency-key"];
    const entry: RequestLogEntry = {
      request_id: requestId,
      method,
      path,
      query,
      status: null,
      idempotency_key: typeof idempotencyHeader === "string" ? idempotencyHeader : null,
      key_prefix: bearer === undefined ? null : keyPrefix(bearer),
      fault: null,
      replayed: false,
      time: parts.clock.nowIso(),
      duration_ms: 0,
    };
    const finish = (outcome: Outcome | null): void => {
      entry.status = outcome?.status ?? null;
      entry.replayed = outcome?.replayed ?? false;
      entry.duration_ms = Math.round((performance.now() - startedAt) * 1000) / 1000;
      parts.requestLog.add(entry);
      if (outcome === null) {
        request.socket.destroy();
        return;
      }
      send(response, outcome.status, outcome.body, { ...outcome.headers, "x-request-id": requestId });
    };

    const fault = parts.faults.take(method, path);
    // A slow service has the whole request before it is slow: a client that goes away meanwhile
    // does not stop the request's processing, as it would if the body were still to be read.
    let body: (() => Promise<string>) | undefined;
    if (fault !== undefined) {
      if (fault.latency_ms !== undefined) {
        entry.fault = "latency";
        const read = readBody(request);
        // Awaited in processRequest, after the delay; its failure is handled there, not here.
        read.catch(() => undefined);
        body = () => read;
        // Ended early by a clear of the faults when the fault says so (until_cleared).
        await sleep(fault.latency_ms, undefined, fault.until_cleared ? { signal: parts.faults.cleared } : {}).catch(() => undefined);
      }
      if (fault.drop_connection) {
        entry.fault = "drop_connection";
        finish(null);
        return;
      }
      if (fault.status !== undefined) {
        entry.fault = "status";
        finish(errorOutcome(parts, injectedError(fault), requestId));
        return;
      }
    }

    let outcome: Outcome;
    try {
      outcome = await processRequest(parts, request, method, path, query, requestId, idempotencyHeader, body);
    } catch (error) {
      outcome = errorOutcome(parts, asHttpError(error, method, path), requestId);
    }
    if (fault?.drop_response) {
      entry.fault = "drop_response";
      entry.status = outcome.status;
      parts.requestLog.add(entry);
      request.socket.destroy();
      return;
    }
    finish(outcome);
  };
}

async function processRequest(
  parts: PipelineParts,
  request: IncomingMessage,
  method: string,
  path: string,
  query: string,
  requestId: string,
  idempotencyHeader: string | string[] | undefined,
  /** The body's text: read here, unless a latency fault had it read before its delay. */
  received: () => Promise<string> = () => readBody(request),
): Promise<Outcome> {
  const key = authenticate(parts.store, request.headers.authorization);
  const retryAfter = parts.rateLimit?.check(key.id, Date.now());
  if (retryAfter !== undefined) throw rateLimited(retryAfter);

  const match = parts.router.match(method, path);
  if (match.kind === "not_found") throw new HttpError(404, "not_found", `No operation at ${path}`, { path });
  if (match.kind === "method_not_allowed") {
    throw new HttpError(405, "method_not_allowed", `${method} is not allowed on ${path}`, { allowed: match.allowed }, {
      allow: match.allowed.join(", "),
    });
  }
  requireScope(key, match.route.scope);
  for (const [name, value] of Object.entries(match.params)) {
    if (!isUuid(value)) throw invalidParameter(name, "must be a UUID");
    match.params[name] = value.toLowerCase();
  }
  const body = parseJsonObject(await received());

  const mutating = MUTATING_METHODS.has(method);
  let idempotencyKey: string | undefined;
  if (mutating && idempotencyHeader !== undefined && parts.idempotency !== undefined) {
    if (typeof idempotencyHeader !== "string" || !/^[\x21-\x7e]{1,255}$/.test(idempotencyHeader)) {
      throw invalidParameter("Idempotency-Key", "must be 1 to 255 visible ASCII characters");
    }
    idempotencyKey = idempotencyHeader;
  }
  const target = query === "" ? path : `${path}?${query}`;
  const idempotent =
    idempotencyKey === undefined || parts.idempotency === undefined ? undefined : await parts.idempotency.begin(key.id, idempotencyKey, method, target, body);
  if (idempotent?.kind === "replay") {
    const { record } = idempotent;
    return { status: record.status, body: record.response, headers: { "idempotent-replayed": "true" }, replayed: true };
  }

  try {
    let outcome: Outcome;
    try {
      const result = match.route.handler({
        method,
        path,
        params: match.params,
        query: new URLSearchParams(query),
        body,
        key,
        requestId,
      });
      outcome = successOutcome(parts.presenter, result);
    } catch (error) {
      outcome = errorOutcome(parts, asHttpError(error, method, path), requestId);
    }
    idempotent?.record(outcome.status, outcome.body);
    if (mutating && (outcome.status < 400 || idempotent !== undefined)) await parts.store.commit();
    return outcome;
  } finally {
    idempotent?.release();
  }
}

function successOutcome(presenter: Presenter, result: ApiResult): Outcome {
  if (result.status === 204) return { status: 204, body: "", headers: {}, replayed: false };
  const data = presenter.data(result.data, result.kind, result.pagination !== undefined);
  const envelope = result.pagination === undefined ? { data } : { data, pagination: result.pagination };
  return { status: result.status, body: JSON.stringify(envelope), headers: {}, replayed: false };
}

function errorOutcome(parts: PipelineParts, error: HttpError, requestId: string): Outcome {
  const shown = asShownError(parts.profile, parts.presenter, error);
  return { status: error.status, body: errorEnvelope(shown, requestId), headers: error.headers ?? {}, replayed: false };
}

/** The error as the profile shows it: its own code for the condition, ids in `details` as in responses. */
export function asShownError(profile: Profile, presenter: Presenter, error: HttpError): HttpError {
  const details = error.details === undefined ? undefined : (presenter.ids(error.details) as Record<string, unknown>);
  return new HttpError(error.status, errorCodeIn(profile, error.code), error.message, details, error.headers);
}

function asHttpError(error: unknown, method: string, path: string): HttpError {
  if (error instanceof HttpError) return error;
  console.error(`emulator: ${method} ${path} failed:`, error);
  return new HttpError(500, "internal_error", "The emulator failed to process the request");
}

function rateLimited(retryAfterSeconds: number): HttpError {
  return new HttpError(
    429,
    "rate_limited",
    `Too many requests; retry after ${retryAfterSeconds} s`,
    { retry_after_seconds: retryAfterSeconds },
    { "retry-after": String(retryAfterSeconds) },
  );
}

const INJECTED_CODES: Record<number, string> = {
  500: "internal_error",
  502: "bad_gateway",
  503: "unavailable",
  504: "gateway_timeout",
};

function injectedError(fault: Fault): HttpError {
  const status = fault.status!;
  if (status === 429) return rateLimited(fault.retry_after_seconds ?? 1);
  const headers = fault.retry_after_seconds === undefined ? undefined : { "retry-after": String(fault.retry_after_seconds) };
  const details = fault.retry_after_seconds === undefined ? undefined : { retry_after_seconds: fault.retry_after_seconds };
  return new HttpError(status, INJECTED_CODES[status] ?? "injected_fault", `Injected fault: HTTP ${status}`, details, headers);
}
