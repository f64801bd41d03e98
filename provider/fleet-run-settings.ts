/**
 * What a fleet run hands the runs of its stacks: one settings object, declared here once. The
 * stacks' dynamic provider hosts are processes the Pulumi CLI starts, so they get it as one
 * environment variable holding JSON, which the fleet adds to the environment of the CLI commands it
 * runs (never to its own process's). Programs that run inside the fleet's process get the object
 * itself, for the length of their run. The provider reads it in one place: {@link fleetRunSettings}.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";

/** The environment variable that carries the settings to the CLI's child processes. */
export const FLEET_RUN_SETTINGS_ENV = "PULUMI_MONITORING_FLEET_RUN";

const fleetRunSettingsSchema = z
  .object({
    /** The address of the run's rate budget token server (cli/fleet/runners/budget.ts): a socket path, or a Windows pipe. */
    budget: z.string().trim().min(1).optional(),
  })
  .strict();

export type FleetRunSettings = z.infer<typeof fleetRunSettingsSchema>;

/** The environment that carries `settings` to a child run. */
export function fleetRunEnvironment(settings: FleetRunSettings): Record<string, string> {
  return { [FLEET_RUN_SETTINGS_ENV]: JSON.stringify(fleetRunSettingsSchema.parse(settings)) };
}

/**
 * The settings `env` carries, or none outside a fleet run. Bad content is a fleet and a provider of
 * different versions, or a hand-set variable: an error naming the variable, not a guess.
 */
export function fleetRunSettingsFrom(env: NodeJS.ProcessEnv): FleetRunSettings {
  const text = env[FLEET_RUN_SETTINGS_ENV];
  if (text === undefined || text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${FLEET_RUN_SETTINGS_ENV} must hold the fleet's run settings as JSON: ${(error as Error).message}`);
  }
  const parsed = fleetRunSettingsSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${FLEET_RUN_SETTINGS_ENV} holds run settings this version cannot read: ${z.prettifyError(parsed.error).replaceAll("\n", " ")}`);
  return parsed.data;
}

/** The settings of the fleet run whose program runs in this process, for the length of that run. */
const inProcessRun = new AsyncLocalStorage<FleetRunSettings>();

/** Runs `work` (a program in the fleet's process) with `settings` as its run's. */
export function withFleetRunSettings<T>(settings: FleetRunSettings, work: () => T): T {
  return inProcessRun.run(settings, work);
}

/** The settings of the fleet run this code is part of: its program's, else the environment's (a provider host the CLI started). */
export function fleetRunSettings(env: NodeJS.ProcessEnv = process.env): FleetRunSettings {
  return inProcessRun.getStore() ?? fleetRunSettingsFrom(env);
}
