/**
 * What the fleet does about the state backend it runs on, for two behaviours of Pulumi 3.259's
 * PostgreSQL backend (`postgres://`, a DIY backend storing each file as a row):
 *
 * - Listing stacks waits forever once a project has more stacks than the backend's connection
 *   pool, `max(2 × GOMAXPROCS, 2)`, has room for: the CLI reads up to PULUMI_DIY_BACKEND_PARALLEL
 *   (default 10) stacks at once, and each read holds one connection with an open cursor while it
 *   asks for a second. The fleet runs the CLI with GOMAXPROCS set and PULUMI_DIY_BACKEND_PARALLEL
 *   below that pool, so that one read can always get its second connection.
 * - The backend finds a stack's files with `LIKE '<path of the stack>%'`, where `_` matches any
 *   one character: with `c_1` and `c-1` in one project, looking up `c_1` also finds `c-1.json`,
 *   and the CLI crashes (`slice bounds out of range`). The fleet refuses such names on that backend.
 */
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { readdir } from "node:fs/promises";
import { availableParallelism } from "node:os";
import type { FleetProject } from "../../project/project.js";

/** The CLI's default number of stacks a DIY backend reads at once. */
const DIY_DEFAULT_PARALLEL = 10;

const positiveWhole = (text: string | undefined): number | undefined => {
  const value = Number(text);
  return text !== undefined && Number.isInteger(value) && value >= 1 ? value : undefined;
};

/**
 * The environment the fleet adds to every CLI command: GOMAXPROCS as the user set it, else the
 * cores Node.js sees (set explicitly, since Go may count fewer under a container CPU quota and
 * its pool would be smaller), and PULUMI_DIY_BACKEND_PARALLEL as the user set it or the CLI's
 * default, but at most one less than the pool. Harmless on other backends: only DIY backends
 * read the second, and the first only sizes the CLI's own threads.
 */
export function cliEnvironment(env: NodeJS.ProcessEnv = process.env, cores: number = availableParallelism()): Record<string, string> {
  const gomaxprocs = positiveWhole(env["GOMAXPROCS"]) ?? cores;
  const pool = Math.max(2 * gomaxprocs, 2);
  const parallel = Math.min(positiveWhole(env["PULUMI_DIY_BACKEND_PARALLEL"]) ?? DIY_DEFAULT_PARALLEL, pool - 1);
  return { GOMAXPROCS: String(gomaxprocs), PULUMI_DIY_BACKEND_PARALLEL: String(parallel) };
}

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
