/**
 * The suite's time budget: test/time-budget.json records, for each test file, the seconds of its
 * own time (its tests and hooks, `diagnostic().duration`, on an idle 2-core machine in a whole
 * `npm test`). The summary reporter checks every file of a run against it:
 *
 * - a file whose own time passes twice its recorded figure (or twice the floor, for files
 *   recorded below it, so that small files do not flap) fails the run: a slow test is noticed
 *   when it lands, not a turn later;
 * - a file with no record above the hard limit (60 s) fails the run; a recorded file above it is a
 *   known debt, listed in every summary as over the limit, and held to twice its record;
 * - a file with no record is named, with how to record it; it does not fail the run (a branch
 *   that adds a file cannot know its figure on the idle machine), but the hard limit holds for it.
 *
 * The checks fail the run under CI (`CI=true bash .ci/run`, what the lead times) or with
 * PULUMI_MONITORING_TIME_BUDGET=enforce; elsewhere (a busy machine, one file at a time) they
 * print the same lines as warnings.
 *
 * Every run writes its files' figures to .work/test-times.json. To record them after a whole run
 * on an idle machine:
 *
 *   npm run test:record-times          # copies .work/test-times.json into test/time-budget.json
 *
 * (`node dist/scripts/time-budget.js record`; the figures of files the last run did not run are
 * kept, those of files deleted since are dropped.) test/support/summary-reporter.ts runs the checks.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** test/time-budget.json under the repository's root. */
export const budgetPath = (root: string): string => join(root, "test", "time-budget.json");
/** Where each run leaves its files' figures. */
export const lastRunPath = (root: string): string => join(root, ".work", "test-times.json");
export const recordCommand = "npm run test:record-times";

export interface TimeBudget {
  /** Recorded figures below this count as this: a file may take up to twice it. */
  floorSeconds: number;
  /** No file's own time may pass this, whatever its record. */
  limitSeconds: number;
  /** Seconds of each file's own time, by path from the repository's root. */
  files: Record<string, number>;
}

export interface FileTime {
  /** Path from the repository's root. */
  file: string;
  /** The file's own time: its tests and hooks. */
  seconds: number;
}

export interface BudgetVerdict {
  /** One line per file over its budget or the hard limit: these fail the run. */
  problems: string[];
  /** Files with no record, and how to record them: said, not failed. */
  unrecorded?: string;
  /** Recorded files above the hard limit (known debts): said in every summary, held to twice their record. */
  overLimit?: string;
}

export function readBudget(root: string): TimeBudget {
  return JSON.parse(readFileSync(budgetPath(root), "utf8")) as TimeBudget;
}

/** The files of a run against the budget. */
export function checkBudget(times: readonly FileTime[], budget: TimeBudget): BudgetVerdict {
  const problems: string[] = [];
  const unrecorded: string[] = [];
  const debts: string[] = [];
  for (const { file, seconds } of times) {
    const recorded = budget.files[file];
    if (recorded !== undefined && seconds > budget.limitSeconds) debts.push(`${file} (${seconds.toFixed(1)} s)`);
    // The hard limit holds for a file that comes in without a record; a recorded file is held to twice its record.
    if (seconds > budget.limitSeconds && recorded === undefined) {
      problems.push(`${file} took ${seconds.toFixed(1)} s of its own time, above the limit of ${budget.limitSeconds} s per file: split it or make it lean`);
      continue;
    }
    if (recorded === undefined) {
      unrecorded.push(file);
      continue;
    }
    const allowed = 2 * Math.max(recorded, budget.floorSeconds);
    if (seconds > allowed) {
      problems.push(
        `${file} took ${seconds.toFixed(1)} s of its own time, more than twice its recorded ${recorded.toFixed(1)} s ` +
          `(allowed ${allowed.toFixed(1)} s): make it faster, or, if the time is worth it, record the new figure (${recordCommand})`,
      );
    }
  }
  const overLimit =
    debts.length === 0 ? undefined : `${debts.length} file(s) above the limit of ${budget.limitSeconds} s, still to be made lean: ${debts.join(", ")}`;
  if (unrecorded.length === 0) return { problems, ...(overLimit === undefined ? {} : { overLimit }) };
  return {
    problems,
    ...(overLimit === undefined ? {} : { overLimit }),
    unrecorded:
      `${unrecorded.length === 1 ? "a test file has" : `${unrecorded.length} test files have`} no recorded time in test/time-budget.json: ` +
      `${unrecorded.join(", ")}. Record it after a whole run on an idle machine with \`${recordCommand}\`, or add \`"<file>": <seconds>\` by hand`,
  };
}

/** Whether budget problems fail the run (CI) or only warn (a developer's machine). */
export function budgetEnforced(env: NodeJS.ProcessEnv = process.env): boolean {
  const mode = env["PULUMI_MONITORING_TIME_BUDGET"];
  if (mode === "enforce") return true;
  if (mode === "warn") return false;
  return env["CI"] !== undefined && env["CI"] !== "" && env["CI"] !== "false";
}

export function writeLastRun(root: string, times: readonly FileTime[]): void {
  const path = lastRunPath(root);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ recordedAt: new Date().toISOString(), files: Object.fromEntries(times.map(({ file, seconds }) => [file, round(seconds)])) }, null, 2)}\n`);
}

/** The budget with the last run's figures in place of the recorded ones. */
export function recorded(budget: TimeBudget, lastRun: Record<string, number>): TimeBudget {
  const files = { ...budget.files, ...Object.fromEntries(Object.entries(lastRun).map(([file, seconds]) => [file, round(seconds)])) };
  return { ...budget, files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) };
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}

/** `node dist/scripts/time-budget.js record`: the last run's figures into test/time-budget.json. */
function main(args: string[]): void {
  const root = join(__dirname, "..", "..");
  if (args[0] !== "record") {
    console.error(`usage: node dist/scripts/time-budget.js record   (copies ${lastRunPath(root)} into ${budgetPath(root)})`);
    process.exitCode = 2;
    return;
  }
  let lastRun: { recordedAt: string; files: Record<string, number> };
  try {
    lastRun = JSON.parse(readFileSync(lastRunPath(root), "utf8"));
  } catch {
    console.error(`no figures of a run in ${lastRunPath(root)}: run the suite first (npm test), on an idle machine`);
    process.exitCode = 1;
    return;
  }
  const updated = recorded(readBudget(root), lastRun.files);
  // A file deleted since (merged into another) keeps no figure.
  const budget = { ...updated, files: Object.fromEntries(Object.entries(updated.files).filter(([file]) => existsSync(join(root, file)))) };
  writeFileSync(budgetPath(root), `${JSON.stringify(budget, null, 2)}\n`);
  const count = Object.keys(lastRun.files).length;
  console.log(`recorded ${count} file${count === 1 ? "" : "s"} of the run of ${lastRun.recordedAt} in ${budgetPath(root)}`);
}

if (require.main === module) main(process.argv.slice(2));
