/**
 * Request body validation against a field table (fields.ts): each field the body carries is
 * checked by its rule, and each bad field is reported by its snake_case path in `error.details`.
 * Rules that only the server can check (referenced ids exist, ids belong to the same client) live
 * with the handlers.
 */
// @ts-nocheck

import type { z } from "zod";
import type { JsonObject } from "../state/collection.js";
import { validationFailed } from "../http/errors.js";
import { UUID_PATTERN, type FieldRule, type FieldTable } from "./fields.js";

export type FieldIssues = Record<string, string>;

/** create: required fields must be present; replace (PUT): likewise; patch: only what is sent. */
export type WriteMode = "create" | "replace" | "patch";

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_PATTERN.test(value);
}

/** `steps[0].delay_minutes` from the issue path `["steps", 0, "delay_minutes"]`. */
function issuePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += `${text === "" ? "" : "."}${String(segment)}`;
  }
  return text;
}

/** Adds one `details` entry per issue of a failed zod parse; the first issue of a field wins. */
function collectZodIssues(error: z.ZodError, issues: FieldIssues, prefix: readonly PropertyKey[]): void {
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) issues[issuePath([...path, key])] ??= "is not a known field";
    } else {
      issues[issuePath(path)] ??= issue.message;
    }
  }
}

export function throwIfIssues(issues: FieldIssues): void {
  if (Object.keys(issues).length > 0) throw validationFailed(issues);
}

/** Whether `null` may be sent for a field: it clears it, or resets it to its server default. */
export interface NullPolicy {
  /** Refuse `null` for fields whose server default is a fixed scalar (they cannot be empty). */
  refuseNullForScalarDefaults: boolean;
}

/**
 * The rules of the fields of one table. Fields of the body outside the table are not checked:
 * unknown properties are accepted.
 */
export class FieldRules {
  constructor(
    private readonly table: FieldTable,
    private readonly nulls: NullPolicy,
  ) {}

  /** Issues of `body` under `mode`. */
  check(body: JsonObject, mode: WriteMode, issues: FieldIssues = {}): FieldIssues {
    for (const [field, rule] of Object.entries(this.table)) {
      const value = body[field];
      if (value === undefined) {
        if (rule.required && mode !== "patch") issues[field] = "is required";
      } else if (value === null) {
        const refusal = this.nullRefusal(rule);
        if (refusal !== undefined) issues[field] = refusal;
      } else {
        const parsed = rule.schema.safeParse(value);
        if (!parsed.success) collectZodIssues(parsed.error, issues, [field]);
      }
    }
    return issues;
  }

  /** The values the server fills in for fields a create leaves out. */
  defaults(): JsonObject {
    const values: JsonObject = {};
    for (const [field, rule] of Object.entries(this.table)) {
      if (rule.default !== undefined) values[field] = structuredClone(rule.default);
    }
    return values;
  }

  private nullRefusal(rule: FieldRule): string | undefined {
    if (rule.required) return "is required";
    const scalarDefault = rule.default !== undefined && (rule.default === null || typeof rule.default !== "object");
    if (this.nulls.refuseNullForScalarDefaults && scalarDefault) {
      return `cannot be null; send a value (the server default is ${JSON.stringify(rule.default)})`;
    }
    return undefined;
  }
}
