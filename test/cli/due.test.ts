/**
 * The pauses and resumes due in a stack's exported state (cli/apply-due/due.ts): what `apply-due`
 * sends and records. From the state alone: the windows its inputs record, the override and hand
 * pause its outputs record, against the pause state the outputs record; a single object and a
 * set's member; an override that has ended is dropped even when no call is due.
 */
import { describe, expect, it } from "vitest";
import { dueInState } from "../../cli/apply-due/due.js";

const TYPE = "pulumi-nodejs:dynamic/monitoring:";
const urnOf = (kind: string, name: string) => `urn:pulumi:prod::shop::${TYPE}${kind}::${name}`;
const T = Date.parse("2030-11-28T20:00:00Z");
const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();
const FOUR_HOURS = { rule: "for", ms: 4 * 3_600_000, text: "4h" } as const;
const window = [{ from: at(60), to: at(180), reason: "database upgrade" }];
const override = { until: at(120), reason: "incident 42", by: "alice", at: at(0) };

const single = (inputs: object, outputs: object) => ({ urn: urnOf("Monitor", "web"), type: `${TYPE}Monitor`, id: "w1", inputs, outputs: { name: "Web", ...outputs } });
/** What a change says: the object, the call (`write`) and the records it keeps, and why. */
const said = (changes: ReturnType<typeof dueInState>) =>
  changes.map(({ target, write, override, handPauseSeen, reason }) => ({ object: target.name, ...(write === undefined ? {} : { write }), ...(override === undefined ? {} : { override }), ...(handPauseSeen === undefined ? {} : { handPauseSeen }), reason }));
const stateOf = (...resources: object[]) => ({ version: 3, deployment: { resources } });

describe("dueInState", () => {
  it.each([
    { case: "before a window", minutes: 30, resource: single({ pauses: window }, { paused: false }), due: [] },
    { case: "a window started", minutes: 65, resource: single({ pauses: window }, { paused: false }), due: [{ write: true, reason: "database upgrade" }] },
    { case: "inside a window, paused", minutes: 90, resource: single({ pauses: window }, { paused: true }), due: [] },
    { case: "a window ended", minutes: 185, resource: single({ pauses: window }, { paused: true }), due: [{ write: false, reason: "active" }] },
    { case: "an override active", minutes: 60, resource: single({ paused: false }, { paused: true, __override: override }), due: [] },
    { case: "an override ended", minutes: 125, resource: single({ paused: false }, { paused: true, __override: override }), due: [{ write: false, reason: "declared" }] },
    { case: "an override ended, resumed by hand since: only the record goes", minutes: 125, resource: single({}, { paused: false, __override: override }), due: [{ reason: "active" }] },
    { case: "an override ended under a declared pause: only the record goes", minutes: 125, resource: single({ paused: true }, { paused: true, __override: override }), due: [{ reason: "declared" }] },
    { case: "a hand pause's 4h ended", minutes: 250, resource: single({ paused: false }, { paused: true, __handPauseSeen: at(0) }), due: [{ write: false, reason: "declared" }] },
    { case: "a hand pause within its 4h", minutes: 200, resource: single({ paused: false }, { paused: true, __handPauseSeen: at(0) }), due: [] },
    { case: "an unmanaged pause state", minutes: 65, resource: single({}, { paused: true }), due: [] },
    { case: "an override active, resumed by hand since", minutes: 60, resource: single({ paused: false }, { paused: false, __override: override }), due: [{ write: true, override, reason: "incident 42" }] },
    {
      case: "a hand pause within its 4h, resumed by hand since",
      minutes: 200,
      resource: single({ paused: false }, { paused: false, __handPauseSeen: at(0) }),
      due: [{ write: true, handPauseSeen: at(0), reason: "paused by hand" }],
    },
  ])("$case: $due.length due", ({ minutes, resource, due }) => {
    expect(said(dueInState(stateOf(resource), Date.parse(at(minutes)), FOUR_HOURS))).toStrictEqual(due.map((change) => ({ object: "web", ...change })));
  });

  it("judges only monitors and heartbeats: another kind's inputs hold no pause state", () => {
    const channel = { urn: urnOf("NotificationChannel", "ops"), type: `${TYPE}NotificationChannel`, id: "c1", inputs: { name: "ops", pauses: window }, outputs: { name: "ops", paused: false } };
    // Nor does another package's Monitor, recognised by its whole type token.
    const foreign = { urn: "urn:pulumi:prod::shop::acme:index:Monitor::web", type: "acme:index:Monitor", id: "x1", inputs: { pauses: window }, outputs: { paused: false } };
    expect(dueInState(stateOf(channel, foreign), Date.parse(at(65)), FOUR_HOURS)).toEqual([]);
  });

  it("leaves a set's member the program no longer declares to the next deploy, which deletes it", () => {
    const set = {
      urn: urnOf("MonitorSet", "fleet"),
      type: `${TYPE}MonitorSet`,
      inputs: { monitors: { api: { name: "Api", paused: false } } },
      outputs: { ids: { api: "m1", gone: "m2" }, monitors: { api: { name: "Api", paused: false }, gone: { name: "Gone", paused: true, __override: override } } },
    };
    expect(dueInState(stateOf(set), Date.parse(at(125)), FOUR_HOURS)).toEqual([]);
  });

  it("names a set's member whose window started, and not its siblings", () => {
    const set = {
      urn: urnOf("MonitorSet", "fleet"),
      type: `${TYPE}MonitorSet`,
      inputs: { monitors: { api: { name: "Api", pauses: window }, docs: { name: "Docs" } } },
      outputs: { ids: { api: "m1", docs: "m2" }, monitors: { api: { name: "Api", paused: false }, docs: { name: "Docs", paused: false } } },
    };
    expect(said(dueInState(stateOf(set), Date.parse(at(65)), FOUR_HOURS))).toEqual([{ object: "fleet[api]", write: true, reason: "database upgrade" }]);
  });

  it.each([{ exported: undefined }, { exported: {} }, { exported: stateOf({ urn: "urn:pulumi:prod::shop::pulumi:pulumi:Stack::shop-prod", type: "pulumi:pulumi:Stack", outputs: {} }) }])(
    "finds nothing in a state without monitors: $exported",
    ({ exported }) => {
      expect(dueInState(exported, T, FOUR_HOURS)).toEqual([]);
    },
  );
});
