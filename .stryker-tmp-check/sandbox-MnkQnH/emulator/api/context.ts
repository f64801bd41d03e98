/**
 * What an operation handler receives and returns. Handlers are synchronous: they read and change
 * the in-memory state and return the response; the pipeline makes the change durable before the
 * response leaves (see `Store.commit`).
 */
// @ts-nocheck

import type { JsonObject } from "../state/collection.js";
import type { ApiKeyRecord, Store } from "../state/store.js";
import type { Pagination } from "./pagination.js";
import type { Clock } from "../clock.js";
import type { EventBus } from "../webhooks/events.js";
import type { NotificationOutbox } from "../notifications.js";
import type { Profile } from "../profile.js";
import type { KindSpec } from "./common.js";
import type { TableName } from "./fields.js";
import type { FieldRules } from "./validation.js";

export interface ApiRequest {
  method: string;
  /** Relative to the base URL, without the query string. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The request body; `{}` when none was sent. */
  body: JsonObject;
  key: ApiKeyRecord;
  requestId: string;
}

export interface ApiResult {
  status: 200 | 201 | 202 | 204;
  data?: unknown;
  pagination?: Pagination;
  /** The kind of the object (or objects) in `data`, so the profile can present them; none for computed documents. */
  kind?: KindSpec;
}

export type ApiHandler = (request: ApiRequest) => ApiResult;

/** The emulator's moving parts, shared by every handler. */
export interface Services {
  store: Store;
  clock: Clock;
  events: EventBus;
  outbox: NotificationOutbox;
  /** `http://127.0.0.1:PORT`, for URLs the API hands out (ping URLs, share links). */
  origin(): string;
  /** The choices where the spec is silent. */
  profile: Profile;
  /** The field rules of every request body, under the profile's regions and null policy. */
  rules: Record<TableName, FieldRules>;
  /** An object of `kind` as responses show it under the profile. */
  present(kind: KindSpec, doc: JsonObject): JsonObject;
}

export type RouteRegistrar = (method: string, pattern: string, scope: string | null, handler: ApiHandler) => void;

export const ok = (data: unknown, kind?: KindSpec): ApiResult => ({ status: 200, data, kind });
export const created = (data: unknown, kind?: KindSpec): ApiResult => ({ status: 201, data, kind });
export const accepted = (data: unknown, kind?: KindSpec): ApiResult => ({ status: 202, data, kind });
export const noContent = (): ApiResult => ({ status: 204 });
