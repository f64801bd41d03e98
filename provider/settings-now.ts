/**
 * A stack's `monitoring:` configuration now, as its files and the Pulumi CLI hold it, for a
 * provider process that Pulumi configured with the settings the last deploy recorded.
 *
 * Why: for a dynamic provider, Pulumi records the whole stack configuration as the inputs of the
 * default provider at every deploy, and a refresh or a destroy run without the program (plain
 * `pulumi refresh`, `pulumi destroy`, and the refresh that `refresh: always` runs before every
 * `pulumi preview` and `pulumi up`) configures the provider with those recorded inputs. After a
 * key was rotated, that refresh would send the old key. Such a process learns its stack from the
 * resources it is handed (their `__stack` output) and reads the configuration now instead.
 *
 * Cost: the settings file and Pulumi.yaml are read from disk. A secret (the key, set with
 * `--secret`) is the recorded value while the fingerprint the resources recorded of it
 * ({@link SettingsSeen}) matches the file's ciphertext; only when it changed since, or the stack
 * imports an environment, which files cannot resolve, is the CLI run, once per process (a run
 * that loads the stack and derives the passphrase's key, about half a CPU-second). So a refresh
 * costs a CLI run only after the key changed.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { CONFIG_NAMESPACE, type ConfigSource } from "./config.js";

/** A project-level value is written plainly or as `{ value: ... }` / `{ default: ... }`. */
export function projectValue(setting: unknown): unknown {
  return typeof setting === "object" && setting !== null ? ((setting as { value?: unknown; default?: unknown }).value ?? (setting as { default?: unknown }).default) : setting;
}

const plain = (value: unknown): string | undefined => (typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : undefined);

/** A stack's settings file (`Pulumi.<stack>.yaml`), as far as settings go. */
export interface StackFile {
  config?: Record<string, unknown>;
  environment?: unknown;
}

/** The `monitoring:` settings the files hold: the stack's own value, else Pulumi.yaml's project-level one. */
export function configFromFiles(stackConfig: Record<string, unknown>, projectConfig: Record<string, unknown> | undefined): ConfigSource {
  return (key) => {
    const name = `${CONFIG_NAMESPACE}:${key}`;
    return plain(stackConfig[name]) ?? plain(projectValue(projectConfig?.[name]));
  };
}

/**
 * Whether only the CLI can tell the stack's `monitoring:` settings: one is a secret (a `secure:`
 * value, encrypted) or the stack imports an environment, whose values the files do not hold.
 */
export function needsCli(file: StackFile): boolean {
  const secret = Object.entries(file.config ?? {}).some(([name, value]) => name.startsWith(`${CONFIG_NAMESPACE}:`) && typeof value === "object" && value !== null);
  return secret || file.environment !== undefined;
}

/** The `monitoring:` settings of `pulumi config --json --show-secrets` output. */
export function configFromCliJson(json: string): ConfigSource {
  const config = JSON.parse(json) as Record<string, { value?: unknown } | undefined>;
  return (key) => plain(config[`${CONFIG_NAMESPACE}:${key}`]?.value);
}

/** Runs the Pulumi CLI in `cwd` and returns its standard output. */
export type CliRunner = (args: readonly string[], cwd: string) => Promise<string>;

const run = promisify(execFile);

/**
 * The Pulumi CLI on the PATH the provider process inherited: the CLI that started it, since the
 * Automation API and `pulumi` put their own directory first.
 */
const pulumiCli: CliRunner = async (args, cwd) => (await run("pulumi", [...args], { cwd, env: process.env, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 })).stdout;

/** Pulumi.yaml's folder: `from` or the nearest folder above it that holds one, as the CLI finds it. */
async function projectFile(from: string): Promise<{ dir: string; text: string }> {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    for (const name of ["Pulumi.yaml", "Pulumi.yml"]) {
      const text = await readFile(join(dir, name), "utf8").catch(() => undefined);
      if (text !== undefined) return { dir, text };
    }
    if (dirname(dir) === dir) throw new Error(`no Pulumi.yaml in ${from} or a folder above it`);
  }
}

/** A stack's settings as its files hold them: the settings file, Pulumi.yaml's `config`, and the project's folder. */
interface StackFiles {
  projectDir: string;
  file: StackFile;
  projectConfig: Record<string, unknown> | undefined;
}

async function stackFiles(stack: string, from: string): Promise<StackFiles> {
  const project = await projectFile(from);
  const settings = (parse(project.text) ?? {}) as { stackConfigDir?: string; config?: Record<string, unknown> };
  const settingsFile = join(resolve(project.dir, settings.stackConfigDir ?? "."), `Pulumi.${basename(stack)}.yaml`);
  const text = await readFile(settingsFile, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  return { projectDir: project.dir, file: (parse(text) as StackFile | null) ?? {}, projectConfig: settings.config };
}

/**
 * The `monitoring:` secrets of a settings file, by key (`apiKey`): their ciphertext as written
 * (`v1:...`); undefined when a value is neither plain nor a secret (a list, which only the CLI
 * renders as the provider reads it).
 */
function secretsOf(file: StackFile): Map<string, string> | undefined {
  const secrets = new Map<string, string>();
  for (const [name, value] of Object.entries(file.config ?? {})) {
    if (!name.startsWith(`${CONFIG_NAMESPACE}:`) || typeof value !== "object" || value === null) continue;
    const ciphertext = (value as { secure?: unknown }).secure;
    if (typeof ciphertext !== "string") return undefined;
    secrets.set(name.slice(CONFIG_NAMESPACE.length + 1), ciphertext);
  }
  return secrets;
}

/**
 * What the provider records of the secrets of the configuration it ran with (`__settingsSeen` in
 * each resource's outputs): per `monitoring:` secret, a digest of its ciphertext in the settings
 * file together with its value (64 bits of SHA-256). Not the value: it only tells a later process
 * whether a ciphertext it finds holds a value it was handed, without the CLI. Like any digest it
 * could confirm a guess of the value; the keys a service issues are long random strings, which no
 * guess reaches. The value is in it so that a file changed and changed back is not taken for the
 * configuration a deploy recorded in between.
 */
export type SettingsSeen = Record<string, string>;

const fingerprint = (ciphertext: string, value: string | undefined): string => createHash("sha256").update(`${ciphertext}\u0000${value ?? ""}`).digest("hex").slice(0, 16);

/**
 * The fingerprints of `stack`'s secrets as its settings file holds them now, with the values
 * `config` gives them (the configuration a process runs with); undefined when the stack imports
 * an environment, whose values the files do not hold.
 */
export async function settingsSeen(stack: string, config: ConfigSource, from: string = process.cwd()): Promise<SettingsSeen | undefined> {
  const { file } = await stackFiles(stack, from);
  const secrets = secretsOf(file);
  if (file.environment !== undefined || secrets === undefined) return undefined;
  return Object.fromEntries([...secrets].map(([key, ciphertext]) => [key, fingerprint(ciphertext, config(key))]));
}

/** The configuration a process was handed, and the fingerprints its resources record, which tell whether it is still the configuration now. */
export interface Handed {
  config: ConfigSource;
  seen: SettingsSeen | undefined;
}

/** The stack's configuration now, and the fingerprints of its secrets to record. */
export interface ConfigNow {
  config: ConfigSource;
  seen: SettingsSeen | undefined;
  /** How it was found out: from the files alone, the files and the handed secrets they still hold, or the CLI. */
  from: "files" | "handed" | "cli";
}

/**
 * The `monitoring:` configuration of `stack` now: its settings file (in Pulumi.yaml's
 * `stackConfigDir`) and Pulumi.yaml's `config`; a secret is the handed value when the resources
 * recorded that the file's ciphertext holds it (its fingerprint), else the CLI tells every value,
 * as it does for an imported environment. `from` is where the provider process runs: Pulumi
 * starts it in the project.
 */
export async function stackConfigNow(stack: string, handed?: Handed, from: string = process.cwd(), cli: CliRunner = pulumiCli): Promise<ConfigNow> {
  const { projectDir, file, projectConfig } = await stackFiles(stack, from);
  const files = configFromFiles(file.config ?? {}, projectConfig);
  if (!needsCli(file)) return { config: files, seen: {}, from: "files" };
  const secrets = file.environment === undefined ? secretsOf(file) : undefined;
  if (secrets !== undefined && handed?.seen !== undefined && [...secrets].every(([key, ciphertext]) => handed.seen?.[key] === fingerprint(ciphertext, handed.config(key)))) {
    return { config: (key) => (secrets.has(key) ? handed.config(key) : files(key)), seen: handed.seen, from: "handed" };
  }
  const config = configFromCliJson(await cli(["config", "--json", "--show-secrets", "--stack", stack], projectDir));
  const seen = secrets === undefined ? undefined : Object.fromEntries([...secrets].map(([key, ciphertext]) => [key, fingerprint(ciphertext, config(key))]));
  return { config, seen, from: "cli" };
}
