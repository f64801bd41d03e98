/**
 * The `monitoring:` settings of a stack that are never secrets (monitoring:now,
 * monitoring:handPauses), as its provider reads them, from the files alone: the stack's settings
 * file, else Pulumi.yaml's `config`. Reading the configuration through the CLI costs a run that
 * loads the stack's secrets, once per stack of a fleet.
 */
import { parse } from "yaml";
import { CONFIG_NAMESPACE, type ConfigSource } from "../../provider/config.js";
import { type FleetProject, projectValue, readStackSettings } from "./project.js";

const plain = (value: unknown): string | undefined => (typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : undefined);

export async function plainSettingsOf(project: FleetProject, stack: string): Promise<ConfigSource> {
  const settings = (parse(await readStackSettings(project, stack)) as { config?: Record<string, unknown> } | null)?.config ?? {};
  return (key) => {
    const name = `${CONFIG_NAMESPACE}:${key}`;
    return plain(settings[name]) ?? plain(projectValue(project.config?.[name]));
  };
}
