/**
 * Leases: proof, kept beside the state, that the run holding a stack's lock is still alive, so
 * that a lock left by a run that died (a CI runner reclaimed, a job killed at its time limit) is
 * taken over by the next run instead of blocking the stack until someone types `pulumi cancel`.
 *
 * A self-managed backend locks a stack for the length of an `up`, `refresh` or `destroy`: the CLI
 * writes `.pulumi/locks/organization/<project>/<stack>/<uuid>.json` (a row of the state table on
 * PostgreSQL), naming its user, host, pid and start, and deletes it at the end. Nothing says
 * whether its writer is still there. While the fleet runs a stack, it finds the lock its own CLI
 * process took and renews a lease on it every few seconds:
 *
 * - PostgreSQL (`postgres://`): a row of the table `<state table>_leases` (`pulumi_state_leases`)
 *   in the same database, its time the database's own clock, so runners' clocks need not agree;
 * - a file backend (`file://`): a file under `<state dir>/.pulumi-monitoring/leases/`, beside the
 *   `.pulumi` folder (never in the lock folder, where the CLI would read it as one more lock).
 *
 * A run that finds a stack locked judges each lock ({@link judgeLock}): stale when its process no
 * longer exists on this host, or when its lease stopped being renewed; alive while the lease is
 * renewed; a lock with no lease (a plain `pulumi up`) is never taken over unless a team opts in
 * with `--break-locks-older-than`. A stale lock is deleted alone, the way `pulumi cancel` deletes
 * every lock of the stack, and the stack runs again. Deleting only that lock, and only while its
 * lease is still the one it was judged by (on PostgreSQL in one statement), is what keeps a live
 * run's lock safe when two runners race to take over the same dead one: the CLI's own locking then
 * lets one of them in.
 * Other backends (Pulumi Cloud, object stores) keep today's behaviour: a lock is reported.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from "node:fs/promises";
import { homedir, hostname, userInfo } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import type { Pool } from "pg";
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
      "once sure that run is over, pass --break-locks-older-than or run `pulumi cancel`",
  };
}

/** A lock this run took over: whose it was, since when, and why it was judged dead. */
export interface TakenOverLock {
  holder: LockHolder;
  why: string;
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

// ---------------------------------------------------------------------------------------------
// Backends

/** The lock folder of a stack, below the state root: `.pulumi/locks/organization/<project>/<stack>/`. */
const lockDirOf = (stack: StackPath): string => `.pulumi/locks/organization/${stack.project}/${stack.stack}/`;

interface LockContent {
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

function holderOf(content: LockContent): LockHolder {
  return { user: content.username ?? "unknown", host: content.hostname ?? "unknown", pid: content.pid ?? 0, since: rfc3339Seconds(content.timestamp) };
}

/** The lock store of the backend at `url`, when it is one that leases can live beside. */
export async function openLockStore(url: string | undefined): Promise<LockStore | undefined> {
  if (url?.startsWith("postgres://")) return PostgresLockStore.open(url);
  if (url?.startsWith("file://")) return new FileLockStore(fileBackendRoot(url));
  return undefined;
}

/** The folder of a `file://` backend, as the CLI reads its URL (`~` is the home folder). */
export function fileBackendRoot(url: string): string {
  const path = decodeURIComponent(url.slice("file://".length).split("?")[0] ?? "");
  return path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : resolve(path);
}

export class FileLockStore implements LockStore {
  constructor(private readonly root: string) {}

  #leasePath(lockKey: string): string {
    return join(this.root, ".pulumi-monitoring", "leases", lockKey.replace(/^\.pulumi\/locks\//, ""));
  }

  async locksOf(stack: StackPath): Promise<StoredLock[]> {
    const dir = lockDirOf(stack);
    const files = await readdir(join(this.root, dir)).catch(() => [] as string[]);
    const locks: StoredLock[] = [];
    for (const file of files.filter((name) => name.endsWith(".json")).sort()) {
      const text = await readFile(join(this.root, dir, file), "utf8").catch(() => undefined);
      if (text === undefined) continue;
      const content = parseJson<LockContent>(text);
      locks.push({ key: `${dir}${file}`, holder: holderOf(content), ageMs: Math.max(0, Date.now() - Date.parse(content.timestamp?.replace(/(\.\d{3})\d+/, "$1") ?? "")) || 0 });
    }
    return locks;
  }

  async leasesOf(lockKeys: readonly string[]): Promise<Map<string, Lease>> {
    const leases = new Map<string, Lease>();
    for (const lockKey of lockKeys) {
      const text = await readFile(this.#leasePath(lockKey), "utf8").catch(() => undefined);
      if (text === undefined) continue;
      const stored = parseJson<{ holder: LeaseHolder; renewEveryMs: number; renewedAt: number }>(text);
      leases.set(lockKey, { lockKey, holder: stored.holder, renewEveryMs: stored.renewEveryMs, ageMs: Math.max(0, Date.now() - stored.renewedAt), renewal: String(stored.renewedAt) });
    }
    return leases;
  }

  async renew(lockKey: string, stack: StackPath, holder: LeaseHolder, renewEveryMs: number): Promise<void> {
    const path = this.#leasePath(lockKey);
    await mkdir(dirname(path), { recursive: true });
    // Written whole, then renamed: a reader never sees half a lease.
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify({ stack: `${stack.project}/${stack.stack}`, holder, renewEveryMs, renewedAt: Date.now() }));
    await rename(temporary, path);
  }

  async dropLease(lockKey: string): Promise<void> {
    await rm(this.#leasePath(lockKey), { force: true });
  }

  async breakLock(lockKey: string, judged: Lease | undefined): Promise<boolean> {
    const lease = (await this.leasesOf([lockKey])).get(lockKey);
    if (lease?.renewal !== judged?.renewal) return false;
    try {
      // unlink, not rm: of two runners deleting it at once, exactly one succeeds.
      await unlink(join(this.root, lockKey));
    } catch {
      return false;
    }
    await this.dropLease(lockKey);
    return true;
  }

  async close(): Promise<void> {}
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class PostgresLockStore implements LockStore {
  #leasesReady = false;

  private constructor(
    private readonly pool: Pool,
    /** The state table (`?table=`, default pulumi_state). */
    private readonly table: string,
    /** What the backend puts before `.pulumi/` in its keys: the URL's path (`pulumi/`). */
    private readonly prefix: string,
  ) {}

  get #leases(): string {
    return `${this.table}_leases`;
  }

  static async open(url: string): Promise<PostgresLockStore | undefined> {
    const parsed = new URL(url);
    const table = parsed.searchParams.get("table") ?? "pulumi_state";
    // The CLI takes the name as it is; leases are kept only beside a table named plainly.
    if (!IDENTIFIER.test(table)) return undefined;
    parsed.searchParams.delete("table");
    const path = decodeURIComponent(parsed.pathname).replace(/^\/+/, "");
    const { default: pg } = await import("pg");
    // The credentials come from the libpq environment (PGUSER, PGPASSWORD, PGSSLMODE...), as for the CLI.
    const pool = new pg.Pool({ connectionString: parsed.toString(), max: 2, idleTimeoutMillis: 5_000, connectionTimeoutMillis: 10_000 });
    // An idle connection the server drops must not end the process.
    pool.on("error", () => undefined);
    return new PostgresLockStore(pool, table, path === "" ? "" : `${path.replace(/\/+$/, "")}/`);
  }

  async locksOf(stack: StackPath): Promise<StoredLock[]> {
    const dir = `${this.prefix}${lockDirOf(stack)}`;
    const { rows } = await this.pool.query<{ key: string; content: string; age_ms: string }>(
      // LIKE on a prefix uses the backend's own index of keys; `_` and `%` of the names are escaped.
      `SELECT key, data->>'data' AS content, extract(epoch FROM now() - updated_at) * 1000 AS age_ms FROM ${this.table} WHERE key LIKE $1 ESCAPE '\\' ORDER BY key`,
      [`${dir.replace(/[\\%_]/g, "\\$&")}%`],
    );
    // Only the stack's own lock files, not those of a stack whose name continues this one's.
    return rows
      .filter((row) => !row.key.slice(dir.length).includes("/"))
      .map((row) => ({ key: row.key, holder: holderOf(parseJson<LockContent>(Buffer.from(row.content ?? "", "base64").toString("utf8"))), ageMs: Number(row.age_ms) }));
  }

  async leasesOf(lockKeys: readonly string[]): Promise<Map<string, Lease>> {
    const leases = new Map<string, Lease>();
    if (lockKeys.length === 0) return leases;
    try {
      const { rows } = await this.pool.query<{ lock_key: string; holder: LeaseHolder; renew_every_ms: number; age_ms: string; renewal: string }>(
        // The renewal as text: a JavaScript Date would drop its microseconds, and breakLock compares it whole.
        `SELECT lock_key, holder, renew_every_ms, extract(epoch FROM now() - renewed_at) * 1000 AS age_ms, renewed_at::text AS renewal FROM ${this.#leases} WHERE lock_key = ANY($1)`,
        [lockKeys],
      );
      for (const row of rows) leases.set(row.lock_key, { lockKey: row.lock_key, holder: row.holder, renewEveryMs: row.renew_every_ms, ageMs: Number(row.age_ms), renewal: row.renewal });
    } catch (error) {
      // No lease was ever written in this database: no lock has one.
      if ((error as { code?: string }).code !== "42P01") throw error;
    }
    return leases;
  }

  async #createLeases(): Promise<void> {
    if (this.#leasesReady) return;
    try {
      await this.pool.query(
        `CREATE TABLE IF NOT EXISTS ${this.#leases} (lock_key TEXT PRIMARY KEY, stack TEXT NOT NULL, holder JSON NOT NULL, renew_every_ms INTEGER NOT NULL, renewed_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now())`,
      );
    } catch (error) {
      // Two runners creating it at once: the other one did.
      if (!["23505", "42P07"].includes((error as { code?: string }).code ?? "")) throw error;
    }
    this.#leasesReady = true;
  }

  async renew(lockKey: string, stack: StackPath, holder: LeaseHolder, renewEveryMs: number): Promise<void> {
    await this.#createLeases();
    await this.pool.query(
      `INSERT INTO ${this.#leases} (lock_key, stack, holder, renew_every_ms) VALUES ($1, $2, $3, $4) ON CONFLICT (lock_key) DO UPDATE SET renewed_at = now(), renew_every_ms = EXCLUDED.renew_every_ms`,
      [lockKey, `${stack.project}/${stack.stack}`, JSON.stringify(holder), renewEveryMs],
    );
  }

  async dropLease(lockKey: string): Promise<void> {
    try {
      await this.pool.query(`DELETE FROM ${this.#leases} WHERE lock_key = $1`, [lockKey]);
    } catch (error) {
      if ((error as { code?: string }).code !== "42P01") throw error;
    }
  }

  async breakLock(lockKey: string, judged: Lease | undefined): Promise<boolean> {
    await this.#createLeases();
    // One statement: the lock goes only if its lease is still the one it was judged by (or it still has none).
    const { rowCount } = await this.pool.query(
      `DELETE FROM ${this.table} WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM ${this.#leases} WHERE lock_key = $1 AND renewed_at::text IS DISTINCT FROM $2)`,
      [lockKey, judged?.renewal ?? null],
    );
    if ((rowCount ?? 0) === 0) return false;
    await this.dropLease(lockKey);
    return true;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

function parseJson<T>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return {} as T;
  }
}
