import { describe, expect, it } from "vitest";
import { z } from "zod";
import { field, factsOf } from "../../schema/define.js";
import { ianaTimeZone, isSetSchema, knownValuesOf, openEnum, port, region, setOf, timeOfDay } from "../../schema/rules.js";

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
});
