/** The one grammar of durations (provider/duration.ts): the settings and every option that takes one read it alike. */
import { describe, expect, it } from "vitest";
import { durationMs } from "../../provider/duration.js";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

describe("a duration", () => {
  it.each([
    ["500ms", 500],
    ["90s", 90 * SECOND],
    ["1.5m", 90 * SECOND],
    ["5min", 5 * MINUTE],
    ["4h", 4 * HOUR],
    ["1d", 24 * HOUR],
    ["1h30m", 90 * MINUTE],
    ["1d2h", 26 * HOUR],
    ["2m30s", 150 * SECOND],
    [" 1h 30m ", 90 * MINUTE],
    ["90 s", 90 * SECOND],
  ])("%j is %d ms", (text, ms) => {
    expect(durationMs(text)).toBe(ms);
    expect(durationMs(text, { bareSeconds: true })).toBe(ms);
  });

  it.each(["", "0", "0h", "0s0m", "-1h", "90", "1h30", "soon", "5 days", "4 hours", "1w", "Infinity", "1e3s", "h"])("refuses %j", (text) => {
    expect(durationMs(text)).toBeUndefined();
  });

  it("takes a number alone as seconds only where an option took seconds first", () => {
    expect(durationMs("90", { bareSeconds: true })).toBe(90 * SECOND);
    expect(durationMs("2.25", { bareSeconds: true })).toBe(2.25 * SECOND);
    for (const text of ["0", "-5", "+5", "0x10", "5s5"]) expect(durationMs(text, { bareSeconds: true }), text).toBeUndefined();
    expect(durationMs("90")).toBeUndefined();
  });
});
