/**
 * Drift and the next deploy judge a value by one equality (provider/diff.ts `sameInputValue`): a
 * value the service holds in another form than the one recorded (a set in another order, `null`
 * for absent, a UUID in capitals) is no drift, because the next deploy changes nothing; a value
 * that really differs is drift, and the next deploy puts it back when the program declares it.
 */
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { findingsOf, type PauseSettings } from "../../cli/drift/changes.js";
import { changedFields } from "../../provider/diff.js";
import { monitor } from "../../schema/index.js";

const TYPE = "pulumi-nodejs:dynamic/monitoring:Monitor";
const CHANNEL = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const OTHER_CHANNEL = "7a1e2b3c-4d5e-4f60-8172-93a4b5c6d7e8";

const AT: PauseSettings = { now: Date.parse("2030-01-01T00:00:00Z"), handPauses: { rule: "putBack" } };
const declared = { name: "Web", url: "https://example.com", regions: ["eu-west-1", "us-east-1"], notificationChannelIds: [CHANNEL, OTHER_CHANNEL] };
const recorded = { ...declared, intervalSeconds: 60, dnsServer: null, status: "UP", __declaredInputs: Object.keys(declared) };

function refreshed(actual: Record<string, unknown>): StepEventMetadata {
  return {
    op: "same",
    urn: `urn:pulumi:dev::shop::${TYPE}::web`,
    type: TYPE,
    provider: "",
    old: { id: "m-1", inputs: declared, outputs: recorded } as never,
    new: { id: "m-1", outputs: actual } as never,
  };
}

describe("drift reports a field exactly when the next deploy sees it changed", () => {
  it.each([
    ["a set in another order", { regions: ["us-east-1", "eu-west-1"] }, []],
    ["ids in capitals", { notificationChannelIds: [OTHER_CHANNEL.toUpperCase(), CHANNEL.toUpperCase()] }, []],
    ["null for absent, in a field the program leaves out", { dnsServer: undefined }, []],
    ["a set with other members", { regions: ["eu-west-1", "ap-south-1"] }, ["regions"]],
    ["another id", { notificationChannelIds: [CHANNEL] }, ["notificationChannelIds"]],
    ["a declared field renamed", { name: "Renamed" }, ["name"]],
  ] as const)("%s", (_case, change, drifted) => {
    const actual = { ...recorded, ...change };
    const reported = findingsOf(refreshed(actual), AT).drift[0]?.fields.map((field) => field.field) ?? [];
    expect(reported).toEqual(drifted);
    // The next deploy: the refreshed outputs against the program's inputs.
    expect(changedFields(monitor, actual, declared)).toEqual(drifted);
  });

  it("a field the program leaves out is drift, kept by the next deploy", () => {
    const actual = { ...recorded, intervalSeconds: 900 };
    expect(findingsOf(refreshed(actual), AT).drift[0]?.fields).toEqual([{ field: "intervalSeconds", recorded: 60, actual: 900, declared: false }]);
    expect(changedFields(monitor, actual, declared)).toEqual([]);
  });
});
