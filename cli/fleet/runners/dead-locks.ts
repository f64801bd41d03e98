/**
 * A command that writes a stack outside a fleet run (`pause`, `resume`, `apply-due`, their fleet
 * verbs) found the stack locked: the lock is judged by the fleet's rules (docs/architecture.md,
 * "Locks and leases"), so that the lock of a run that died, killed mid-run, is taken over and the
 * operation runs once more, instead of blocking the stack until someone types `pulumi cancel`.
 */
import { basename } from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import type { FleetProject } from "../../project/project.js";
import { backendUrlOf, openLockStore } from "./backend.js";
import { DEFAULT_STALE_AFTER_MS, type LockPolicy, type TakeOver, type TakenOverLock, takeOverStaleLocks } from "./lease.js";
import { describeLock, type LockHolder, lockHolderOf } from "./lock.js";

/** The fleet's defaults: a dead process of this host, or a lease unrenewed for a minute. */
const DEFAULT_POLICY: LockPolicy = { staleAfterMs: DEFAULT_STALE_AFTER_MS, pidCheck: true };

/** The stack is locked by a run that is alive, or that the rules cannot call dead. */
export class StackLockedError extends Error {}

/**
 * Judges the locks of a stack whose operation the CLI refused for a lock, and deletes them when
 * every one belongs to a run that died; undefined when the backend keeps no locks to judge.
 */
export async function takeOverDeadLocks(project: FleetProject, workspace: LocalWorkspace, stack: string): Promise<TakeOver | undefined> {
  const store = await openLockStore(await backendUrlOf(project, workspace)).catch(() => undefined);
  if (store === undefined) return undefined;
  try {
    return await takeOverStaleLocks(store, { project: project.name, stack: basename(stack) }, DEFAULT_POLICY);
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** `locked (by ci@runner-7, pid 4242, since …), and its lock stands: its run renewed its lease 3 s ago` */
export function describeStandingLock(holder: LockHolder, judged: TakeOver | undefined): string {
  if (judged !== undefined && "held" in judged) return `${describeLock(judged.held.holder)}, and its lock stands: ${judged.held.why}`;
  return `${describeLock(holder)}: its backend keeps no locks this command can judge; once sure that run is over, run \`pulumi cancel\``;
}

/**
 * Runs `operation` on the stack; when the CLI refuses it because the stack is locked, takes over
 * the locks of runs judged dead and runs it once more (a lock is taken only when the CLI refused,
 * so nothing was written). Throws a {@link StackLockedError} naming the holder and why its lock
 * stands otherwise.
 */
export async function runTakingOverDeadLocks<T>(
  project: FleetProject,
  workspace: LocalWorkspace,
  stack: string,
  operation: () => Promise<T>,
): Promise<{ result: T; takenOver: TakenOverLock[] }> {
  try {
    return { result: await operation(), takenOver: [] };
  } catch (error) {
    const holder = lockHolderOf(error);
    if (holder === undefined) throw error;
    const judged = await takeOverDeadLocks(project, workspace, stack);
    if (judged === undefined || "held" in judged) throw new StackLockedError(describeStandingLock(holder, judged));
    return { result: await operation(), takenOver: judged.taken };
  }
}
