/**
 * The override an object's outputs record (provider/overrides.ts): well-formed, or none at all, so
 * that a damaged record never pauses anything.
 */
import { describe, expect, it } from "vitest";
import { recordedOverride } from "../../provider/overrides.js";

const record = { until: "2030-11-28T22:00:00Z", reason: "incident 42", by: "alice", at: "2030-11-28T20:00:00Z" };

describe("recordedOverride", () => {
  it("reads a well-formed record, and nothing else of the outputs", () => {
    expect(recordedOverride({ name: "Web", __override: { ...record, extra: true } })).toStrictEqual(record);
  });

  it.each([
    { case: "no record", outputs: {} },
    { case: "a record that is no object", outputs: { __override: "2030-11-28T22:00:00Z" } },
    { case: "a list", outputs: { __override: [record] } },
    ...(["until", "reason", "by", "at"] as const).flatMap((field) => [
      { case: `no ${field}`, outputs: { __override: { ...record, [field]: undefined } } },
      { case: `a ${field} that is no string`, outputs: { __override: { ...record, [field]: 42 } } },
    ]),
  ])("reads none from $case", ({ outputs }) => {
    expect(recordedOverride(outputs)).toBeUndefined();
  });
});
