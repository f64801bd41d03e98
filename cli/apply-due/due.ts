/**
 * What `apply-due` does in a stack, from its exported state alone (`pulumi stack export`): for each
 * monitor and heartbeat (single or a set's member) the last deploy declared, what the pause plan
 * wants at `now` from the windows the state's inputs record and the override and hand pause its
 * outputs record, against the pause state the outputs record: a pause or resume call when one is
 * due, and an override that has ended dropped from the state. Pure; cli/overrides/writes.ts sends
 * and records exactly these, from the same inputs.
 */
import type { HandPauses } from "../../provider/pause-plan.js";
import { recordedOverride } from "../../provider/overrides.js";
import { isDue, planOf, recordsAfterPlan } from "../../provider/pauses.js";
import type { PauseChange } from "../overrides/writes.js";
import { pausableObjects } from "../overrides/targets.js";

/** One change due: the call (`write`, when one is due), the records kept, and why. */
export interface DueChange extends PauseChange {
  /** A pause: the window's or override's reason, or `paused by hand`; a resume: what decides now (`declared`, `active`). */
  reason: string;
}

export function dueInState(exported: unknown, now: number, handPauses: HandPauses): DueChange[] {
  const changes: DueChange[] = [];
  for (const target of pausableObjects(exported)) {
    // A set's member the last deploy no longer declared waits for the next deploy, which deletes it.
    if (target.member !== undefined && Object.keys(target.inputs).length === 0) continue;
    const plan = planOf(target.inputs, target.outputs, { now, handPauses });
    const records = recordsAfterPlan(target.outputs, plan);
    const due = isDue(plan, target.outputs);
    const endedOverride = recordedOverride(target.outputs) !== undefined && records.override === undefined;
    if (!due && !endedOverride) continue;
    const reason = plan.why.kind === "window" || plan.why.kind === "override" ? plan.why.reason : plan.why.kind === "hand" ? "paused by hand" : plan.why.kind;
    changes.push({ target, ...(due ? { write: plan.paused as boolean } : {}), ...records, reason });
  }
  return changes;
}
