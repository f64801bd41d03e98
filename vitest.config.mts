import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Test files that start a Pulumi engine (the CLI, through the Automation API or not), install
 * the packed package with npm, or type-check the whole repository. Everything else is the `unit`
 * project, `npm run test:unit`, which refuses to start an engine (test/support/pulumi.ts): a new
 * file that needs one belongs here.
 */
const engineFiles = [
  "test/architecture/types.test.ts",
  "test/e2e/**/*.test.ts",
  "test/examples/**/*.test.ts",
  "test/foundation/**/*.test.ts",
  "test/import/import-*.test.ts",
  "test/cli/fleet-in-process.test.ts",
  "test/cli/fleet-rate.test.ts",
  "test/cli/apply-due.test.ts",
  "test/sdk/editor.test.ts",
  "test/docs/snippets.test.ts",
];

/**
 * The longest engine files (the table the reporter prints on a fresh clone), started first: a long file that
 * starts last keeps one worker busy after the other has run out of files. Vitest orders the rest
 * by the durations of earlier runs on this machine, or, on a fresh clone, by file size, which
 * says little about these (the import files are a few lines over a shared scenario).
 */
const longestFirst = [
  "test/examples/agency-fleet.test.ts",
  "test/examples/teams.test.ts",
  "test/examples/lost-runner.test.ts",
  "test/e2e/flaky-service.test.ts",
  "test/e2e/key-rotation.test.ts",
  "test/e2e/package.test.ts",
  "test/examples/scopes-agency.test.ts",
  "test/examples/key-rotation-fleet.test.ts",
  "test/examples/scopes-demo.test.ts",
  "test/examples/scopes-agency-alt.test.ts",
  "test/examples/scopes-fleet.test.ts",
  "test/import/import-alt.test.ts",
  "test/e2e/reconcile.test.ts",
  "test/cli/fleet-in-process.test.ts",
  "test/e2e/pauses.test.ts",
  "test/e2e/pauses-alt.test.ts",
  "test/e2e/monitor-set.test.ts",
  "test/cli/apply-due.test.ts",
  "test/e2e/verify.test.ts",
  // Unit files that mostly wait (leases judged over seconds, Retry-After, timeouts): in the middle
  // of the run the engine files use the cores meanwhile; last, they left them half idle.
  "test/cli/fleet-locks.test.ts",
  "test/http/client.test.ts",
  "test/http/rate-limit.test.ts",
  "test/http/settings-failures.test.ts",
];

/**
 * Unit files that change their process for good (the in-process runner's TypeScript hooks, which
 * cannot be taken back): each runs in a process of its own, while the other files share theirs.
 */
const processWideFiles = ["test/cli/in-process-runner.test.ts"];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = longestFirst.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return index === -1 ? longestFirst.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // Fails the run, naming what is missing, when the Pulumi CLI, language host or Node is absent;
    // then, for `npm run test:e2e` only, starts the emulators the files of the run share.
    globalSetup: ["test/support/toolchain.ts", "test/support/warm-emulators.ts"],
    // Three files at a time on two cores: the waits left in the engine files (a held lock, a
    // Retry-After second, requests held until a runner is killed) leave CPU to a third file, and a
    // fourth only shared the two cores more thinly. Measured on a fresh clone, the same commit:
    // 4 workers 264.1 s with two files above 60 s of their own time (68.6, 65.7); 3 workers
    // 272.8 s with none above 49.
    maxWorkers: 3,
    // The CLI's garbage collector at a quarter of its default pace: each short-lived CLI process
    // then spends about a tenth less CPU (the suite starts over a thousand of them).
    env: { GOGC: "400" },
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // The lifecycle steps inside a file depend on each other and run in order.
    sequence: { concurrent: false, sequencer: LongestFirst },
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // Projects share one pool of workers; files of "engine" are handed out first, the longest
    // first, so that the short unit files fill the end of the run on both workers.
    projects: [
      // Engine files share their worker processes too: each file's own process loaded Vitest,
      // @pulumi/pulumi and this package again, about 0.7 CPU-s a file. An engine file leaves the
      // process as it found it (environment, listeners); test/support/engine-file-setup.ts puts
      // back the working directory.
      { extends: true, test: { name: "engine", include: engineFiles, isolate: false, setupFiles: ["test/support/engine-file-setup.ts"] } },
      // The unit files share their worker processes and module cache (isolate: false), which halves
      // their CPU: most of it was starting a process and loading the same modules for each file. A
      // unit file therefore leaves no global state behind (timers, environment, module state), or
      // is one of processWideFiles.
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...engineFiles, ...processWideFiles], isolate: false, env: { PULUMI_MONITORING_TEST_PROJECT: "unit" } } },
      { extends: true, test: { name: "unit-own-process", include: processWideFiles, env: { PULUMI_MONITORING_TEST_PROJECT: "unit" } } },
    ],
  },
});
