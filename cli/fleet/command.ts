/**
 * `pulumi-monitoring fleet <verb>`: one verb over the client stacks of a project (and its shared
 * stack). This module picks the stacks and hands them to the verb: stacks/run.ts runs Pulumi
 * operations, cli/drift/fleet-drift.ts checks drift, verify.ts verifies, scopes.ts computes and checks scopes, cli/apply-due/ applies what is due, init.ts creates stacks; `list` and `report merge` are answered here.
 */
import type { LocalWorkspace, StackSummary } from "@pulumi/pulumi/automation";
import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { joinedValues } from "../command/args.js";
import { type Command, defineCommand } from "../command/command.js";
import { EXIT } from "../command/exit.js";
import type { CommandIO } from "../command/io.js";
import { UsageError } from "../command/usage.js";
import { type FleetProject, readProject } from "../project/project.js";
import { selectStacks } from "../project/select.js";
import { fleetWorkspace } from "../project/workspace.js";
import { exitCodeOf, type FleetReport, mergeReports } from "../report/fleet.js";
import { renderDriftMarkdown } from "../report/markdown.js";
import { renderTable } from "../report/table.js";
import { applyDue } from "../apply-due/run.js";
import { runFleetDrift } from "../drift/fleet-drift.js";
import { initClients } from "./init.js";
import { runFleetOverrides } from "../overrides/fleet.js";
import { VALUED_OPTIONS } from "../overrides/request.js";
import { FLEET_OPTIONS, type FleetOptions, fleetOptionsOf, isCheckedVerb, isOverrideVerb, usageFor } from "./options.js";
import { explainListingCrash, refuseCollidingNames } from "./runners/backend.js";
import { stacksAtOnce } from "./runners/budget.js";
import { shardMatrix, stacksOfShard } from "./runners/shard.js";
import { FleetRun } from "./stacks/run.js";
import { fleetTargets } from "./targets.js";
import { checkScopesBefore, runFleetScopes } from "./scopes.js";
import { runFleetVerify } from "./verify.js";

const fleetCommand = defineCommand({
  name: "fleet",
  usage: usageFor,
  options: FLEET_OPTIONS,
  positionals: true,
  hint: "Run `pulumi-monitoring fleet --help` for the commands and options.",
  run: (line, io) => runFleet(fleetOptionsOf(line, process.cwd()), io),
});

/** `--for -1h` reaches its rule rather than being taken for an option. */
export const fleet: Command = { run: (argv, io) => fleetCommand.run(joinedValues(argv, VALUED_OPTIONS), io) };

/** Runs a fleet verb with its options parsed (`drift` runs one for its stack) and returns the exit status. */
export async function runFleet(options: FleetOptions, io: CommandIO): Promise<number> {
  if (options.command === "report") return mergeReportFiles(options, io);
  const project = await readProject(options.cwd);
  const workspace = await fleetWorkspace(project.dir);
  if (options.command === "init") return (await initClients(options, project, workspace, io.stdout)) ? EXIT.ok : EXIT.failed;

  await refuseCollidingNames(project, workspace);
  const listed = await stacksOf(workspace);
  const summaries = clientStacksOf(project, listed);
  const allClients = summaries.map((stack) => stack.name);
  const selected = selectStacks(allClients, options.stacks, options.exclude);
  if (options.command === "list" && options.shards !== undefined) {
    const matrix = shardMatrix(selected, options.shards);
    io.stdout.write(options.json ? `${JSON.stringify({ include: matrix })}\n` : matrix.map((entry) => `${entry.shard}  ${entry.stacks}\n`).join(""));
    return EXIT.ok;
  }
  const clients = options.shard === undefined ? selected : stacksOfShard(selected, options.shard);
  if (options.command === "list") {
    io.stdout.write(options.json ? `${JSON.stringify({ include: clients.map((stack) => ({ stack })) })}\n` : clients.map((stack) => `${stack}\n`).join(""));
    return EXIT.ok;
  }
  if (isOverrideVerb(options.command)) return runFleetOverrides(options.command, options, project.dir, clients, io);
  if (options.command === "verify") return runFleetVerify(options, project, await fleetTargets(options, project, workspace, clients), io);
  if (options.command === "apply-due") {
    const { clients: targets, shared, budget } = await fleetTargets(options, project, workspace, clients);
    const all = shared === undefined ? targets : [shared, ...targets];
    return applyDue(all, { atOnce: stacksAtOnce(options.parallel, all.length), budget, waitLockMs: options.waitLockMs ?? 0, json: options.json }, io);
  }
  if (options.command === "scopes") return runFleetScopes(options, await fleetTargets(options, project, workspace, clients), io);
  const targets = await fleetTargets(options, project, workspace, clients, { passOutputs: true });
  if (options.checkScopes && isCheckedVerb(options.command)) {
    const refused = await checkScopesBefore(options.command, options, targets, io);
    if (refused !== undefined) return refused;
  }
  if (options.command === "drift") return runFleetDrift(options, project, workspace, targets, listed, io);
  return new FleetRun(options, options.command, project, workspace, io).run(targets, sharedDestroyBlocker(options, clients, summaries));
}

/** Every stack of the project's backend, listed once per command. */
async function stacksOf(workspace: LocalWorkspace): Promise<StackSummary[]> {
  try {
    return await workspace.listStacks();
  } catch (error) {
    throw explainListingCrash(error) ?? error;
  }
}

/** The project's stacks in name order, without the shared one when it lives in the same project. */
function clientStacksOf(project: FleetProject, stacks: readonly StackSummary[]): StackSummary[] {
  const sharedHere = project.shared !== undefined && project.shared.dir === project.dir;
  return stacks.filter((stack) => !(sharedHere && basename(stack.name) === project.shared?.stack)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Why a destroy must leave the shared stack alone, if it must: the client stacks use what it holds,
 * so it goes only in a run that destroys every one of them, or alone once none holds resources.
 */
function sharedDestroyBlocker(options: FleetOptions, clients: readonly string[], all: readonly StackSummary[]): string | undefined {
  if (options.sharedOnly) {
    const holding = all.filter((stack) => (stack.resourceCount ?? 0) > 0).map((stack) => stack.name);
    return holding.length === 0 ? undefined : `client stacks still hold resources: ${holding.join(", ")}`;
  }
  return clients.length === all.length ? undefined : "destroyed only together with every client stack of the project (--stack/--exclude/--shard left some out)";
}

/** `fleet report merge FILE...`: the reports of several runners as one table and one exit status. */
async function mergeReportFiles(options: FleetOptions, io: CommandIO): Promise<number> {
  const files = await Promise.all(
    (options.reports ?? []).map(async (file) => {
      const path = resolve(options.cwd, file);
      try {
        return { file, report: JSON.parse(await readFile(path, "utf8")) as FleetReport };
      } catch (error) {
        throw new Error(`${file}: not a fleet --json report (${(error as Error).message})`);
      }
    }),
  );
  const report = mergeReports(files);
  if (options.markdown && report.verb !== "drift") throw new UsageError(`--markdown is for drift reports; these report ${report.verb}`);
  io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : options.markdown ? renderDriftMarkdown(report) : renderTable(report));
  return exitCodeOf(report);
}
