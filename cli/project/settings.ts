/**
 * The `monitoring:` settings of a stack, as its provider reads them, from the files where they say
 * it all: the stack's settings file, else Pulumi.yaml's `config`. Reading the configuration through
 * the CLI costs a run that derives the passphrase's key, once per stack of a fleet; only a secret
 * (an encrypted `secure` value) or an imported environment, which the files cannot resolve, needs it.
 */
import { type LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { parse } from "yaml";
import { CONFIG_NAMESPACE, type ConfigSource } from "../../provider/config.js";
import { configFromFiles, needsCli, type StackFile } from "../../provider/settings-now.js";
import { type FleetProject, readStackSettings } from "./project.js";

const stackFileOf = async (project: FleetProject, stack: string): Promise<StackFile> => (parse(await readStackSettings(project, stack)) as StackFile | null) ?? {};

/** The settings that are never secrets (monitoring:now, monitoring:handPauses): from the files alone. */
export async function plainSettingsOf(project: FleetProject, stack: string): Promise<ConfigSource> {
  return configFromFiles((await stackFileOf(project, stack)).config ?? {}, project.config);
}

/** Every `monitoring:` setting (the key included): from the files, or from the CLI when one is a secret or may come from an environment. */
export async function stackSettingsOf(project: FleetProject, stack: string, workspace: LocalWorkspace): Promise<ConfigSource> {
  const file = await stackFileOf(project, stack);
  if (!needsCli(file)) return configFromFiles(file.config ?? {}, project.config);
  const config = await (await Stack.select(stack, workspace)).getAllConfig();
  return (key) => config[`${CONFIG_NAMESPACE}:${key}`]?.value;
}
