/**
 * The suite's time budget (scripts/time-budget.ts): which files of a run fail it, and what the
 * message tells the engineer to do.
 */
import { describe, expect, it } from "vitest";
import { budgetEnforced, checkBudget, recorded, type TimeBudget } from "../../scripts/time-budget.js";

const budget: TimeBudget = { floorSeconds: 5, limitSeconds: 60, files: { "test/e2e/slow.test.ts": 20, "test/unit/tiny.test.ts": 0.4, "test/e2e/debt.test.ts": 90 } };

describe("a run against the time budget", () => {
  it.each([
    { case: "within twice its record", file: "test/e2e/slow.test.ts", seconds: 39.9, problem: undefined },
    { case: "past twice its record", file: "test/e2e/slow.test.ts", seconds: 40.1, problem: /slow\.test\.ts took 40\.1 s .* more than twice its recorded 20\.0 s \(allowed 40\.0 s\).*npm run test:record-times/ },
    { case: "a tiny file 20 times its record, within twice the floor", file: "test/unit/tiny.test.ts", seconds: 8, problem: undefined },
    { case: "a tiny file past twice the floor", file: "test/unit/tiny.test.ts", seconds: 10.5, problem: /tiny\.test\.ts took 10\.5 s .* \(allowed 10\.0 s\)/ },
    { case: "a recorded file above the limit, past twice its record", file: "test/e2e/slow.test.ts", seconds: 61, problem: /slow\.test\.ts took 61\.0 s .* more than twice its recorded 20\.0 s/ },
    { case: "a file with no record, above the limit", file: "test/e2e/new.test.ts", seconds: 75, problem: /new\.test\.ts took 75\.0 s .* above the limit of 60 s per file/ },
    { case: "a known debt (recorded above the limit) within twice its record", file: "test/e2e/debt.test.ts", seconds: 150, problem: undefined },
    { case: "a known debt past twice its record", file: "test/e2e/debt.test.ts", seconds: 181, problem: /debt\.test\.ts took 181\.0 s .* more than twice its recorded 90\.0 s/ },
  ])("$case", ({ file, seconds, problem }) => {
    const { problems } = checkBudget([{ file, seconds }], budget);
    if (problem === undefined) expect(problems).toEqual([]);
    else expect(problems).toEqual([expect.stringMatching(problem)]);
  });

  it("lists the known debts over the limit in every run, without failing it", () => {
    const { problems, overLimit } = checkBudget([{ file: "test/e2e/debt.test.ts", seconds: 95 }, { file: "test/e2e/slow.test.ts", seconds: 30 }], budget);
    expect(problems).toEqual([]);
    expect(overLimit).toBe("1 file(s) above the limit of 60 s, still to be made lean: test/e2e/debt.test.ts (95.0 s)");
    expect(checkBudget([{ file: "test/e2e/debt.test.ts", seconds: 50 }], budget).overLimit).toBeUndefined();
  });

  it("names every file without a record in one message that says how to record it, and does not fail for it", () => {
    const { problems, unrecorded } = checkBudget([{ file: "test/a.test.ts", seconds: 1 }, { file: "test/b.test.ts", seconds: 30 }], budget);
    expect(problems).toEqual([]);
    expect(unrecorded).toMatch(/^2 test files have no recorded time in test\/time-budget\.json: test\/a\.test\.ts, test\/b\.test\.ts\. Record it .*`npm run test:record-times`/);
    expect(checkBudget([{ file: "test/e2e/slow.test.ts", seconds: 1 }], budget).unrecorded).toBeUndefined();
  });

  it("fails the run under CI or when asked, and warns elsewhere", () => {
    expect(budgetEnforced({ CI: "true" })).toBe(true);
    expect(budgetEnforced({ CI: "true", PULUMI_MONITORING_TIME_BUDGET: "warn" })).toBe(false);
    expect(budgetEnforced({ PULUMI_MONITORING_TIME_BUDGET: "enforce" })).toBe(true);
    expect(budgetEnforced({})).toBe(false);
    expect(budgetEnforced({ CI: "false" })).toBe(false);
  });

  it("records the last run's figures, rounded to a tenth, keeping the others, sorted by file", () => {
    const next = recorded(budget, { "test/e2e/slow.test.ts": 22.349, "test/a.test.ts": 3.04 });
    expect(next).toEqual({ floorSeconds: 5, limitSeconds: 60, files: { "test/a.test.ts": 3, "test/e2e/debt.test.ts": 90, "test/e2e/slow.test.ts": 22.3, "test/unit/tiny.test.ts": 0.4 } });
    expect(Object.keys(next.files)).toEqual(["test/a.test.ts", "test/e2e/debt.test.ts", "test/e2e/slow.test.ts", "test/unit/tiny.test.ts"]);
  });
});
