/**
 * How the drift report classifies what a refresh found about one object, as the report shows it:
 * which fields changed, whether the next deploy puts each back (the program declares it) or keeps
 * it, an object deleted by hand, a pause by hand told apart from the other fields, secrets masked,
 * server outputs and internal properties never drift, and the order of the report.
 */
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { SECRET, byObject, changedFields, driftOf, nameOf, shortType } from "../../cli/drift/changes.js";

/** The one entry a single resource's step gives, or undefined when it has not drifted. */
function driftOne(metadata: StepEventMetadata) {
  const entries = driftOf(metadata);
  expect(entries.length).toBeLessThanOrEqual(1);
  return entries[0];
}

const MONITOR = "pulumi-nodejs:dynamic/monitoring:Monitor";
const urn = (name: string, type = MONITOR) => `urn:pulumi:acme::agency::${type}::${name}`;

/** A refresh step: `op` as the engine reports it, the recorded outputs and the refreshed ones. */
function step(op: string, recorded: Record<string, unknown>, actual: Record<string, unknown> | undefined, type = MONITOR, ids: { old?: string; new?: string } = { old: "m-1", new: "m-1" }): StepEventMetadata {
  return {
    op,
    urn: urn("web", type),
    type,
    provider: "",
    old: { ...(ids.old === undefined ? {} : { id: ids.old }), outputs: recorded } as never,
    ...(actual === undefined ? {} : { new: { ...(ids.new === undefined ? {} : { id: ids.new }), outputs: actual } as never }),
  } as StepEventMetadata;
}

const monitor = { name: "Web", url: "https://example.com", intervalSeconds: 60, paused: false, status: "UP", __declaredInputs: ["name", "url"], __provider: "p" };
const object = { type: "Monitor", name: "web", urn: urn("web"), id: "m-1" };

describe("drift of one object", () => {
  it.each([
    ["a declared field changed: put back", { name: "Renamed" }, [{ field: "name", recorded: "Web", actual: "Renamed", declared: true }]],
    ["a field the program leaves out: kept", { intervalSeconds: 900 }, [{ field: "intervalSeconds", recorded: 60, actual: 900, declared: false }]],
    [
      "several fields, sorted by name",
      { url: "https://example.org", intervalSeconds: 30 },
      [
        { field: "intervalSeconds", recorded: 60, actual: 30, declared: false },
        { field: "url", recorded: "https://example.com", actual: "https://example.org", declared: true },
      ],
    ],
    ["a field removed on the server", { intervalSeconds: undefined }, [{ field: "intervalSeconds", recorded: 60, actual: undefined, declared: false }]],
    ["a nested value that differs", { regions: ["eu-west-1"] }, [{ field: "regions", recorded: undefined, actual: ["eu-west-1"], declared: false }]],
    ["a secret set on the server: masked", { authPassword: "hunter2" }, [{ field: "authPassword", recorded: undefined, actual: SECRET, declared: false }]],
  ])("%s", (_title, change, fields) => {
    expect(driftOne(step("same", monitor, { ...monitor, ...change }))).toEqual({ ...object, drift: "changed", fields });
  });

  it("a secret recorded and removed on the server: the recorded value masked, the absence shown", () => {
    const recorded = { ...monitor, authPassword: "hunter2" };
    expect(driftOne(step("same", recorded, { ...monitor }))?.fields).toEqual([{ field: "authPassword", recorded: SECRET, actual: undefined, declared: false }]);
  });

  it.each([
    ["a server output that moves on", { status: "DOWN" }],
    ["an internal property", { __provider: "q", __declaredInputs: ["name"] }],
    ["an equal nested value in a new object", {}],
  ])("no drift: %s", (_title, change) => {
    expect(driftOne(step("same", monitor, { ...monitor, ...change }))).toBeUndefined();
  });

  it("an object gone from the service is deleted, whatever its outputs", () => {
    expect(driftOne(step("delete", monitor, undefined))).toEqual({ ...object, drift: "deleted", fields: [] });
  });

  it("the id from the refreshed object when the state recorded none, and no id when neither has one", () => {
    expect(driftOne(step("update", monitor, { ...monitor, name: "X" }, MONITOR, { new: "m-2" }))?.id).toBe("m-2");
    const withoutIds = driftOne(step("update", monitor, { ...monitor, name: "X" }, MONITOR, {}));
    expect(withoutIds).toBeDefined();
    expect(withoutIds && "id" in withoutIds).toBe(false);
  });
});

describe("steps that lack a side", () => {
  const base = { urn: urn("web"), type: MONITOR, provider: "" };

  it("no recorded state (an object the stack has not recorded yet): every set input is a change kept", () => {
    const metadata = { ...base, op: "same", new: { id: "m-9", outputs: { name: "Web", paused: false } } } as unknown as StepEventMetadata;
    expect(driftOne(metadata)).toEqual({ ...object, id: "m-9", drift: "changed", fields: [
      { field: "name", recorded: undefined, actual: "Web", declared: false },
      { field: "paused", recorded: undefined, actual: false, declared: false },
    ] });
  });

  it("deleted, with no id recorded: no id shown", () => {
    const metadata = { ...base, op: "delete", old: { outputs: monitor } } as unknown as StepEventMetadata;
    expect(driftOne(metadata)).toEqual({ type: "Monitor", name: "web", urn: urn("web"), drift: "deleted", fields: [] });
  });

  it("no refreshed outputs: every recorded input is a change", () => {
    const metadata = { ...base, op: "same", old: { id: "m-1", outputs: { name: "Web", __declaredInputs: ["name"] } }, new: { id: "m-1" } } as unknown as StepEventMetadata;
    expect(driftOne(metadata)).toEqual({ ...object, drift: "changed", fields: [{ field: "name", recorded: "Web", actual: undefined, declared: true }] });
    const withoutNew = { ...base, op: "same", old: { id: "m-1", outputs: { name: "Web", __declaredInputs: ["name"] } } } as unknown as StepEventMetadata;
    expect(driftOne(withoutNew)?.fields).toEqual([{ field: "name", recorded: "Web", actual: undefined, declared: true }]);
  });
});

describe("a pause made by hand", () => {
  it("the program leaves paused out: flagged as kept, and not listed among the fields", () => {
    expect(driftOne(step("same", monitor, { ...monitor, paused: true, name: "X" }))).toEqual({
      ...object,
      drift: "changed",
      fields: [{ field: "name", recorded: "Web", actual: "X", declared: true }],
      paused: { declared: false },
    });
  });

  it("the program declares paused: false: flagged as put back, and not listed among the fields", () => {
    const declared = { ...monitor, __declaredInputs: ["name", "url", "paused"] };
    expect(driftOne(step("update", declared, { ...declared, paused: true }))).toEqual({ ...object, drift: "changed", fields: [], paused: { declared: true } });
  });

  it("the program declares paused: true and the object is paused: no drift", () => {
    const pausedOnPurpose = { ...monitor, paused: true, __declaredInputs: ["name", "url", "paused"] };
    expect(driftOne(step("same", pausedOnPurpose, pausedOnPurpose))).toBeUndefined();
  });

  it("recorded by an earlier refresh while the program leaves paused out: still flagged", () => {
    const recordedPause = { ...monitor, paused: true };
    expect(driftOne(step("same", recordedPause, recordedPause))).toEqual({ ...object, drift: "changed", fields: [], paused: { declared: false } });
  });

  it("resumed by hand: an ordinary field change, no pause flag", () => {
    const declared = { ...monitor, paused: true, __declaredInputs: ["name", "url", "paused"] };
    expect(driftOne(step("update", declared, { ...declared, paused: false }))).toEqual({
      ...object,
      drift: "changed",
      fields: [{ field: "paused", recorded: true, actual: false, declared: true }],
    });
  });

  it("a paused value that is not true is no pause", () => {
    expect(driftOne(step("same", monitor, { ...monitor, paused: "yes" }))).toEqual({
      ...object,
      drift: "changed",
      fields: [{ field: "paused", recorded: false, actual: "yes", declared: false }],
    });
  });
});

describe("a kind the report does not know", () => {
  it("compares every output but the internal ones as plain JSON, null like absent, and masks nothing", () => {
    const type = "pulumi-nodejs:dynamic/monitoring:Gadget";
    // d and e did not drift: the same list, and the same object in another key order with a key null.
    const same = { recorded: { d: [1, 2], e: { w: 2, x: 1, y: null } }, actual: { d: [1, 2], e: { x: 1, w: 2 } } };
    expect(driftOne(step("same", { a: 1, b: 2, ...same.recorded, __provider: "p" }, { b: 3, c: 4, ...same.actual, __provider: "q" }, type))?.fields).toEqual([
      { field: "a", recorded: 1, actual: undefined, declared: false },
      { field: "b", recorded: 2, actual: 3, declared: false },
      { field: "c", recorded: undefined, actual: 4, declared: false },
    ]);
    expect(changedFields(undefined, { a: 1, b: 2, __provider: "p" }, { b: 3, c: 4, __provider: "q" })).toEqual([
      { field: "a", recorded: 1, actual: undefined, declared: false },
      { field: "b", recorded: 2, actual: 3, declared: false },
      { field: "c", recorded: undefined, actual: 4, declared: false },
    ]);
  });
});

describe("names and order in the report", () => {
  it.each([
    ["pulumi-nodejs:dynamic/monitoring:Monitor", "Monitor"],
    ["monitoring:index/heartbeat:Heartbeat", "Heartbeat"],
    ["Monitor", "Monitor"],
  ])("the kind of %s is %s", (type, kind) => {
    expect(shortType(type)).toBe(kind);
  });

  it("the name is what follows the URN's last ::", () => {
    expect(nameOf("urn:pulumi:acme::agency::pulumi-nodejs:dynamic/monitoring:Monitor::shop::web")).toBe("web");
  });

  it("objects sorted by kind, then by name", () => {
    const entries = [
      { type: "Monitor", name: "b" },
      { type: "Heartbeat", name: "z" },
      { type: "Monitor", name: "a" },
    ].map((entry) => ({ ...entry, urn: "", drift: "changed" as const, fields: [] }));
    expect(entries.sort(byObject).map(({ type, name }) => `${type}/${name}`)).toEqual(["Heartbeat/z", "Monitor/a", "Monitor/b"]);
  });
});
