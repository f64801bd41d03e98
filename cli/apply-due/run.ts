/**
 * `apply-due` on some stacks: the pauses and resumes due at now, and nothing else, at the least
 * cost. Each stack's state is read (from a file backend's own file, or a PostgreSQL backend's row,
 * those of all the stacks in one query; else `pulumi stack export`; no request to the service) and
 * its settings from its files, and the pure plan finds what is due (cli/apply-due/due.ts); a stack
 * with nothing due sends nothing and writes nothing. The others get exactly those calls and one write of
 * their state (cli/overrides/writes.ts), decided and applied from the same state: the stack's
 * program is never run, so changes it has not deployed yet wait for the next deploy. Every request
 * goes through one token server, which counts them.
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { deployInstant, handPauses } from "../../provider/config.js";
import { runBounded } from "../../provider/concurrency.js";
import { EXIT } from "../command/exit.js";
import type { CommandIO } from "../command/io.js";
import { describeTakenOver, type TakenOverLock } from "../fleet/runners/lease.js";
import { COUNTING_BUDGET, type StackTarget, withSharedBudget } from "../fleet/targets.js";
import { commandErrorMessage } from "../project/errors.js";
import { plainSettingsOf } from "../project/settings.js";
import { backendUrlOf } from "../fleet/runners/backend.js";
import { targetStates } from "../fleet/runners/stack-state.js";
import { requestsBesideMinimum } from "../report/requests.js";
import { applyPauseChanges } from "../overrides/writes.js";
import { type DueChange, dueInState } from "./due.js";

/** One change of a stack as the summary shows it. */
export interface DueRow {
  urn: string;
  /** `web`, `fleet[api]`. */
  object: string;
  type: string;
  /** What the call makes the object; absent: no call, an ended override dropped from the state. */
  paused?: boolean;
  reason: string;
  /** The call went through and the state records it. */
  done: boolean;
  /** Why not, when not done. */
  error?: string;
}

export interface StackOutcome {
  stack: string;
  due: DueRow[];
  /** `locked`: the calls went through but a live run held the state, so it does not record them yet. */
  result: "nothing due" | "applied" | "failed" | "locked";
  error?: string;
  /** Locks of runs that died (an apply-due killed mid-run, say), taken over to record. */
  takenOver?: TakenOverLock[];
}

export interface ApplyDueSummary {
  stacks: StackOutcome[];
  /** Requests sent to the service, every attempt counted (the token server's grants). */
  requests: number;
  /** One call per due pause or resume. */
  minimum: number;
}

export interface ApplyDueOptions {
  /** Stacks at a time. */
  atOnce: number;
  /** Requests per second across the stacks, if the project or the command line sets a budget. */
  budget: number | undefined;
  /** How long to retry a stack another run holds locked (a deploy), in milliseconds. */
  waitLockMs: number;
  /** The summary as JSON ({@link ApplyDueSummary}) instead of lines, for the job that runs it. */
  json?: boolean;
}

/** Applies what is due in `targets`; prints the outcome. Exits 1 when a change due did not happen, or is not recorded. */
export async function applyDue(targets: readonly StackTarget[], { atOnce, budget, waitLockMs, json = false }: ApplyDueOptions, io: Pick<CommandIO, "stdout" | "env">): Promise<number> {
  const { result, use } = await withSharedBudget(budget ?? COUNTING_BUDGET, async (address) => {
    // One backend for the stacks of a project: asked once (the CLI's `whoami` when nothing names it), not per stack.
    const backends = new Map<string, Promise<string | undefined>>();
    const backendOf = (target: StackTarget) => backends.get(target.project.dir) ?? backends.set(target.project.dir, backendUrlOf(target.project, target.workspace)).get(target.project.dir)!;
    const stateOf = targetStates(targets, backendOf);
    const settled = await runBounded(targets, atOnce, async (target) => applyDueOn(target, stateOf, address as string, waitLockMs, io.env));
    return settled.map((outcome, index): StackOutcome => {
      const stack = targets[index]!.label;
      if (outcome.status === "fulfilled") return outcome.value;
      return { stack, due: [], result: "failed", error: outcome.status === "rejected" ? commandErrorMessage(outcome.reason) : "not started" };
    });
  });
  const minimum = result.reduce((sum, stack) => sum + stack.due.filter((row) => row.paused !== undefined).length, 0);
  const summary: ApplyDueSummary = { stacks: result, requests: use?.granted ?? 0, minimum };
  io.stdout.write(json ? `${JSON.stringify(summary, null, 2)}\n` : renderSummary(summary));
  return result.some((stack) => stack.result === "failed" || stack.result === "locked") ? EXIT.failed : EXIT.ok;
}

/** One stack: what is due from its state, and, when something is, its calls and one write of its state. */
async function applyDueOn(target: StackTarget, stateOf: (target: StackTarget) => Promise<Deployment>, budget: string, waitLockMs: number, env: NodeJS.ProcessEnv): Promise<StackOutcome> {
  // The job every 15 minutes mostly finds nothing due: reading the state costs no CLI run where it can.
  const [exported, setting] = await Promise.all([stateOf(target), plainSettingsOf(target.project, target.name)]);
  const due = dueInState(exported, deployInstant(setting, env), handPauses(setting));
  if (due.length === 0) return { stack: target.label, due: [], result: "nothing due" };
  const access = { project: target.project, stack: target.name, workspace: target.workspace, budget };
  const { outcomes, takenOver, unrecorded } = await applyPauseChanges(access, due, { waitLockMs });
  const rows = outcomes.map(({ change, error }) => rowOf(change as DueChange, error ?? unrecorded));
  const failed = rows.some((row) => !row.done);
  const locked = unrecorded?.startsWith("locked") === true && outcomes.every((outcome) => outcome.error === undefined);
  return {
    stack: target.label,
    due: rows,
    result: locked ? "locked" : failed ? "failed" : "applied",
    ...(failed ? { error: unrecorded ?? outcomes.find((outcome) => outcome.error !== undefined)?.error } : {}),
    ...(takenOver.length > 0 ? { takenOver } : {}),
  };
}

function rowOf(change: DueChange, error: string | undefined): DueRow {
  const { target } = change;
  return {
    urn: target.urn,
    object: target.name,
    type: target.kind,
    ...(change.write === undefined ? {} : { paused: change.write }),
    reason: change.reason,
    done: error === undefined,
    ...(error === undefined ? {} : { error }),
  };
}

function describeRow(row: DueRow): string {
  const what = row.paused === undefined ? `drop the ended override of ${row.object}` : row.paused ? `pause ${row.object} ('${row.reason}')` : `resume ${row.object}`;
  return row.done ? what : `${what}: NOT DONE (${row.error})`;
}

/** One line per stack, then the requests sent beside the minimum. */
export function renderSummary({ stacks, requests, minimum }: ApplyDueSummary): string {
  const width = Math.max(0, ...stacks.map((stack) => stack.stack.length));
  const lines = stacks.map((stack) => {
    const changes = stack.due.map(describeRow).join(", ");
    // A lock's description starts with "locked (by …".
    const what =
      stack.result === "nothing due"
        ? "nothing due (nothing sent, nothing written)"
        : stack.result === "applied"
          ? `applied: ${changes}`
          : stack.result === "locked"
            ? `${stack.error}; sent but not recorded yet (the next apply-due or deploy records it): ${changes}`
            : `failed: ${changes || stack.error}`;
    const takenOver = (stack.takenOver ?? []).map((lock) => `${"".padEnd(width)}  took over ${describeTakenOver(lock)}`);
    return [`${stack.stack.padEnd(width)}  ${what}`, ...takenOver].join("\n");
  });
  const idle = stacks.filter((stack) => stack.result === "nothing due").length;
  lines.push("", `${requestsBesideMinimum(requests, minimum, "one call per due pause or resume")}; ${idle} of ${stacks.length} stack${stacks.length === 1 ? "" : "s"} had nothing due`);
  return `${lines.join("\n")}\n`;
}
