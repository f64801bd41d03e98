/**
 * How `pause`, `resume` and `apply-due` (and their fleet verbs) set the pause state of objects of
 * one stack: the one pause or resume call each object needs, straight to the service, then one
 * edit of the stack's state that records what the service now holds and the records that go with
 * it. The stack's program is never run, so what the operator's checkout declares (a resource it no
 * longer has, an edit not yet deployed, an alias) changes nothing: these commands never create,
 * update, replace or delete an object, and change nothing else in the state.
 *
 * The call comes first and the record after, as a deploy does: killed in between, the service
 * holds the pause and the state does not record it yet; running the command again sends the same
 * call (a pause of a paused object changes nothing) and records it. The state is read afresh just
 * before it is written, and written under the stack's lock (`pulumi stack import`), with a lease
 * on that lock (cli/fleet/runners/dead-locks.ts).
 */
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { definitionOf } from "../../schema/index.js";
import { mapBounded } from "../../provider/concurrency.js";
import { ResourceEngine } from "../../provider/engine.js";
import type { OverrideRecord } from "../../provider/pause-plan.js";
import { type LockWait, writeStack } from "../fleet/runners/dead-locks.js";
import type { TakenOverLock } from "../fleet/runners/lease.js";
import { commandErrorMessage } from "../project/errors.js";
import type { FleetProject } from "../project/project.js";
import { stackService } from "../fleet/service.js";
import { exportedState, importState } from "../project/state.js";
import { withRecordedPauses } from "./records.js";
import type { OverrideTarget } from "./targets.js";

type Values = Record<string, unknown>;

/** What a command sets on one object: the call it sends, if any, and the records the object keeps after it. */
export interface PauseChange {
  target: OverrideTarget;
  /** `true`: pause, `false`: resume; absent: no call, only the records change. */
  write?: boolean;
  override?: OverrideRecord;
  handPauseSeen?: string;
}

/** One change as it went: what the service holds after it, or why it failed (then nothing of it is recorded). */
export interface ChangeOutcome {
  change: PauseChange;
  held?: Values;
  error?: string;
}

export interface StackWrites {
  outcomes: ChangeOutcome[];
  /** Locks of runs that died, taken over to record. */
  takenOver: TakenOverLock[];
  /** Why the state could not be written, when it could not: the service holds the changes, the state does not. */
  unrecorded?: string;
}

/** A stack as these commands reach it. */
export interface StackAccess {
  project: FleetProject;
  stack: string;
  workspace: LocalWorkspace;
  /** The fleet's token server, when one paces the run. */
  budget?: string;
}

/** Calls in flight at once for one stack: as many as a set's members get from a deploy. */
const CALLS_AT_ONCE = 8;

/** Sends each change's call, then records every change that went through, in one write of the state. */
export async function applyPauseChanges(access: StackAccess, changes: readonly PauseChange[], lock: LockWait = {}): Promise<StackWrites> {
  const outcomes = await sendCalls(access, changes);
  const done = outcomes.filter((outcome) => outcome.error === undefined);
  if (done.length === 0) return { outcomes, takenOver: [] };
  const record = async () => {
    const fresh = await exportedState(access.workspace, access.stack);
    await importState(access.workspace, access.stack, withRecordedPauses(fresh, done.map(({ change, held }) => ({ ...change, ...(held === undefined ? {} : { held }) }))));
  };
  try {
    const { takenOver } = await writeStack(access.project, access.workspace, access.stack, record, lock);
    return { outcomes, takenOver };
  } catch (error) {
    return { outcomes, takenOver: [], unrecorded: commandErrorMessage(error) };
  }
}

async function sendCalls(access: StackAccess, changes: readonly PauseChange[]): Promise<ChangeOutcome[]> {
  if (changes.every((change) => change.write === undefined)) return changes.map((change) => ({ change }));
  const service = await stackService(access.project, access.stack, access.workspace, access.budget);
  const engines = new Map<string, ResourceEngine>();
  const engineOf = (kind: string) => {
    let engine = engines.get(kind);
    if (engine === undefined) engines.set(kind, (engine = new ResourceEngine(definitionOf(kind), () => service.api)));
    return engine;
  };
  try {
    return await mapBounded(changes, CALLS_AT_ONCE, async (change): Promise<ChangeOutcome> => {
      const { target, write } = change;
      if (write === undefined) return { change };
      try {
        const held = await engineOf(target.objectKind).setToggle(target.id, "paused", write, target.outputs);
        // The service's word that the call worked is its success status (spec 7.2); a read that
        // shows the object otherwise says it did not.
        if (held["paused"] !== undefined && held["paused"] !== write) {
          return { change, error: `the service answered the ${write ? "pause" : "resume"} call but still shows ${target.objectKind} ${target.id} ${held["paused"] === true ? "paused" : "active"}` };
        }
        return { change, held: { ...held, paused: write } };
      } catch (error) {
        return { change, error: commandErrorMessage(error) };
      }
    });
  } finally {
    await service.close();
  }
}
