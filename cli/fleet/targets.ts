/**
 * What every fleet verb that runs stacks starts from: the stacks of this run (clients, and the
 * shared stack unless `--no-shared` or a shard leaves it to a run of its own) and this runner's
 * rate budget, its token server started for the run and its address passed on.
 */
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { UsageError } from "../command/usage.js";
import { type FleetProject, readProject } from "../project/project.js";
import { fleetWorkspace } from "../project/workspace.js";
import type { FleetOptions } from "./options.js";
import { type BudgetUse, runnerBudget, startSharedBudget } from "./runners/budget.js";

/** A stack to run: where it lives and how it is shown (the shared stack as `<project>/<stack>`). */
export interface StackTarget {
  label: string;
  name: string;
  role: "shared" | "client";
  project: FleetProject;
  workspace: LocalWorkspace;
}

export interface FleetTargets {
  clients: StackTarget[];
  /** The shared stack, when this run runs it. */
  shared: StackTarget | undefined;
  /** The project's shared stack, run or not, when asked for: its outputs go to the clients. */
  sharedSource: StackTarget | undefined;
  /** This runner's rate budget (requests per second), if the project or `--max-rps` sets one. */
  budget: number | undefined;
}

/**
 * The stacks `clientNames` (this runner's share) and the shared stack, or a usage error when there
 * is nothing to run. `passOutputs`: the verb runs programs, which read the shared stack's outputs.
 */
export async function fleetTargets(
  options: FleetOptions,
  project: FleetProject,
  workspace: LocalWorkspace,
  clientNames: readonly string[],
  { passOutputs = false } = {},
): Promise<FleetTargets> {
  const { shard, sharedOnly } = options;
  if (sharedOnly && project.shared === undefined) throw new UsageError("--shared-only: Pulumi.yaml names no shared stack (fleet.shared)");
  const clients: StackTarget[] = sharedOnly ? [] : clientNames.map((name) => ({ label: name, name, role: "client", project, workspace }));
  // --no-shared leaves the shared stack out of the run, not its outputs out of the clients. A
  // shard leaves it to the run of its own that comes before the shards (--shared-only).
  const runsShared = options.shared && shard === undefined;
  const sharedSource = project.shared !== undefined && (runsShared || passOutputs) ? await sharedTarget(project) : undefined;
  const shared = runsShared ? sharedSource : undefined;
  // A shard may hold no stack of a small project: its runner reports an empty share.
  if (clients.length === 0 && shared === undefined && shard === undefined) throw new UsageError("no stack to run: the selection is empty");
  return { clients, shared, sharedSource, budget: budgetOfRun(options, project) };
}

async function sharedTarget(project: FleetProject): Promise<StackTarget> {
  const shared = project.shared!;
  const sharedProject = await readProject(shared.dir);
  return { label: `${sharedProject.name}/${shared.stack}`, name: shared.stack, role: "shared", project: sharedProject, workspace: await fleetWorkspace(shared.dir) };
}

/** This runner's rate budget: `--shard-rps`, else its share of `--max-rps` or the project's `fleet.budget`. */
export function budgetOfRun(options: FleetOptions, project: FleetProject): number | undefined {
  return runnerBudget(options.maxRps ?? project.budget, options.shard?.count, options.shardRps);
}

/**
 * The budget of a run whose project sets none: high enough never to slow it, since its token
 * server is there to count the requests.
 */
export const COUNTING_BUDGET = 1000;

/**
 * Runs `work` within the rate budget `budget` (none: without a token server): the server runs
 * for its length, `work` gets its address to hand on, and what was spent comes back with the result.
 */
export async function withSharedBudget<T>(budget: number | undefined, work: (address: string | undefined) => Promise<T>): Promise<{ result: T; use?: BudgetUse }> {
  if (budget === undefined) return { result: await work(undefined) };
  const server = await startSharedBudget(budget);
  const outcome = await work(server.address).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  const use = await server.close();
  if ("error" in outcome) throw outcome.error;
  return { result: outcome.result, use };
}
