/**
 * The one lock loop: every command that writes a stack (a fleet run's operation, `pause`,
 * `resume`, `apply-due`) runs its write through it. A lease is kept on the lock the CLI takes for
 * the write, so that if the runner dies mid-write the next runner, on any host, takes the lock
 * over (lease.ts). When the CLI refuses the write for a lock, nothing was written: the locks of
 * runs judged dead are taken over (at most {@link MAX_TAKEOVERS} times) and the write runs again; a
 * live lock is waited for until `waitUntil`, then reported: docs/architecture.md, "Locks and leases".
 */
import { setTimeout as sleep } from "node:timers/promises";
import { keepLease, type LockPolicy, renewalPeriod, type TakeOver, type TakenOverLock, takeOverStaleLocks } from "./lease.js";
import { describeLock, LOCK_RETRY_MS, type LockHolder, lockHolderOf } from "./lock.js";
import type { LockStore, StackPath } from "./lock-store.js";

/** Locks taken over on one stack by one write, at most: a stack that keeps being locked anew is reported. */
const MAX_TAKEOVERS = 3;

export interface LockLoop {
  /** Where the backend keeps its locks and the leases on them; undefined: a backend this loop cannot judge. */
  store: LockStore | undefined;
  stack: StackPath;
  policy: LockPolicy;
  /** Until when (epoch milliseconds) a live lock is waited for; before now: reported at once. */
  waitUntil: number;
  /** Ends a wait early (Ctrl-C). */
  signal?: AbortSignal;
  /** Told while a lock that refused the write is judged, then while a live one is waited for. */
  onJudging?(holder: LockHolder): void;
  onWaiting?(holder: LockHolder): void;
}

/**
 * The stack is held by a run that is alive, or that the rules cannot call dead. It carries the
 * CLI's refusal (`commandResult`), so that what reads a lock error reads it, and why the lock stands.
 */
export class StackLockedError extends Error {
  readonly holder: LockHolder;
  /** Why the lock was judged alive; undefined when no store could judge it. */
  readonly why: string | undefined;
  readonly commandResult: { stderr: string } | undefined;

  constructor(holder: LockHolder, judged: TakeOver | undefined, refusal: unknown) {
    super(describeStandingLock(holder, judged));
    this.holder = holder;
    this.why = judged !== undefined && "held" in judged ? judged.held.why : undefined;
    this.commandResult = (refusal as { commandResult?: { stderr: string } }).commandResult;
  }
}

/** `locked (by ci@runner-7, pid 4242, since …), and its lock stands: its run renewed its lease 3 s ago` */
export function describeStandingLock(holder: LockHolder, judged: TakeOver | undefined): string {
  if (judged !== undefined && "held" in judged) return `${describeLock(judged.held.holder)}, and its lock stands: ${judged.held.why}`;
  return `${describeLock(holder)}: its backend keeps no locks this command can judge; once sure that run is over, run \`pulumi cancel\``;
}

/**
 * Runs `write` (told whether a dead run's lock was just taken over, after which the dead run's
 * half-done work may need a look) under the loop's rules; the locks it took over go to `takenOver`.
 */
export async function runUnderLock<T>(loop: LockLoop, write: (afterTakeover: boolean) => Promise<T>, takenOver: TakenOverLock[] = []): Promise<T> {
  let afterTakeover = false;
  for (let takeovers = 0; ; ) {
    if (loop.signal?.aborted) throw new Error("interrupted before the write started");
    const lease = loop.store === undefined ? undefined : keepLease(loop.store, loop.stack, renewalPeriod(loop.policy.staleAfterMs));
    try {
      return await write(afterTakeover);
    } catch (error) {
      const holder = lockHolderOf(error);
      if (holder === undefined) throw error;
      let judged: TakeOver | undefined;
      if (loop.store !== undefined && takeovers < MAX_TAKEOVERS) {
        loop.onJudging?.(holder);
        judged = await takeOverStaleLocks(loop.store, loop.stack, loop.policy).catch(() => undefined);
        // Taken over, or gone meanwhile (its run ended, or another runner took it over first): again
        // at once; the CLI's own lock lets one runner in and names it to the others.
        if (judged !== undefined && "taken" in judged) {
          takeovers += 1;
          takenOver.push(...judged.taken);
          afterTakeover ||= judged.taken.length > 0;
          continue;
        }
      }
      const wait = Math.min(LOCK_RETRY_MS, loop.waitUntil - Date.now());
      if (wait <= 0 || loop.signal?.aborted) throw new StackLockedError(holder, judged, error);
      loop.onWaiting?.(holder);
      await sleep(wait, undefined, loop.signal === undefined ? {} : { signal: loop.signal }).catch(() => undefined);
      if (loop.signal?.aborted) throw new StackLockedError(holder, judged, error);
    } finally {
      await lease?.stop();
    }
  }
}
