/**
 * The Automation API workspace every command opens on a Pulumi project, and the environment its
 * CLI commands run with, which keeps Pulumi 3.259's PostgreSQL backend from waiting forever when
 * it lists stacks (docs/teams-and-ci.md).
 */
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { availableParallelism } from "node:os";

/** The CLI's default number of stacks a DIY backend reads at once. */
const DIY_DEFAULT_PARALLEL = 10;

const positiveWhole = (text: string | undefined): number | undefined => {
  const value = Number(text);
  return text !== undefined && Number.isInteger(value) && value >= 1 ? value : undefined;
};

/**
 * The environment the fleet adds to every CLI command: GOMAXPROCS as the user set it, else the
 * cores Node.js sees (set explicitly, since Go may count fewer under a container CPU quota and
 * its pool would be smaller), and PULUMI_DIY_BACKEND_PARALLEL as the user set it or the CLI's
 * default, but at most one less than the pool. Harmless on other backends: only DIY backends
 * read the second, and the first only sizes the CLI's own threads.
 */
export function cliEnvironment(env: NodeJS.ProcessEnv = process.env, cores: number = availableParallelism()): Record<string, string> {
  const gomaxprocs = positiveWhole(env["GOMAXPROCS"]) ?? cores;
  const pool = Math.max(2 * gomaxprocs, 2);
  const parallel = Math.min(positiveWhole(env["PULUMI_DIY_BACKEND_PARALLEL"]) ?? DIY_DEFAULT_PARALLEL, pool - 1);
  return { GOMAXPROCS: String(gomaxprocs), PULUMI_DIY_BACKEND_PARALLEL: String(parallel) };
}

/**
 * The Automation API workspace of a fleet project. Each of its commands names its stack
 * (`--stack`), so `Stack.select` does not run `pulumi stack select` here: run for several stacks at
 * once it would race over the user's current stack, and leave it changed. Its commands run with
 * {@link cliEnvironment}, and `envVars` (a run's own settings, such as an override to record).
 */
export async function fleetWorkspace(workDir: string, envVars: Record<string, string> = {}): Promise<LocalWorkspace> {
  const workspace = await LocalWorkspace.create({ workDir, envVars: { ...cliEnvironment(), ...envVars }, pulumiCommand: await pulumiCli() });
  workspace.selectStack = async () => undefined;
  return workspace;
}

/**
 * `workspace` with `envVars` added to the environment of the CLI commands run through it (and of
 * the processes they start), for one run; the workspace itself, shared by other runs, is left as it is.
 */
export function withEnvironment(workspace: LocalWorkspace, envVars: Record<string, string>): LocalWorkspace {
  return Object.assign(Object.create(workspace) as LocalWorkspace, { envVars: { ...workspace.envVars, ...envVars } });
}

let sharedCli: Promise<PulumiCommand> | undefined;

/**
 * The Pulumi CLI, found and its version checked once per process: the Automation API otherwise
 * runs `pulumi version` for every workspace, one more CLI run per stack of a fleet.
 */
export function pulumiCli(): Promise<PulumiCommand> {
  sharedCli ??= PulumiCommand.get().catch((error: unknown) => {
    // Not kept: the next command looks again (the CLI may have been installed meanwhile).
    sharedCli = undefined;
    throw error;
  });
  return sharedCli;
}
