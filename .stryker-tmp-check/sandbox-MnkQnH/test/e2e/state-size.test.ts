/**
 * What a deployment costs per monitor, with limits, so that growth fails here and not in a user's
 * ten-thousand-monitor stack: the requests of a basic `Monitor`'s create, and the state bytes of a
 * `MonitorSet` per monitor. The provider text and a basic monitor's state are measured where they
 * take their final form, in the installed package (test/e2e/package.test.ts).
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, type Deployment } from "./support.js";

/** Per monitor of a set of 20: its inputs and outputs, nothing else. */
const SET_STATE_PER_MONITOR_LIMIT = 700;

const basic = (index: number) => ({ name: `bench ${index}`, url: `https://example.com/${index}`, intervalSeconds: 60, regions: ["eu-west-1", "us-east-1"] });

interface StateResource {
  type: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

describe("state per monitor", () => {
  let deployment: Deployment;
  let resources: StateResource[];
  const setSize = 20;

  beforeAll(async () => {
    const declared = [
      { kind: "Monitor", name: "single", args: basic(0) },
      { kind: "MonitorSet", name: "fleet", args: { monitors: Object.fromEntries(Array.from({ length: setSize }, (_, index) => [`m${index}`, basic(index)])) } },
    ];
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: JSON.stringify(declared) } } });
    await deployment.emulator.admin.clearRequestLog();
    await deployment.harness.stack.up();
    resources = (await deployment.harness.stack.exportStack()).deployment.resources as StateResource[];
  });
  afterAll(async () => deployment?.dispose());

  const ofKind = (kind: string) => resources.find((resource) => resource.type.endsWith(`:${kind}`))!;

  it("creates a basic monitor with one request, the create's answer giving its outputs", async () => {
    const log = await deployment.emulator.admin.requestLog();
    expect(log.filter((entry) => entry.method === "POST" && entry.path === "/monitors")).toHaveLength(1);
    expect(log.filter((entry) => entry.path.startsWith(`/monitors/${ofKind("Monitor").id}`))).toEqual([]);
  });

  it("keeps a MonitorSet's state per monitor under the limit", () => {
    const bytes = Buffer.byteLength(JSON.stringify(ofKind("MonitorSet")));
    console.log(`MonitorSet of ${setSize}: ${bytes} B, ${Math.round(bytes / setSize)} B per monitor`);
    expect(bytes / setSize).toBeLessThanOrEqual(SET_STATE_PER_MONITOR_LIMIT);
  });
});
