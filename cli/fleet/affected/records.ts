/**
 * What the fleet records of a client stack's last successful `up`: its deploy fingerprint
 * (./fingerprint.ts) and the time its state then had. Kept beside the state, where every runner
 * of the fleet sees it, as the leases are (../runners/lock-store.ts), read for all stacks of a
 * project at once and costing no CLI run:
 * - on a `file://` backend, `<state dir>/.pulumi-monitoring/deployed/<project>/<stack>.json`, one
 *   small file a stack;
 * - on a `postgres://` backend, a row of `<state table>_deployed` per stack, keyed by project and
 *   stack, in the state's database (made by the first record written): one query reads those of
 *   all the stacks of a run.
 * Other backends keep no record, so every stack of theirs is affected (cli/fleet/stacks/run.ts
 * says so in the report).
 *
 * The record of a stack is removed before an `up` or `destroy` of it starts and written again only
 * once an `up` succeeded: a run that failed, was interrupted or was killed leaves none, and the
 * next run runs the stack.
 */
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { FileLockStore } from "../runners/file-lock-store.js";
import type { LockStore, StackPath } from "../runners/lock-store.js";
import { isMissingTable, type PostgresBackend } from "../runners/postgres-backend.js";
import { PostgresLockStore } from "../runners/postgres-lock-store.js";
import type { Fingerprint } from "./fingerprint.js";

export interface DeployRecord {
  fingerprint: Fingerprint;
  /** The state's `manifest.time` once the up ended: a later time means another run changed the state since. */
  stateTime: string | undefined;
  /** When the up ended (ISO 8601). */
  deployedAt: string;
}

export interface DeployRecords {
  /** The records of these stacks of `project` that have one, by stack name. */
  readAll(project: string, stacks: readonly string[]): Promise<Map<string, DeployRecord>>;
  write(stack: StackPath, record: DeployRecord): Promise<void>;
  drop(stack: StackPath): Promise<void>;
}

/**
 * The records kept beside the backend whose lock store (../runners/backend.ts openLockStore) is
 * `store`, on its connection; undefined where none are kept.
 */
export function deployRecordsOf(store: LockStore | undefined): DeployRecords | undefined {
  if (store instanceof FileLockStore) return new FileDeployRecords(store.root);
  if (store instanceof PostgresLockStore) return new PostgresDeployRecords(store.backend);
  return undefined;
}

/** The record stored as `value` (a file's text parsed, a row's JSON), or undefined when it is not a whole one. */
function recordOf(value: unknown): DeployRecord | undefined {
  const record = (typeof value === "object" && value !== null ? value : {}) as Partial<DeployRecord>;
  return typeof record.fingerprint === "object" && record.fingerprint !== null && typeof record.deployedAt === "string" ? { fingerprint: record.fingerprint, stateTime: record.stateTime, deployedAt: record.deployedAt } : undefined;
}

class FileDeployRecords implements DeployRecords {
  constructor(private readonly root: string) {}

  #path({ project, stack }: StackPath): string {
    return join(this.root, ".pulumi-monitoring", "deployed", project, `${stack}.json`);
  }

  async #read(stack: StackPath): Promise<DeployRecord | undefined> {
    const text = await readFile(this.#path(stack), "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      return recordOf(JSON.parse(text));
    } catch {
      // A record cut short by a full disk: as good as none, the stack runs.
      return undefined;
    }
  }

  async readAll(project: string, stacks: readonly string[]): Promise<Map<string, DeployRecord>> {
    const records = await Promise.all(stacks.map((stack) => this.#read({ project, stack })));
    return new Map(stacks.flatMap((stack, index) => (records[index] === undefined ? [] : [[stack, records[index]]])));
  }

  async write(stack: StackPath, record: DeployRecord): Promise<void> {
    const path = this.#path(stack);
    await mkdir(dirname(path), { recursive: true });
    // Written whole, then renamed: a reader never sees half a record.
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(record));
    await rename(temporary, path);
  }

  async drop(stack: StackPath): Promise<void> {
    await rm(this.#path(stack), { force: true });
  }
}

class PostgresDeployRecords implements DeployRecords {
  #tableReady = false;

  constructor(private readonly backend: PostgresBackend) {}

  get #table(): string {
    return `${this.backend.table}_deployed`;
  }

  async readAll(project: string, stacks: readonly string[]): Promise<Map<string, DeployRecord>> {
    const records = new Map<string, DeployRecord>();
    if (stacks.length === 0) return records;
    try {
      const { rows } = await this.backend.pool.query<{ stack: string; record: unknown }>(`SELECT stack, record FROM ${this.#table} WHERE project = $1 AND stack = ANY($2)`, [project, stacks]);
      for (const row of rows) {
        const record = recordOf(row.record);
        if (record !== undefined) records.set(row.stack, record);
      }
    } catch (error) {
      // No record was ever written in this database: no stack has one.
      if (!isMissingTable(error)) throw error;
    }
    return records;
  }

  async write({ project, stack }: StackPath, record: DeployRecord): Promise<void> {
    if (!this.#tableReady) {
      await this.backend.createTable(this.#table, "project TEXT NOT NULL, stack TEXT NOT NULL, record JSON NOT NULL, updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), PRIMARY KEY (project, stack)");
      this.#tableReady = true;
    }
    await this.backend.pool.query(`INSERT INTO ${this.#table} (project, stack, record) VALUES ($1, $2, $3) ON CONFLICT (project, stack) DO UPDATE SET record = EXCLUDED.record, updated_at = now()`, [
      project,
      stack,
      JSON.stringify(record),
    ]);
  }

  async drop({ project, stack }: StackPath): Promise<void> {
    try {
      await this.backend.pool.query(`DELETE FROM ${this.#table} WHERE project = $1 AND stack = $2`, [project, stack]);
    } catch (error) {
      if (!isMissingTable(error)) throw error;
    }
  }
}
