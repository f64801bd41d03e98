/**
 * The tests Stryker runs against each mutant (`npm run test:mutation`, stryker.config.mjs): the
 * files of the `unit` project of vitest.config.mts, which start no Pulumi engine, in one project.
 * The include and exclude lists are read from that project, so a file moved to the engine files
 * there leaves this run too. The toolchain check (globalSetup) is left out: none of these files
 * needs the Pulumi CLI.
 */
import { defineConfig } from "vitest/config";
import suite from "./vitest.config.mts";

/**
 * Unit files that cannot run on Stryker's instrumented code: they declare resources (under Pulumi's
 * mock monitor) or serialize the provider, and Pulumi's closure serializer, which walks every
 * function's scope through the inspector, never finishes once every function carries Stryker's
 * counters. They cover the SDK's classes and the serialized provider, none of the mutated rules alone.
 */
const notUnderMutation = [
  "test/components/client-monitoring.test.ts",
  "test/sdk/resources.test.ts",
  "test/provider/serialized.test.ts",
  "test/yaml/load.test.ts",
];

/**
 * Unit files that reach none of the mutated files and whose timing fails now and then on a machine
 * busy with Stryker's sandboxes, which stops the whole run at its first test run: the emulator's
 * own tests (the emulator imports nothing of the provider or schema/), the fleet's locks on
 * PostgreSQL, which race processes against each other, and the provider's load cost, measured in a
 * process of its own on the built code.
 */
const reachNoMutant = ["test/emulator/**", "test/cli/fleet-locks.test.ts", "test/provider/host-load.test.ts"];

/**
 * Unit files whose tests are steps of one story, each on the state the steps before it left:
 * Stryker runs only the tests that cover a mutant (vitest's testNamePattern), so a later step would
 * run without the earlier ones and fail for want of their objects, a "kill" that proves nothing.
 */
const stepsOfOneStory = ["test/provider/every-kind-alt.test.ts"];

/**
 * Unit files that load the provider afresh inside a test, as a new provider process would (one
 * configure, one instant, per process): every module's load-time code then runs under that test,
 * so Stryker would count each static mutant (a constant list of the kinds' rules) as covered by it
 * and judge it by that test alone, which cannot kill it. They prove the provider's process-wide
 * state, none of the mutated rules.
 */
const loadTheProviderAfresh = ["test/provider/run-instant.test.ts", "test/provider/settings-now.test.ts"];

type Project = { test?: { name?: string; include?: string[]; exclude?: string[]; env?: Record<string, string> } };
const projects = (suite.test?.projects ?? []) as Project[];
const unit = projects.find((project) => project.test?.name === "unit")?.test;
if (unit?.include === undefined) throw new Error("vitest.config.mts has no `unit` project to take the fast test files from");

export default defineConfig({
  test: {
    include: unit.include,
    exclude: [...(unit.exclude ?? []), ...notUnderMutation, ...reachNoMutant, ...stepsOfOneStory, ...loadTheProviderAfresh],
    env: { ...suite.test?.env, ...unit.env },
    testTimeout: suite.test?.testTimeout,
    hookTimeout: suite.test?.hookTimeout,
    sequence: { concurrent: false },
    // Like the unit project, the files share their worker's module cache: Stryker switches a
    // mutant on while tests run (code that runs only while modules load is left out, see
    // stryker.config.mjs `ignoreStatic`), so loading the kinds' definitions once per worker
    // changes no result and saves most of each mutant's run.
    isolate: false,
  },
});
