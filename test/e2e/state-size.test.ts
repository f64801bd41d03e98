/**
 * What a deployment stores per monitor, with limits, so that growth fails here and not in a user's
 * ten-thousand-monitor stack: the serialized provider (the same text for every kind, stored in
 * inputs and outputs), the bytes of a basic `Monitor`'s state entry, and of a `MonitorSet` per monitor.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, type Deployment } from "./support.js";

/** The serializer's fixed wrapping of the one `configure` function and the object around it is most of it. */
const PROVIDER_LIMIT = 600;
/**
 * A basic monitor's whole state entry: its inputs and outputs (two copies of the provider text
 * among them) and what the engine records for any resource (URNs, dependencies, source positions).
 */
const MONITOR_STATE_LIMIT = 3_300;
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

  it("stores one provider text, the same for every kind, under the limit", () => {
    const texts = new Set(resources.filter((resource) => resource.type.includes("monitoring:")).flatMap((resource) => [resource.inputs.__provider, resource.outputs.__provider]));
    expect(texts.size).toBe(1);
    const text = String([...texts][0]);
    console.log(`__provider: ${Buffer.byteLength(text)} B`);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PROVIDER_LIMIT);
  });

  it("keeps a basic monitor's state entry under the limit, with no internal field stored twice", () => {
    const single = ofKind("Monitor");
    const bytes = Buffer.byteLength(JSON.stringify(single));
    console.log(`Monitor state entry: ${bytes} B (inputs and outputs: ${Buffer.byteLength(JSON.stringify([single.inputs, single.outputs]))} B)`);
    expect(bytes).toBeLessThanOrEqual(MONITOR_STATE_LIMIT);
    const internalKeys = (values: Record<string, unknown>) => Object.keys(values).filter((key) => key.startsWith("__") && key !== "__provider");
    expect(internalKeys(single.inputs).filter((key) => internalKeys(single.outputs).includes(key))).toEqual([]);
  });

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
