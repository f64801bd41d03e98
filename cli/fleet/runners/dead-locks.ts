/**
 * The lock loop of a command that writes a stack outside a fleet run (`pause`, `resume`,
 * `apply-due`, their fleet verbs): a lease on the lock while it writes, and a lock found judged by
 * the fleet's rules (docs/architecture.md, "Locks and leases"), so that the lock of a run that died,
 * killed mid-run, is taken over and the write runs once more, instead of blocking the stack until
 * someone types `pulumi cancel`.
 */
import { basename } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import type { FleetProject } from "../../project/project.js";
import { backendUrlOf, openLockStore } from "./backend.js";
import { DEFAULT_STALE_AFTER_MS, keepLease, type LockPolicy, renewalPeriod, type TakeOver, type TakenOverLock, takeOverStaleLocks } from "./lease.js";
import { describeLock, LOCK_RETRY_MS, type LockHolder, lockHolderOf } from "./lock.js";

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

/** Locks taken over on one stack by one command, at most: a stack that keeps being locked anew is reported. */
const MAX_TAKEOVERS = 3;

export interface LockWait {
  /** How long to wait for a live lock (a deploy) to go, in milliseconds: 0 reports it at once. */
  waitLockMs?: number;
}

/**
 * Runs `operation`, which writes the stack through the CLI (which takes the stack's lock for it),
 * keeping a lease on that lock meanwhile, so that if this runner dies mid-write the next runner,
 * on any host, takes the lock over instead of waiting for someone to type `pulumi cancel`. When the
 * CLI refuses it for a lock, nothing was written: the locks of runs judged dead are taken over (at
 * most three times) and `operation` runs again; a live lock is waited for up to `waitLockMs`, then
 * a {@link StackLockedError} names its holder and why it stands.
 */
export async function runUnderLock<T>(project: FleetProject, workspace: LocalWorkspace, stack: string, operation: () => Promise<T>, { waitLockMs = 0 }: LockWait = {}): Promise<{ result: T; takenOver: TakenOverLock[] }> {
  const store = await openLockStore(await backendUrlOf(project, workspace)).catch(() => undefined);
  const stackPath = { project: project.name, stack: basename(stack) };
  const waitUntil = Date.now() + waitLockMs;
  const takenOver: TakenOverLock[] = [];
  try {
    for (;;) {
      const lease = store === undefined ? undefined : keepLease(store, stackPath, renewalPeriod(DEFAULT_POLICY.staleAfterMs));
      try {
        return { result: await operation(), takenOver };
      } catch (error) {
        const holder = lockHolderOf(error);
        if (holder === undefined) throw error;
        const judged = store === undefined || takenOver.length >= MAX_TAKEOVERS ? undefined : await takeOverStaleLocks(store, stackPath, DEFAULT_POLICY);
        if (judged !== undefined && "taken" in judged) {
          takenOver.push(...judged.taken);
          continue;
        }
        const wait = Math.min(LOCK_RETRY_MS, waitUntil - Date.now());
        if (wait <= 0) throw new StackLockedError(describeStandingLock(holder, judged));
        await sleep(wait);
      } finally {
        await lease?.stop();
      }
    }
  } finally {
    await store?.close().catch(() => undefined);
  }
}
