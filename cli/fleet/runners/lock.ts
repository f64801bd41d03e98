/**
 * A stack held by another run. Self-managed (DIY) backends, PostgreSQL among them, lock a stack
 * for the length of an `up`, `refresh` or `destroy`; a second one fails at once with
 *
 *   error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end
 *   or delete the lock file with `pulumi cancel`.
 *     postgres:///pulumi/.pulumi/locks/organization/agency/acme/0b7c.json: created by ci@runner-7 (pid 4242) at 2026-11-23T20:40:00Z
 *
 * The fleet reports that stack as `locked (by ci@runner-7, pid 4242, since 2026-11-23T20:40:00Z)`
 * and, with `--wait-lock`, tries again until the lock is gone or the time is up. It never runs
 * `pulumi cancel` on a stack it found locked: on these backends that deletes every lock of the
 * stack, the other run's included. A lock whose run died is taken over one lock at a time
 * (lease.ts).
 */

export interface LockHolder {
  user: string;
  host: string;
  pid: number;
  /** When the lock was taken, as the CLI prints it (RFC 3339). */
  since: string;
}

const LOCKED = /the stack is currently locked by \d+ lock\(s\)/;
const HOLDER = /created by (.*)@([^@\s]+) \(pid (\d+)\) at (\S+)/;

/** The holder named in the CLI's lock error (the first, when several hold locks), if `text` is one. */
export function parseLockError(text: string): LockHolder | undefined {
  if (!LOCKED.test(text)) return undefined;
  const match = HOLDER.exec(text);
  // The lock error without a readable holder line is still a lock error.
  if (match === null) return { user: "unknown", host: "unknown", pid: 0, since: "unknown" };
  return { user: match[1] ?? "", host: match[2] ?? "", pid: Number(match[3]), since: match[4] ?? "" };
}

/** The holder of the lock that made a CLI command fail, if that is why it failed. */
export function lockHolderOf(error: unknown): LockHolder | undefined {
  const stderr = (error as { commandResult?: { stderr?: string } }).commandResult?.stderr ?? "";
  return parseLockError(stderr) ?? parseLockError(error instanceof Error ? error.message : String(error));
}

/** `locked (by ci@runner-7, pid 4242, since 2026-11-23T20:40:00Z)` */
export function describeLock(holder: LockHolder): string {
  return `locked (by ${holder.user}@${holder.host}, pid ${holder.pid}, since ${holder.since})`;
}

/** How often a stack found locked is tried again under `--wait-lock`. */
export const LOCK_RETRY_MS = 2000;
