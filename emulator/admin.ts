/**
 * The admin API under `/__emulator/`: keys with chosen scopes, the request log, fault injection,
 * the notification outbox, the clock and reset. It needs no key (the emulator listens on
 * 127.0.0.1 only) and is never subject to injected faults.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ALL_SCOPES, apiKeyRecord, isWellFormedKey, newSandboxKey } from "./api/auth.js";
import { HttpError, validationFailed } from "./http/errors.js";
import { validateFaultSpec, type FaultTable } from "./http/faults.js";
import { newRequestId, parseJsonObject, readBody, send, sendError } from "./http/io.js";
import { keyPrefix, type RequestLog } from "./http/request-log.js";
import type { Store } from "./state/store.js";
import type { Clock } from "./clock.js";
import type { NotificationOutbox } from "./notifications.js";
import { EVENT_TYPES } from "./webhooks/events.js";
import type { Profile } from "./profile.js";

export const ADMIN_PREFIX = "/__emulator";

export interface AdminParts {
  store: Store;
  clock: Clock;
  faults: FaultTable;
  requestLog: RequestLog;
  outbox: NotificationOutbox;
  /** Runs the time-driven transitions (heartbeats going late) after the clock moved. */
  onClockAdvanced(): void;
  /** Drops everything derived from the state that `Store.reset` does not know about. */
  onReset(): void;
  info(): Record<string, unknown>;
}

type AdminResult = { status: number; data?: unknown };

export function createAdminHandler(parts: AdminParts) {
  const { store, clock, faults, requestLog, outbox } = parts;

  const operations: Record<string, (body: Record<string, unknown>) => AdminResult | Promise<AdminResult>> = {
    "GET /": () => ({ status: 200, data: parts.info() }),

    "GET /keys": () => ({
      status: 200,
      data: [...store.apiKeys.values()].map((record) => ({
        id: record.id,
        key_prefix: keyPrefix(record.key),
        scopes: record.scopes,
        label: record.label,
        default: record === store.defaultKey,
        created_at: record.created_at,
      })),
    }),

    "POST /keys": async (body) => {
      const problems: Record<string, string> = {};
      const scopes = body["scopes"];
      if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== "string")) {
        problems["scopes"] = "must be an array of scope names";
      } else {
        scopes.forEach((scope: string, index) => {
          if (!ALL_SCOPES.includes(scope)) problems[`scopes[${index}]`] = `unknown scope; known scopes: ${ALL_SCOPES.join(", ")}`;
        });
      }
      const key = body["key"] ?? newSandboxKey();
      if (typeof key !== "string" || !isWellFormedKey(key)) problems["key"] = "must be pls_test_ followed by 16 to 128 characters of A-Z a-z 0-9 _ -";
      else if (store.apiKeys.has(key)) problems["key"] = "already exists";
      const label = body["label"] ?? null;
      if (label !== null && typeof label !== "string") problems["label"] = "must be a string";
      if (Object.keys(problems).length > 0) throw validationFailed(problems);
      const record = apiKeyRecord(key as string, [...new Set(scopes as string[])], label as string | null, clock.nowIso());
      store.apiKeys.set(record.key, record);
      await store.commit();
      return { status: 201, data: { id: record.id, key: record.key, scopes: record.scopes, label: record.label, created_at: record.created_at } };
    },

    "GET /requests": () => ({ status: 200, data: requestLog.list() }),
    "DELETE /requests": () => {
      requestLog.clear();
      return { status: 204 };
    },

    "GET /faults": () => ({ status: 200, data: faults.list() }),
    "POST /faults": (body) => {
      const { spec, problems } = validateFaultSpec(body);
      if (spec === undefined) throw validationFailed(problems);
      return { status: 201, data: faults.add(spec) };
    },
    "DELETE /faults": () => {
      faults.clear();
      return { status: 204 };
    },

    "GET /notifications": () => ({ status: 200, data: outbox.list() }),

    "POST /clock": (body) => {
      const seconds = body["advance_seconds"];
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0) {
        throw validationFailed({ advance_seconds: "must be a positive number of seconds" });
      }
      clock.advance(seconds * 1000);
      parts.onClockAdvanced();
      return { status: 200, data: { now: clock.nowIso() } };
    },

    "POST /reset": async () => {
      store.reset();
      faults.clear();
      requestLog.clear();
      outbox.clear();
      clock.reset();
      parts.onReset();
      await store.commit();
      return { status: 204 };
    },
  };

  /**
   * Revokes a key, as an agency does after a rotation: every later request that carries it is
   * answered 401, like an unknown key. The full-access key cannot be revoked (the admin API and
   * the tests' own requests use it).
   */
  async function revokeKey(id: string): Promise<AdminResult> {
    const record = [...store.apiKeys.values()].find((candidate) => candidate.id === id);
    if (record === undefined) throw new HttpError(404, "not_found", `No key with id ${id}`, { id });
    if (record === store.defaultKey) throw new HttpError(409, "conflict", "The full-access key cannot be revoked", { id });
    store.apiKeys.delete(record.key);
    await store.commit();
    return { status: 204 };
  }

  return async function handleAdminRequest(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const requestId = newRequestId();
    const relative = path.slice(ADMIN_PREFIX.length).replace(/\/$/, "") || "/";
    const revoked = request.method === "DELETE" ? /^\/keys\/([^/]+)$/.exec(relative)?.[1] : undefined;
    const operation = revoked === undefined ? operations[`${request.method} ${relative}`] : () => revokeKey(decodeURIComponent(revoked));
    try {
      if (operation === undefined) throw new HttpError(404, "not_found", `No admin operation ${request.method} ${path}`, { path });
      const result = await operation(parseJsonObject(await readBody(request)));
      send(response, result.status, result.status === 204 ? "" : JSON.stringify({ data: result.data }), { "x-request-id": requestId });
    } catch (error) {
      sendError(response, error instanceof HttpError ? error : new HttpError(500, "internal_error", String(error)), requestId);
    }
  };
}

/** The parts of `GET /__emulator` that do not change while it runs. */
export function staticAdminInfo(profile: Profile): Record<string, unknown> {
  return { profile: profile.name, regions: Object.keys(profile.regions), event_types: EVENT_TYPES, scopes: ALL_SCOPES };
}
