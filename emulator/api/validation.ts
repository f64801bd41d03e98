/**
 * Request body validation. The field rules come from the shared resource definitions in schema/
 * (camelCase inputs); this module converts a snake_case body to that shape, runs the rules of the
 * fields the body carries, and reports each bad field by its snake_case path in `error.details`.
 * Rules that only the server can check (referenced ids exist, ids belong to the same client) live
 * with the handlers.
 */
import { z } from "zod";
import { metadataOf } from "../../schema/rules.js";
import type { AnyResourceDefinition } from "../../schema/index.js";
import type { JsonObject } from "../state/collection.js";
import { validationFailed } from "../http/errors.js";

export type FieldIssues = Record<string, string>;

/** create: required fields must be present; replace (PUT): likewise; patch: only what is sent. */
export type WriteMode = "create" | "replace" | "patch";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_PATTERN.test(value);
}

export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Renames the keys of every object inside `value`; values are kept. */
export function renameKeysDeep(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeysDeep(item, rename));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), renameKeysDeep(item, rename)]));
  }
  return value;
}

/** `steps[0].delay_minutes` from the zod issue path `["steps", 0, "delayMinutes"]`. */
export function snakePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += `${text === "" ? "" : "."}${snakeCase(String(segment))}`;
  }
  return text;
}

/** Adds one `details` entry per issue of a failed zod parse; the first issue of a field wins. */
export function collectZodIssues(error: z.ZodError, issues: FieldIssues, prefix: readonly PropertyKey[] = []): void {
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) issues[snakePath([...path, key])] ??= "is not a known field";
    } else {
      issues[snakePath(path)] ??= issue.message;
    }
  }
}

export function throwIfIssues(issues: FieldIssues): void {
  if (Object.keys(issues).length > 0) throw validationFailed(issues);
}

/**
 * The field rules of some API fields, taken from a zod object shape with camelCase keys.
 * Fields of the body outside the shape are not checked: unknown properties are accepted.
 */
export class FieldRules {
  private readonly rules: z.ZodObject;
  private readonly required: string[];

  constructor(shape: Record<string, z.ZodType>) {
    this.rules = z.object(shape).partial();
    this.required = Object.entries(shape)
      .filter(([, schema]) => !schema.safeParse(undefined).success)
      .map(([name]) => snakeCase(name));
  }

  /**
   * The fields of a resource definition's inputs that are API body fields: all but the
   * associations driven by their own endpoints (toggles, sets, documents). References, such as a
   * monitor's `escalationPolicyId`, are body fields too.
   */
  static ofDefinition(definition: AnyResourceDefinition, exclude: readonly string[] = []): FieldRules {
    const shape = { ...definition.inputs.shape } as Record<string, z.ZodType>;
    const associations = Object.entries(definition.associations) as [string, { kind: string }][];
    const ownEndpoints = associations.filter(([, association]) => association.kind !== "reference").map(([name]) => name);
    for (const name of [...ownEndpoints, ...exclude]) delete shape[name];
    return new FieldRules(shape);
  }

  /** Issues of `body` under `mode`; `null` means "clear this field", allowed unless the field is required. */
  check(body: JsonObject, mode: WriteMode, issues: FieldIssues = {}): FieldIssues {
    for (const field of this.required) {
      const value = body[field];
      if (value === null || (value === undefined && mode !== "patch")) issues[field] = "is required";
    }
    const known: JsonObject = {};
    for (const [field, value] of Object.entries(body)) {
      if (value === null || value === undefined) continue;
      const name = camelCase(field);
      if (name in this.rules.shape) known[name] = renameKeysDeep(value, camelCase);
    }
    const parsed = this.rules.safeParse(known);
    if (!parsed.success) collectZodIssues(parsed.error, issues);
    return issues;
  }

  /**
   * The values the service fills in for fields a create leaves out, snake_case: zod defaults and
   * the defaults documented with `serverDefault()`.
   */
  defaults(): JsonObject {
    const values: JsonObject = {};
    for (const [name, schema] of Object.entries(this.rules.shape) as [string, z.ZodType][]) {
      const value = defaultOf(schema);
      if (value !== undefined) values[snakeCase(name)] = renameKeysDeep(value, snakeCase);
    }
    return values;
  }
}

function defaultOf(schema: z.ZodType): unknown {
  for (let current: z.ZodType = schema; ; ) {
    if (current instanceof z.ZodDefault) return structuredClone(current.def.defaultValue);
    const documented = current.meta()?.["default"];
    if (documented !== undefined) return structuredClone(documented);
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap() as z.ZodType;
    else return metadataOf(current)["default"];
  }
}
