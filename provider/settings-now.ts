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
 * Cost: the settings file and Pulumi.yaml are read from disk; the CLI is run once (a run that
 * loads the stack and derives the passphrase's key) only when a `monitoring:` value is a secret or
 * the stack imports an environment, which files cannot resolve. `pulumi-monitoring`'s own commands
 * hand the settings they resolved to their engine runs instead (HANDED_SETTINGS_ENV), so their
 * provider processes read nothing.
 */
import { execFile } from "node:child_process";
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

/**
 * The `monitoring:` configuration of `stack` now: its settings file (in Pulumi.yaml's
 * `stackConfigDir`) and Pulumi.yaml's `config`, or the CLI's answer when only it can tell
 * ({@link needsCli}). `from` is where the provider process runs: Pulumi starts it in the project.
 */
export async function stackConfigNow(stack: string, from: string = process.cwd(), cli: CliRunner = pulumiCli): Promise<ConfigSource> {
  const project = await projectFile(from);
  const settings = (parse(project.text) ?? {}) as { stackConfigDir?: string; config?: Record<string, unknown> };
  const settingsFile = join(resolve(project.dir, settings.stackConfigDir ?? "."), `Pulumi.${basename(stack)}.yaml`);
  const text = await readFile(settingsFile, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return "";
    throw error;
  });
  const file = (parse(text) as StackFile | null) ?? {};
  if (!needsCli(file)) return configFromFiles(file.config ?? {}, settings.config);
  return configFromCliJson(await cli(["config", "--json", "--show-secrets", "--stack", stack], project.dir));
}
