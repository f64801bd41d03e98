/**
 * Where the fleet keeps what it writes beside a self-managed backend's state: the CLI's locks as
 * the backend holds them, and the fleet's leases on them (lease.ts). One store per backend kind:
 * a folder (file-lock-store.ts), PostgreSQL (postgres-lock-store.ts); other backends have none
 * (backend.ts opens the one of the run's backend).
 */
import type { LockHolder } from "./lock.js";

/** A stack of a project on a self-managed backend, as its lock folder names it. */
export interface StackPath {
  project: string;
  stack: string;
}

/** A lock as the backend stores it. */
export interface StoredLock {
  /** Its key in the backend: the row's key (PostgreSQL) or the path below the state folder (file). */
  key: string;
  holder: LockHolder;
  /** How long ago it was written: by the database's clock on PostgreSQL, else by the holder's. */
  ageMs: number;
}

/** Who keeps a lease: the runner process, on its host. */
export interface LeaseHolder {
  host: string;
  user: string;
  pid: number;
}

export interface Lease {
  lockKey: string;
  holder: LeaseHolder;
  /** How often its holder renews it: a lease is never judged stale within three of these. */
  renewEveryMs: number;
  /** Since its last renewal. */
  ageMs: number;
  /**
   * Which renewal it is, as the store tells them apart (its time, to the store's precision): a
   * lock is broken only while its lease is still at the renewal it was judged by.
   */
  renewal: string;
}

export interface LockStore {
  /** The stack's locks, in the backend's order. */
  locksOf(stack: StackPath): Promise<StoredLock[]>;
  /** The leases on these locks, by lock key. */
  leasesOf(lockKeys: readonly string[]): Promise<Map<string, Lease>>;
  /** Writes or renews the lease on a lock. */
  renew(lockKey: string, stack: StackPath, holder: LeaseHolder, renewEveryMs: number): Promise<void>;
  dropLease(lockKey: string): Promise<void>;
  /**
   * Deletes a stale lock and its lease, only while the lease is still as it was when the lock was
   * judged (`judged`; undefined: it had none): false when the lock was gone already, or its lease
   * was renewed or written since, which means its run is alive after all.
   */
  breakLock(lockKey: string, judged: Lease | undefined): Promise<boolean>;
  close(): Promise<void>;
}

/** The lock folder of a stack, below the state root: `.pulumi/locks/organization/<project>/<stack>/`. */
export const lockDirOf = (stack: StackPath): string => `.pulumi/locks/organization/${stack.project}/${stack.stack}/`;

export interface LockContent {
  pid?: number;
  username?: string;
  hostname?: string;
  timestamp?: string;
}

/** `2026-11-23T20:40:00Z`, as the CLI's lock error prints the time. */
function rfc3339Seconds(timestamp: string | undefined): string {
  const time = Date.parse((timestamp ?? "").replace(/(\.\d{3})\d+/, "$1"));
  return Number.isNaN(time) ? (timestamp ?? "unknown") : new Date(time).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function holderOf(content: LockContent): LockHolder {
  return { user: content.username ?? "unknown", host: content.hostname ?? "unknown", pid: content.pid ?? 0, since: rfc3339Seconds(content.timestamp) };
}

export function parseJson<T>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return {} as T;
  }
}
