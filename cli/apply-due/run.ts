/**
 * `apply-due` on some stacks: the pauses and resumes due at now, and nothing else, at the least
 * cost. Each stack's state is read (`pulumi stack export`, no request to the service), its settings
 * from its files, and the pure plan finds what is due (provider/due.ts); a stack with nothing due
 * runs no Pulumi operation; the others run ONE `pulumi up --target <urn>... --refresh=false` in
 * the provider's "pauses only" mode (provider/pauses.ts), with the program in this process where
 * the fleet's runner can run it there. Every request goes through one token server, which counts
 * them.
 */
import { type LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { setTimeout as sleep } from "node:timers/promises";
import { deployInstant, handPauses } from "../../provider/config.js";
import { runBounded } from "../../provider/concurrency.js";
import { type DueChange, dueInState } from "../../provider/due.js";
import { FLEET_BUDGET_ENV } from "../../provider/fleet-budget.js";
import { PAUSES_ONLY_VARIABLE } from "../../provider/pauses.js";
import { EXIT } from "../command/exit.js";
import type { CommandIO } from "../command/io.js";
import { withoutRefresh, withoutResultReads } from "../fleet/stacks/operations.js";
import { describeStandingLock, takeOverDeadLocks } from "../fleet/runners/dead-locks.js";
import { describeTakenOver, type TakenOverLock } from "../fleet/runners/lease.js";
import { LOCK_RETRY_MS, lockHolderOf } from "../fleet/runners/lock.js";
import { COUNTING_BUDGET, type StackTarget, withSharedBudget } from "../fleet/targets.js";
import { programOf } from "../fleet/stacks/in-process.js";
import { commandErrorMessage } from "../project/errors.js";
import { plainSettingsOf } from "../project/settings.js";
import { exportedState } from "../project/state.js";
import { requestsBesideMinimum } from "../report/requests.js";
import { fleetWorkspace } from "../project/workspace.js";

export interface StackOutcome {
  stack: string;
  due: DueChange[];
  result: "nothing due" | "applied" | "failed" | "locked";
  error?: string;
  /** Locks of runs that died (an apply-due killed mid-run, say), taken over before the run. */
  takenOver?: TakenOverLock[];
}

export interface ApplyDueSummary {
  stacks: StackOutcome[];
  /** Requests sent to the service, every attempt counted (the token server's grants). */
  requests: number;
  /** One write per due change. */
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

/** Applies what is due in `targets`; prints the outcome. */
export async function applyDue(targets: readonly StackTarget[], { atOnce, budget, waitLockMs, json = false }: ApplyDueOptions, io: Pick<CommandIO, "stdout" | "env">): Promise<number> {
  const { result, use } = await withSharedBudget(budget ?? COUNTING_BUDGET, async (address) => {
    const settled = await runBounded(targets, atOnce, (target) => applyDueOn(target, address as string, Date.now() + waitLockMs, io.env));
    return settled.map((outcome, index): StackOutcome => {
      const stack = targets[index]!.label;
      if (outcome.status === "fulfilled") return outcome.value;
      return { stack, due: [], result: "failed", error: outcome.status === "rejected" ? commandErrorMessage(outcome.reason) : "not started" };
    });
  });
  const summary: ApplyDueSummary = { stacks: result, requests: use?.granted ?? 0, minimum: result.reduce((sum, stack) => sum + stack.due.length, 0) };
  io.stdout.write(json ? `${JSON.stringify(summary, null, 2)}\n` : renderSummary(summary));
  return result.some((stack) => stack.result === "failed" || stack.result === "locked") ? EXIT.failed : EXIT.ok;
}

/** One stack: what is due from its state, and, when something is, the one targeted run that applies it. */
async function applyDueOn(target: StackTarget, budgetAddress: string, waitLockUntil: number, env: NodeJS.ProcessEnv): Promise<StackOutcome> {
  const [exported, setting] = await Promise.all([exportedState(target.workspace, target.name), plainSettingsOf(target.project, target.name)]);
  const due = dueInState(exported, deployInstant(setting, env), handPauses(setting));
  if (due.length === 0) return { stack: target.label, due, result: "nothing due" };
  // A workspace of its own: its CLI runs carry the "pauses only" mode and the token server's address to the provider.
  const workspace: LocalWorkspace = await fleetWorkspace(target.workspace.workDir);
  Object.assign(workspace.envVars, { [PAUSES_ONLY_VARIABLE]: "1", [FLEET_BUDGET_ENV]: budgetAddress });
  const stack = withoutRefresh(withoutResultReads(await Stack.select(target.name, workspace)));
  const takenOver: TakenOverLock[] = [];
  const outcome = (result: StackOutcome["result"], error?: string): StackOutcome => ({ stack: target.label, due, result, ...(error === undefined ? {} : { error }), ...(takenOver.length > 0 ? { takenOver } : {}) });
  for (;;) {
    try {
      await stack.up({ target: [...new Set(due.map((change) => change.urn))], ...programOf(target.project) });
      return outcome("applied");
    } catch (error) {
      const lock = lockHolderOf(error);
      if (lock === undefined) return outcome("failed", commandErrorMessage(error));
      // Nothing was done: the lock of a run that died is taken over, as the fleet does, and the run starts again.
      const judged = takenOver.length < MAX_TAKEOVERS ? await takeOverDeadLocks(target.project, workspace, target.name) : undefined;
      if (judged !== undefined && "taken" in judged) {
        takenOver.push(...judged.taken);
        continue;
      }
      // A deploy holds the stack: the same run can start again once it ends.
      if (Date.now() < waitLockUntil) {
        await sleep(Math.min(LOCK_RETRY_MS, waitLockUntil - Date.now()));
        continue;
      }
      return outcome("locked", describeStandingLock(lock, judged));
    }
  }
}

/** Locks taken over on one stack in one run, at most: a stack that keeps being locked anew is reported. */
const MAX_TAKEOVERS = 3;

/** `web` or `fleet[api]`. */
function objectName(change: DueChange): string {
  return change.member === undefined ? change.resource : `${change.resource}[${change.member}]`;
}

function describeChange(change: DueChange): string {
  return change.paused ? `pause ${objectName(change)} ('${change.reason}')` : `resume ${objectName(change)}`;
}

/** One line per stack, then the requests sent beside the minimum. */
export function renderSummary({ stacks, requests, minimum }: ApplyDueSummary): string {
  const width = Math.max(0, ...stacks.map((stack) => stack.stack.length));
  const lines = stacks.map((stack) => {
    const changes = stack.due.map(describeChange).join(", ");
    const undone = `not applied: ${changes || "unknown"}`;
    // A lock's description starts with "locked (by …".
    const what = stack.result === "nothing due" ? "nothing due (no Pulumi operation)" : stack.result === "applied" ? `applied: ${changes}` : stack.result === "locked" ? `${stack.error}; ${undone}` : `${stack.result} (${stack.error}); ${undone}`;
    const takenOver = (stack.takenOver ?? []).map((lock) => `${"".padEnd(width)}  took over ${describeTakenOver(lock)}`);
    return [`${stack.stack.padEnd(width)}  ${what}`, ...takenOver].join("\n");
  });
  const idle = stacks.filter((stack) => stack.result === "nothing due").length;
  lines.push("", `${requestsBesideMinimum(requests, minimum, "one write per due change")}; ${idle} of ${stacks.length} stack${stacks.length === 1 ? "" : "s"} had nothing due`);
  return `${lines.join("\n")}\n`;
}
