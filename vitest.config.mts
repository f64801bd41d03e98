import { defineConfig } from "vitest/config";

/**
 * Test files that start a Pulumi engine (the CLI, through the Automation API or not) or install
 * the packed package with npm. Everything else is the `unit` project, `npm run test:unit`, which
 * refuses to start an engine (test/support/pulumi.ts): a new file that needs one belongs here.
 */
const engineFiles = [
  "test/e2e/**/*.test.ts",
  "test/examples/**/*.test.ts",
  "test/foundation/**/*.test.ts",
  "test/import/import-*.test.ts",
  "test/cli/fleet-in-process.test.ts",
  "test/sdk/editor.test.ts",
  "test/docs/snippets.test.ts",
];

export default defineConfig({
  test: {
    // Fails the run, naming what is missing, when the Pulumi CLI, language host or Node is absent.
    globalSetup: ["test/support/toolchain.ts"],
    // End-to-end files drive the real Pulumi CLI; two cores cannot run many of them at once.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // The lifecycle steps inside a file depend on each other and run in order.
    sequence: { concurrent: false },
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // Projects share one pool of workers; files of "engine" are handed out first, the longest
    // first, so that the short unit files fill the end of the run on both workers.
    projects: [
      { extends: true, test: { name: "engine", include: engineFiles } },
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: engineFiles, env: { PULUMI_MONITORING_TEST_PROJECT: "unit" } } },
    ],
  },
});
