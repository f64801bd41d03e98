import { describe, expect, it } from "vitest";
import { z } from "zod";
import { field, factsOf } from "../../schema/define.js";
import { ianaTimeZone, isSetSchema, knownValuesOf, openEnum, pauseWindows, port, region, setOf, timeOfDay } from "../../schema/rules.js";
import { monitor } from "../../schema/index.js";
import { inputFields } from "../../provider/fields.js";

const accepts = (schema: z.ZodType, value: unknown): boolean => schema.safeParse(value).success;

describe("rules", () => {
  it.each([
    ["Europe/Berlin", true],
    ["America/Argentina/Buenos_Aires", true],
    ["UTC", true],
    ["Etc/GMT+5", true],
    ["Asia/Calcutta", true],
    ["Mars/Olympus", false],
    ["+01:00", false],
    ["-0500", false],
    ["\u221201:00", false],
    ["", false],
  ])("time zone %j valid: %s", (zone, valid) => {
    expect(accepts(ianaTimeZone, zone)).toBe(valid);
  });

  it.each([
    ["00:00", true],
    ["23:59", true],
    ["9:30", false],
    ["24:00", false],
    ["12:60", false],
    ["12:00:00", false],
  ])("time of day %j valid: %s", (time, valid) => {
    expect(accepts(timeOfDay, time)).toBe(valid);
  });

  it.each([
    [1, true],
    [65535, true],
    [0, false],
    [65536, false],
    [80.5, false],
    ["80", false],
  ])("port %j valid: %s", (value, valid) => {
    expect(accepts(port, value)).toBe(valid);
  });

  it("marks sets through optional, min and describe wrappers, and refuses duplicates", () => {
    const regions = setOf(region).min(1).optional().describe("Regions.");
    expect(isSetSchema(regions)).toBe(true);
    expect(isSetSchema(z.array(region).optional())).toBe(false);
    expect(accepts(regions, ["us-east-1", "eu-west-1"])).toBe(true);
    expect(regions.safeParse(["us-east-1", "us-east-1"]).error?.issues[0]?.message).toBe("must not list the same value twice");
    expect(z.toJSONSchema(regions, { io: "input" })).toMatchObject({ type: "array", uniqueItems: true, description: "Regions." });
  });

  it("documents a service default without filling it in, with every fact next to the field", () => {
    const interval = field(z.int().optional(), { description: "Seconds between checks.", default: 60, assumption: "default not shown", apiName: "every" });
    expect(interval.parse(undefined)).toBeUndefined();
    expect(z.toJSONSchema(interval, { io: "input" })).toMatchObject({
      default: 60,
      description: "Seconds between checks. Default: 60 (applied by the service).",
    });
    expect(factsOf(interval)).toMatchObject({ default: 60, assumption: "default not shown", apiName: "every" });
    expect(factsOf(z.int())).toBeUndefined();
  });

  it("accepts any non-empty value of an open domain and keeps the known values for completion and docs", () => {
    const weekday = openEnum(["mon", "tue"]);
    expect(accepts(weekday, "monday")).toBe(true);
    expect(weekday.safeParse("").error?.issues[0]?.message).toBe("must not be empty");
    expect(knownValuesOf(weekday.optional())).toEqual(["mon", "tue"]);
    expect(accepts(region, "us-east")).toBe(true);
  });
  it("a pause window ends after it starts: `to` at the same instant as `from` (in another offset) or before it is refused on `to`, naming `from`", () => {
    const ending = (to: string) => pauseWindows.safeParse([{ from: "2030-11-28T22:00:00Z", to, reason: "freeze" }]);
    expect(ending("2030-11-28T22:00:01Z").success).toBe(true);
    const refusal = [expect.objectContaining({ code: "custom", path: [0, "to"], message: "must be after from (2030-11-28T22:00:00Z)" })];
    expect(ending("2030-11-28T23:00:00+01:00").error?.issues).toEqual(refusal);
    expect(ending("2030-11-28T21:00:00Z").error?.issues).toEqual(refusal);
  });

  it("pauses steer the provider alone: a providerOnly fact of the Monitor, never one of its API inputs", () => {
    expect(monitor.providerOnly).toEqual(["pauses"]);
    expect(monitor.inputs.shape).toHaveProperty("pauses");
    expect(inputFields(monitor)).not.toContain("pauses");
    expect(inputFields(monitor)).toContain("paused");
  });
});
