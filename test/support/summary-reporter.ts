/**
 * Ends the run with the ten slowest test files, the run's wall time, the time budget's verdict
 * (scripts/time-budget.ts), then one plain line, `tests: N passed, N failed, N skipped`, that CI
 * reads to tell a run that tested something from one that ran nothing.
 *
 * A file's time in the table is what it cost its worker: importing it (collect), its own setup,
 * and its tests and hooks. The suite's wall time is roughly the sum of these over the workers
 * divided by their number, so the table shows where a faster suite has to come from. The budget
 * guards a file's own time (its tests and hooks): collecting depends on which file of a shared
 * process loads the common modules first, so it is noise for one file.
 */
import { relative } from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { budgetEnforced, checkBudget, readBudget, writeLastRun, type FileTime } from "../../scripts/time-budget.js";

const slowestShown = 10;

export default class SummaryReporter implements Reporter {
  #root = process.cwd();

  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else counts.skipped++;
      }
    }
    console.log(`\n${slowestFilesTable(testModules, this.#root)}`);
    // The Vitest process's own age: loading the config and the files, every worker, the reporters.
    console.log(`\nwall time: ${process.uptime().toFixed(1)} s (Vitest, from its start to the end of the run)`);

    const times = ownTimes(testModules, this.#root);
    writeLastRun(this.#root, times);
    const { problems, unrecorded, overLimit } = checkBudget(times, readBudget(this.#root));
    if (problems.length > 0) {
      const enforced = budgetEnforced();
      console.log(`\ntime budget (test/time-budget.json): ${enforced ? "FAILED" : "warnings (enforced under CI=true)"}`);
      for (const problem of problems) console.log(`  - ${problem}`);
      if (enforced) process.exitCode = 1;
    } else {
      console.log(`\ntime budget (test/time-budget.json): every recorded file of the run within its budget`);
    }
    if (overLimit !== undefined) console.log(`  - ${overLimit}`);
    if (unrecorded !== undefined) console.log(`  - ${unrecorded}`);
    console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}

/** Each file's own time: its tests and hooks, without importing it. */
export function ownTimes(testModules: ReadonlyArray<TestModule>, root: string = process.cwd()): FileTime[] {
  return testModules.map((module) => ({ file: relative(root, module.moduleId), seconds: module.diagnostic().duration / 1000 }));
}

/** The slowest files, slowest first, with the seconds each took and its share of all files' time. */
export function slowestFilesTable(testModules: ReadonlyArray<TestModule>, root: string = process.cwd(), count = slowestShown): string {
  const files = testModules.map((module) => {
    const diagnostic = module.diagnostic();
    const seconds = (diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration) / 1000;
    return { file: relative(root, module.moduleId), seconds, own: diagnostic.duration / 1000 };
  });
  const total = files.reduce((sum, file) => sum + file.seconds, 0);
  const slowest = files.sort((a, b) => b.seconds - a.seconds).slice(0, count);
  const width = Math.max(0, ...slowest.map((file) => file.file.length));
  const lines = slowest.map(
    (file) =>
      `  ${file.file.padEnd(width)}  ${file.seconds.toFixed(1).padStart(7)} s  ${((100 * file.seconds) / (total || 1)).toFixed(0).padStart(3)}%` +
      `  (own ${file.own.toFixed(1)} s)`,
  );
  return [`slowest ${slowest.length} of ${files.length} files (${total.toFixed(1)} s across all files and workers):`, ...lines].join("\n");
}
