/**
 * The fleet's report as a table: one row per stack (change counts, or drift counts under drift;
 * duration, result), then what went wrong, what drifted and what was left mid-update.
 */
import { describeTakenOver } from "../fleet/runners/lease.js";
import { describeLock } from "../fleet/runners/lock.js";
import type { UnmanagedObject } from "../drift/unmanaged.js";
import { describeHandPause, describeHold, describeKept, DRIFT_COUNT_TITLES, driftCounts, type Finding, formatValue, HEADINGS, type Sections, sectionsOf } from "./drift.js";
import type { FleetReport, Verb } from "./fleet.js";

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
      for (const lock of stack.takenOver ?? []) lines.push(`  ${stack.stack}: ${describeTakenOver(lock)}`);
    }
  }
  lines.push(...driftLines(report));
  const notStarted = report.stacks.filter((stack) => stack.result === "not started" && stack.note !== undefined);
  if (notStarted.length > 0) {
    lines.push("", "Not started:");
    for (const stack of notStarted) lines.push(`  ${stack.stack}: ${stack.note}`);
  }
  const affected = report.selection === "affected" ? report.stacks.filter((stack) => stack.affected !== undefined) : [];
  if (affected.length > 0) {
    lines.push("", "Run, as the change affects them:");
    for (const stack of affected) lines.push(`  ${stack.stack}: ${stack.affected}`);
  }
  const skipped = report.stacks.filter((stack) => stack.result === "skipped");
  if (skipped.length > 0) {
    lines.push("", `Skipped, nothing affected them since their last deploy (--all runs them too): ${skipped.length}`);
    for (const stack of skipped) lines.push(`  ${stack.stack}: ${stack.note ?? "unaffected"}`);
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

export const DRIFT_COLUMNS = ["stack", ...DRIFT_COUNT_TITLES, "duration", "result"] as const;

const withId = (object: { id?: string | undefined }): string => (object.id === undefined ? "" : ` (id ${object.id})`);

/** The drift sections under the fleet's table: lines, each section headed, empty when in sync. */
function driftLines(report: FleetReport): string[] {
  const sections = sectionsOf(report.stacks);
  const lines: string[] = [];
  const section = (key: keyof Sections, rows: string[]): void => {
    if (rows.length === 0) return;
    const [title, note] = HEADINGS[key];
    lines.push("", `${title}. ${note}`, ...rows);
  };
  section("paused", sections.paused.map(({ stack, object }) => `  ${stack}: ${object.type} ${object.name}${withId(object)}: ${object.paused === undefined ? "" : describeHandPause(object.paused)}`));
  const fieldLine = ({ stack, object, field }: Finding): string =>
    `  ${stack}: ${object.type} ${object.name}: ${field?.field} ${formatValue(field?.recorded)} -> ${formatValue(field?.actual)}`;
  section("putBack", sections.putBack.map(fieldLine));
  section("kept", sections.kept.map(fieldLine));
  section("known", sections.known.map(({ stack, object }) => `${fieldLine({ stack, object: { ...object, drift: "changed", fields: [] }, field: { ...object, declared: false } })}, ${describeKept(object)}`));
  section("deleted", sections.deleted.map(({ stack, object }) => `  ${stack}: ${object.type} ${object.name}${withId(object)}`));
  section("overrides", sections.overrides.map(({ stack, object }) => `  ${stack}: ${object.type} ${object.name}${withId(object)}: ${describeHold(object)}`));
  section(
    "unmanaged",
    sections.unmanaged.flatMap(({ stack, object }) => [
      `  ${stack}: ${describeUnmanaged(object)}`,
      ...object.adopt.split("\n").map((line) => `      ${line}`),
    ]),
  );
  return lines;
}

/** `Monitor "Stray" (id …, in client …)`. */
function describeUnmanaged(object: UnmanagedObject): string {
  return `${object.kind} ${JSON.stringify(object.name)} (id ${object.id}${object.clientId === undefined ? ", outside any client" : `, in client ${object.clientId}`})`;
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
