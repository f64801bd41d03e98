/**
 * Overrides of the pause state (provider/overrides.ts): the request the command line hands a
 * targeted run, and the list of the overrides a stack's exported state records, single objects
 * and a set's members alike, active and ended.
 */
import { describe, expect, it } from "vitest";
import { OVERRIDE_VARIABLE, overrideFor, overridesInState, requestedOverrides } from "../../provider/overrides.js";

const URN = "urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:Monitor::web";
const SET_URN = "urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:MonitorSet::fleet";
const record = (until: string, reason: string) => ({ until, reason, by: "alice", at: "2030-11-28T20:00:00.000Z" });

describe("requestedOverrides", () => {
  const pause = { urn: URN, until: "2030-11-28T22:00:00Z", reason: "incident 42", by: "alice" };
  const end = { urn: SET_URN, member: "web", end: true };
  it.each([
    { text: undefined, requests: [] },
    { text: JSON.stringify(pause), requests: [pause] },
    { text: JSON.stringify(end), requests: [end] },
    { text: JSON.stringify([pause, end]), requests: [pause, end] },
  ])("reads $text", ({ text, requests }) => {
    expect(requestedOverrides(text === undefined ? {} : { [OVERRIDE_VARIABLE]: text })).toEqual(requests);
  });

  it.each([
    "not json",
    "[]",
    JSON.stringify({ urn: URN, until: "2030-11-28T22:00:00", reason: "x", by: "alice" }),
    JSON.stringify({ urn: URN, until: "2030-11-28T22:00:00Z", reason: "", by: "alice" }),
    JSON.stringify({ urn: URN, end: false }),
    JSON.stringify([pause, { urn: URN, end: false }]),
  ])("refuses %s, naming the variable", (text) => {
    expect(() => requestedOverrides({ [OVERRIDE_VARIABLE]: text })).toThrow(new RegExp(`^${OVERRIDE_VARIABLE} must be JSON`));
  });

  it("gives each object the request that names its URN (and member)", () => {
    const web = { urn: SET_URN, member: "web", end: true as const };
    const api = { urn: SET_URN, member: "api", end: true as const };
    expect(overrideFor([web, api], SET_URN, "web")).toBe(web);
    expect(overrideFor([web, api], SET_URN, "api")).toBe(api);
    expect([overrideFor([web], SET_URN), overrideFor([web], SET_URN, "api"), overrideFor([web], URN, "web"), overrideFor([], SET_URN, "web")]).toEqual([undefined, undefined, undefined, undefined]);
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
