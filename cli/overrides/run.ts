/**
 * One stack as the override commands see it (its exported state and the deploys' clock), and the
 * one targeted run that records or ends its overrides: `pulumi up --target <urn>... --refresh=false`
 * with PULUMI_MONITORING_OVERRIDE set (provider/overrides.ts), however many objects they name. No refresh: a refresh would record
 * in the state whatever else changed by hand on the object, and the run must write only the pause.
 * The provider sends only the pause (or resume) call in that run, so the program's other pending
 * changes to the object wait for the next deploy.
 */
import { Stack } from "@pulumi/pulumi/automation";
import { deployInstant } from "../../provider/config.js";
import { FLEET_BUDGET_ENV } from "../../provider/fleet-budget.js";
import { OVERRIDE_VARIABLE, type OverrideRequest } from "../../provider/overrides.js";
import { commandErrorMessage } from "../project/errors.js";
import { fleetWorkspace } from "../project/workspace.js";
import { programOf } from "../fleet/stacks/in-process.js";
import { withoutRefresh, withoutResultReads } from "../fleet/stacks/operations.js";
import { runTakingOverDeadLocks, StackLockedError } from "../fleet/runners/dead-locks.js";
import { describeTakenOver, type TakenOverLock } from "../fleet/runners/lease.js";
import type { FleetProject } from "../project/project.js";
import { plainSettingsOf } from "../project/settings.js";
import { exportedState } from "../project/state.js";
import type { OverrideTarget } from "./targets.js";

export interface StackState {
  /** `pulumi stack export`. */
  exported: unknown;
  /** The instant deploys of the stack take for now: monitoring:now, else PULUMI_MONITORING_NOW, else the clock. */
  now: number;
}

/** The stack's exported state and its clock; reads only (no request to the service). */
export async function readStackState(project: FleetProject, stack: string, env: NodeJS.ProcessEnv = process.env): Promise<StackState> {
  const [exported, settings] = await Promise.all([fleetWorkspace(project.dir).then((workspace) => exportedState(workspace, stack)), plainSettingsOf(project, stack)]);
  return { exported, now: deployInstant(settings, env) };
}

/** An override to record or end on one object of a stack. */
export interface OverrideWork {
  target: OverrideTarget;
  request: OverrideRequest;
}

/**
 * Records (or ends) each override of `work` with ONE targeted run of the stack's program (in this
 * process where the fleet's runner can run it there), aimed at the resources they name: the
 * members of one set are one resource, updated once. Fails when the run did not update each of
 * those resources, so that a silent no-op is never taken for a pause. A lock left by a run that
 * died (an earlier `pause` killed mid-run, say) is taken over first, as the fleet does; the lines
 * returned say whose and why.
 */
export async function runOverrides(project: FleetProject, stack: string, work: readonly OverrideWork[], budgetAddress?: string): Promise<string[]> {
  const urns = [...new Set(work.map(({ target }) => target.urn))];
  const names = work.map(({ target }) => target.name).join(", ");
  const workspace = await fleetWorkspace(project.dir, {
    [OVERRIDE_VARIABLE]: JSON.stringify(work.map(({ request }) => request)),
    // The fleet's token server: its budget paces the stacks' requests together, and counts them.
    ...(budgetAddress === undefined ? {} : { [FLEET_BUDGET_ENV]: budgetAddress }),
  });
  const selected = withoutRefresh(withoutResultReads(await Stack.select(stack, workspace)));
  // From the engine's summary event: the outputs and history the Automation API would read after the run cost three more CLI runs.
  let updated = 0;
  const record = () =>
    selected.up({
      target: urns,
      ...programOf(project),
      onEvent: (event) => {
        if (event.summaryEvent !== undefined) updated = event.summaryEvent.resourceChanges["update"] ?? 0;
      },
    });
  let takenOver: TakenOverLock[];
  try {
    ({ takenOver } = await runTakingOverDeadLocks(project, workspace, stack, record));
  } catch (error) {
    const why = error instanceof StackLockedError ? error.message : commandErrorMessage(error);
    throw new Error(`stack ${stack}: the run that records the overrides of ${names} failed: ${why}`);
  }
  if (updated !== urns.length) throw new Error(`stack ${stack}: the run that records the overrides of ${names} updated ${updated} resources instead of ${urns.length}`);
  return takenOver.map((lock) => `took over ${describeTakenOver(lock)}`);
}
