/**
 * The lock store of a `postgres://` backend: the CLI's lock rows of the state table, and leases
 * in `<state table>_leases` of the same database, timed by the database's own clock.
 */
import type { Pool } from "pg";
import { holderOf, type Lease, type LeaseHolder, type LockContent, lockDirOf, type LockStore, parseJson, type StackPath, type StoredLock } from "./lock-store.js";

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
