/**
 * `npm run test:mutation`: mutation testing of the code that decides what a deploy does
 * (scripts/mutation-targets.ts), with Stryker in incremental mode against the committed baseline
 * (test/mutation/stryker-incremental.json), then the score of each file against its threshold.
 *
 *   npm run test:mutation                 runs what changed since the baseline, updates it, checks the scores
 *   npm run test:mutation -- --force      runs every mutant again and records a new baseline
 *   npm run test:mutation -- --check      CI: when no listed file, fast test or config changed since the
 *                                          baseline, checks its scores in seconds; else runs as the first form;
 *                                          with no baseline committed, says so and checks nothing
 *   npm run test:mutation -- --mutate provider/diff.ts   one file (or --testFiles: some tests), its
 *                                          results kept apart from the baseline
 *
 * Other arguments go to Stryker (`--concurrency 2`). Exits 1 when a file or the total falls below its
 * threshold, when more than 3 % of the mutants are marked equivalent, or when a mutant of unchanged
 * code that the baseline's tests killed now survives (a test no longer proves its rule), naming what failed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { FILE_THRESHOLD, MUTATION_TARGETS, TOTAL_THRESHOLD } from "./mutation-targets.js";

const root = join(__dirname, "..", "..");
export const BASELINE = "test/mutation/stryker-incremental.json";
/** Hashes of what the baseline was recorded from: when they all match, the baseline's scores still hold. */
export const BASELINE_INPUTS = "test/mutation/baseline-inputs.json";
/** Where a run restricted with `--mutate` or `--testFiles` keeps its results, so that the baseline stays whole. */
const PARTIAL_BASELINE = "reports/mutation/partial-incremental.json";
/** Files whose change changes what is mutated or how: the configs and the tool's version. */
const CONFIG_FILES = ["stryker.config.mjs", "vitest.mutation.config.mts", "vitest.config.mts", "scripts/mutation-targets.ts", "package-lock.json"];
/** The most mutants that may be marked equivalent (`// Stryker disable`), as a share of all. */
const MAX_MARKED_SHARE = 0.03;

interface MutantResult {
  status: string;
  mutatorName: string;
  replacement?: string;
  statusReason?: string;
  location: { start: { line: number; column?: number } };
}
interface Report {
  files: Record<string, { mutants: MutantResult[] }>;
}

export interface FileScore {
  file: string;
  detected: number;
  undetected: number;
  /** Marked equivalent with a `// Stryker disable` comment. */
  marked: number;
  /** Run only while modules load (stryker.config.mjs `ignoreStatic`): not tested, not counted. */
  static: number;
  score: number;
}

/** Why Stryker ignores a mutant that only module loading runs (`ignoreStatic`), as its report says. */
const STATIC_REASON = /^Static mutant/;

/** Killed and timed-out mutants over those that ran or were not covered; marked, static and broken ones do not count. */
export function scoreOf(file: string, mutants: readonly MutantResult[]): FileScore {
  const count = (...statuses: string[]) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
  const detected = count("Killed", "Timeout");
  const undetected = count("Survived", "NoCoverage");
  const total = detected + undetected;
  const staticOnly = mutants.filter((mutant) => mutant.status === "Ignored" && STATIC_REASON.test(mutant.statusReason ?? "")).length;
  return { file, detected, undetected, marked: count("Ignored") - staticOnly, static: staticOnly, score: total === 0 ? 100 : (100 * detected) / total };
}

/** The listed files' scores (only those in the report, for a run restricted with `--mutate`) and the total. */
export function scoresOf(report: Report, restricted = false): { files: Array<FileScore & { threshold: number }>; total: FileScore } {
  const files = MUTATION_TARGETS.filter(({ file }) => !restricted || file in report.files).map(({ file, threshold }) => ({
    ...scoreOf(file, report.files[file]?.mutants ?? []),
    threshold: threshold ?? FILE_THRESHOLD,
  }));
  const all = Object.values(report.files).flatMap((entry) => entry.mutants);
  return { files, total: scoreOf("all files", all) };
}

/** The table and the failures (empty when every threshold holds). */
export function judge(report: Report, restricted = false): { table: string; failures: string[] } {
  const { files, total } = scoresOf(report, restricted);
  const failures: string[] = [];
  const row = (score: FileScore, threshold: number | undefined) => {
    const ok = threshold === undefined || score.score >= threshold;
    if (!ok) failures.push(`${score.file}: mutation score ${score.score.toFixed(1)} % is below ${threshold} %`);
    return `| ${score.file.padEnd(24)} | ${score.score.toFixed(1).padStart(5)} % | ${String(score.detected).padStart(8)} | ${String(score.undetected).padStart(10)} | ${String(score.marked).padStart(6)} | ${String(score.static).padStart(6)} | ${threshold === undefined ? "-" : `${threshold} %`}${ok ? "" : "  BELOW"}`;
  };
  const lines = [
    `| ${"file".padEnd(24)} |   score | detected | undetected | marked | static | threshold`,
    ...files.map((score) => row(score, score.threshold)),
    // The total of some files, in a run restricted with --mutate, is no total of the project.
    row(total, restricted ? undefined : TOTAL_THRESHOLD),
  ];
  for (const score of files) {
    if (score.detected + score.undetected === 0) failures.push(`${score.file}: no mutant of it in the report (was it mutated?)`);
  }
  const mutants = total.detected + total.undetected + total.marked;
  if (total.marked > MAX_MARKED_SHARE * mutants) {
    failures.push(`${total.marked} of ${mutants} mutants are marked equivalent, more than ${MAX_MARKED_SHARE * 100} %`);
  }
  lines.push(
    "",
    `undetected: survived or not covered by any fast test; marked: disabled as equivalent (${total.marked} of ${mutants}, at most ${MAX_MARKED_SHARE * 100} %); ` +
      "static: run only while modules load, not tested (stryker.config.mjs ignoreStatic)",
  );
  return { table: lines.join("\n"), failures };
}

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/** A mutant as one run and the next both know it: its place and its change. */
function mutantKey(mutant: MutantResult): string {
  return `${mutant.location.start.line}:${mutant.location.start.column ?? 0} ${mutant.mutatorName} ${mutant.replacement ?? ""}`;
}

/**
 * The mutants the baseline's tests detected that `report` says survive, in the files given
 * (those whose source is as it was when the baseline was recorded, so that a mutant at the same
 * place with the same change is the same mutant): each one a rule a test no longer proves, most
 * often an assertion removed or weakened. A score above its threshold does not hide them.
 */
export function regressions(baseline: Report, report: Report, unchangedFiles: readonly string[]): string[] {
  return unchangedFiles.flatMap((file) => {
    const before = new Map((baseline.files[file]?.mutants ?? []).map((mutant) => [mutantKey(mutant), mutant.status]));
    return (report.files[file]?.mutants ?? [])
      .filter((mutant) => UNDETECTED.has(mutant.status) && DETECTED.has(before.get(mutantKey(mutant)) ?? ""))
      .map(
        (mutant) =>
          `${file}:${mutant.location.start.line}: the baseline's tests detected this mutant (${mutant.mutatorName}${mutant.replacement === undefined ? "" : `: ${mutant.replacement}`}), ` +
          `and now it ${mutant.status === "NoCoverage" ? "is not covered" : "survives"}: a test no longer proves this rule`,
      );
  });
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(join(root, path))).digest("hex");
}

/** The fast test files, as the mutation run's vitest config lists them, and the helpers under test/. */
function fastTestFiles(): string[] {
  const listed = JSON.parse(
    execFileSync("npx", ["vitest", "list", "--filesOnly", "--json", "-c", "vitest.mutation.config.mts"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
  ) as { file: string }[];
  const helpers = (readdirSync(join(root, "test"), { recursive: true, encoding: "utf8" }) as string[])
    .map((path) => join("test", path))
    .filter((path) => path.endsWith(".ts") && !path.endsWith(".test.ts") && !path.includes("/programs/"));
  return [...listed.map(({ file }) => relative(root, file)), ...helpers];
}

/** What the baseline depends on, by path: the listed files, the fast tests and their helpers, the configs. */
export function baselineInputs(): Record<string, string> {
  const paths = [...new Set([...MUTATION_TARGETS.map(({ file }) => file), ...fastTestFiles(), ...CONFIG_FILES])].sort();
  return Object.fromEntries(paths.map((path) => [path, sha256(path)]));
}

/** The inputs added, removed or changed since the baseline was recorded. */
function changedSince(recorded: Record<string, string>, now: Record<string, string>): string[] {
  return [...new Set([...Object.keys(recorded), ...Object.keys(now)])].filter((path) => recorded[path] !== now[path]).sort();
}

function readJson<T>(path: string): T | undefined {
  const full = join(root, path);
  return existsSync(full) ? (JSON.parse(readFileSync(full, "utf8")) as T) : undefined;
}

function main(args: string[]): number {
  const started = performance.now();
  const check = args.includes("--check");
  const strykerArgs = args.filter((arg) => arg !== "--check");
  // A run of some files or some tests is no baseline of the project: it keeps its results apart.
  const restricted = strykerArgs.some((arg) => /^(-m|-t|--mutate|--testFiles)(=|$)/.test(arg));
  const elapsed = () => `${Math.round((performance.now() - started) / 1000)} s`;

  // Hashed before the run, so that an edit made while it runs shows as a change at the next check.
  const inputs = restricted ? undefined : baselineInputs();
  if (check && inputs !== undefined) {
    const recorded = readJson<Record<string, string>>(BASELINE_INPUTS);
    const baseline = readJson<Report>(BASELINE);
    if (recorded === undefined && baseline !== undefined) {
      // Stryker keeps the results of a run stopped before its end; the inputs are written only
      // when a run completes, so such results are no baseline to judge, only a head start.
      const tested = Object.values(baseline.files).flatMap((entry) => entry.mutants).filter((mutant) => mutant.status !== "Pending").length;
      console.log(
        `mutation testing: the baseline (${BASELINE}) is INCOMPLETE, from a run stopped before its end (it holds the results of ${tested} mutants, static and marked ones included; ` +
          `${BASELINE_INPUTS} is written only when a run completes), so there are no scores to check. ` +
          "Complete it on an idle machine with `npm run test:mutation` (it keeps those results) and commit both files.",
      );
      return 0;
    }
    if (recorded === undefined || baseline === undefined) {
      // Every mutant from scratch is a run of its own (tens of minutes on two cores), not a CI
      // step: the check says so plainly and leaves the recording to `--force`.
      console.log(
        `mutation testing: NO BASELINE is committed (${BASELINE}, ${BASELINE_INPUTS}), so there are no scores to check. ` +
          "Record one on an idle machine with `npm run test:mutation -- --force` and commit both files.",
      );
      return 0;
    }
    const changed = changedSince(recorded, inputs);
    if (changed.length === 0 && baseline !== undefined) {
      const { table, failures } = judge(baseline);
      console.log(`mutation testing: nothing changed since the baseline (${BASELINE}); its scores:\n\n${table}\n`);
      return finish(failures, elapsed());
    }
    console.log(`mutation testing: changed since the baseline, so the mutants they touch run again:\n  ${changed.join("\n  ")}\n`);
  }

  // Stryker rewrites the baseline: what it held, and which listed files are as they were then.
  const baselineBefore = readJson<Report>(BASELINE);
  const recordedInputs = readJson<Record<string, string>>(BASELINE_INPUTS);
  const unchangedFiles = MUTATION_TARGETS.map(({ file }) => file).filter((file) => recordedInputs?.[file] === sha256(file));

  // Stryker's incremental file holds the files of the last run only: a run of some files starts
  // from a copy of the baseline and leaves the baseline itself whole.
  let incrementalFile = BASELINE;
  if (restricted && !strykerArgs.some((arg) => arg.startsWith("--incrementalFile"))) {
    incrementalFile = PARTIAL_BASELINE;
    mkdirSync(dirname(join(root, incrementalFile)), { recursive: true });
    if (existsSync(join(root, BASELINE))) copyFileSync(join(root, BASELINE), join(root, incrementalFile));
    strykerArgs.push("--incrementalFile", incrementalFile);
  }
  const stryker = spawnSync("npx", ["stryker", "run", ...strykerArgs], { cwd: root, stdio: "inherit" });
  if (stryker.status !== 0) {
    console.error(`mutation testing: Stryker failed (exit ${stryker.status ?? stryker.signal}) after ${elapsed()}`);
    return 1;
  }
  const report = readJson<Report>(incrementalFile);
  if (report === undefined) throw new Error(`Stryker wrote no ${incrementalFile}`);
  if (inputs === undefined) {
    console.log(`mutation testing: a run restricted with --mutate or --testFiles, kept in ${incrementalFile}; the baseline is left as it was`);
  } else {
    writeFileSync(join(root, BASELINE_INPUTS), `${JSON.stringify(inputs, null, 2)}\n`);
  }
  const { table, failures } = judge(report, restricted);
  if (baselineBefore !== undefined) failures.push(...regressions(baselineBefore, report, unchangedFiles));
  console.log(`\n${table}\n`);
  return finish(failures, elapsed());
}

function finish(failures: string[], time: string): number {
  for (const failure of failures) console.error(`mutation testing FAILED: ${failure}`);
  console.log(`mutation testing: ${failures.length === 0 ? "passed" : "failed"} in ${time}`);
  return failures.length === 0 ? 0 : 1;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
