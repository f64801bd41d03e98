/**
 * A field the program leaves out, changed by hand, is drift until a deploy kept it, then listed by
 * drift as known: a single `Monitor` and a member of a `MonitorSet` alike, through the one path. The
 * provider's methods against the emulator, driven as the engine drives them: create, changes by
 * hand, the deploy (its refresh, diff and update), then drift's own refresh, classified by
 * `findingsOf` exactly as `pulumi-monitoring drift` classifies it. What the provider keeps for it
 * (`__leftOutAsWritten`) causes no diff, survives every refresh unchanged, and goes once the field
 * is back as written or declared. The engine here has no pause wrapper: the deploy puts a pause back
 * (`monitoring:handPauses: putBack`).
 */
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import { findingsOf, type PauseSettings } from "../../cli/drift/changes.js";
import { monitor } from "../../schema/index.js";
import { check, checkGroup } from "../../provider/check.js";
import { diff, diffGroup } from "../../provider/diff.js";
import { ResourceEngine } from "../../provider/engine.js";
import type { HttpMethod } from "../../provider/http/request.js";
import { withLeftOutAsWritten } from "../../provider/left-out.js";
import { monitorSetProvider } from "../../provider/monitor-set.js";
import { monitorSet } from "../../schema/members.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

type Values = Record<string, unknown>;

let engine: ResourceEngine;

const on = useEmulatorWith(providerClientOn);
beforeAll(async () => {
  engine = new ResourceEngine(monitor, () => on.api);
});

const TYPE = (kind: string) => `pulumi-nodejs:dynamic/monitoring:${kind}`;
const urnOf = (kind: string, name: string) => `urn:pulumi:dev::proj::${TYPE(kind)}::${name}`;

/** A refresh step as drift sees it: the state's inputs and outputs, and the outputs the refresh read. */
function refreshStep(kind: string, name: string, inputs: Values, recorded: Values, actual: Values): StepEventMetadata {
  return { op: "same", urn: urnOf(kind, name), type: TYPE(kind), provider: "", old: { id: "x", inputs, outputs: recorded } as never, new: { id: "x", outputs: actual } as never };
}

const PUT_BACK: PauseSettings = { now: Date.now(), handPauses: { rule: "putBack" } };
/** What drift finds in a refresh step: its drift and its known fields. */
const found = (step: StepEventMetadata) => {
  const { drift, known } = findingsOf(step, PUT_BACK);
  return { drift, known };
};

const byHand = async (method: HttpMethod, path: string, body?: Values) => on.api.request(method, path, body === undefined ? {} : { body });

describe("a single Monitor", () => {
  /** `paused: false` declared, `intervalSeconds` left out (the service makes it 60). */
  const declared = { name: "Web", url: "https://example.com", paused: false };
  const inputs = () => {
    const result = check(monitor, { ...declared, __urn: urnOf("Monitor", "web") });
    expect(result.failures).toEqual([]);
    return result.inputs;
  };

  it("drift after the deploy reports no drift, and the kept field as known", async () => {
    const { id, outs: created } = await engine.create(inputs());
    expect(created).not.toHaveProperty("__leftOutAsWritten");
    await byHand("PATCH", `/monitors/${id}`, { name: "Renamed by hand", interval_seconds: 900 });
    await byHand("POST", `/monitors/${id}/pause`);

    // Before the deploy: the rename and the pause put back, the interval kept.
    const before = (await engine.read(id, created)).props!;
    expect(found(refreshStep("Monitor", "web", inputs(), created, before))).toEqual({
      drift: [
        expect.objectContaining({
          paused: { managed: true, nextDeploy: "resumes", rule: "putBack" },
          fields: [
            { field: "intervalSeconds", recorded: 60, actual: 900, declared: false },
            { field: "name", recorded: "Web", actual: "Renamed by hand", declared: true },
          ],
        }),
      ],
      known: [],
    });

    // The deploy: its refresh recorded 900, its update put back the name and resumed the monitor.
    expect(diff(monitor, before, inputs()).changes).toBe(true);
    const { outs: deployed } = await engine.update(id, before, inputs());
    expect(deployed).toMatchObject({ name: "Web", paused: false, intervalSeconds: 900, __leftOutAsWritten: { intervalSeconds: 60 } });

    // Drift's refresh after it: no drift; the interval, changed by hand since the provider wrote it, known.
    const after = (await engine.read(id, deployed)).props!;
    expect(after).toEqual(deployed);
    expect(found(refreshStep("Monitor", "web", inputs(), deployed, after))).toEqual({
      drift: [],
      known: [{ type: "Monitor", name: "web", urn: urnOf("Monitor", "web"), id: "x", field: "intervalSeconds", recorded: 60, actual: 900 }],
    });
    // It changes nothing the next deploy does: no diff, no replacement.
    expect(diff(monitor, after, inputs())).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });

    // Set back by hand to what the provider wrote: nothing left to report, nothing kept.
    await byHand("PATCH", `/monitors/${id}`, { interval_seconds: 60 });
    const restored = (await engine.read(id, after)).props!;
    expect(restored).not.toHaveProperty("__leftOutAsWritten");
    expect(found(refreshStep("Monitor", "web", inputs(), after, restored))).toEqual({ drift: [], known: [] });
    await engine.delete(id, restored);
  });

  it("a field the program comes to declare is written afresh: the kept value goes", async () => {
    const { id, outs: created } = await engine.create(inputs());
    await byHand("PATCH", `/monitors/${id}`, { interval_seconds: 900 });
    const refreshed = (await engine.read(id, created)).props!;
    expect(refreshed).toMatchObject({ intervalSeconds: 900, __leftOutAsWritten: { intervalSeconds: 60 } });

    const news = check(monitor, { ...declared, intervalSeconds: 900, __urn: urnOf("Monitor", "web") }).inputs;
    const { outs } = await engine.update(id, refreshed, news);
    expect(outs).not.toHaveProperty("__leftOutAsWritten");
    expect(found(refreshStep("Monitor", "web", news, outs, (await engine.read(id, outs)).props!))).toEqual({ drift: [], known: [] });
    await engine.delete(id, outs);
  });
});

describe("what is kept, for any object", () => {
  const recorded = { name: "Web", intervalSeconds: 60, regions: ["eu-west-1", "us-east-1"], authPassword: "old", requestHeaders: { a: "1" }, __declaredInputs: ["name", "authPassword"] };

  it.each([
    ["a left-out field that moved: its written value", { intervalSeconds: 900 }, { intervalSeconds: 60 }],
    ["a left-out set in another order: nothing", { regions: ["us-east-1", "eu-west-1"] }, undefined],
    ["a left-out field the service dropped: its written value", { intervalSeconds: undefined }, { intervalSeconds: 60 }],
    ["a left-out field the service added: null, what was written", { dnsServer: "1.1.1.1" }, { dnsServer: null }],
    ["a declared field that moved: nothing (the deploy puts it back)", { name: "Renamed" }, undefined],
    ["a secret that moved: nothing, ever", { requestHeaders: { a: "2" } }, undefined],
  ])("%s", (_case, change, kept) => {
    const outputs = withLeftOutAsWritten(monitor, recorded, { ...recorded, ...change });
    expect(outputs["__leftOutAsWritten"]).toEqual(kept);
  });

  it("an earlier written value is carried on, not the value recorded since", () => {
    const deployed = { ...recorded, intervalSeconds: 900, __leftOutAsWritten: { intervalSeconds: 60 } };
    expect(withLeftOutAsWritten(monitor, deployed, { ...deployed, intervalSeconds: 300 })["__leftOutAsWritten"]).toEqual({ intervalSeconds: 60 });
  });

  it("a field the program stopped declaring was written by the update: nothing kept", () => {
    const cleared = { ...recorded, __declaredInputs: ["name", "authPassword", "intervalSeconds"] };
    expect(withLeftOutAsWritten(monitor, cleared, { ...recorded, intervalSeconds: 300 })).not.toHaveProperty("__leftOutAsWritten");
  });

  it("a new object keeps nothing", () => {
    expect(withLeftOutAsWritten(monitor, undefined, { ...recorded, __leftOutAsWritten: { intervalSeconds: 1 } })).not.toHaveProperty("__leftOutAsWritten");
  });
});

describe("a member of a MonitorSet, through the same path", () => {
  it("drift after the deploy reports the member's kept field as known, no drift; a set nobody touched keeps nothing", async () => {
    const provider = monitorSetProvider(engine, () => ({}));
    const setInputs = () => checkGroup(monitorSet, { monitors: { web: { name: "Web", url: "https://example.com", paused: false }, api: { name: "Api", url: "https://example.com/api" } }, __urn: urnOf("MonitorSet", "fleet") }).inputs;
    const { id, outs: created } = await provider.create(setInputs());
    expect(created).not.toHaveProperty("__leftOutAsWritten");
    const ids = created["ids"] as Record<string, string>;
    expect((await provider.read!(id, created)).props).toEqual(created);

    await byHand("PATCH", `/monitors/${ids.web}`, { interval_seconds: 900 });
    await byHand("POST", `/monitors/${ids.web}/pause`);
    const before = (await provider.read!(id, created)).props!;
    expect(diffGroup(monitorSet, before, setInputs()).changes).toBe(true);
    const { outs: deployed } = await provider.update!(id, before, setInputs());
    expect(deployed["__leftOutAsWritten"]).toEqual({ web: { intervalSeconds: 60 } });

    const after = (await provider.read!(id, deployed)).props!;
    expect(after).toEqual(deployed);
    expect(diffGroup(monitorSet, after, setInputs()).changes).toBe(false);
    expect(found(refreshStep("MonitorSet", "fleet", setInputs(), deployed, after))).toEqual({
      drift: [],
      known: [{ type: "MonitorSet", name: "fleet[web]", urn: urnOf("MonitorSet", "fleet"), id: ids.web, field: "intervalSeconds", recorded: 60, actual: 900 }],
    });
    await provider.delete!(id, after);
  });
});
