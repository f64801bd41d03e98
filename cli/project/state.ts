/**
 * A stack's state as `pulumi stack export` records it, its secrets still encrypted. What the
 * commands read of a state (types, ids, pause windows, overrides, pending operations) holds no
 * secret; without `--show-secrets` the CLI neither derives the passphrase's key nor decrypts
 * anything, which is half of the run's CPU, once per stack of a fleet, and no secret reaches
 * this process in plaintext. (The Automation API's `exportStack` always shows them.)
 */
import type { Deployment, OutputMap, Stack, Workspace } from "@pulumi/pulumi/automation";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function exportedState(workspace: Workspace, stack: string): Promise<Deployment> {
  const env = { ...process.env, ...(workspace.pulumiHome === undefined ? {} : { PULUMI_HOME: workspace.pulumiHome }), ...workspace.envVars };
  try {
    const { stdout } = await run(workspace.pulumiCommand.command, ["stack", "export", "--stack", stack, "--non-interactive"], { cwd: workspace.workDir, env, maxBuffer: Number.POSITIVE_INFINITY });
    return JSON.parse(stdout) as Deployment;
  } catch (error) {
    // Shaped as the Automation API's errors, whose CLI output commandErrorMessage summarizes.
    const stderr = (error as { stderr?: string }).stderr ?? "";
    throw Object.assign(new Error(`pulumi stack export --stack ${stack} failed: ${stderr.trim() || (error as Error).message}`), { commandResult: { stderr } });
  }
}

/** The key Pulumi marks a secret value with, in a state and in the engine's messages. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/**
 * A stack's outputs, each with whether it is a secret, from its state: one CLI run with no key
 * derived. Only a stack whose outputs hold a secret needs the Automation API's `outputs()`, two
 * more runs, the second of which decrypts.
 */
export async function stackOutputs(stack: Stack): Promise<OutputMap> {
  const { deployment } = (await exportedState(stack.workspace, stack.name)) as { deployment?: { resources?: Array<{ type: string; outputs?: Record<string, unknown> }> } };
  const outputs = deployment?.resources?.find((resource) => resource.type === "pulumi:pulumi:Stack")?.outputs ?? {};
  if (JSON.stringify(outputs).includes(SECRET_SIGNATURE)) return stack.outputs();
  return Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, { value, secret: false }]));
}
