/**
 * The state backend the fleet runs on. Pulumi 3.259's PostgreSQL backend looks stacks up with SQL
 * LIKE, so names such as c_1 and c-1 crash `pulumi stack ls`: the fleet refuses them there
 * (docs/teams-and-ci.md; the environment that keeps its listing from hanging: cli/project/workspace.ts).
 */
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { readdir } from "node:fs/promises";
import type { FleetProject } from "../../project/project.js";
import { FileLockStore, fileBackendRoot } from "./file-lock-store.js";
import type { LockStore } from "./lock-store.js";
import { PostgresBackend } from "./postgres-backend.js";
import { PostgresLockStore } from "./postgres-lock-store.js";

/** Whether `pattern`, read as SQL LIKE without `%` (`_` any one character), matches the start of `text`. */
function likePrefixMatches(pattern: string, text: string): boolean {
  return text.length >= pattern.length && [...pattern].every((character, index) => character === "_" || character === text[index]);
}

/**
 * Whether the backend's lookup of either stack finds the other's state file
 * (`<stack>.json`, `<stack>.json.bak`, ...).
 */
export function likeCollide(a: string, b: string): boolean {
  return a !== b && (likePrefixMatches(`${a}.json`, `${b}.json`) || likePrefixMatches(`${b}.json`, `${a}.json`));
}

/** Every pair of `names` that collide, each once, in name order. */
export function likeCollisions(names: readonly string[]): Array<[string, string]> {
  const sorted = [...new Set(names)].sort();
  return sorted.flatMap((a, index) => sorted.slice(index + 1).filter((b) => likeCollide(a, b)).map((b): [string, string] => [a, b]));
}

export const isPostgresBackend = (url: string | undefined): boolean => url?.startsWith("postgres://") ?? false;

const WHY = "Pulumi 3.259's PostgreSQL backend looks up a stack's state with SQL LIKE, where `_` matches any one character";

export function collisionMessage(pairs: ReadonlyArray<[string, string]>): string {
  const list = pairs.map(([a, b]) => `${a} and ${b}`).join(", ");
  return (
    `stack names ${list} cannot share a PostgreSQL state backend: ${WHY}, so looking up one finds the other's ` +
    "state and `pulumi stack ls` crashes (slice bounds out of range) for the whole project. Rename one of each pair " +
    "(a client spec file clients/<stack>.yaml names its stack); see docs/teams-and-ci.md"
  );
}

/** Why `pulumi stack ls` failed, when it is the crash the colliding names cause. */
export function explainListingCrash(error: unknown): Error | undefined {
  const text = `${(error as { commandResult?: { stderr?: string } }).commandResult?.stderr ?? ""}\n${error instanceof Error ? error.message : String(error)}`;
  if (!/slice bounds out of range/.test(text) || !/postgres/i.test(text)) return undefined;
  return new Error(
    `pulumi stack ls crashed on the PostgreSQL backend (slice bounds out of range): ${WHY}, and two stack names of ` +
      "the project differ only where one of them has `_` (such as c_1 and c-1). Removing one of the stacks is not " +
      "enough, since the backend keeps its `.json.bak` row; see docs/teams-and-ci.md for how to find and remove them",
  );
}

/** The stacks this checkout knows of: its `Pulumi.<stack>.yaml` files. */
async function localStackNames(project: FleetProject): Promise<string[]> {
  const files = await readdir(project.stackConfigDir).catch(() => []);
  return files.flatMap((file) => /^Pulumi\.(.+)\.ya?ml$/.exec(file)?.[1] ?? []);
}

/**
 * The backend the CLI uses here, as the CLI chooses it: PULUMI_BACKEND_URL, else Pulumi.yaml's
 * `backend.url`, else the one logged in to. Asking the CLI costs a command, so callers ask only
 * when they need it: when names collide, and once per run that locks stacks (lease.ts).
 */
export async function backendUrlOf(project: FleetProject, workspace: LocalWorkspace): Promise<string | undefined> {
  const configured = process.env["PULUMI_BACKEND_URL"] || project.backendUrl;
  if (configured) return configured;
  try {
    return (await workspace.whoAmI()).url;
  } catch {
    return undefined;
  }
}

/**
 * Refuses `names` (plus the stacks of this checkout) when two of them collide and the backend is
 * PostgreSQL; checked before the CLI lists the stacks, which would crash.
 */
export async function refuseCollidingNames(project: FleetProject, workspace: LocalWorkspace, names: readonly string[] = []): Promise<void> {
  const pairs = likeCollisions([...names, ...(await localStackNames(project))]);
  if (pairs.length > 0 && isPostgresBackend(await backendUrlOf(project, workspace))) throw new Error(collisionMessage(pairs));
}

/** The lock store of the backend at `url`, when it is one that leases can live beside. */
export async function openLockStore(url: string | undefined): Promise<LockStore | undefined> {
  if (url?.startsWith("postgres://")) {
    const backend = await PostgresBackend.open(url);
    return backend === undefined ? undefined : new PostgresLockStore(backend);
  }
  if (url?.startsWith("file://")) return new FileLockStore(fileBackendRoot(url));
  return undefined;
}
