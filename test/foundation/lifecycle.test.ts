/**
 * The foundation: a real Pulumi CLI runs a dynamic resource from a program run as `pulumi up`
 * runs it (a language host and a Node.js process per operation), on a local file backend: up of
 * a stack without any configuration (the program's `new pulumi.Config()` reads none), an update in
 * place when a setting is added, destroy, leaving no resource in state.
 *
 * The rest of ProgramTest's lifecycle (a preview, an empty preview, an empty refresh) is
 * test/e2e/lifecycle.test.ts, on every kind, with the program run inline: the engine's steps are
 * the same; where the program runs is what this file proves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { createTestStack, type TestStack } from "../support/pulumi.js";
import { isAtLeast, pulumiSdkVersion } from "../support/toolchain.js";

describe("a dynamic resource on the real Pulumi engine", () => {
  let harness: TestStack;

  beforeAll(async () => {
    harness = await createTestStack({ program: "test/programs/greeting", runner: "cli" });
  });
  afterAll(async () => harness?.dispose());

  it("runs on a Pulumi CLI of at least the installed SDK's version", () => {
    const version = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
    console.log(`pulumi version: ${version}`);
    expect(isAtLeast(version, `v${pulumiSdkVersion()}`), version).toBe(true);
  });

  it("creates it on up, from a stack without configuration", async () => {
    // The engine's own output, so the run shows the real CLI at work.
    const up = await harness.stack.up({ onOutput: (line) => process.stdout.write(line) });
    expect(up.summary.resourceChanges?.create).toBe(2); // the stack and the greeting
    expect(up.outputs.length?.value).toBe(5);
  });

  it("updates in place when a setting changes an input", async () => {
    await harness.stack.setConfig("message", { value: "hello, world" });
    const up = await harness.stack.up();
    expect(up.summary.resourceChanges?.update).toBe(1);
    expect(up.outputs.length?.value).toBe(12);
  });

  it("destroys everything", async () => {
    const destroy = await harness.stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(2);
    const state = JSON.parse(await harness.readStateFile());
    expect(state.checkpoint.latest.resources ?? []).toHaveLength(0);
  });
});
