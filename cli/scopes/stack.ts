/**
 * What `scopes` computes from: the stack's program as it stands (a preview without refresh, which
 * sends no request of its own, with the program in this process when the fleet's runner can run it
 * there) and what its state records (`pulumi stack export`), and the stack's connection settings.
 */
import { type LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { basename } from "node:path";
import { dryRunEnabled, type ProviderSettings, resolveSettings, stackConfigKeyName } from "../../provider/config.js";
import { programOf } from "../fleet/stacks/in-process.js";
import { withoutRefresh } from "../fleet/stacks/operations.js";
import type { FleetProject } from "../project/project.js";
import { plainSettingsOf, stackSettingsOf } from "../project/settings.js";
import { exportedState, stateResources } from "../project/state.js";
import type { StackContents, StackResource } from "./needs.js";

export interface StackView {
  contents: StackContents;
  /**
   * The service and key as the stack's provider would take them, with where each came from: read
   * when asked (a check), since a key kept as a secret costs a CLI run that decrypts it.
   */
  settings: () => Promise<ProviderSettings>;
}

export async function readStack(workspace: LocalWorkspace, project: FleetProject, name: string): Promise<StackView> {
  const stack = await Stack.select(name, workspace);
  const [state, plain] = await Promise.all([exportedState(workspace, name), plainSettingsOf(project, name)]);
  const recorded: StackResource[] = stateResources(state);
  const program: StackResource[] = [];
  await withoutRefresh(stack).preview({
    ...programOf(project),
    onEvent: (event) => {
      const metadata = event.resourcePreEvent?.metadata;
      const declared = metadata?.new;
      if (metadata === undefined || declared === undefined || metadata.op === "delete") return;
      program.push({ urn: metadata.urn, type: metadata.type, inputs: (declared.inputs ?? {}) as Record<string, unknown> });
    },
  });
  return {
    contents: { program, state: recorded, dryRun: dryRunEnabled(plain) },
    settings: async () => resolveSettings(await stackSettingsOf(project, name, workspace), process.env, stackConfigKeyName(basename(name))),
  };
}
