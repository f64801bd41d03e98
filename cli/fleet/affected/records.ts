/**
 * What the fleet records of a client stack's last successful `up`: its deploy fingerprint
 * (./fingerprint.ts) and the time its state then had. Kept beside the state, where every runner
 * of the fleet sees it, as the leases are (../runners/file-lock-store.ts): on a `file://` backend
 * `<state dir>/.pulumi-monitoring/deployed/<project>/<stack>.json`, one small file a stack, read
 * for all stacks of a run in a few milliseconds and costing no CLI run. Other backends keep no
 * record yet, so every stack of theirs is affected (./select.ts says so in the report).
 *
 * The record of a stack is removed before an `up` or `destroy` of it starts and written again only
 * once an `up` succeeded: a run that failed, was interrupted or was killed leaves none, and the
 * next run runs the stack.
 */
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileBackendRoot } from "../runners/file-lock-store.js";
import type { StackPath } from "../runners/lock-store.js";
import type { Fingerprint } from "./fingerprint.js";

export interface DeployRecord {
  fingerprint: Fingerprint;
  /** The state's `manifest.time` once the up ended: a later time means another run changed the state since. */
  stateTime: string | undefined;
  /** When the up ended (ISO 8601). */
  deployedAt: string;
}

export interface DeployRecords {
  read(stack: StackPath): Promise<DeployRecord | undefined>;
  write(stack: StackPath, record: DeployRecord): Promise<void>;
  drop(stack: StackPath): Promise<void>;
}

/** The records of the backend at `backendUrl`, or undefined where none are kept. */
export function deployRecordsOf(backendUrl: string | undefined): DeployRecords | undefined {
  return backendUrl?.startsWith("file://") ? new FileDeployRecords(fileBackendRoot(backendUrl)) : undefined;
}

class FileDeployRecords implements DeployRecords {
  constructor(private readonly root: string) {}

  #path({ project, stack }: StackPath): string {
    return join(this.root, ".pulumi-monitoring", "deployed", project, `${stack}.json`);
  }

  async read(stack: StackPath): Promise<DeployRecord | undefined> {
    const text = await readFile(this.#path(stack), "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const record = JSON.parse(text) as Partial<DeployRecord>;
      return typeof record.fingerprint === "object" && record.fingerprint !== null && typeof record.deployedAt === "string" ? { fingerprint: record.fingerprint, stateTime: record.stateTime, deployedAt: record.deployedAt } : undefined;
    } catch {
      // A record cut short by a full disk: as good as none, the stack runs.
      return undefined;
    }
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
