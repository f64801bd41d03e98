/**
 * The foundation: a real Pulumi CLI runs a dynamic resource through the whole lifecycle
 * (preview, up, empty preview, empty refresh, an edit, destroy) on a local file backend.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { createTestStack, type TestStack } from "../support/pulumi.js";
import { isAtLeast, pulumiSdkVersion } from "../support/toolchain.js";

describe("a dynamic resource on the real Pulumi engine", () => {
  let harness: TestStack;

  beforeAll(async () => {
    harness = await createTestStack({ program: "test/programs/greeting", config: { message: { value: "hello" } }, runner: "cli" });
  });
  afterAll(async () => harness?.dispose());

  it("runs on a Pulumi CLI of at least the installed SDK's version", () => {
    const version = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
    console.log(`pulumi version: ${version}`);
    expect(isAtLeast(version, `v${pulumiSdkVersion()}`), version).toBe(true);
  });

  it("previews one resource to create", async () => {
    const preview = await harness.stack.preview();
    expect(preview.changeSummary.create).toBe(2); // the stack and the greeting
  });

  it("creates it on up", async () => {
    // The engine's own output, so the run shows the real CLI at work.
    const up = await harness.stack.up({ onOutput: (line) => process.stdout.write(line) });
    expect(up.summary.resourceChanges?.create).toBe(2);
    expect(up.outputs.length?.value).toBe(5);
  });

  it("previews no changes right after up", async () => {
    const preview = await harness.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary.same).toBe(2);
  });

  it("refreshes without changes", async () => {
    const refresh = await harness.stack.refresh({ expectNoChanges: true });
    expect(refresh.summary.result).toBe("succeeded");
  });

  it("updates in place when an input changes", async () => {
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
