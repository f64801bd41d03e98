/**
 * The report of `verify` and `fleet verify`, as data: per stack, one entry per object with its
 * verdict and what the server said. Its renderings (table, JSON, JUnit, markdown): render.ts.
 */
import { EXIT } from "../command/exit.js";
import type { TargetKind } from "./targets.js";

export type Verdict = "passed" | "failed" | "skipped";

export interface VerifyEntry {
  kind: TargetKind;
  /** The resource's name in the program. */
  name: string;
  id: string;
  verdict: Verdict;
  /** One line: why this verdict. */
  reason: string;
  /** Set when the verification itself failed (no connection, refused key, 5xx): the object was not verified. */
  error?: boolean;
  /** What the server said, as it said it: the check's acknowledgement and new results, a delivery, a test's answer. */
  details?: Record<string, unknown>;
  durationMs: number;
}

export interface StackVerification {
  stack: string;
  /** `last deploy`: what the stack's last `pulumi up` created or changed; `all`: every object. */
  scope: "last deploy" | "all";
  entries: VerifyEntry[];
  /** The stack could not be verified at all (its state, configuration or the service unreadable). */
  error?: string;
  /** Something the reader should know, e.g. objects of kinds verify does not test. */
  notes?: string[];
}

export interface VerifyReport {
  project: string;
  /** `fleet verify --shard I/N`: this runner's share. */
  shard?: string;
  stacks: StackVerification[];
}

/** 0 every object passed (or was skipped), 1 something could not be verified, 3 an object failed. */
export function verifyExitCode(report: VerifyReport): number {
  if (report.stacks.some((stack) => stack.error !== undefined || stack.entries.some((entry) => entry.error))) return EXIT.failed;
  if (report.stacks.some((stack) => stack.entries.some((entry) => entry.verdict === "failed"))) return EXIT.found;
  return EXIT.ok;
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export function countsOf(entries: readonly VerifyEntry[]): Counts {
  return {
    passed: entries.filter((entry) => entry.verdict === "passed").length,
    failed: entries.filter((entry) => entry.verdict === "failed").length,
    skipped: entries.filter((entry) => entry.verdict === "skipped").length,
  };
}

export const allEntries = (report: VerifyReport): Array<{ stack: string; entry: VerifyEntry }> =>
  report.stacks.flatMap((stack) => stack.entries.map((entry) => ({ stack: stack.stack, entry })));
