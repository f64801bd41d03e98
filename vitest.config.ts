import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end files drive the real Pulumi CLI; two cores cannot run many of them at once.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 600_000,
    reporters: ["default"],
  },
});
