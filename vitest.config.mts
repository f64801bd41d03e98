import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Fails the run, naming what is missing, when the Pulumi CLI, language host or Node is absent.
    globalSetup: ["test/support/toolchain.ts"],
    // End-to-end files drive the real Pulumi CLI; two cores cannot run many of them at once.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // The lifecycle steps inside a file depend on each other and run in order.
    sequence: { concurrent: false },
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
