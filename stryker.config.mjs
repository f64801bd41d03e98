// @ts-check
/**
 * Mutation testing of the code that decides what a deploy does (`npm run test:mutation`,
 * docs/testing.md): Stryker changes one operator, condition or string at a time in the files of
 * `mutate` and runs the fast tests (vitest.mutation.config.mts) against each change; a change no
 * test notices is a rule no test proves. Incremental: results of unchanged code and tests are taken
 * from the committed baseline, test/mutation/stryker-incremental.json.
 */
import targets from "./dist/scripts/mutation-targets.js";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.mts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: targets.mutatePatterns(import.meta.dirname),
  coverageAnalysis: "perTest",
  // A mutant in code that runs while modules load (the kinds' definitions are built at import)
  // would need every fast test, minutes each, instead of the tests that cover it. One that a test
  // also runs is tested by those tests; one that only module loading runs (a known value's
  // spelling, a description) is left out and counted apart ("static" in the scores' table).
  ignoreStatic: true,
  incremental: true,
  incrementalFile: "test/mutation/stryker-incremental.json",
  // Two cores shared with others: one sandbox at a time by default (`--concurrency 2` on an idle machine).
  concurrency: 1,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, skipFull: false },
  thresholds: { high: 90, low: 85, break: 90 },
  timeoutMS: 10_000,
  // The first run of every fast test, with coverage, on a busy machine.
  dryRunTimeoutMinutes: 20,
  tempDirName: ".stryker-tmp",
  // dist stays: some fast tests run the built CLIs (their --help, exit codes).
  ignorePatterns: [".stryker-tmp*", ".work", ".pulumi-state", "reports", "examples/**/node_modules"],
  cleanTempDir: "always",
  // No type checker runs, and the @ts-nocheck Stryker would add breaks the tests that compare generated files.
  disableTypeChecks: false,
};
