/**
 * Operator overrides of the pause state ("pause web for 2h, incident 42"), recorded in the stack's
 * own state, so every runner of the stack sees them whatever its backend, and Pulumi's lock
 * serialises them: `__override: { until, reason, by, at }` in an object's outputs (by key for a
 * set's members). The command line asks for a new one through one environment variable for one
 * targeted run ({@link OVERRIDE_VARIABLE}); provider/pauses.ts applies and records it; the rest of
 * the time deploys only keep it (provider/pause-plan.ts). {@link overridesInState} lists them from
 * a stack's exported state.
 */
import { z } from "zod";
import { membersOf } from "../schema/members.js";
import { isRecord } from "../schema/naming.js";
import { instant, nonEmpty } from "../schema/rules.js";
import { exportedResources } from "./exported-state.js";
import { internal } from "./fields.js";
import type { OverrideRecord } from "./pause-plan.js";

/** Set by the command line for one targeted run: the overrides to record, or to end (one object, or a list of them). */
export const OVERRIDE_VARIABLE = "PULUMI_MONITORING_OVERRIDE";

const target = { urn: nonEmpty, member: nonEmpty.optional() };
const requestSchema = z.union([
  z.object({ ...target, until: instant, reason: nonEmpty, by: nonEmpty }).strict(),
  z.object({ ...target, end: z.literal(true) }).strict(),
]);

/** An override to record (`until`, `reason`, `by`) or to end (`end`), for the resource `urn` (a set's member by `member`). */
export type OverrideRequest = z.output<typeof requestSchema>;

const requestsSchema = z.union([requestSchema.transform((request) => [request]), z.array(requestSchema).min(1)]);

/**
 * The overrides the environment asks for (none when it is unset); malformed, an error naming the
 * variable. One run records them all: several objects of a stack cost one targeted run.
 */
export function requestedOverrides(env: NodeJS.ProcessEnv = process.env): readonly OverrideRequest[] {
  const text = env[OVERRIDE_VARIABLE];
  if (text === undefined || text.trim() === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = requestsSchema.safeParse(parsed);
  if (!result.success) {
    throw new Error(
      `${OVERRIDE_VARIABLE} must be JSON {"urn","member"?,"until","reason","by"} (until an ISO 8601 instant with an offset) or {"urn","member"?,"end":true}, or a list of them, got ${JSON.stringify(text)}`,
    );
  }
  return result.data;
}

/** The override `requests` ask for on the object `urn` (`member`: a set's member), if one names it. */
export function overrideFor(requests: readonly OverrideRequest[], urn: unknown, member?: string): OverrideRequest | undefined {
  return requests.find((request) => request.urn === urn && request.member === member);
}

/** The override an object's outputs record, when they hold a well-formed one. */
export function recordedOverride(outputs: Record<string, unknown>): OverrideRecord | undefined {
  const value = outputs[internal.override];
  if (!isRecord(value)) return undefined;
  const { until, reason, by, at } = value;
  return typeof until === "string" && typeof reason === "string" && typeof by === "string" && typeof at === "string" ? { until, reason, by, at } : undefined;
}

/** One override of a stack, as `pulumi-monitoring overrides` lists it. */
export interface OverrideRow {
  /** The program's name of the resource (`web`). */
  resource: string;
  /** The set's member key (`fleet[web]` is resource `fleet`, member `web`). */
  member?: string;
  type: string;
  until: string;
  reason: string;
  by: string;
  at: string;
  /** `active` until `until`; `ended`: the next deploy resumes the object and drops the record. */
  state: "active" | "ended";
}

/**
 * The overrides recorded in a stack's exported state (`pulumi stack export`), active and ended, in
 * the state's order of resources then members. Pure: `now` decides which have ended.
 */
export function overridesInState(exported: unknown, now: number): OverrideRow[] {
  return exportedResources(exported).flatMap(({ type, name, outputs }) =>
    membersOf(type, outputs).flatMap((member) => {
      const override = recordedOverride(member.values);
      if (override === undefined) return [];
      const state = now < Date.parse(override.until) ? ("active" as const) : ("ended" as const);
      return [{ resource: name, ...(member.key === undefined ? {} : { member: member.key }), type, ...override, state }];
    }),
  );
}
