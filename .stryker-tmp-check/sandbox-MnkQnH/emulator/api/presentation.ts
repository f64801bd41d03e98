/**
 * How objects leave the emulator under its profile: responses, error details, ping answers, share
 * pages and webhook payloads. The state always holds the default profile's shape (lower-case ids,
 * stored field names); a profile that shows objects otherwise changes only copies on their way out.
 */
// @ts-nocheck

import { createHash } from "node:crypto";
import type { JsonObject } from "../state/collection.js";
import type { Profile } from "../profile.js";
import type { KindSpec } from "./common.js";
import { UUID_PATTERN, type FieldTables } from "./fields.js";

export interface Presenter {
  /** An object of `kind` as responses show it. */
  object(kind: KindSpec, doc: JsonObject): JsonObject;
  /**
   * The `data` of a response: objects of `kind` (one, or an array), or a computed document when
   * `kind` is absent. `listed`: the items of a list response, which may show fewer fields.
   */
  data(value: unknown, kind: KindSpec | undefined, listed?: boolean): unknown;
  /** Any other document (error details, ping answers): only its ids change. */
  ids(value: unknown): unknown;
}

export function createPresenter(profile: Profile, tables: FieldTables, origin: () => string, accountId: string): Presenter {
  const { nullForUnset, extraFields, upperCaseIds, renames, listOmits } = profile.responses;
  const ids = upperCaseIds ? upperCaseIdsIn : (value: unknown) => value;

  const object = (kind: KindSpec, doc: JsonObject, listed = false): JsonObject => {
    let shown: JsonObject = { ...doc };
    if (nullForUnset && kind.table !== undefined) {
      for (const field of Object.keys(tables[kind.table])) {
        if (!(field in shown) && !kind.writeOnly.includes(field)) shown[field] = null;
      }
    }
    const renamed = renames[kind.collection];
    if (renamed !== undefined) {
      // A request property named like a renamed server field was echoed as unknown; the server field wins.
      for (const name of Object.values(renamed)) delete shown[name];
      shown = Object.fromEntries(Object.entries(shown).map(([field, value]) => [renamed[field] ?? field, value]));
    }
    if (listed) for (const field of listOmits[kind.collection] ?? []) delete shown[field];
    if (extraFields) {
      shown["account_id"] = accountId;
      shown["etag"] = `W/"${createHash("sha256").update(JSON.stringify(doc)).digest("hex").slice(0, 16)}"`;
      const id = doc["id"];
      if (kind.selfPath !== undefined && typeof id === "string") {
        shown["links"] = { self: `${origin()}/v1${kind.selfPath}/${upperCaseIds ? id.toUpperCase() : id}` };
      }
    }
    return ids(shown) as JsonObject;
  };

  const reshapes = nullForUnset || extraFields || Object.keys(renames).length > 0 || Object.keys(listOmits).length > 0;
  return {
    object: (kind, doc) => object(kind, doc),
    data(value, kind, listed = false) {
      if (kind === undefined || !reshapes) return ids(value);
      if (Array.isArray(value)) return value.map((item: JsonObject) => object(kind, item, listed));
      return value !== null && typeof value === "object" ? object(kind, value as JsonObject) : value;
    },
    ids,
  };
}

/** A stable UUID for the account the emulator's objects belong to, derived from its full-access key. */
export function accountIdOf(defaultKey: string): string {
  const hex = createHash("sha256").update(`account:${defaultKey}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Fields that hold ids: `id`, `*_id`, `*_ids` and `redelivery_of`. */
function isIdField(field: string): boolean {
  return field === "id" || field.endsWith("_id") || field.endsWith("_ids") || field === "redelivery_of";
}

/** A copy of `value` whose UUIDs in id fields, at any depth, are upper case. */
function upperCaseIdsIn(value: unknown, field?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => upperCaseIdsIn(item, field));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, upperCaseIdsIn(item, name)]));
  }
  if (typeof value === "string" && field !== undefined && isIdField(field) && UUID_PATTERN.test(value)) return value.toUpperCase();
  return value;
}
