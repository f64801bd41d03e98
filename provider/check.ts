/**
 * Validation of a resource's inputs before anything runs: pure, no API calls. Each failure names
 * the kind, the field and the rule (`Monitor.intervalSeconds: must be at least 10 (got 5)`), one
 * per field, and never shows the value of a secret field.
 */
import { z } from "zod";
import { type AnyResourceDefinition, providerInputs } from "../schema/define.js";
import { isInternal } from "./fields.js";
import { IS_REQUIRED, parseFieldValue, unknownFieldRule } from "../schema/rule-messages.js";
import { type OpenDomain, metadataOf, undeclaredKeys, unwrap } from "../schema/rules.js";
import { type GroupDefinition, memberOf, memberPath } from "../schema/members.js";
import { describeMember, describeResource } from "./failures.js";
import { isRecord } from "../schema/naming.js";

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
  /**
   * What check lets through but may be a mistake, one sentence each naming the resource and the
   * field: a key this package does not know inside an open object (sent as written), a setting
   * assumed to belong to another variant. Never a value.
   */
  warnings: string[];
}

/**
 * The value Pulumi passes for inputs not known yet during a preview (`pulumi.runtime.unknownValue`
 * on the provider side). Fields holding it are validated once their values are known.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (isRecord(value)) return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * Open domains the stack closed, with the values it allows (`monitoring:offeredRegions`): without
 * one, any value passes and the server decides.
 */
export type ClosedDomains = Partial<Record<OpenDomain, readonly string[]>>;

/**
 * Validates `news` against the kind's schema; warnings name `resource`. On success `inputs` holds the parsed values (with
 * the defaults the schema fills in) plus the provider's internal properties; on failure it holds
 * `news` unchanged.
 */
export function check(definition: AnyResourceDefinition, news: Record<string, unknown>, closed: ClosedDomains = {}, resource = describeResource(definition, news)): CheckResult {
  const shape: Record<string, z.ZodType> = { ...definition.inputs.shape, ...providerInputs.shape };
  const secrets = new Set<string>(definition.secrets);
  const failures = new Map<string, string>();
  const fail = (path: string, rule: string): void => {
    const field = topLevelField(path);
    if (![...failures.keys()].some((failed) => topLevelField(failed) === field)) failures.set(path, rule);
  };
  const parsed: Record<string, unknown> = {};
  let allKnown = true;

  for (const key of Object.keys(news)) {
    if (!isInternal(key) && !(key in shape)) fail(key, unknownFieldRule(key, Object.keys(shape)));
  }
  for (const [field, schema] of Object.entries(shape)) {
    const value = news[field];
    if (containsUnknown(value)) {
      allKnown = false;
      parsed[field] = value;
      continue;
    }
    const result = parseFieldValue(schema, value);
    if (result.success) {
      if (result.data !== undefined) parsed[field] = result.data;
      for (const [path, rule] of closedDomainIssues(schema, result.data, field, closed)) fail(path, rule);
      continue;
    }
    for (const issue of result.error.issues) {
      for (const [path, rule] of describeIssue(field, schema, issue, secrets.has(field))) fail(path, rule);
    }
  }
  // Cross-field rules read other fields' values, so they run once every field passed its own rules
  // and every value is known (during a preview some may not be yet; check runs again before the update).
  if (failures.size === 0 && allKnown) definition.refine?.(parsed, fail);

  if (failures.size > 0) {
    return {
      inputs: news,
      failures: [...failures].map(([path, rule]) => ({
        // The engine prints "property P value V has a problem" with the value in plaintext, so a
        // secret field's failure names its field only in the reason.
        property: secrets.has(topLevelField(path)) ? "" : path,
        reason: `${definition.kind}.${path}: ${rule}`,
      })),
      warnings: [],
    };
  }
  // Warnings only once every rule passed: the failure comes first.
  const warnings: string[] = [];
  for (const [field, schema] of Object.entries(definition.inputs.shape as Record<string, z.ZodType>)) {
    for (const path of undeclaredKeys(schema, parsed[field], field)) {
      warnings.push(`${resource}: ${path} is not a key this package knows; it is sent as written and the server decides (check the spelling)`);
    }
  }
  if (allKnown) {
    definition.assumedRules?.(parsed, (path, message, found) => {
      if (found === "misplaced") warnings.push(`${resource}: ${path} ${message} as far as this package knows; it is sent as written and the server decides`);
    });
  }
  const internals = Object.fromEntries(Object.entries(news).filter(([key]) => isInternal(key)));
  return { inputs: { ...internals, ...parsed }, failures: [], warnings };
}

/**
 * A group's inputs (schema/members.ts), each member checked as a single resource of its kind:
 * failures named `MonitorSet.monitors["checkout"].intervalSeconds`, warnings naming the member as
 * a single resource's name it (`MonitorSet "fleet".monitors["checkout"]: …`). On success each
 * member's inputs are the parsed ones, without the group's shared inputs it does not set itself.
 */
export function checkGroup(group: GroupDefinition, news: Record<string, unknown>, closed: ClosedDomains = {}): CheckResult {
  const failures: CheckFailure[] = [];
  const warnings: string[] = [];
  const known = [group.membersField, ...group.shared];
  for (const key of Object.keys(news)) {
    if (!isInternal(key) && !known.includes(key)) failures.push({ property: key, reason: `${group.kind}.${key}: unknown field (known: ${known.join(", ")})` });
  }
  const members = news[group.membersField];
  const noun = group.member.kind.toLowerCase();
  if (containsUnknown(members) && !isRecord(members)) return { inputs: news, failures, warnings };
  if (!isRecord(members) || Object.keys(members).length === 0) {
    failures.push({ property: group.membersField, reason: `${group.kind}.${group.membersField}: must be a map of at least one ${noun} by key` });
    return { inputs: news, failures, warnings };
  }
  const parsed: Record<string, unknown> = {};
  for (const [key, written] of Object.entries(members)) {
    const path = memberPath(group, key);
    if (!isRecord(written)) {
      failures.push({ property: path, reason: `${group.kind}.${path}: must be a ${noun}'s inputs (an object)` });
      continue;
    }
    const result = check({ ...group.member, kind: `${group.kind}.${path}` }, memberOf(group, news, key)?.values ?? written, closed, describeMember(group, news, key));
    failures.push(...result.failures.map((failure) => ({ property: failure.property === "" ? "" : `${path}.${failure.property}`, reason: failure.reason })));
    warnings.push(...result.warnings);
    const own = Object.entries(result.inputs).filter(([field]) => !isInternal(field) && !(group.shared.includes(field) && written[field] === undefined));
    parsed[key] = Object.fromEntries(own);
  }
  if (failures.length > 0) return { inputs: news, failures, warnings: [] };
  return { inputs: { ...news, [group.membersField]: parsed }, failures, warnings };
}

/** Values of closed domains at any depth of `value` that the stack does not allow. */
function closedDomainIssues(schema: z.ZodType, value: unknown, path: string, closed: ClosedDomains): [string, string][] {
  if (value === undefined || value === null) return [];
  const domain = metadataOf(schema)["domain"] as OpenDomain | undefined;
  // A domain's value is one string (schema/rules.ts `openEnum`): nothing inside it to look at.
  if (domain !== undefined) {
    const allowed = closed[domain];
    return allowed === undefined || allowed.includes(value as string) ? [] : [[path, `must be one of ${CLOSING_CONFIG[domain]} (${allowed.join(", ")}) (got ${JSON.stringify(value)})`]];
  }
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((item, index) => closedDomainIssues(inner.element as z.ZodType, item, `${path}[${index}]`, closed));
  }
  if (inner instanceof z.ZodObject && isRecord(value)) {
    return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([name, fieldSchema]) =>
      closedDomainIssues(fieldSchema, value[name], `${path}.${name}`, closed),
    );
  }
  return [];
}

const CLOSING_CONFIG: Record<OpenDomain, string> = { region: "the regions in monitoring:offeredRegions" };

/** `steps[0].delayMinutes` → `steps`. */
function topLevelField(path: string): string {
  return path.split(/[.[]/, 1)[0] as string;
}

function formatPath(field: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, segment) => (typeof segment === "number" ? `${text}[${segment}]` : `${text}.${String(segment)}`),
    field,
  );
}

/**
 * One `[path, rule]` per problem of a zod issue; unknown keys are one problem each. A missing value
 * is required whatever the rule its schema phrases for a wrong one.
 */
function describeIssue(field: string, schema: z.ZodType, issue: z.core.$ZodIssue, secret: boolean): [string, string][] {
  const path = formatPath(field, issue.path);
  if (issue.code === "unrecognized_keys") {
    const known = knownKeysAt(schema, issue.path);
    return issue.keys.map((key) => [`${path}.${key}`, unknownFieldRule(key, known)]);
  }
  const input = (issue as { input?: unknown }).input;
  if (input === undefined) return [[path, IS_REQUIRED]];
  const shown = !secret && (typeof input !== "object" || input === null);
  return [[path, shown ? `${issue.message} (got ${JSON.stringify(input)})` : issue.message]];
}

/**
 * The keys the object at `path` inside `schema` declares. zod's path leads through lists (an index)
 * and objects (a declared key) to the object that has the unknown keys; through any other container
 * (a tuple, a mapping) it is not followed, and no keys are offered.
 */
function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let inner = unwrap(schema);
  for (const segment of path) {
    if (inner instanceof z.ZodArray) inner = unwrap(inner.element as z.ZodType);
    else if (inner instanceof z.ZodObject) inner = unwrap(inner.shape[segment as string] as z.ZodType);
  }
  return Object.keys(inner instanceof z.ZodObject ? inner.shape : {});
}
