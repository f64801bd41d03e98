/**
 * A stack's state as `pulumi stack export` records it, its secrets still encrypted. What the
 * commands read of a state (types, ids, pause windows, overrides, pending operations) holds no
 * secret; without `--show-secrets` the CLI neither derives the passphrase's key nor decrypts
 * anything, which is half of the run's CPU, once per stack of a fleet, and no secret reaches
 * this process in plaintext. (The Automation API's `exportStack` always shows them.)
 */
import type { Deployment, Workspace } from "@pulumi/pulumi/automation";
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
