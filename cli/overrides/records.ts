/**
 * The pause records of a stack's state as the command line reads and writes them: the overrides it
 * lists (`overrides`), and the one edit a pause, resume or apply-due makes to a state: the pause
 * state the service now holds and the records that go with it (`__override`, `__handPauseSeen`),
 * on the objects written and nothing else. Pure: cli/overrides/writes.ts reads and writes the state.
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { groupOf, HAND_PAUSE_SEEN, OVERRIDE } from "../../schema/members.js";
import { isRecord } from "../../schema/naming.js";
import { recordedOverride } from "../../provider/overrides.js";
import type { OverrideRecord } from "../../provider/pause-plan.js";
import { type OverrideTarget, pausableObjects } from "./targets.js";

type Values = Record<string, unknown>;

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
  /** `active` until `until`; `ended`: the next deploy resumes the object if it is still paused, and drops the record. */
  state: "active" | "ended";
}

/**
 * The overrides recorded in a stack's exported state (`pulumi stack export`), active and ended, in
 * the state's order of resources then members. Pure: `now` decides which have ended.
 */
export function overridesInState(exported: unknown, now: number): OverrideRow[] {
  return pausableObjects(exported).flatMap(({ urn, kind, member, outputs }) => {
    const override = recordedOverride(outputs);
    if (override === undefined) return [];
    const state = now < Date.parse(override.until) ? ("active" as const) : ("ended" as const);
    return [{ resource: urn.slice(urn.lastIndexOf("::") + 2), ...(member === undefined ? {} : { member }), type: kind, ...override, state }];
  });
}

/** What one object's outputs record once a command has set its pause state. */
export interface PauseRecording {
  target: OverrideTarget;
  /** What the service holds after the write (`paused`, `status`); absent when nothing was written. */
  held?: Values;
  /** The override the object keeps; absent: none. */
  override?: OverrideRecord;
  /** When a refresh first saw a pause by hand, while it still keeps the object paused; absent: none. */
  handPauseSeen?: string;
}

/** The fields a write of the pause state changes, besides the records. */
const HELD_FIELDS = ["paused", "status"];

/**
 * `exported` with each object of `recordings` as it records: its pause state and records, and
 * nothing else of the state changed. Fails naming the object when the state no longer holds it.
 */
export function withRecordedPauses(exported: Deployment, recordings: readonly PauseRecording[]): Deployment {
  const copy = structuredClone(exported) as Deployment & { deployment: { resources?: Values[] } };
  const resources = copy.deployment?.resources ?? [];
  for (const { target, held = {}, override, handPauseSeen } of recordings) {
    const resource = resources.find((candidate: Values) => candidate["urn"] === target.urn);
    const outputs = resource !== undefined && isRecord(resource["outputs"]) ? resource["outputs"] : undefined;
    const records: Values = { [OVERRIDE]: override, [HAND_PAUSE_SEEN]: handPauseSeen };
    if (outputs === undefined) throw new Error(`${target.name} is no longer in the stack's state`);
    if (target.member === undefined) {
      for (const field of HELD_FIELDS) if (held[field] !== undefined) outputs[field] = held[field];
      for (const [field, value] of Object.entries(records)) setOrDrop(outputs, field, value);
      continue;
    }
    const group = groupOf(target.kind);
    const members = group === undefined ? undefined : outputs[group.membersField];
    const own = isRecord(members) ? members[target.member] : undefined;
    if (group === undefined || !isRecord(own)) throw new Error(`${target.name} is no longer in the stack's state`);
    for (const field of HELD_FIELDS) {
      if (held[field] === undefined) continue;
      const perMember = Object.entries(group.perMember).find(([, name]) => name === field)?.[0];
      const map = perMember === undefined ? undefined : outputs[perMember];
      if (isRecord(map)) map[target.member] = held[field];
      else own[field] = held[field];
    }
    for (const [field, value] of Object.entries(records)) {
      const output = Object.entries(group.perMember).find(([, name]) => name === field)?.[0] ?? field;
      const map: Values = isRecord(outputs[output]) ? outputs[output] : {};
      setOrDrop(map, target.member, value);
      // Records are sparse: a map with no member left is dropped, as the provider leaves it out.
      setOrDrop(outputs, output, Object.keys(map).length === 0 ? undefined : map);
    }
  }
  return copy;
}

function setOrDrop(values: Values, key: string, value: unknown): void {
  if (value === undefined) delete values[key];
  else values[key] = value;
}
