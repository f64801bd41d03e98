/**
 * A `postgres://` state backend (Pulumi's DIY PostgreSQL backend) as the fleet reads and writes
 * beside it: one pool of connections, the state table (`?table=`, default pulumi_state: rows of
 * key, data `{"data": "<base64 of the blob>"}` and updated_at) and the prefix of its keys. The
 * lock store (./postgres-lock-store.ts), the records of deploys (../affected/records.ts) and the
 * reads of states (./stack-state.ts) of a run share one.
 */
import type { Pool } from "pg";

/** A table name the fleet puts in its SQL as it is, and beside which it names its own tables. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class PostgresBackend {
  private constructor(
    readonly pool: Pool,
    /** The state table (`?table=`, default pulumi_state). */
    readonly table: string,
    /** What the backend puts before `.pulumi/` in its keys: the URL's path (`pulumi/`). */
    readonly prefix: string,
  ) {}

  /** The backend at `url`, or undefined when it is none or its table is not named plainly (the CLI takes any name; the fleet's SQL does not). */
  static async open(url: string | undefined): Promise<PostgresBackend | undefined> {
    if (!url?.startsWith("postgres://")) return undefined;
    const parsed = new URL(url);
    const table = parsed.searchParams.get("table") ?? "pulumi_state";
    if (!IDENTIFIER.test(table)) return undefined;
    parsed.searchParams.delete("table");
    const path = decodeURIComponent(parsed.pathname).replace(/^\/+/, "");
    const { default: pg } = await import("pg");
    // The credentials come from the libpq environment (PGUSER, PGPASSWORD, PGSSLMODE...), as for the CLI.
    const pool = new pg.Pool({ connectionString: parsed.toString(), max: 2, idleTimeoutMillis: 5_000, connectionTimeoutMillis: 10_000 });
    // An idle connection the server drops must not end the process.
    pool.on("error", () => undefined);
    return new PostgresBackend(pool, table, path === "" ? "" : `${path.replace(/\/+$/, "")}/`);
  }

  /**
   * The blobs stored under `keys` (those that exist), decoded, by key: one query however many.
   * Nothing when the backend has not made its table yet.
   */
  async blobs(keys: readonly string[]): Promise<Map<string, Buffer>> {
    const blobs = new Map<string, Buffer>();
    if (keys.length === 0) return blobs;
    try {
      const { rows } = await this.pool.query<{ key: string; content: string | null }>(`SELECT key, data->>'data' AS content FROM ${this.table} WHERE key = ANY($1)`, [keys]);
      for (const row of rows) blobs.set(row.key, Buffer.from(row.content ?? "", "base64"));
    } catch (error) {
      if (!isMissingTable(error)) throw error;
    }
    return blobs;
  }

  /**
   * Creates a table of the fleet's (`<state table>_leases`, ...) with `columns` unless it exists:
   * two runners creating it at once is no failure.
   */
  async createTable(name: string, columns: string): Promise<void> {
    try {
      await this.pool.query(`CREATE TABLE IF NOT EXISTS ${name} (${columns})`);
    } catch (error) {
      if (!["23505", "42P07"].includes((error as { code?: string }).code ?? "")) throw error;
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** The error of a query on a table nobody has created yet (`42P01`, undefined_table). */
export const isMissingTable = (error: unknown): boolean => (error as { code?: string }).code === "42P01";
