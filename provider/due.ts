/**
 * The pauses and resumes due in a stack, from its exported state alone (`pulumi stack export`): for
 * each monitor and heartbeat (single or a set's member), what the pause plan wants at `now` from the
 * windows the state's inputs record and the override and hand pause its outputs record, against
 * the pause state the outputs record. Pure; `apply-due` targets the objects it names.
 */
import { membersOf, monitorSet } from "../schema/members.js";
import { isRecord } from "../schema/naming.js";
import { exportedResources } from "./exported-state.js";
import type { HandPauses } from "./pause-plan.js";
import { isDue, PAUSABLE_KINDS, planOf } from "./pauses.js";

/** One pause or resume due: the resource's URN, its program name (`web`) and member key, what it becomes and why. */
export interface DueChange {
  urn: string;
  resource: string;
  member?: string;
  type: string;
  paused: boolean;
  /** A pause: the window's or override's reason, or `paused by hand`; a resume: what decides now (`declared`, `active`). */
  reason: string;
}

export function dueInState(exported: unknown, now: number, handPauses: HandPauses): DueChange[] {
  const changes: DueChange[] = [];
  for (const { urn, type, name, inputs, outputs } of exportedResources(exported)) {
    if (!PAUSABLE_KINDS.includes(type) && type !== monitorSet.kind) continue;
    const declared = isRecord(inputs["monitors"]) ? inputs["monitors"] : {};
    for (const member of membersOf(type, outputs)) {
      const memberInputs = member.key === undefined ? inputs : declared[member.key];
      if (!isRecord(memberInputs)) continue;
      const plan = planOf(memberInputs, member.values, { now, handPauses });
      if (!isDue(plan, member.values)) continue;
      const reason = plan.why.kind === "window" || plan.why.kind === "override" ? plan.why.reason : plan.why.kind === "hand" ? "paused by hand" : plan.why.kind;
      changes.push({ urn, resource: name, ...(member.key === undefined ? {} : { member: member.key }), type, paused: plan.paused as boolean, reason });
    }
  }
  return changes;
}
