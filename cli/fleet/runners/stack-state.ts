/**
 * A checked stack's state, as `pulumi stack export` shows it (secrets still encrypted), read
 * straight from the backend's storage of the checkpoint where it is one the fleet reads: a
 * local folder (`file://`) or a PostgreSQL table (`postgres://`). A drift check of a fleet reads
 * every stack's state: `pulumi stack export` of a client's stack (12 resources, 38 KB) costs 0.21 s
 * of CPU (500 stacks: 105 s, more than the whole check may take), reading and parsing its file
 * 0.35 ms (measured 2026-12-06 on the 2-core machine, 10 stacks). The stored blob is the document
 * the CLI would print (`checkpoint.latest` is the export's `deployment`); the CLI's file store
 * writes a new file and renames it into place, and its PostgreSQL store writes a row in one
 * statement, so a read never sees half of one. On PostgreSQL the checkpoints of all the stacks a
 * command reads come in one query ({@link StackStates}): 500 stacks of 38 KB read and parsed in
 * 0.2 s, 0.1 s of CPU (measured 2026-12-06, the database on the same 2-core machine). Any other
 * backend, a stack whose checkpoint is not where Pulumi's DIY layout (version 1:
 * `.pulumi/stacks/<project>/<stack>.json`, or `.json.gz`) puts it, or a database that cannot be
 * read, is read through the CLI.
 */
import type { Deployment, Workspace } from "@pulumi/pulumi/automation";
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { isRecord } from "../../../schema/naming.js";
import { fileBackendRoot } from "./file-lock-store.js";
import { PostgresBackend } from "./postgres-backend.js";
import { exportedState } from "../../project/state.js";
import type { StackTarget } from "../targets.js";

/** A stack of a project, by the name the fleet gives it (`acme`, `org/agency/acme`). */
export interface StackRef {
  project: string;
  stack: string;
}

/** Where a project-scoped stack's checkpoint lives below a DIY backend's root (version 1 layout), plain or gzipped. */
function checkpointKeys({ project, stack }: StackRef): string[] {
  const file = `.pulumi/stacks/${project}/${basename(stack)}.json`;
  return [file, `${file}.gz`];
}

/** Where a project-scoped stack's checkpoint lives in a file backend, plain or gzipped. */
export function checkpointPaths(backendUrl: string, project: string, stack: string): string[] {
  return checkpointKeys({ project, stack }).map((key) => join(fileBackendRoot(backendUrl), key));
}

/** The export of the checkpoint document `text`, or undefined when it is not one. */
export function exportOfCheckpoint(text: string): Deployment | undefined {
  const document: unknown = JSON.parse(text);
  if (!isRecord(document) || !isRecord(document["checkpoint"])) return undefined;
  const latest = document["checkpoint"]["latest"];
  // A stack created and never deployed has no `latest` yet: an empty state, as the CLI exports it.
  return { version: Number(document["version"] ?? 3), deployment: isRecord(latest) ? latest : {} } as Deployment;
}

/**
 * The states of the stacks of one backend a command reads. On PostgreSQL their checkpoint rows
 * are read ahead, all in one query, when it is made ({@link StackStates.of}); on a file backend
 * each file when its state is asked for.
 */
export class StackStates {
  private constructor(
    private readonly backendUrl: string | undefined,
    /** On PostgreSQL: the prefix of the backend's keys and the checkpoint blobs read ahead, by key. */
    private readonly rows: { prefix: string; blobs: ReadonlyMap<string, Buffer> } | undefined,
  ) {}

  /**
   * Ready to read `stacks` of the backend at `backendUrl`. On PostgreSQL, on `backend`'s
   * connection when the caller has one open, else on one opened for the query.
   */
  static async of(backendUrl: string | undefined, stacks: readonly StackRef[], backend?: PostgresBackend): Promise<StackStates> {
    if (!backendUrl?.startsWith("postgres://") || stacks.length === 0) return new StackStates(backendUrl, undefined);
    const database = backend ?? (await PostgresBackend.open(backendUrl).catch(() => undefined));
    if (database === undefined) return new StackStates(backendUrl, undefined);
    try {
      const blobs = await database.blobs(stacks.flatMap((stack) => checkpointKeys(stack).map((key) => `${database.prefix}${key}`)));
      return new StackStates(backendUrl, { prefix: database.prefix, blobs });
    } catch {
      // The database cannot be read: the CLI reads it, or says why it cannot.
      return new StackStates(backendUrl, undefined);
    } finally {
      if (backend === undefined) await database.close().catch(() => undefined);
    }
  }

  /** The checkpoints stored for the stack (plain, then gzipped), as the backend holds them. */
  async #stored(ref: StackRef): Promise<Array<{ key: string; bytes: Buffer | undefined }>> {
    if (this.rows !== undefined) return checkpointKeys(ref).map((key) => ({ key, bytes: this.rows!.blobs.get(`${this.rows!.prefix}${key}`) }));
    if (!this.backendUrl?.startsWith("file://")) return [];
    const paths = checkpointPaths(this.backendUrl, ref.project, ref.stack);
    return Promise.all(paths.map(async (key) => ({ key, bytes: await readFile(key).catch(() => undefined) })));
  }

  /** `stack`'s state: from its stored checkpoint when there is one, else `pulumi stack export` in `workspace`. */
  async read(workspace: Workspace, project: string, stack: string): Promise<Deployment> {
    for (const { key, bytes } of await this.#stored({ project, stack })) {
      if (bytes === undefined) continue;
      const exported = exportOfCheckpoint((key.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"));
      if (exported !== undefined) return exported;
    }
    return exportedState(workspace, stack);
  }
}

/** One stack's state, as {@link StackStates} reads it; `backend`: an open connection to a PostgreSQL backend to use. */
export async function stackState(workspace: Workspace, project: string, stack: string, backendUrl: string | undefined, backend?: PostgresBackend): Promise<Deployment> {
  return (await StackStates.of(backendUrl, [{ project, stack }], backend)).read(workspace, project, stack);
}

/**
 * Reads the states of `targets`, stacks of one project or several: the first read of a project's
 * stack reads ahead those of all its stacks among `targets` ({@link StackStates.of}), on the
 * backend `backendOf` names for the project.
 */
export function targetStates(targets: readonly StackTarget[], backendOf: (target: StackTarget) => Promise<string | undefined>): (target: StackTarget) => Promise<Deployment> {
  const byProject = new Map<string, Promise<StackStates>>();
  return async (target) => {
    let states = byProject.get(target.project.dir);
    if (states === undefined) {
      const ofProject = targets.filter((other) => other.project.dir === target.project.dir).map((other) => ({ project: other.project.name, stack: other.name }));
      byProject.set(target.project.dir, (states = backendOf(target).then((url) => StackStates.of(url, ofProject))));
    }
    return (await states).read(target.workspace, target.project.name, target.name);
  };
}
