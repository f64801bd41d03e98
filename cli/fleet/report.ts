/**
 * The end of a fleet run: one row per stack (creates, updates, deletes, replaces, duration,
 * result), then what went wrong, what drifted and what was left mid-update. The same report is
 * written as JSON with `--json`.
 */
import type { DriftedObject } from "../drift/changes.js";
import { DRIFT_COLUMNS, driftCounts, driftLines } from "../drift/report.js";
import type { UnmanagedObject } from "../drift/unmanaged.js";
import type { ChangeCounts } from "./events.js";

export type Verb = "preview" | "up" | "refresh" | "destroy" | "drift";

/**
 * - `changes` / `no changes`: a preview.
 * - `succeeded`: an up, refresh or destroy that completed.
 * - `drifted` / `in sync`: a drift check (drifted: anything changed, deleted or paused by hand, or unmanaged).
 * - `failed`: the operation failed (`error` says why).
 * - `interrupted`: it was running when the fleet was interrupted; it may have stopped mid-update.
 * - `not started`: interrupted before its turn, or skipped (`note` says why).
 */
export type StackResult = "changes" | "no changes" | "succeeded" | "drifted" | "in sync" | "failed" | "interrupted" | "not started";

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
}

export interface FleetReport {
  verb: Verb;
  project: string;
  /** Stacks run at once. */
  parallel: number;
  /** The API budget (requests per second) and what each running stack got; absent when none was set. */
  rateLimit?: { budget: number; perStack: number };
  interrupted: boolean;
  /**
   * preview and up: where the client stacks' programs ran, `in the fleet process` (in-process.ts),
   * else `in a process per stack` and why.
   */
  programs?: string;
  stacks: StackReport[];
}

/** How the process exits: 0 all good, 1 a stack failed, 3 drift found, 130 interrupted. */
export const EXIT = { ok: 0, failed: 1, usage: 2, drifted: 3, interrupted: 130 } as const;

export function exitCodeOf(report: FleetReport): number {
  if (report.interrupted) return EXIT.interrupted;
  if (report.stacks.some((stack) => stack.result === "failed")) return EXIT.failed;
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
    stack.result,
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
  lines.push(...driftLines(report));
  const notStarted = report.stacks.filter((stack) => stack.result === "not started" && stack.note !== undefined);
  if (notStarted.length > 0) {
    lines.push("", "Not started:");
    for (const stack of notStarted) lines.push(`  ${stack.stack}: ${stack.note}`);
  }
  if (report.programs?.startsWith("in a process per stack: ") && !report.programs.endsWith("--isolated")) lines.push("", `Programs ran ${report.programs}.`);
  const interrupted = report.stacks.filter((stack) => stack.result === "interrupted");
  if (interrupted.length > 0) {
    lines.push("", `Interrupted while running, possibly mid-update: ${interrupted.map((stack) => stack.stack).join(", ")}.`, ...recoveryAdvice());
  }
  return `${lines.join("\n")}\n`;
}

/** How to bring back a stack whose update was cut short. */
export function recoveryAdvice(): string[] {
  return [
    "For each of them:",
    "  pulumi cancel -s STACK                 if a later run says an update is still in progress (the fleet already asked to cancel it)",
    "  pulumi stack export -s STACK > s.json  then remove what `pending_operations` lists and `pulumi stack import -s STACK --file s.json`",
    "  pulumi refresh -s STACK                to record what the service really holds, then run the fleet again",
  ];
}
