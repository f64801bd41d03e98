/**
 * A client stack's deploy fingerprint: a hash of everything that decides what its `up` does, so
 * that a stack whose fingerprint is the one recorded at its last successful deploy (./records.ts)
 * need not run again (./select.ts). It covers:
 * - the project's program: every file under the project directory but the state, the installed
 *   packages, other stacks' settings files, the clients' spec files (`fleet init` copies each into
 *   its own stack's settings) and a shared project inside it (what reaches the clients from there
 *   are its outputs, below); then the nearest package.json and lockfile, and the version of
 *   pulumi-monitoring the program loads. Hashed once per run, for every stack;
 * - the stack's settings file (`Pulumi.<stack>.yaml`), secrets as their ciphertexts, never
 *   decrypted, without the keys the shared stack's outputs are written to: the fleet writes a
 *   secret output each run as a new ciphertext, so those keys are judged by the next item;
 * - the shared stack's outputs it is handed, by value; a secret output's value only through scrypt,
 *   so that the record beside the state (a plain SHA-256 of a short secret could be guessed back)
 *   tells no more of it than that it changed.
 */
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { createHash, type Hash, scrypt } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parseDocument } from "yaml";
import type { FleetProject } from "../../project/project.js";

/** The lockfiles of npm, Yarn, pnpm and Bun, the first found from the project directory upwards counting. */
const LOCKFILES = ["package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb"];

/** Folders that are never the program: installed packages, and dot folders (a file backend's `.state`, `.git`, `.pulumi`). */
const skipFolder = (name: string): boolean => name === "node_modules" || name.startsWith(".");

/** A stack's settings file: another stack's, never part of the program. */
const STACK_SETTINGS = /^Pulumi\.[^/]+\.ya?ml$/;

/** The hash of the project's program, shared by every client stack of the run. */
export async function programFingerprint(project: FleetProject): Promise<string> {
  const hash = createHash("sha256");
  const excluded = new Set([project.clients.dir, ...(project.shared !== undefined && project.shared.dir !== project.dir ? [project.shared.dir] : [])].map((dir) => resolve(dir)));
  for (const file of await programFiles(project.dir, project.dir, excluded)) {
    // The file's path, then its length, then its bytes: no two sets of files hash alike.
    const bytes = await readFile(join(project.dir, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  for (const name of ["package.json", ...LOCKFILES]) {
    const found = await nearest(project.dir, name);
    if (found === undefined) continue;
    hash.update(`${name}\0${found.length}\0`).update(found);
    // One lockfile: the package manager's.
    if (name !== "package.json") break;
  }
  hash.update(`pulumi-monitoring@${installedVersion(project.dir) ?? "not installed"}`);
  return hash.digest("hex");
}

/** The files of the program under `dir`, relative to `root`, in a fixed order. */
async function programFiles(root: string, dir: string, excluded: ReadonlySet<string>): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipFolder(entry.name) && !excluded.has(resolve(path))) files.push(...(await programFiles(root, path, excluded)));
    } else if (entry.isFile() && !(dir === root && STACK_SETTINGS.test(entry.name) && entry.name !== "Pulumi.yaml")) {
      files.push(relative(root, path).split(sep).join("/"));
    }
  }
  return files;
}

/** The file `name` in `dir` or the nearest folder above it. */
async function nearest(dir: string, name: string): Promise<Buffer | undefined> {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const found = await readFile(join(at, name)).catch(() => undefined);
    if (found !== undefined) return found;
    if (dirname(at) === at) return undefined;
  }
}

/** The version of pulumi-monitoring a program in `dir` loads, from its package.json. */
function installedVersion(dir: string): string | undefined {
  let entry: string;
  try {
    entry = createRequire(join(dir, "program.js")).resolve("pulumi-monitoring");
  } catch {
    return undefined;
  }
  const require = createRequire(entry);
  for (let at = dirname(entry); dirname(at) !== at; at = dirname(at)) {
    try {
      const found = require(join(at, "package.json")) as { name?: string; version?: string };
      if (found.name === "pulumi-monitoring") return found.version;
    } catch {
      // No package.json in this folder: its parent's.
    }
  }
  return undefined;
}

/**
 * The shared outputs handed to the clients (configuration key → value) as a fingerprint takes
 * them: a secret's value as its scrypt hash (salted with its key; the same for every runner, so
 * that their records agree), computed once per run.
 */
export async function sharedValuesOf(config: ConfigMap | undefined): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const [key, { value, secret }] of Object.entries(config ?? {})) {
    values[key] = secret ? `secret:${await scryptHex(value, `pulumi-monitoring fleet record ${key}`)}` : value;
  }
  return values;
}

const scryptHex = (value: string, salt: string): Promise<string> =>
  new Promise((resolve, reject) => scrypt(value, salt, 32, { N: 1 << 15, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key.toString("hex")))));

/** A stack's fingerprint in its three parts, each a SHA-256 in hex, so that a report can say which changed. */
export interface Fingerprint {
  program: string;
  settings: string;
  shared: string;
}

/** The stack's fingerprint from the program's, its settings file as written, and the shared outputs it is handed (configuration key → value). */
export function stackFingerprint(program: string, settingsText: string, sharedValues: Readonly<Record<string, string>>): Fingerprint {
  const settings = createHash("sha256");
  hashSettings(settings, settingsText, Object.keys(sharedValues));
  const shared = createHash("sha256");
  for (const key of Object.keys(sharedValues).sort()) shared.update(`${key}\0${sharedValues[key]}\0`);
  return { program, settings: settings.digest("hex"), shared: shared.digest("hex") };
}

/** What differs between the fingerprint recorded at the last deploy and this one, as words; empty when nothing does. */
export function changedParts(recorded: Fingerprint, now: Fingerprint): string[] {
  const parts: string[] = [];
  if (recorded.program !== now.program) parts.push("its program, package.json, lockfile or pulumi-monitoring version changed");
  if (recorded.settings !== now.settings) parts.push("its settings file changed");
  if (recorded.shared !== now.shared) parts.push("the shared stack's outputs it reads changed");
  return parts;
}

/**
 * The settings as a canonical document (key order, comments and layout do not count), without
 * the keys the fleet writes the shared outputs to, nor the encryption salt.
 */
function hashSettings(hash: Hash, text: string, fleetKeys: readonly string[]): void {
  const document = text.trim() === "" ? {} : ((parseDocument(text).toJS() as Record<string, unknown> | null) ?? {});
  // The CLI adds the salt to a file that has none during the stack's first run, after the
  // fingerprint was taken; what it protects, the secrets, counts by their ciphertexts.
  delete document["encryptionsalt"];
  const config = document["config"];
  if (config !== null && typeof config === "object") {
    const own = { ...(config as Record<string, unknown>) };
    for (const key of fleetKeys) delete own[key];
    document["config"] = own;
  }
  hash.update(canonical(document));
}

/** JSON with every object's keys in order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
