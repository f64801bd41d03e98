/**
 * `fleet verify`: every stack of the run (clients, the shared stack first unless `--no-shared` or
 * a shard), at most `--parallel` at a time, within the run's rate budget, in one report.
 */
import { runBounded } from "../../provider/concurrency.js";
import type { CommandIO } from "../command/io.js";
import { DEFAULT_TIMEOUT_MS, publishVerifyReport, type VerifySettings, verifyStack } from "../verify/command.js";
import type { VerifyReport } from "../verify/report.js";
import type { FleetProject } from "../project/project.js";
import type { FleetOptions } from "./options.js";
import { stacksAtOnce } from "./runners/budget.js";
import { formatShard } from "./runners/shard.js";
import { type FleetTargets, withSharedBudget } from "./targets.js";

export async function runFleetVerify(options: FleetOptions, project: FleetProject, { clients, shared, budget }: FleetTargets, io: CommandIO): Promise<number> {
  const settings: VerifySettings = { all: options.verifyAll ?? false, alerts: options.alerts ?? false, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  const targets = shared === undefined ? clients : [shared, ...clients];
  const atOnce = stacksAtOnce(options.parallel, targets.length);
  const { result: results } = await withSharedBudget(budget, (address) =>
    runBounded(targets, atOnce, (target) => verifyStack(target.workspace, target.project, target.name, target.label, settings, address)),
  );
  const report: VerifyReport = {
    project: project.name,
    ...(options.shard === undefined ? {} : { shard: formatShard(options.shard) }),
    stacks: results.map((result, index) => (result.status === "fulfilled" ? result.value : { stack: targets[index]!.label, scope: settings.all ? "all" : "last deploy", entries: [], error: "not verified" })),
  };
  return publishVerifyReport(report, { json: options.json, junit: options.junit, cwd: options.cwd }, io);
}
