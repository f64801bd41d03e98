/**
 * The lock store of a `postgres://` backend: the CLI's lock rows of the state table, and leases
 * in `<state table>_leases` of the same database, timed by the database's own clock.
 */
import { isMissingTable, type PostgresBackend } from "./postgres-backend.js";
import { holderOf, type Lease, type LeaseHolder, type LockContent, lockDirOf, type LockStore, parseJson, type StackPath, type StoredLock } from "./lock-store.js";

export class PostgresLockStore implements LockStore {
  #leasesReady = false;

  /** `backend`: its pool is this store's, ended by close(); the run's records of deploys share it (../affected/records.ts). */
  constructor(readonly backend: PostgresBackend) {}

  get #leases(): string {
    return `${this.backend.table}_leases`;
  }

  async locksOf(stack: StackPath): Promise<StoredLock[]> {
    const dir = `${this.backend.prefix}${lockDirOf(stack)}`;
    const { rows } = await this.backend.pool.query<{ key: string; content: string; age_ms: string }>(
      // LIKE on a prefix uses the backend's own index of keys; `_` and `%` of the names are escaped.
      `SELECT key, data->>'data' AS content, extract(epoch FROM now() - updated_at) * 1000 AS age_ms FROM ${this.backend.table} WHERE key LIKE $1 ESCAPE '\\' ORDER BY key`,
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
      const { rows } = await this.backend.pool.query<{ lock_key: string; holder: LeaseHolder; renew_every_ms: number; age_ms: string; renewal: string }>(
        // The renewal as text: a JavaScript Date would drop its microseconds, and breakLock compares it whole.
        `SELECT lock_key, holder, renew_every_ms, extract(epoch FROM now() - renewed_at) * 1000 AS age_ms, renewed_at::text AS renewal FROM ${this.#leases} WHERE lock_key = ANY($1)`,
        [lockKeys],
      );
      for (const row of rows) leases.set(row.lock_key, { lockKey: row.lock_key, holder: row.holder, renewEveryMs: row.renew_every_ms, ageMs: Number(row.age_ms), renewal: row.renewal });
    } catch (error) {
      // No lease was ever written in this database: no lock has one.
      if (!isMissingTable(error)) throw error;
    }
    return leases;
  }

  async #createLeases(): Promise<void> {
    if (this.#leasesReady) return;
    await this.backend.createTable(this.#leases, "lock_key TEXT PRIMARY KEY, stack TEXT NOT NULL, holder JSON NOT NULL, renew_every_ms INTEGER NOT NULL, renewed_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()");
    this.#leasesReady = true;
  }

  async renew(lockKey: string, stack: StackPath, holder: LeaseHolder, renewEveryMs: number): Promise<void> {
    await this.#createLeases();
    await this.backend.pool.query(
      `INSERT INTO ${this.#leases} (lock_key, stack, holder, renew_every_ms) VALUES ($1, $2, $3, $4) ON CONFLICT (lock_key) DO UPDATE SET renewed_at = now(), renew_every_ms = EXCLUDED.renew_every_ms`,
      [lockKey, `${stack.project}/${stack.stack}`, JSON.stringify(holder), renewEveryMs],
    );
  }

  async dropLease(lockKey: string): Promise<void> {
    try {
      await this.backend.pool.query(`DELETE FROM ${this.#leases} WHERE lock_key = $1`, [lockKey]);
    } catch (error) {
      if (!isMissingTable(error)) throw error;
    }
  }

  async breakLock(lockKey: string, judged: Lease | undefined): Promise<boolean> {
    await this.#createLeases();
    // One statement: the lock goes only if its lease is still the one it was judged by (or it still has none).
    const { rowCount } = await this.backend.pool.query(
      `DELETE FROM ${this.backend.table} WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM ${this.#leases} WHERE lock_key = $1 AND renewed_at::text IS DISTINCT FROM $2)`,
      [lockKey, judged?.renewal ?? null],
    );
    if ((rowCount ?? 0) === 0) return false;
    await this.dropLease(lockKey);
    return true;
  }

  async close(): Promise<void> {
    await this.backend.close();
  }
}
