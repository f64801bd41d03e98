/**
 * Comparison of a resource's recorded outputs with its new inputs: pure, no API calls.
 *
 * Only input fields count; server fields and internal properties never do. A field the user sets
 * is compared with what the service last reported (so drift found by refresh shows up); a field
 * the user removed is a change; a field the user never set is not, whatever default the service
 * filled in. Lists declared with `setOf()` compare without order, at any depth, `null`
 * compares equal to absent, and UUIDs compare without regard to letter case.
 */
import { z } from "zod";
import type { AnyResourceDefinition } from "../schema/define.js";
import { type GroupDefinition, memberOf, recordedMembers } from "../schema/members.js";
import { isSetSchema, openKeysOf, unwrap } from "../schema/rules.js";
import { containsUnknown } from "./check.js";
import { inputFields, internal, replaceFields } from "./fields.js";
import { isRecord } from "../schema/naming.js";

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

export function diff(
  definition: AnyResourceDefinition,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): DiffResult {
  const changed = changedFields(definition, olds, news);
  const replacing = replaceFields(definition);
  return {
    changes: changed.length > 0,
    replaces: changed.filter((field) => replacing.includes(field)),
    // A new object never collides with the old one, so the replacement is created first.
    deleteBeforeReplace: false,
  };
}

/** What an update of a group does to its members, by key. */
export interface MemberChanges {
  added: string[];
  /** Members whose diff replaces them: the successor is created, then the old object deleted. */
  replaced: string[];
  updated: string[];
  removed: string[];
}

/**
 * Each member of a group (schema/members.ts) diffed as a single resource of its kind, recorded
 * outputs against checked inputs: the keys added, replaced (by the member's `replaces`), updated
 * in place and removed.
 */
export function memberChanges(group: GroupDefinition, olds: Record<string, unknown>, news: Record<string, unknown>): MemberChanges {
  const recorded = recordedMembers(group, olds);
  const desired = isRecord(news[group.membersField]) ? (news[group.membersField] as Record<string, unknown>) : {};
  const changes: MemberChanges = { added: [], replaced: [], updated: [], removed: [...recorded.keys()].filter((key) => !(key in desired)) };
  for (const key of Object.keys(desired)) {
    const before = recorded.get(key);
    const member = before === undefined ? undefined : diff(group.member, before.values, memberOf(group, news, key)?.values ?? {});
    if (member === undefined) changes.added.push(key);
    else if (member.replaces.length > 0) changes.replaced.push(key);
    else if (member.changes) changes.updated.push(key);
  }
  return changes;
}

/**
 * A group changes when a member does, and is never replaced: a member whose diff replaces it is
 * replaced inside the update. The dynamic provider host of this Pulumi version forwards no
 * `detailedDiff`, so the preview shows the engine's own diff of the inputs, which is already per
 * member and per field (`~ monitors: { ~ checkout: { ~ intervalSeconds: … } }`).
 */
export function diffGroup(group: GroupDefinition, olds: Record<string, unknown>, news: Record<string, unknown>): DiffResult {
  // Members not known yet at preview (or not given, which check refuses) may change any member.
  const changes = !isRecord(news[group.membersField]) || Object.values(memberChanges(group, olds, news)).some((keys: string[]) => keys.length > 0);
  return { changes, replaces: [], deleteBeforeReplace: false };
}

/** The input fields whose new value differs from the recorded one, or that were set and are now removed. */
export function changedFields(
  definition: AnyResourceDefinition,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): string[] {
  const declaredBefore = declaredInputs(olds);
  return inputFields(definition).filter((field) => {
    const next = news[field];
    if (next === undefined || next === null) return declaredBefore.includes(field);
    if (containsUnknown(next)) return true;
    return !sameInputValue(definition, field, olds[field], next);
  });
}

/**
 * Whether the service holding `held` for an input field already has the value `wanted`, as a
 * deploy judges it: lists declared with `setOf()` without order, `null` like absent, UUIDs without
 * regard to case, and keys of open objects that `wanted` leaves out not counted. Diff and drift
 * both judge by it, so that what drift reports is what the next deploy changes. A field the
 * definition does not declare (or no definition) compares as plain JSON, `null` like absent.
 */
export function sameInputValue(definition: AnyResourceDefinition | undefined, field: string, held: unknown, wanted: unknown): boolean {
  const schema = definition?.inputs.shape[field] as z.ZodType | undefined;
  return canonical(schema, withinDeclared(schema, held, wanted)) === canonical(schema, wanted);
}

/**
 * The recorded value without the keys of open objects (schema/rules.ts `openObject`) that the
 * program does not set: a server may add settings of its own, and the program only manages the
 * ones it declares.
 */
function withinDeclared(schema: z.ZodType | undefined, recorded: unknown, next: unknown): unknown {
  // No schema (a field the definition does not declare): the value as recorded. Below, `inner` is a
  // list or an object only when the schema is there.
  const inner = schema && unwrap(schema);
  if (inner instanceof z.ZodArray && Array.isArray(recorded) && Array.isArray(next) && !isSetSchema(schema as z.ZodType)) {
    return recorded.map((item, index) => withinDeclared(inner.element as z.ZodType, item, next[index]));
  }
  if (!(inner instanceof z.ZodObject) || !isRecord(recorded) || !isRecord(next)) return recorded;
  const shape = inner.shape as Record<string, z.ZodType>;
  const open = openKeysOf(schema as z.ZodType) !== undefined;
  return Object.fromEntries(
    Object.entries(recorded)
      .filter(([key]) => !open || key in shape || key in next)
      .map(([key, item]) => [key, key in shape ? withinDeclared(shape[key] as z.ZodType, item, next[key]) : item]),
  );
}

/** The input names recorded as set by the user when the outputs were produced. */
export function declaredInputs(outputs: Record<string, unknown>): string[] {
  const recorded = outputs[internal.declaredInputs];
  return Array.isArray(recorded) ? recorded.filter((name): name is string => typeof name === "string") : [];
}

/** A string equal for equal values: keys sorted, null and absent alike, sets sorted, UUIDs in any letter case alike. */
export function canonical(schema: z.ZodType | undefined, value: unknown): string {
  return JSON.stringify(normalize(schema, value)) ?? "undefined";
}

function normalize(schema: z.ZodType | undefined, value: unknown): unknown {
  // null is absent; absent (undefined) passes every case below unchanged.
  if (value === null) return undefined;
  const inner = schema && unwrap(schema);
  // Servers may return ids in another letter case than they were sent (spec 2.6: UUIDs, nothing more).
  // Stryker disable next-line MethodExpression: canonical texts are only compared with each other, so either case is one case
  if (inner instanceof z.ZodUUID && typeof value === "string") return value.toLowerCase();
  if (Array.isArray(value)) {
    const itemSchema = inner instanceof z.ZodArray ? (inner.element as z.ZodType) : undefined;
    const items = value.map((item) => normalize(itemSchema, item));
    return schema !== undefined && isSetSchema(schema)
      ? items.map((item) => JSON.stringify(item)).sort().map((text) => JSON.parse(text) as unknown)
      : items;
  }
  if (isRecord(value)) {
    const fieldSchemas = inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : {};
    // A key whose value is null or absent normalizes to undefined, which JSON.stringify leaves out.
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, normalize(fieldSchemas[key], value[key])]));
  }
  return value;
}
