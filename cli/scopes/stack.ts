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

/**
 * The environment variable `--key-env NAME` names for stack `stack`: `NAME`, with `{stack}` standing
 * for the stack's name in capitals, each character other than a letter or a digit as `_`
 * (`NEW_KEY_{stack}` is NEW_KEY_ACME for acme, NEW_KEY_ACME_CORP for acme-corp).
 */
export function keyVariableOf(template: string, stack: string): string {
  return template.replaceAll("{stack}", basename(stack).toUpperCase().replace(/[^A-Z0-9]/g, "_"));
}

/**
 * The stack's settings with the key of environment variable `template` (`--key-env`) in place of
 * the configured one: before a rotation, whether a new key holds what the stack needs, while the
 * stack's configuration still holds the old one. The key itself is never on the command line.
 */
export function withKeyFromEnvironment(settings: ProviderSettings, template: string, stack: string, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const variable = keyVariableOf(template, stack);
  const key = env[variable]?.trim();
  if (key === undefined || key === "") throw new Error(`--key-env: ${variable} is not set: export the new key of stack ${basename(stack)} in it`);
  return { ...settings, apiKey: key, sources: { ...settings.sources, apiKey: variable } };
}

export async function readStack(workspace: LocalWorkspace, project: FleetProject, name: string, keyEnv?: string): Promise<StackView> {
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
    settings: async () => {
      const configured = resolveSettings(await stackSettingsOf(project, name, workspace), process.env, stackConfigKeyName(basename(name)));
      return keyEnv === undefined ? configured : withKeyFromEnvironment(configured, keyEnv, name);
    },
  };
}
