/**
 * Values between the two shapes: camelCase inputs/outputs and the API's bodies and objects. Every
 * name goes through the schema: a field's API name is the one its facts declare (schema/define.ts
 * `apiName`), else the snake_case of its input name, at every depth. Reading keeps only fields the
 * definition knows, accepts any of a field's declared names, and reads `null` (the service's "not
 * set") as absent.
 */
// @ts-nocheck

import { z } from "zod";
import { apiNamesOf } from "../schema/define.js";
import { openKeysOf, unwrap } from "../schema/rules.js";
import { fieldPathToCamelCase, isRecord } from "./naming.js";

type Shape = Record<string, z.ZodType>;

/** A request body with the given fields of `values` that are set, under their API names. */
export function apiBody(shape: Shape, values: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field];
    if (value !== undefined) body[apiNameOf(shape, field)] = toApi(shape[field], value);
  }
  return body;
}

/** The name a field is sent under. */
export function apiNameOf(shape: Shape, field: string): string {
  return apiNamesOf(field, shape[field])[0] as string;
}

/** An input value as the API writes it: object keys renamed to API names, at every depth. */
export function toApi(schema: z.ZodType | undefined, value: unknown): unknown {
  const inner = schema === undefined ? undefined : unwrap(schema);
  if (Array.isArray(value)) {
    const item = inner instanceof z.ZodArray ? (inner.element as z.ZodType) : undefined;
    return value.map((element) => toApi(item, element));
  }
  if (isRecord(value)) {
    const shape: Shape = inner instanceof z.ZodObject ? (inner.shape as Shape) : {};
    const open = schema !== undefined && openKeysOf(schema) !== undefined;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) =>
        // A key an open object does not declare has no known API name: it goes out as written.
        open && !(key in shape) ? [key, item] : [apiNamesOf(key, shape[key])[0] as string, toApi(shape[key], item)],
      ),
    );
  }
  return value;
}

/** The fields of `shape` read from an API object, camelCase; fields the object does not carry are absent. */
export function fromApi(shape: Shape, apiObject: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(shape)) {
    const carried = apiNamesOf(field, schema).map((name) => apiObject[name]).find((value) => value !== undefined && value !== null);
    const value = project(schema, carried);
    if (value !== undefined) values[field] = value;
  }
  return values;
}

/** An API value in the shape of `schema`: objects keep the schema's fields only, under their input names. */
export function project(schema: z.ZodType, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.map((item) => project(inner.element as z.ZodType, item)).filter((item) => item !== undefined);
  }
  if (inner instanceof z.ZodObject && isRecord(value)) {
    const known = fromApi(inner.shape as Shape, value);
    if (openKeysOf(schema) === undefined) return known;
    // An open object keeps the keys it does not declare as the server writes them (they were sent as written).
    const declaredNames = new Set(Object.entries(inner.shape as Shape).flatMap(([field, fieldSchema]) => apiNamesOf(field, fieldSchema)));
    const undeclared = Object.entries(value).filter(([key, item]) => !declaredNames.has(key) && item !== null && item !== undefined);
    return { ...known, ...Object.fromEntries(undeclared) };
  }
  return value;
}

/**
 * A path the service names in an error (`steps[0].delay_minutes`) in input names
 * (`steps[0].delayMinutes`): the top-level field by its declared API names, deeper ones by rule.
 */
export function inputPathOf(shape: Shape, apiPath: string): string {
  const head = /^[^.[]*/.exec(apiPath)?.[0] ?? "";
  const rest = apiPath.slice(head.length);
  const field = Object.keys(shape).find((name) => apiNamesOf(name, shape[name]).includes(head));
  return `${field ?? fieldPathToCamelCase(head)}${fieldPathToCamelCase(rest)}`;
}
