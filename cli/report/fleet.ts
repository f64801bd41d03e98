/**
 * The end of a fleet run: one row per stack (creates, updates, deletes, replaces, duration,
 * result), then what went wrong, what drifted and what was left mid-update. The same report is
 * written as JSON with `--json`.
 */
import type { DriftedObject } from "../drift/changes.js";
import { DRIFT_COLUMNS, driftCounts, driftLines } from "./drift.js";
import type { UnmanagedObject } from "../drift/unmanaged.js";
import type { ChangeCounts } from "../fleet/stacks/events.js";
import type { TakenOverLock } from "../fleet/runners/lease.js";
import { describeLock, type LockHolder } from "../fleet/runners/lock.js";
import { parseShard } from "../fleet/runners/shard.js";

export type Verb = "preview" | "up" | "refresh" | "destroy" | "drift";

/**
 * - `changes` / `no changes`: a preview.
 * - `succeeded`: an up, refresh or destroy that completed.
 * - `drifted` / `in sync`: a drift check (drifted: anything changed, deleted or paused by hand, or unmanaged).
 * - `failed`: the operation failed (`error` says why).
 * - `locked`: another run was updating the stack (`lock` says who); this run changed nothing.
 * - `interrupted`: it was running when the fleet was interrupted; it may have stopped mid-update.
 * - `not started`: interrupted before its turn, or skipped (`note` says why).
 */
export type StackResult = "changes" | "no changes" | "succeeded" | "drifted" | "in sync" | "failed" | "locked" | "interrupted" | "not started";

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
  /** What a drift check found in the stack's scope that no stack manages. */
  unmanaged?: UnmanagedObject[];
  /** Why a stack did not start. */
  note?: string;
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
  /** This runner's share of the client stacks (`--shard`), as `I/N`. */
  shard?: string;
  /** report merge: the shares of the split that no report came from. */
  missingShards?: string[];
  stacks: StackReport[];
}

/** How the process exits: 0 all good, 1 a stack failed, 3 drift found, 130 interrupted. */
export const EXIT = { ok: 0, failed: 1, usage: 2, drifted: 3, interrupted: 130 } as const;

export function exitCodeOf(report: FleetReport): number {
  if (report.interrupted) return EXIT.interrupted;
  if ((report.missingShards ?? []).length > 0 || report.stacks.some((stack) => stack.result === "failed" || stack.result === "locked")) return EXIT.failed;
  if (report.stacks.some((stack) => stack.result === "drifted")) return EXIT.drifted;
  return EXIT.ok;
}

export function formatDuration(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.round(seconds - minutes * 60)).padStart(2, "0")}s`;
}

const COLUMNS = ["stack", "create", "update", "delete", "replace", "duration", "result"] as const;

export function renderTable(report: FleetReport): string {
  const drift = report.verb === "drift";
  const columns = drift ? DRIFT_COLUMNS : COLUMNS;
  const rows = report.stacks.map((stack) => [
    stack.stack,
    ...(drift ? driftCounts(stack) : [stack.counts.create, stack.counts.update, stack.counts.delete, stack.counts.replace].map(String)),
    formatDuration(stack.durationMs),
    stack.lock === undefined ? stack.result : describeLock(stack.lock),
  ]);
  const widths = columns.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  // Names and results read left to right; numbers line up on the right.
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 || column === columns.length - 1 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  const lines = [line(columns), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)];

  const failed = report.stacks.filter((stack) => stack.result === "failed");
  if (failed.length > 0) {
    lines.push("", "Failures:");
    for (const stack of failed) lines.push(`  ${stack.stack}: ${stack.error ?? "failed without an error message (run the operation with the Pulumi CLI to see its output)"}`);
  }
  const locked = report.stacks.filter((stack) => stack.result === "locked");
  if (locked.length > 0) {
    lines.push("", "Locked stacks were being changed by another run and were left as they were: run them again once it ends, or pass --wait-lock SECONDS.");
    for (const stack of locked) if (stack.lockNote !== undefined) lines.push(`  ${stack.stack}: not taken over: ${stack.lockNote}`);
  }
  const takenOver = report.stacks.filter((stack) => (stack.takenOver ?? []).length > 0);
  if (takenOver.length > 0) {
    lines.push("", "Locks taken over from runs that had stopped (each stack was then read from the service and run):");
    for (const stack of takenOver) {
      for (const { holder, why } of stack.takenOver ?? []) lines.push(`  ${stack.stack}: the lock of ${holder.user}@${holder.host} (pid ${holder.pid}, since ${holder.since}): ${why}`);
    }
  }
  lines.push(...driftLines(report));
  const notStarted = report.stacks.filter((stack) => stack.result === "not started" && stack.note !== undefined);
  if (notStarted.length > 0) {
    lines.push("", "Not started:");
    for (const stack of notStarted) lines.push(`  ${stack.stack}: ${stack.note}`);
  }
  if ((report.missingShards ?? []).length > 0) {
    lines.push("", `No report from shard ${report.missingShards?.join(", ")}: its runner did not finish, so its stacks are not in this table.`);
  }
  if (report.programs?.startsWith("in a process per stack: ") && !report.programs.endsWith("--isolated")) lines.push("", `Programs ran ${report.programs}.`);
  const interrupted = report.stacks.filter((stack) => stack.result === "interrupted");
  if (interrupted.length > 0) {
    lines.push("", `Interrupted while running, possibly mid-update: ${interrupted.map((stack) => stack.stack).join(", ")}.`, ...recoveryAdvice(report.verb));
  }
  return `${lines.join("\n")}\n`;
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
  return {
    verb: first.report.verb,
    project: first.report.project,
    parallel: files.reduce((sum, { report }) => sum + report.parallel, 0),
    interrupted: files.some(({ report }) => report.interrupted),
    ...(programs.length === 1 && programs[0] !== undefined ? { programs: programs[0] } : {}),
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

/**
 * What the next run does by itself for a stack whose operation was cut short. Nothing here needs
 * state surgery: the fleet released the locks it held (a lock left by a run killed outright is
 * taken over by the next run), the `up` or `destroy` after a takeover starts with a refresh that
 * clears the pending operations Pulumi recorded (creates included, which only such a refresh
 * drops), and every create is sent again with the idempotency key of its first attempt (before a
 * destroy, only the creates that were cut short, so that it deletes what they made).
 */
export function recoveryAdvice(verb: Verb): string[] {
  switch (verb) {
    case "up":
      return [
        "Run `fleet up` again: it completes them by itself. It reads what the service holds first, finishes what was cut short",
        "(a create is sent again with the same idempotency key, so an object made just before the interruption is found, not",
        "duplicated) and clears the pending operations Pulumi recorded. A lock left behind is taken over (see --stale-lock-after).",
      ];
    case "destroy":
      return ["Run `fleet destroy` again: it deletes what is left; an object already deleted counts as deleted."];
    default:
      return [`Run \`fleet ${verb}\` again: it reads every object afresh.`];
  }
}
