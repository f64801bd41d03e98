/**
 * Overrides of the pause state (provider/overrides.ts): the request the command line hands a
 * targeted run, and the list of the overrides a stack's exported state records, single objects
 * and a set's members alike, active and ended.
 */
import { describe, expect, it } from "vitest";
import { OVERRIDE_VARIABLE, overrideFor, overridesInState, requestedOverride } from "../../provider/overrides.js";

const URN = "urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:Monitor::web";
const SET_URN = "urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:MonitorSet::fleet";
const record = (until: string, reason: string) => ({ until, reason, by: "alice", at: "2030-11-28T20:00:00.000Z" });

describe("requestedOverride", () => {
  it.each([
    { text: undefined, request: undefined },
    { text: JSON.stringify({ urn: URN, until: "2030-11-28T22:00:00Z", reason: "incident 42", by: "alice" }), request: { urn: URN, until: "2030-11-28T22:00:00Z", reason: "incident 42", by: "alice" } },
    { text: JSON.stringify({ urn: SET_URN, member: "web", end: true }), request: { urn: SET_URN, member: "web", end: true } },
  ])("reads $text", ({ text, request }) => {
    expect(requestedOverride(text === undefined ? {} : { [OVERRIDE_VARIABLE]: text })).toEqual(request);
  });

  it.each([
    "not json",
    JSON.stringify({ urn: URN, until: "2030-11-28T22:00:00", reason: "x", by: "alice" }),
    JSON.stringify({ urn: URN, until: "2030-11-28T22:00:00Z", reason: "", by: "alice" }),
    JSON.stringify({ urn: URN, end: false }),
  ])("refuses %s, naming the variable", (text) => {
    expect(() => requestedOverride({ [OVERRIDE_VARIABLE]: text })).toThrow(new RegExp(`^${OVERRIDE_VARIABLE} must be JSON`));
  });

  it("is for the object whose URN (and member) it names only", () => {
    const request = { urn: SET_URN, member: "web", end: true as const };
    expect(overrideFor(request, SET_URN, "web")).toBe(request);
    expect([overrideFor(request, SET_URN), overrideFor(request, SET_URN, "api"), overrideFor(request, URN, "web")]).toEqual([undefined, undefined, undefined]);
  });
});

describe("overridesInState", () => {
  const state = {
    version: 3,
    deployment: {
      resources: [
        { urn: "urn:pulumi:prod::shop::pulumi:pulumi:Stack::shop-prod", type: "pulumi:pulumi:Stack", outputs: {} },
        { urn: URN, type: "pulumi-nodejs:dynamic/monitoring:Monitor", outputs: { name: "Web", __override: record("2030-11-28T22:00:00Z", "incident 42") } },
        { urn: URN.replace("::web", "::api"), type: "pulumi-nodejs:dynamic/monitoring:Monitor", outputs: { name: "Api" } },
        {
          urn: SET_URN,
          type: "pulumi-nodejs:dynamic/monitoring:MonitorSet",
          outputs: { ids: { web: "m1", api: "m2" }, monitors: { web: {}, api: {} }, __override: { api: record("2030-11-28T20:30:00Z", "deploy of the API") } },
        },
      ],
    },
  };

  it("lists each override with who, why, until when, and whether it is active or ended", () => {
    expect(overridesInState(state, Date.parse("2030-11-28T21:00:00Z"))).toEqual([
      { resource: "web", type: "Monitor", ...record("2030-11-28T22:00:00Z", "incident 42"), state: "active" },
      { resource: "fleet", member: "api", type: "MonitorSet", ...record("2030-11-28T20:30:00Z", "deploy of the API"), state: "ended" },
    ]);
  });

  it.each([{ exported: undefined }, { exported: {} }, { exported: { deployment: { resources: "none" } } }])("lists nothing from a state without resources: $exported", ({ exported }) => {
    expect(overridesInState(exported, 0)).toEqual([]);
  });
});
