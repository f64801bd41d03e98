/**
 * The report of a fleet run, as data: one entry per stack (its result, change counts, drift,
 * lock), written as JSON with `--json` and merged across runners. Its renderings: table.ts,
 * markdown.ts; drift's findings by section: drift.ts.
 */
import { EXIT } from "../command/exit.js";
import type { DriftedObject, KnownField, PauseHold } from "../drift/changes.js";
import type { UnmanagedObject } from "../drift/unmanaged.js";
import type { TakenOverLock } from "../fleet/runners/lease.js";
import type { LockHolder } from "../fleet/runners/lock.js";
import { parseShard } from "../fleet/runners/shard.js";

export type Verb = "preview" | "up" | "refresh" | "destroy" | "drift";

/**
 * - `changes` / `no changes`: a preview.
 * - `succeeded`: an up, refresh or destroy that completed.
 * - `drifted` / `in sync`: a drift check (drifted: anything changed, deleted or paused by hand, or
 *   unmanaged; known fields and the pauses overrides and windows hold are not drift).
 * - `failed`: the operation failed (`error` says why).
 * - `locked`: another run was updating the stack (`lock` says who); this run changed nothing.
 * - `interrupted`: it was running when the fleet was interrupted; it may have stopped mid-update.
 * - `not started`: interrupted before its turn, or skipped (`note` says why).
 * - `skipped`: up and preview, a client stack nothing affected since its last deploy (`note` says
 *   what was checked; cli/fleet/affected/select.ts); no engine ran for it.
 */
export type StackResult = "changes" | "no changes" | "succeeded" | "drifted" | "in sync" | "failed" | "locked" | "interrupted" | "not started" | "skipped";

export interface StackReport {
  /** The stack's name; the shared stack is `<project>/<stack>`. */
  stack: string;
  role: "shared" | "client";
  result: StackResult;
  counts: ChangeCounts;
  durationMs: number;
  /** The first error of a failed stack: the one naming the resource and field, when there is one. */
  error?: string;
  /** What a drift check found in the stack's objects. */
  drift?: DriftedObject[];
  /** Left-out fields changed by hand that a deploy already kept: listed, not drift. */
  known?: KnownField[];
  /** Pauses an override or a window holds, and overrides that have ended: listed, not drift. */
  overrides?: PauseHold[];
  /** What a drift check found in the stack's scope that no stack manages. */
  unmanaged?: UnmanagedObject[];
  /** Why a stack did not start, or was skipped. */
  note?: string;
  /** up and preview: what affected a client stack that ran (`--all`, or cli/fleet/affected/select.ts's reason). */
  affected?: string;
  /** Who holds the lock of a `locked` stack. */
  lock?: LockHolder;
  /** Why the lock of a `locked` stack was not taken over: its holder looks alive, or it has no lease. */
  lockNote?: string;
  /** Locks of runs judged dead that this run deleted before running the stack (lease.ts). */
  takenOver?: TakenOverLock[];
}

export interface FleetReport {
  verb: Verb;
  project: string;
  /** Stacks run at once. */
  parallel: number;
  /**
   * The API budget (requests per second) the stacks shared, the attempts it granted over every
   * stack, the grants a busy provider got too late to use (taken again), and how many attempts
   * the service answered 429; absent when no budget was set.
   */
  rateLimit?: { budget: number; granted: number; late: number; limited: number };
  interrupted: boolean;
  /**
   * preview and up: where the client stacks' programs ran, `in the fleet process` (in-process.ts),
   * else `in a process per stack` and why.
   */
  programs?: string;
  /**
   * up and preview: how the client stacks to run were chosen: `affected` (the others are
   * `skipped`), `all` (`--all`), or `all: <why>` when they could not be told apart.
   */
  selection?: string;
  /** This runner's share of the client stacks (`--shard`), as `I/N`. */
  shard?: string;
  /** report merge: the shares of the split that no report came from. */
  missingShards?: string[];
  stacks: StackReport[];
}

export interface ChangeCounts {
  create: number;
  update: number;
  delete: number;
  replace: number;
}

export const noChanges = (): ChangeCounts => ({ create: 0, update: 0, delete: 0, replace: 0 });

export const hasChanges = (counts: ChangeCounts): boolean => counts.create + counts.update + counts.delete + counts.replace > 0;

/** 0 all good, 1 a stack failed or was locked (or a shard sent no report), 3 drift found, 130 interrupted. */
export function exitCodeOf(report: FleetReport): number {
  if (report.interrupted) return EXIT.interrupted;
  if ((report.missingShards ?? []).length > 0 || report.stacks.some((stack) => stack.result === "failed" || stack.result === "locked")) return EXIT.failed;
  if (report.stacks.some((stack) => stack.result === "drifted")) return EXIT.found;
  return EXIT.ok;
}

/** A `--json` report and the file it was read from, for the messages of `mergeReports`. */
export interface ReportFile {
  file: string;
  report: FleetReport;
}

/**
 * `fleet report merge`: the reports of the runners of one fleet operation (the shared stack's run
 * and each shard's) as one. They must be of the same operation and project, no stack may appear
 * twice, and the shards must come from one split; a share of that split with no report is named
 * in `missingShards`, which fails the merged report.
 */
export function mergeReports(files: readonly ReportFile[]): FleetReport {
  const [first] = files;
  if (first === undefined) throw new Error("no report to merge");
  for (const { file, report } of files) {
    if (report.verb !== first.report.verb || report.project !== first.report.project) {
      throw new Error(`${file} reports ${report.verb} of project ${report.project}, ${first.file} ${first.report.verb} of project ${first.report.project}: merge the reports of one operation`);
    }
  }
  const seen = new Map<string, string>();
  for (const { file, report } of files) {
    for (const stack of report.stacks) {
      const other = seen.get(stack.stack);
      if (other !== undefined) throw new Error(`stack ${stack.stack} is in both ${other} and ${file}: each stack belongs to one runner's report`);
      seen.set(stack.stack, file);
    }
  }
  const shards = files.flatMap(({ file, report }) => (report.shard === undefined ? [] : [{ file, ...parseShard(report.shard) }]));
  const counts = [...new Set(shards.map((shard) => shard.count))];
  if (counts.length > 1) throw new Error(`the reports come from different splits (${shards.map((shard) => `${shard.file}: shard ${shard.index}/${shard.count}`).join(", ")})`);
  const count = counts[0] ?? 0;
  const present = new Set(shards.map((shard) => shard.index));
  const missingShards = Array.from({ length: count }, (_, offset) => offset + 1).filter((index) => !present.has(index)).map((index) => `${index}/${count}`);

  const stacks = files.flatMap(({ report }) => report.stacks);
  const programs = [...new Set(files.map(({ report }) => report.programs))];
  // The shards' choice of stacks, when they agree (the shared stack's own run makes none).
  const selections = [...new Set(files.flatMap(({ report }) => (report.selection === undefined ? [] : [report.selection])))];
  return {
    verb: first.report.verb,
    project: first.report.project,
    parallel: files.reduce((sum, { report }) => sum + report.parallel, 0),
    interrupted: files.some(({ report }) => report.interrupted),
    ...(programs.length === 1 && programs[0] !== undefined ? { programs: programs[0] } : {}),
    ...(selections.length === 1 ? { selection: selections[0]! } : {}),
    ...(missingShards.length > 0 ? { missingShards } : {}),
    stacks: inRunOrder(first.report.verb, stacks),
  };
}

/** As one run lists them: the clients in name order, after the shared stack (before it for destroy). */
function inRunOrder(verb: Verb, stacks: readonly StackReport[]): StackReport[] {
  const shared = stacks.filter((stack) => stack.role === "shared");
  const clients = stacks.filter((stack) => stack.role !== "shared").sort((a, b) => (a.stack < b.stack ? -1 : a.stack > b.stack ? 1 : 0));
  return verb === "destroy" ? [...clients, ...shared] : [...shared, ...clients];
}
