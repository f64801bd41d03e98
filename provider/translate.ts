/**
 * Values between the two shapes: camelCase inputs/outputs and snake_case API bodies and objects.
 * Reading goes through the schema, so only fields the definition knows come back, at any depth,
 * and `null` (the service's "not set") becomes absent.
 */
import { z } from "zod";
import { unwrap } from "../schema/rules.js";
import { isRecord, renameKeysDeep, toSnakeCase } from "./naming.js";

/** A request body with the given fields of `values` (camelCase) that are set. */
export function apiBody(values: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field];
    if (value !== undefined) body[toSnakeCase(field)] = renameKeysDeep(value, toSnakeCase);
  }
  return body;
}

/** The fields of `shape` read from an API object, camelCase; fields the object does not carry are absent. */
export function fromApi(shape: Record<string, z.ZodType>, apiObject: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(shape)) {
    const value = project(schema, apiObject[toSnakeCase(field)]);
    if (value !== undefined) values[field] = value;
  }
  return values;
}

/** An API value in the shape of `schema`: objects keep the schema's fields only, renamed to camelCase. */
export function project(schema: z.ZodType, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.map((item) => project(inner.element as z.ZodType, item)).filter((item) => item !== undefined);
  }
  if (inner instanceof z.ZodObject && isRecord(value)) {
    return fromApi(inner.shape as Record<string, z.ZodType>, value);
  }
  return value;
}
