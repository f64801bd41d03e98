/**
 * How `npm run test:mutation` judges a Stryker report (scripts/mutation.ts): the score of each
 * listed file and of all of them, what counts (killed and timed out over those plus survived and
 * not covered; marked equivalent and broken mutants do not), and a failure that names the file
 * below its threshold, a file missing from the report, or too many mutants marked equivalent; and
 * a mutant of unchanged code that the baseline's tests detected and that now survives.
 */
import { describe, expect, it } from "vitest";
import { judge, regressions, scoreOf } from "../../scripts/mutation.js";
import { MUTATION_TARGETS } from "../../scripts/mutation-targets.js";

const mutants = (counts: Record<string, number>) =>
  Object.entries(counts).flatMap(([status, count]) => Array.from({ length: count }, () => ({ status, mutatorName: "ConditionalExpression", location: { start: { line: 1 } } })));

/** A report where every listed file has 100 mutants, all killed (so that a file held to 100 % holds), but `file`, which has `counts`. */
function report(file: string, counts: Record<string, number>) {
  return {
    files: Object.fromEntries(MUTATION_TARGETS.map((target) => [target.file, { mutants: mutants(target.file === file ? counts : { Killed: 100 }) }])),
  };
}

/** A listed file whose target sets a threshold of its own. */
const heldHigher = MUTATION_TARGETS.find((target) => target.threshold !== undefined)!;

describe("mutation scores", () => {
  it("killed and timed-out mutants count as detected; survived and not covered as undetected; the rest not at all", () => {
    expect(scoreOf("f", mutants({ Killed: 6, Timeout: 2, Survived: 1, NoCoverage: 1, Ignored: 3, CompileError: 2, RuntimeError: 1 }))).toEqual({
      file: "f",
      detected: 8,
      undetected: 2,
      marked: 3,
      static: 0,
      score: 80,
    });
  });

  it("a mutant only module loading runs is counted apart as static, neither marked nor in the score", () => {
    const staticOnly = { status: "Ignored", statusReason: 'Static mutant (and "ignoreStatic" was enabled)', mutatorName: "StringLiteral", location: { start: { line: 1 } } };
    expect(scoreOf("f", [...mutants({ Killed: 9, Survived: 1, Ignored: 1 }), staticOnly, staticOnly])).toEqual({
      file: "f",
      detected: 9,
      undetected: 1,
      marked: 1,
      static: 2,
      score: 90,
    });
  });

  it("passes when every file and the total hold their thresholds", () => {
    expect(judge(report("provider/diff.ts", { Killed: 90, Survived: 10 })).failures).toEqual([]);
  });

  it("names the file below its threshold", () => {
    const { table, failures } = judge(report("provider/diff.ts", { Killed: 80, Survived: 15, NoCoverage: 5 }));
    expect(failures).toEqual(["provider/diff.ts: mutation score 80.0 % is below 85 %"]);
    expect(table).toMatch(/\| provider\/diff\.ts +\| +80\.0 % \| +80 \| +20 \| +0 \| +0 \| 85 % +BELOW/);
  });

  it("holds a file whose target sets a threshold to that one, not to the common one", () => {
    const threshold = heldHigher.threshold!;
    const { table, failures } = judge(report(heldHigher.file, { Killed: threshold - 1, Survived: 101 - threshold }));
    expect(failures).toEqual([`${heldHigher.file}: mutation score ${(threshold - 1).toFixed(1)} % is below ${threshold} %`]);
    expect(table).toContain(`| ${threshold} %  BELOW`);
    expect(judge(report(heldHigher.file, { Killed: threshold, Survived: 100 - threshold })).failures).toEqual([]);
  });

  it("names a listed file the report lacks", () => {
    const { failures } = judge({ files: { ...report("x", {}).files, "provider/diff.ts": { mutants: [] } } });
    expect(failures).toEqual(["provider/diff.ts: no mutant of it in the report (was it mutated?)"]);
  });

  it("fails when more than 3 % of the mutants are marked equivalent", () => {
    // 100 mutants in each listed file, and in one of them just over 3 % of all marked, whatever the number of files.
    const all = 100 * MUTATION_TARGETS.length;
    const marked = Math.floor(all * 0.03) + 1;
    expect(judge(report("provider/diff.ts", { Killed: 100 - marked, Ignored: marked })).failures).toEqual([`${marked} of ${all} mutants are marked equivalent, more than 3 %`]);
    expect(judge(report("provider/diff.ts", { Killed: 100 - (marked - 1), Ignored: marked - 1 })).failures).toEqual([]);
  });

  it("judges only the files of a run restricted with --mutate, without the total's threshold", () => {
    const { table, failures } = judge({ files: { "provider/check.ts": { mutants: mutants({ Killed: 88, Survived: 12 }) } } }, true);
    expect(failures).toEqual([]);
    expect(table).not.toContain("provider/diff.ts");
    expect(table).toMatch(/\| all files +\| +88\.0 % .*\| -$/m);
  });
});

describe("mutants the baseline's tests detected", () => {
  const at = (line: number, status: string, replacement = "false") => ({ status, mutatorName: "ConditionalExpression", replacement, location: { start: { line, column: 7 } } });
  const baseline = { files: { "provider/diff.ts": { mutants: [at(47, "Killed"), at(48, "Timeout"), at(49, "Survived"), at(50, "Killed", "true")] } } };

  it("names each one that now survives or is not covered, in a file whose source is unchanged, whatever the score", () => {
    const now = { files: { "provider/diff.ts": { mutants: [at(47, "Survived"), at(48, "NoCoverage"), at(49, "Survived"), at(50, "Killed", "true")] } } };
    expect(regressions(baseline, now, ["provider/diff.ts"])).toEqual([
      "provider/diff.ts:47: the baseline's tests detected this mutant (ConditionalExpression: false), and now it survives: a test no longer proves this rule",
      "provider/diff.ts:48: the baseline's tests detected this mutant (ConditionalExpression: false), and now it is not covered: a test no longer proves this rule",
    ]);
  });

  it("leaves out a file whose source changed (its mutants moved or are new) and a mutant the baseline did not have", () => {
    const now = { files: { "provider/diff.ts": { mutants: [at(47, "Survived"), at(51, "Survived")] } } };
    expect(regressions(baseline, now, [])).toEqual([]);
    expect(regressions(baseline, { files: { "provider/diff.ts": { mutants: [at(51, "Survived"), at(47, "Survived", "true")] } } }, ["provider/diff.ts"])).toEqual([]);
  });
});
