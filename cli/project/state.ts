/**
 * A stack's state as `pulumi stack export` records it, its secrets still encrypted. What the
 * commands read of a state (types, ids, pause windows, overrides, pending operations) holds no
 * secret; without `--show-secrets` the CLI neither derives the passphrase's key nor decrypts
 * anything, which is half of the run's CPU, once per stack of a fleet, and no secret reaches
 * this process in plaintext. (The Automation API's `exportStack` always shows them.)
 */
import type { Deployment, OutputMap, Stack, Workspace } from "@pulumi/pulumi/automation";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { isRecord } from "../../schema/naming.js";
import { kindOfTypeToken } from "../../schema/type-token.js";

const run = promisify(execFile);

/** One `pulumi stack <verb>` run in the workspace's directory and environment; its standard output. */
async function stackCommand(workspace: Workspace, stack: string, verb: string, args: readonly string[] = []): Promise<string> {
  const env = { ...process.env, ...(workspace.pulumiHome === undefined ? {} : { PULUMI_HOME: workspace.pulumiHome }), ...workspace.envVars };
  try {
    const { stdout } = await run(workspace.pulumiCommand.command, ["stack", verb, "--stack", stack, "--non-interactive", ...args], { cwd: workspace.workDir, env, maxBuffer: Number.POSITIVE_INFINITY });
    return stdout;
  } catch (error) {
    // Shaped as the Automation API's errors, whose CLI output commandErrorMessage (and lockHolderOf) read.
    const stderr = (error as { stderr?: string }).stderr ?? "";
    throw Object.assign(new Error(`pulumi stack ${verb} --stack ${stack} failed: ${stderr.trim() || (error as Error).message}`), { commandResult: { stderr } });
  }
}

export async function exportedState(workspace: Workspace, stack: string): Promise<Deployment> {
  return JSON.parse(await stackCommand(workspace, stack, "export")) as Deployment;
}

/**
 * Writes `state` (an export, edited) as the stack's state: `pulumi stack import`, which takes the
 * stack's lock for the write, so it fails while a deploy holds it. Secrets stay as the export
 * encrypted them; the file lives only for the run, readable by this user alone.
 */
export async function importState(workspace: Workspace, stack: string, state: Deployment): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "pulumi-monitoring-state-"));
  try {
    const file = join(dir, "state.json");
    await writeFile(file, JSON.stringify(state), { mode: 0o600 });
    await stackCommand(workspace, stack, "import", ["--file", file]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A resource of a stack's state, as every command that works from the state reads it. */
export interface StateResource {
  urn: string;
  /** The whole type token (`pulumi-nodejs:dynamic/monitoring:Monitor`, `pulumi:pulumi:Stack`). */
  type: string;
  /** The kind, for this package's resources only (recognised by the whole type token). */
  kind?: string;
  /** The program's name of the resource: what follows the URN's last `::`. */
  name: string;
  id?: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** The outputs the program marked secret, which the state keeps encrypted. */
  additionalSecretOutputs?: string[];
  created?: string;
  modified?: string;
}

/**
 * A resource as the commands that judge a state need it: its URN and type token, and what the state
 * (or a preview's step) records of it. {@link StateResource} is one; so is a resource a program
 * declares, before it has an id or outputs.
 */
export type RecordedResource = Pick<StateResource, "urn" | "type"> & Partial<Pick<StateResource, "id" | "inputs" | "outputs" | "additionalSecretOutputs" | "created" | "modified">>;

/** Every resource of an export (`pulumi stack export`) that has a URN and a type, in the state's order. */
export function stateResources(exported: unknown): StateResource[] {
  const deployment = isRecord(exported) && isRecord(exported["deployment"]) ? exported["deployment"] : undefined;
  const resources = Array.isArray(deployment?.["resources"]) ? deployment["resources"] : [];
  return resources.flatMap((resource: unknown): StateResource[] => {
    if (!isRecord(resource) || typeof resource["urn"] !== "string" || typeof resource["type"] !== "string") return [];
    const { urn, type, id, created, modified, additionalSecretOutputs } = resource;
    const kind = kindOfTypeToken(type);
    return [
      {
        urn,
        type,
        ...(kind === undefined ? {} : { kind }),
        name: urn.slice(urn.lastIndexOf("::") + 2),
        ...(typeof id === "string" && id !== "" ? { id } : {}),
        inputs: isRecord(resource["inputs"]) ? resource["inputs"] : {},
        outputs: isRecord(resource["outputs"]) ? resource["outputs"] : {},
        ...(Array.isArray(additionalSecretOutputs) ? { additionalSecretOutputs: additionalSecretOutputs.filter((name): name is string => typeof name === "string") } : {}),
        ...(typeof created === "string" ? { created } : {}),
        ...(typeof modified === "string" ? { modified } : {}),
      },
    ];
  });
}

/** The resources of this package in an export, each with its kind. */
export function ownResources(exported: unknown): Array<StateResource & { kind: string }> {
  return stateResources(exported).filter((resource): resource is StateResource & { kind: string } => resource.kind !== undefined);
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
