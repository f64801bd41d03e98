/**
 * The lock loop (lock-loop.ts) for a command that writes one stack outside a fleet run (`pause`,
 * `resume`, `apply-due`, their fleet verbs): the backend's lock store opened for the write, and the
 * fleet's default rules, so that the lock of a run killed mid-write is taken over and the write
 * runs once more, instead of blocking the stack until someone types `pulumi cancel`.
 */
import { basename } from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import type { FleetProject } from "../../project/project.js";
import { backendUrlOf, openLockStore } from "./backend.js";
import { DEFAULT_STALE_AFTER_MS, type LockPolicy, type TakenOverLock } from "./lease.js";
import { runUnderLock } from "./lock-loop.js";

export { StackLockedError } from "./lock-loop.js";

/** The fleet's defaults: a dead process of this host, or a lease unrenewed for a minute. */
const DEFAULT_POLICY: LockPolicy = { staleAfterMs: DEFAULT_STALE_AFTER_MS, pidCheck: true };

export interface LockWait {
  /** How long to wait for a live lock (a deploy) to go, in milliseconds: 0 reports it at once. */
  waitLockMs?: number;
}

/**
 * Runs `write`, which writes the stack through the CLI, under the lock loop; throws a
 * `StackLockedError` naming the holder of a lock that stands and why.
 */
export async function writeStack<T>(project: FleetProject, workspace: LocalWorkspace, stack: string, write: () => Promise<T>, { waitLockMs = 0 }: LockWait = {}): Promise<{ result: T; takenOver: TakenOverLock[] }> {
  const store = await openLockStore(await backendUrlOf(project, workspace)).catch(() => undefined);
  const takenOver: TakenOverLock[] = [];
  try {
    const result = await runUnderLock({ store, stack: { project: project.name, stack: basename(stack) }, policy: DEFAULT_POLICY, waitUntil: Date.now() + waitLockMs }, () => write(), takenOver);
    return { result, takenOver };
  } finally {
    await store?.close().catch(() => undefined);
  }
}
