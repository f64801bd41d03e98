/**
 * `fleet pause|resume|overrides --stack GLOB --resource GLOB`: the override commands across client
 * stacks, for a maintenance several clients share. Every selected stack's state is read and every
 * request checked first, so a refused command writes nothing; then the stacks run at most
 * `--parallel` at a time, each with its calls and one write of its state for all the objects it
 * matches (cli/overrides/writes.ts), their requests paced together by the fleet's budget and
 * counted; each object gets its line in the report, and the run ends with the requests sent beside
 * the minimum, one call per object.
 */
import { runBounded } from "../../provider/concurrency.js";
import { EXIT } from "../command/exit.js";
import type { CommandIO } from "../command/io.js";
import { UsageError } from "../command/usage.js";
import type { FleetOptions } from "../fleet/options.js";
import { stacksAtOnce } from "../fleet/runners/budget.js";
import { budgetOfRun, COUNTING_BUDGET, withSharedBudget } from "../fleet/targets.js";
import { requestsBesideMinimum } from "../report/requests.js";
import { readProject } from "../project/project.js";
import { globToRegExp } from "../project/select.js";
import { type OverridesDone, pauseChange, recordOverrides, renderOverrides, resumeChange, rowName } from "./command.js";
import { overridesInState } from "./records.js";
import { actorOf, pauseAsked } from "./request.js";
import { readStackState, type StackState } from "./run.js";
import { matchingTargets, type OverrideTarget } from "./targets.js";
import type { PauseChange } from "./writes.js";

export type OverrideVerb = "pause" | "resume" | "overrides";

interface StackWork {
  stack: string;
  changes: PauseChange[];
}

export async function runFleetOverrides(verb: OverrideVerb, options: FleetOptions, dir: string, stacks: readonly string[], io: CommandIO): Promise<number> {
  const globs = options.resources ?? (verb === "overrides" ? ["*"] : []);
  if (globs.length === 0) throw new UsageError(`fleet ${verb} needs --resource GLOB (web, fleet[*], *): which objects of each stack`);
  const asked = verb === "pause" ? pauseAsked(options.pause ?? {}) : undefined;
  const atOnce = stacksAtOnce(options.parallel, stacks.length);
  const project = await readProject(dir);
  const states = await runBounded(stacks, atOnce, (stack) => readStackState(project, stack, io.env));
  const read = stacks.map((stack, index) => {
    const state = states[index];
    if (state?.status !== "fulfilled") throw new Error(`stack ${stack}: its state could not be read: ${state?.status === "rejected" ? (state.reason as Error).message : "not read"}`);
    return { stack, state: state.value };
  });
  if (verb === "overrides") {
    const listed = read.map(({ stack, state }) => ({ stack, rows: overridesInState(state.exported, state.now).filter((row) => globs.some((glob) => globToRegExp(glob).test(rowName(row)))) }));
    io.stdout.write(options.json ? `${JSON.stringify({ stacks: listed.map(({ stack, rows }) => ({ stack, overrides: rows })) }, null, 2)}\n` : renderOverrides(listed));
    return EXIT.ok;
  }
  const by = await actorOf(io.env, dir);
  const work: StackWork[] = read.map(({ stack, state }) => ({
    stack,
    changes: targetsOf(verb, state, globs).map((target) => (asked === undefined ? resumeChange(state, stack, target.name) : pauseChange(state, stack, target.name, asked, by))),
  }));
  if (work.every((entry) => entry.changes.length === 0)) {
    throw new UsageError(`--resource ${globs.join(", ")} matches no ${verb === "resume" ? "object with an override" : "monitor, heartbeat or set member"} in the selected stacks (${stacks.join(", ")})`);
  }
  const { result: results, use } = await withSharedBudget(budgetOfRun(options, project) ?? COUNTING_BUDGET, (address) =>
    runBounded(work, atOnce, async ({ stack, changes }) => (changes.length > 0 ? recordOverrides(project, stack, changes, address) : { lines: [] as string[] }) as Promise<OverridesDone> | OverridesDone),
  );
  let failed = 0;
  results.forEach((result, index) => {
    const { stack, changes } = work[index] as StackWork;
    if (changes.length === 0) io.stdout.write(`${stack}: nothing matches --resource ${globs.join(", ")}\n`);
    else if (result.status === "fulfilled") {
      io.stdout.write(result.value.lines.map((line) => `${stack}: ${line}\n`).join(""));
      if (result.value.failure !== undefined) {
        failed++;
        io.stdout.write(`${stack}: FAILED: ${result.value.failure}\n`);
      }
    } else {
      failed++;
      io.stdout.write(`${stack}: FAILED: ${result.status === "rejected" ? (result.reason as Error).message : "not run"}\n`);
    }
  });
  const minimum = work.reduce((sum, entry) => sum + entry.changes.filter((change) => change.write !== undefined).length, 0);
  io.stdout.write(`\n${requestsBesideMinimum(use?.granted ?? 0, minimum, "one call per object")}\n`);
  return failed === 0 ? EXIT.ok : EXIT.failed;
}

/** The objects of a stack the globs match: for resume, those with an override recorded. */
function targetsOf(verb: OverrideVerb, state: StackState, globs: readonly string[]): OverrideTarget[] {
  const matched = new Map<string, OverrideTarget>();
  for (const glob of globs) for (const target of matchingTargets(state.exported, glob)) matched.set(target.name, target);
  if (verb === "pause") return [...matched.values()];
  const withOverride = new Set(overridesInState(state.exported, state.now).map(rowName));
  return [...matched.values()].filter((target) => withOverride.has(target.name));
}
