/**
 * Ends the run with the ten slowest test files, then one plain line,
 * `tests: N passed, N failed, N skipped`, that CI reads to tell a run that tested something from
 * one that ran nothing.
 *
 * A file's time is what it cost its worker: importing it (collect), its own setup, and its tests
 * and hooks. The suite's wall time is roughly the sum of these over the workers, so the table
 * shows where a faster suite has to come from.
 */
// @ts-nocheck

import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

const slowestShown = 10;

export default class SummaryReporter implements Reporter {
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
    console.log(`\n${slowestFilesTable(testModules)}`);
    console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  }
}

/** The slowest files, slowest first, with the seconds each took and its share of all files' time. */
export function slowestFilesTable(testModules: ReadonlyArray<TestModule>, count = slowestShown): string {
  const files = testModules.map((module) => {
    const diagnostic = module.diagnostic();
    const seconds = (diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration) / 1000;
    return { file: relative(process.cwd(), module.moduleId), seconds };
  });
  const total = files.reduce((sum, file) => sum + file.seconds, 0);
  const slowest = files.sort((a, b) => b.seconds - a.seconds).slice(0, count);
  const width = Math.max(0, ...slowest.map((file) => file.file.length));
  const lines = slowest.map(
    (file) => `  ${file.file.padEnd(width)}  ${file.seconds.toFixed(1).padStart(7)} s  ${((100 * file.seconds) / (total || 1)).toFixed(0).padStart(3)}%`,
  );
  return [`slowest ${slowest.length} of ${files.length} files (${total.toFixed(1)} s across all files and workers):`, ...lines].join("\n");
}
