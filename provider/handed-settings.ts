/**
 * A stack's `monitoring:` configuration now, handed by `pulumi-monitoring`'s own commands to the
 * engine runs they start (drift's refresh, the fleet's verbs, pause, resume, apply-due), through
 * the environment that the Pulumi CLI passes on to the provider's process.
 *
 * Those commands have read the configuration already (cli/project/settings.ts); handed, it decides
 * the settings of a provider process that Pulumi configured with the ones the last deploy recorded
 * (provider/index.ts), which then reads nothing itself. The variable lives in the environment of
 * the run's own processes only, as MONITORING_API_KEY would; it is never written anywhere.
 */
import { basename } from "node:path";
import type { ConfigSource } from "./config.js";

export const HANDED_SETTINGS_ENV = "PULUMI_MONITORING_SETTINGS_NOW";

/** What the variable holds: the stack, and its `monitoring:` values by key (`apiKey`, without the namespace). */
interface HandedSettings {
  stack: string;
  config: Record<string, string>;
}

/** The environment that hands `config`, the configuration now of `stack`, to the engine run's provider. */
export function handedSettingsEnv(stack: string, config: Record<string, string>): Record<string, string> {
  return { [HANDED_SETTINGS_ENV]: JSON.stringify({ stack: basename(stack), config } satisfies HandedSettings) };
}

/**
 * The configuration handed for `stack` (`acme`, as the resources name it), when a command handed
 * one for that stack; undefined otherwise (no command handed any, or it named another stack,
 * which a nested run of another stack could inherit).
 */
export function handedConfig(stack: string | undefined, env: NodeJS.ProcessEnv = process.env): ConfigSource | undefined {
  const text = env[HANDED_SETTINGS_ENV];
  if (text === undefined || text === "") return undefined;
  const handed = JSON.parse(text) as HandedSettings;
  if (stack !== undefined && basename(stack) !== handed.stack) return undefined;
  return (key) => handed.config[key];
}
