/**
 * How `npm run test:mutation` judges a Stryker report (scripts/mutation.ts): the score of each
 * listed file and of all of them, what counts (killed and timed out over those plus survived and
 * not covered; marked equivalent and broken mutants do not), and a failure that names the file
 * below its threshold, a file missing from the report, or too many mutants marked equivalent.
 */
import { describe, expect, it } from "vitest";
import { judge, scoreOf } from "../../scripts/mutation.js";
import { MUTATION_TARGETS } from "../../scripts/mutation-targets.js";

const mutants = (counts: Record<string, number>) =>
  Object.entries(counts).flatMap(([status, count]) => Array.from({ length: count }, () => ({ status, mutatorName: "ConditionalExpression", location: { start: { line: 1 } } })));

/** A report where every listed file has `killed` killed mutants and `survived` survivors, but `file`, which has `counts`. */
function report(file: string, counts: Record<string, number>) {
  return {
    files: Object.fromEntries(MUTATION_TARGETS.map((target) => [target.file, { mutants: mutants(target.file === file ? counts : { Killed: 99, Survived: 1 }) }])),
  };
}

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

  it("names a listed file the report lacks", () => {
    const { failures } = judge({ files: { ...report("x", {}).files, "provider/diff.ts": { mutants: [] } } });
    expect(failures).toEqual(["provider/diff.ts: no mutant of it in the report (was it mutated?)"]);
  });

  it("fails when more than 3 % of the mutants are marked equivalent", () => {
    const { failures } = judge(report("provider/diff.ts", { Killed: 60, Ignored: 40 }));
    // 100 mutants in each listed file, 40 of them marked in one.
    const all = 100 * MUTATION_TARGETS.length;
    expect(failures).toEqual([`40 of ${all} mutants are marked equivalent, more than 3 %`]);
  });

  it("judges only the files of a run restricted with --mutate, without the total's threshold", () => {
    const { table, failures } = judge({ files: { "provider/check.ts": { mutants: mutants({ Killed: 88, Survived: 12 }) } } }, true);
    expect(failures).toEqual([]);
    expect(table).not.toContain("provider/diff.ts");
    expect(table).toMatch(/\| all files +\| +88\.0 % .*\| -$/m);
  });
});
