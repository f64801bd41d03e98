/**
 * Leases: proof, kept beside the state while the fleet runs a stack, that the run holding its lock
 * is alive, so that the lock of a run that died is taken over by the next run instead of blocking
 * the stack until someone types `pulumi cancel`. How locks are judged and why taking one over is
 * safe: docs/architecture.md, "Locks and leases".
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { hostname, userInfo } from "node:os";
import { promisify } from "node:util";
import type { LockHolder } from "./lock.js";
import type { Lease, LeaseHolder, LockStore, StackPath, StoredLock } from "./lock-store.js";

/** What a run does about locks it finds: `--stale-lock-after`, `--break-locks-older-than`, `--no-pid-check`. */
export interface LockPolicy {
  staleAfterMs: number;
  breakOlderThanMs?: number;
  /** A lock of this host whose pid no longer exists is stale at once (off where host names repeat). */
  pidCheck: boolean;
}

export const DEFAULT_STALE_AFTER_MS = 60_000;

/** How often a runner renews its leases: a quarter of its threshold, at most every 5 s. */
export function renewalPeriod(staleAfterMs: number): number {
  return Math.max(250, Math.min(5_000, Math.floor(staleAfterMs / 4)));
}

/** How long a lease may go unrenewed before it is stale: the reader's threshold, never under three renewals. */
export function staleThreshold(policy: LockPolicy, lease: Pick<Lease, "renewEveryMs"> | undefined): number {
  return Math.max(policy.staleAfterMs, 3 * (lease?.renewEveryMs ?? 0));
}

export type Verdict = { stale: boolean; why: string };

/** Where the judging run is: its host name and a way to tell whether a pid of this host exists. */
export interface Here {
  host: string;
  pidExists(pid: number): boolean;
}

export const thisHost = (): Here => ({ host: hostname(), pidExists });

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // A killed process whose parent died too may stay a zombie where nothing reaps orphans (a
  // container's first process): it answers signals but runs no more.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/** `95 s`, `4 min`, `2 h 5 min`. */
export function formatAge(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * Whether the run that holds `lock` is dead, and why, in the words the report uses. The order
 * matters: a process of this host answers for itself (dead: stale at once; running: alive,
 * whatever its lease says); then the lease; a lock without one is another tool's (a plain
 * `pulumi up`), taken over only past `--break-locks-older-than`.
 */
export function judgeLock(lock: StoredLock, lease: Lease | undefined, policy: LockPolicy, here: Here): Verdict {
  const { holder } = lock;
  if (policy.pidCheck && holder.host === here.host) {
    return here.pidExists(holder.pid)
      ? { stale: false, why: `its process (pid ${holder.pid}) is still running on this host` }
      : { stale: true, why: `its process (pid ${holder.pid}) no longer exists on this host (${here.host})` };
  }
  if (lease !== undefined) {
    const threshold = staleThreshold(policy, lease);
    return lease.ageMs > threshold
      ? { stale: true, why: `its lease was last renewed ${formatAge(lease.ageMs)} ago (stale after ${formatAge(threshold)}, --stale-lock-after)` }
      : { stale: false, why: `its run renewed its lease ${formatAge(lease.ageMs)} ago` };
  }
  if (policy.breakOlderThanMs !== undefined && lock.ageMs > policy.breakOlderThanMs) {
    return { stale: true, why: `it has no lease and is ${formatAge(lock.ageMs)} old (--break-locks-older-than ${formatAge(policy.breakOlderThanMs)})` };
  }
  return {
    stale: false,
    why:
      "it has no lease (a Pulumi command run outside the fleet, or a fleet without leases), so it is never taken over by itself: " +
      "once sure that run is over, run `pulumi cancel`, or give a fleet command --break-locks-older-than",
  };
}

/** A lock this run took over: whose it was, since when, and why it was judged dead. */
export interface TakenOverLock {
  holder: LockHolder;
  why: string;
}

/** `the lock of ci@runner-7 (pid 4242, since …): its process (pid 4242) no longer exists on this host (vm)` */
export function describeTakenOver({ holder, why }: TakenOverLock): string {
  return `the lock of ${holder.user}@${holder.host} (pid ${holder.pid}, since ${holder.since}): ${why}`;
}

export type TakeOver = { taken: TakenOverLock[] } | { held: { holder: LockHolder; why: string } };

/**
 * Judges every lock of the stack and, when all are stale, deletes them: `taken` lists them (empty
 * when the stack was no longer locked). When one is alive, `held` says whose and why, and nothing
 * is deleted.
 */
export async function takeOverStaleLocks(store: LockStore, stack: StackPath, policy: LockPolicy, here: Here = thisHost(), attempt = 1): Promise<TakeOver> {
  const locks = await store.locksOf(stack);
  const leases = await store.leasesOf(locks.map((lock) => lock.key));
  const judged = locks.map((lock) => ({ lock, lease: leases.get(lock.key), verdict: judgeLock(lock, leases.get(lock.key), policy, here) }));
  const alive = judged.find(({ verdict }) => !verdict.stale);
  if (alive !== undefined) {
    // A runner taking the same lock over at this moment deletes the lock, then its lease: read in
    // between, the lock looks leaseless, which counts as alive. Only a lock still there holds the stack.
    const stillLocked = (await store.locksOf(stack)).some((lock) => lock.key === alive.lock.key);
    if (!stillLocked && attempt < 3) return takeOverStaleLocks(store, stack, policy, here, attempt + 1);
    return { held: { holder: alive.lock.holder, why: alive.verdict.why } };
  }
  const taken: TakenOverLock[] = [];
  for (const { lock, lease, verdict } of judged) {
    // Not "no renewal within the threshold": a runner killed a moment ago renewed its lease just
    // before, and its lock, stale at once by the pid rule, would stay until the lease expired.
    if (await store.breakLock(lock.key, lease)) taken.push({ holder: lock.holder, why: verdict.why });
  }
  return { taken };
}

// ---------------------------------------------------------------------------------------------
// Keeping a lease while a stack's operation runs

/** How often the runner looks for the lock its CLI process takes, until it finds it. */
const FIND_LOCK_EVERY_MS = 300;

/**
 * Keeps a lease on the lock the CLI process this runner started takes for `stack`, from when it
 * appears until `stop`. At the end the lease goes with the lock; a lock the CLI left behind (it
 * crashed) keeps its lease unrenewed, so that it turns stale and the next run takes it over.
 * Failures to reach the backend are retried at the next renewal: they never fail the operation.
 */
export function keepLease(store: LockStore, stack: StackPath, renewEveryMs: number, isOurs: (holder: LockHolder) => Promise<boolean> = startedByThisProcess): { stop(): Promise<void> } {
  const me: LeaseHolder = { host: hostname(), user: userInfo().username, pid: process.pid };
  let lockKey: string | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> = Promise.resolve();

  const step = async (): Promise<void> => {
    try {
      if (lockKey === undefined) {
        for (const lock of await store.locksOf(stack)) {
          if (lock.holder.host === me.host && (await isOurs(lock.holder))) lockKey = lock.key;
        }
      }
      if (lockKey !== undefined && !stopped) await store.renew(lockKey, stack, me, renewEveryMs);
    } catch {
      // The backend did not answer: the next tick tries again.
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick = step().finally(schedule);
    }, lockKey === undefined ? FIND_LOCK_EVERY_MS : renewEveryMs);
    timer.unref();
  };
  tick = step().finally(schedule);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await tick;
      if (lockKey === undefined) return;
      try {
        const stillLocked = (await store.locksOf(stack)).some((lock) => lock.key === lockKey);
        if (!stillLocked) await store.dropLease(lockKey);
      } catch {
        // Left behind, the lease expires: harmless once its lock is gone.
      }
    },
  };
}

const run = promisify(execFile);

/** The parent of a process: from /proc on Linux, else from `ps`. */
async function parentOf(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    try {
      return Number((await run("ps", ["-o", "ppid=", "-p", String(pid)])).stdout.trim()) || undefined;
    } catch {
      return undefined;
    }
  }
}

/** Whether the lock's process is one this runner started (its child, or a child's child). */
export async function startedByThisProcess(holder: LockHolder): Promise<boolean> {
  let pid: number | undefined = holder.pid;
  for (let depth = 0; depth < 4 && pid !== undefined && pid > 1; depth++) {
    pid = await parentOf(pid);
    if (pid === process.pid) return true;
  }
  return false;
}
