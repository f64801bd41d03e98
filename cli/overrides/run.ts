/**
 * One stack as the override commands see it before they write anything: its exported state and the
 * deploys' clock and rule for hand pauses, read from the stack's files (no request to the service,
 * no run of its program). cli/overrides/writes.ts then writes.
 */
import { deployInstant, handPauses } from "../../provider/config.js";
import type { HandPauses } from "../../provider/pause-plan.js";
import type { FleetProject } from "../project/project.js";
import { plainSettingsOf } from "../project/settings.js";
import { exportedState } from "../project/state.js";
import { fleetWorkspace } from "../project/workspace.js";

export interface StackState {
  /** `pulumi stack export`. */
  exported: unknown;
  /** The instant deploys of the stack take for now: monitoring:now, else PULUMI_MONITORING_NOW, else the clock. */
  now: number;
  /** `monitoring:handPauses`: what deploys do with a pause made by hand. */
  handPauses: HandPauses;
}

/** The stack's exported state, its clock and its rule for hand pauses; reads only. */
export async function readStackState(project: FleetProject, stack: string, env: NodeJS.ProcessEnv = process.env): Promise<StackState> {
  const [exported, settings] = await Promise.all([fleetWorkspace(project.dir).then((workspace) => exportedState(workspace, stack)), plainSettingsOf(project, stack)]);
  return { exported, now: deployInstant(settings, env), handPauses: handPauses(settings) };
}
