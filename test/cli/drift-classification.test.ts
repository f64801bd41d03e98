/**
 * How the drift report classifies what a refresh found about one object, as the report shows it:
 * which fields changed, whether the next deploy puts each back (the program declares it) or keeps
 * it, a left-out field a deploy already kept (known, no drift) and one changed again (drift), an
 * object deleted by hand, a pause by hand told under `monitoring:handPauses` by the provider's own
 * pause plan, the pauses overrides and windows hold (no drift), secrets masked, server outputs and
 * internal properties never drift, and the order of the report.
 */
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { SECRET, byObject, changedFields, findingsOf, nameOf, type PauseSettings, shortType } from "../../cli/drift/changes.js";

const NOW = Date.parse("2030-01-01T12:00:00Z");
const HOUR = 3_600_000;
const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
/** `monitoring:handPauses` at its default, 4h, at NOW. */
const AT_NOW: PauseSettings = { now: NOW, handPauses: { rule: "for", ms: 4 * HOUR, text: "4h" } };

/** The one entry a single resource's step gives, or undefined when it has not drifted. */
function driftOne(metadata: StepEventMetadata, settings = AT_NOW) {
  const entries = findingsOf(metadata, settings).drift;
  expect(entries.length).toBeLessThanOrEqual(1);
  return entries[0];
}

const MONITOR = "pulumi-nodejs:dynamic/monitoring:Monitor";
const urn = (name: string, type = MONITOR) => `urn:pulumi:acme::agency::${type}::${name}`;

/** A refresh step: `op` as the engine reports it, the recorded outputs and the refreshed ones; the recorded inputs `inputs`. */
function step(
  op: string,
  recorded: Record<string, unknown>,
  actual: Record<string, unknown> | undefined,
  type = MONITOR,
  ids: { old?: string; new?: string } = { old: "m-1", new: "m-1" },
  inputs: Record<string, unknown> = {},
): StepEventMetadata {
  return {
    op,
    urn: urn("web", type),
    type,
    provider: "",
    old: { ...(ids.old === undefined ? {} : { id: ids.old }), inputs, outputs: recorded } as never,
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

/** A refresh step of the monitor `web` whose program declares `inputs` (its `paused`, its `pauses`). */
const declaring = (inputs: Record<string, unknown>, recorded: Record<string, unknown>, actual: Record<string, unknown>) => step("same", recorded, actual, MONITOR, { old: "m-1", new: "m-1" }, inputs);
const managedPause = { ...monitor, __declaredInputs: ["name", "url", "paused"] };

describe("a pause made by hand", () => {
  it("the program leaves paused out: flagged as kept, not managed, and not listed among the fields", () => {
    expect(driftOne(step("same", monitor, { ...monitor, paused: true, name: "X" }))).toEqual({
      ...object,
      drift: "changed",
      fields: [{ field: "name", recorded: "Web", actual: "X", declared: true }],
      paused: { managed: false, nextDeploy: "keeps" },
    });
  });

  it.each([
    ["4h, not seen by a deploy yet: kept, its clock starts at the next deploy's refresh", AT_NOW, undefined, { nextDeploy: "keeps", rule: "4h" }],
    ["4h, seen an hour ago: kept until 3 hours from now", AT_NOW, iso(-HOUR), { nextDeploy: "keeps", rule: "4h", seen: iso(-HOUR), until: iso(3 * HOUR) }],
    ["4h, seen 5 hours ago: resumed", AT_NOW, iso(-5 * HOUR), { nextDeploy: "resumes", rule: "4h", seen: iso(-5 * HOUR), until: iso(-HOUR) }],
    ["90m, seen an hour ago: kept half an hour more", { now: NOW, handPauses: { rule: "for", ms: 90 * 60_000, text: "90m" } }, iso(-HOUR), { nextDeploy: "keeps", rule: "90m", seen: iso(-HOUR), until: iso(HOUR / 2) }],
    ["putBack: resumed", { now: NOW, handPauses: { rule: "putBack" } }, iso(-HOUR), { nextDeploy: "resumes", rule: "putBack", seen: iso(-HOUR) }],
    ["keep: kept, with no end", { now: NOW, handPauses: { rule: "keep" } }, iso(-100 * HOUR), { nextDeploy: "keeps", rule: "keep", seen: iso(-100 * HOUR) }],
  ] as const)("paused: false declared, monitoring:handPauses %s", (_case, settings, seen, expected) => {
    const recorded = { ...managedPause, ...(seen === undefined ? {} : { paused: true, __handPauseSeen: seen }) };
    // The refresh records when it first saw the pause: now, when no refresh of a deploy had.
    const actual = { ...managedPause, paused: true, __handPauseSeen: seen ?? iso(0) };
    // Strictly: a pause not seen yet, or with no end, has no `seen` or `until` at all.
    expect(driftOne(declaring({ paused: false }, recorded, actual), settings as PauseSettings)).toStrictEqual({ ...object, drift: "changed", fields: [], paused: { managed: true, ...expected } });
  });

  it("a record of when the pause was seen that is no instant: told with no start and no end, and what the deploy's plan does (it resumes it)", () => {
    const found = driftOne(declaring({ paused: false }, { ...managedPause, paused: true, __handPauseSeen: 5 }, { ...managedPause, paused: true, __handPauseSeen: 5 }));
    expect(found?.paused).toStrictEqual({ managed: true, nextDeploy: "resumes", rule: "4h" });
  });

  it("pauses declared and no window in force: managed, under the same rule", () => {
    const windows = [{ from: iso(2 * HOUR), to: iso(3 * HOUR), reason: "upgrade" }];
    expect(driftOne(declaring({ pauses: windows }, monitor, { ...monitor, paused: true, __handPauseSeen: iso(0) }))?.paused).toEqual({ managed: true, nextDeploy: "keeps", rule: "4h" });
  });

  it("the program declares paused: true and the object is paused: no drift", () => {
    const pausedOnPurpose = { ...managedPause, paused: true };
    expect(driftOne(declaring({ paused: true }, pausedOnPurpose, pausedOnPurpose))).toBeUndefined();
  });

  it("recorded by an earlier refresh while the program leaves paused out: still flagged", () => {
    const recordedPause = { ...monitor, paused: true };
    expect(driftOne(step("same", recordedPause, recordedPause))).toEqual({ ...object, drift: "changed", fields: [], paused: { managed: false, nextDeploy: "keeps" } });
  });

  it("resumed by hand: an ordinary field change, no pause flag", () => {
    const declared = { ...managedPause, paused: true };
    expect(driftOne(step("update", declared, { ...declared, paused: false }, MONITOR, undefined, { paused: true }))).toEqual({
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

  it("a kind without a pause state is not judged by the pause plan: a paused output is none of its inputs, no drift", () => {
    const recorded = { name: "Ops", __declaredInputs: ["name"] };
    expect(findingsOf(step("same", recorded, { ...recorded, paused: true }, "pulumi-nodejs:dynamic/monitoring:NotificationChannel"), AT_NOW).drift).toEqual([]);
  });
});

describe("pauses an override or a window holds: told, never drift", () => {
  const override = (until: string) => ({ __override: { until, reason: "incident 42", by: "alice", at: iso(-HOUR) } });
  const window = { from: iso(-HOUR), to: iso(HOUR), reason: "Black Friday freeze" };
  const holdOf = (inputs: Record<string, unknown>, recorded: Record<string, unknown>, actual: Record<string, unknown>) => findingsOf(declaring(inputs, recorded, actual), AT_NOW);
  const hold = { ...object, reason: "incident 42", by: "alice" };

  it.each([
    ["an active override, paused: kept", { paused: false }, { paused: true, ...override(iso(HOUR)) }, { ...hold, cause: "override", until: iso(HOUR), nextDeploy: "keeps" }],
    ["an active override resumed by hand: paused again", { paused: false }, { paused: false, ...override(iso(HOUR)) }, { ...hold, cause: "override", until: iso(HOUR), nextDeploy: "pauses" }],
    ["a window in force, paused: kept", { pauses: [window] }, { paused: true }, { ...object, cause: "window", reason: "Black Friday freeze", until: iso(HOUR), nextDeploy: "keeps" }],
    ["a window in force, not paused yet: paused", { pauses: [window] }, { paused: false }, { ...object, cause: "window", reason: "Black Friday freeze", until: iso(HOUR), nextDeploy: "pauses" }],
    ["an override that has ended, paused: resumed", { paused: false }, { paused: true, ...override(iso(-1)) }, { ...hold, cause: "ended override", until: iso(-1), nextDeploy: "resumes" }],
    ["an override that has ended, resumed already: the record dropped", { paused: false }, { paused: false, ...override(iso(-1)) }, { ...hold, cause: "ended override", until: iso(-1), nextDeploy: "leaves" }],
    ["an override that has ended while the program declares paused: true: kept", { paused: true }, { paused: true, ...override(iso(-1)) }, { ...hold, cause: "ended override", until: iso(-1), nextDeploy: "keeps" }],
  ] as const)("%s", (_case, inputs, state, expected) => {
    const recorded = { ...managedPause, paused: true, ...("__override" in state ? { __override: state.__override } : {}) };
    expect(holdOf(inputs, recorded, { ...managedPause, ...state })).toEqual({ drift: [], known: [], holds: [expected] });
  });

  it("the override's pause state is the hold's: a resume by hand is not also a field, other fields still drift", () => {
    const recorded = { ...managedPause, paused: true, ...override(iso(HOUR)) };
    const found = holdOf({ paused: false }, recorded, { ...recorded, paused: false, name: "X" });
    expect(found.drift).toEqual([{ ...object, drift: "changed", fields: [{ field: "name", recorded: "Web", actual: "X", declared: true }] }]);
    expect(found.holds).toHaveLength(1);
  });

  it("a set's member: its own inputs, override and window, by key", () => {
    const SET = "pulumi-nodejs:dynamic/monitoring:MonitorSet";
    const member = { name: "Api", url: "https://example.com", paused: true };
    const recorded = { ids: { api: "m-a", web: "m-w" }, monitors: { api: member, web: member }, __declaredInputs: { api: ["name", "url", "paused"], web: ["name", "url"] }, __override: { api: override(iso(HOUR)).__override } };
    const inputs = { monitors: { api: { name: "Api", url: "https://example.com", paused: false }, web: { name: "Web", url: "https://example.com", pauses: [window] } } };
    const found = findingsOf({ op: "same", urn: urn("fleet", SET), type: SET, provider: "", old: { id: "s-1", inputs, outputs: recorded }, new: { id: "s-1", outputs: recorded } } as never, AT_NOW);
    expect(found.drift).toEqual([]);
    expect(found.holds.map(({ name, id, cause }) => [name, id, cause])).toEqual([
      ["fleet[api]", "m-a", "override"],
      ["fleet[web]", "m-w", "window"],
    ]);
  });
});

describe("a left-out field changed by hand, and a deploy that kept it", () => {
  const written = { ...monitor, intervalSeconds: 900, __leftOutAsWritten: { intervalSeconds: 60 } };

  it.each([
    ["changed by hand, no deploy since: drift", monitor, { ...monitor, intervalSeconds: 900 }, { drift: [{ field: "intervalSeconds", recorded: 60, actual: 900, declared: false }], known: [] }],
    ["recorded by a deploy's refresh: known, no drift", written, written, { drift: [], known: [{ ...object, field: "intervalSeconds", recorded: 60, actual: 900 }] }],
    ["changed again by hand after the deploy: drift again", written, { ...written, intervalSeconds: 300 }, { drift: [{ field: "intervalSeconds", recorded: 60, actual: 300, declared: false }], known: [] }],
    ["set back to what the provider wrote: nothing", written, { ...written, intervalSeconds: 60 }, { drift: [], known: [] }],
  ] as const)("%s", (_case, recorded, actual, expected) => {
    const found = findingsOf(step("same", recorded, actual), AT_NOW);
    expect(found.drift.flatMap((entry) => entry.fields)).toEqual(expected.drift);
    expect(found.known).toEqual(expected.known);
  });

  it("a known field beside a declared one changed by hand: the object drifts for the declared one alone", () => {
    const found = findingsOf(step("same", written, { ...written, name: "X" }), AT_NOW);
    // Strictly: no pause state told, no hold.
    expect(found.drift).toStrictEqual([{ ...object, drift: "changed", fields: [{ field: "name", recorded: "Web", actual: "X", declared: true }] }]);
    expect(found.holds).toEqual([]);
    expect(found.known.map((known) => known.field)).toEqual(["intervalSeconds"]);
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
