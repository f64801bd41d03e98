/**
 * A stack held by another run: the holder named in the CLI's lock error, reported as
 * `locked (by ci@runner-7, pid 4242, since …)` and, with `--wait-lock`, tried again. Never
 * `pulumi cancel`: docs/architecture.md, "Locks and leases".
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
