/**
 * Bearer keys and scopes (spec 5). A key holds a set of scopes; no scope implies another, and an
 * operation demands exactly the scope of the spec's tables.
 */
// @ts-nocheck

import { randomBytes, randomUUID } from "node:crypto";
import { HttpError } from "../http/errors.js";
import type { ApiKeyRecord, Store } from "../state/store.js";

export const SANDBOX_KEY_PREFIX = "pls_test_";

const SCOPED_RESOURCES = [
  "monitor",
  "heartbeat",
  "incident",
  "escalation_policy",
  "notification_channel",
  "webhook",
  "client",
] as const;

/** Every scope a key can hold: `<resource>.<read|write|delete>`. */
export const ALL_SCOPES: readonly string[] = SCOPED_RESOURCES.flatMap((resource) =>
  ["read", "write", "delete"].map((action) => `${resource}.${action}`),
);

export function newSandboxKey(): string {
  return SANDBOX_KEY_PREFIX + randomBytes(20).toString("hex");
}

export function apiKeyRecord(key: string, scopes: readonly string[], label: string | null, now: string): ApiKeyRecord {
  return { id: randomUUID(), key, scopes: [...scopes], label, created_at: now };
}

/** A usable key: the sandbox prefix and 16 to 128 URL-safe characters after it. */
export function isWellFormedKey(key: string): boolean {
  return key.startsWith(SANDBOX_KEY_PREFIX) && /^[A-Za-z0-9_-]{16,128}$/.test(key.slice(SANDBOX_KEY_PREFIX.length));
}

/** The key record for the request's `Authorization` header; 401 otherwise. */
export function authenticate(store: Store, authorization: string | undefined): ApiKeyRecord {
  if (authorization === undefined || authorization === "") {
    throw unauthorized("Missing Authorization header; send Authorization: Bearer <API key>");
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (match === null) throw unauthorized("Malformed Authorization header; expected Bearer <API key>");
  const token = match[1]!;
  const record = store.apiKeys.get(token);
  if (record !== undefined) return record;
  if (token.split(".").length === 3) throw unauthorized("JWTs are not accepted by the emulator; use an API key");
  throw unauthorized("Unknown API key");
}

export function requireScope(key: ApiKeyRecord, scope: string | null): void {
  if (scope === null || key.scopes.includes(scope)) return;
  throw new HttpError(403, "forbidden", `This API key lacks the scope ${scope}`, { required_scope: scope });
}

function unauthorized(message: string): HttpError {
  return new HttpError(401, "unauthorized", message, undefined, { "WWW-Authenticate": 'Bearer realm="monitoring"' });
}
