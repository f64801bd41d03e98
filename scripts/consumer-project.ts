/**
 * The package as a user gets it: packed with `npm pack` from the built repository (`npm test`
 * builds first) and installed into a fresh project made like `pulumi new typescript`, in a temp
 * directory ({@link scratchDir}) so that nothing resolves from the repository's node_modules. Used
 * by the tests of what users get and by the provider benchmark.
 *
 *   const project = await createConsumerProject({ pulumiVersion: "3.259.0", files: { "index.ts": program } });
 *   await project.run("node", ["node_modules/typescript/bin/tsc", "--noEmit"]);
 */
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { access, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

/** This package's root, by self-reference: the same from the sources (tests) and from dist (scripts). */
const repoRoot = dirname(require.resolve("pulumi-monitoring/package.json"));

const run = promisify(execFile);

/**
 * Where the projects and the shared installs go: memory (/dev/shm) where the machine has it, the
 * system's temp directory otherwise. An install writes some 130 MB in thousands of small files
 * (@pulumi/pulumi's dependencies, TypeScript), and a disk's file system spends twice the system
 * time on them (npm install: 4.3 CPU-s of system time on disk, 2.0 in memory). The shared installs
 * and the projects hard-linked from them must be on one file system: both come from here.
 */
export function scratchDir(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

/** The tsconfig.json of `pulumi new typescript`, unchanged. */
export const STOCK_TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

export interface ConsumerProject {
  dir: string;
  /** Runs a command in the project; rejects with its output when it fails. */
  run(command: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }>;
  dispose(): Promise<void>;
}

export interface ConsumerOptions {
  /** The `@pulumi/pulumi` version the project asks for, as `pulumi new` writes it into package.json. */
  pulumiVersion: string;
  /** Files of the project besides package.json and tsconfig.json, e.g. its `index.ts`. */
  files: Record<string, string>;
  /**
   * A directory where projects asking for the same `@pulumi/pulumi` share one install, across
   * processes too: the first packs and installs there, the others wait for it and get its
   * node_modules hard-linked into their own folder. The tests of one run share theirs; whoever
   * passes it removes it.
   */
  sharedInstalls?: string;
}

/** Runs a command in `dir`; rejects with its output when it fails. */
function runIn(dir: string) {
  return async (command: string, args: readonly string[]) => {
    try {
      return await run(command, args, { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`${command} ${args.join(" ")} failed in ${dir}:\n${stdout ?? ""}${stderr ?? ""}`);
    }
  };
}

/**
 * Packs the repository (dist must be built) and installs the tarball into a new project with the
 * template's own dependencies: `@pulumi/pulumi`, `typescript` ^5 and `@types/node`. npm takes what
 * it can from its cache and asks the registry for the rest.
 */
export async function createConsumerProject(options: ConsumerOptions): Promise<ConsumerProject> {
  const dir = await mkdtemp(join(scratchDir(), "pulumi-monitoring-consumer-"));
  if (options.sharedInstalls === undefined) {
    await install(dir, options.pulumiVersion);
  } else {
    const installed = await sharedInstall(options.sharedInstalls, options.pulumiVersion);
    for (const file of ["package.json", "package-lock.json"]) await cp(join(installed, file), join(dir, file));
    // Hard links: a copy of node_modules at the cost of its directories. Nothing writes into it.
    await run("cp", ["-al", join(installed, "node_modules"), join(dir, "node_modules")]);
  }
  await writeFile(join(dir, "tsconfig.json"), `${JSON.stringify(STOCK_TSCONFIG, null, 2)}\n`);
  for (const [name, text] of Object.entries(options.files)) await writeFile(join(dir, name), text);
  return { dir, run: runIn(dir), dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** package.json as `pulumi new typescript` writes it, and the packed package installed beside its dependencies. */
async function install(dir: string, pulumiVersion: string): Promise<void> {
  const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", dir, repoRoot], { cwd: dir, encoding: "utf8" });
  const tarball = stdout.trim().split("\n").pop() as string;
  const manifest = {
    name: "consumer",
    main: "index.ts",
    devDependencies: { "@types/node": "^24", typescript: "^5.0.0" },
    dependencies: { "@pulumi/pulumi": pulumiVersion },
  };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  try {
    await runIn(dir)("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", `./${tarball}`]);
  } catch (error) {
    const unreachable = /ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ENOTCACHED|network/i.test(String(error));
    throw unreachable ? new Error(`the npm registry is unreachable, so the packed package cannot be installed: ${String(error)}`) : error;
  }
}

/** How long a project waits for another process's install of the same version. */
const SHARED_INSTALL_WAIT_MS = 10 * 60_000;

/**
 * The folder of `pulumiVersion`'s install under `installs`. Creating the folder is the lock: the
 * process that creates it installs, then writes `installed` (or `failed`, with the error) beside it.
 */
async function sharedInstall(installs: string, pulumiVersion: string): Promise<string> {
  const folder = join(installs, pulumiVersion);
  const project = join(folder, "project");
  await mkdir(installs, { recursive: true });
  let installing = false;
  try {
    await mkdir(folder);
    installing = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  if (installing) {
    try {
      await mkdir(project);
      await install(project, pulumiVersion);
      await writeFile(join(folder, "installed"), "");
    } catch (error) {
      await writeFile(join(folder, "failed"), String(error));
      throw error;
    }
    return project;
  }
  for (const deadline = Date.now() + SHARED_INSTALL_WAIT_MS; Date.now() < deadline; await delay(250)) {
    if (await exists(join(folder, "installed"))) return project;
    if (await exists(join(folder, "failed"))) throw new Error(`the shared install in ${project} failed: ${await readFile(join(folder, "failed"), "utf8")}`);
  }
  throw new Error(`the shared install in ${project} did not finish within ${SHARED_INSTALL_WAIT_MS / 60_000} minutes`);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const exists = (path: string) => access(path).then(() => true, () => false);

/** Paths of every copy of `@pulumi/pulumi` in the project's node_modules, by their package.json. */
export async function pulumiCopies(dir: string): Promise<string[]> {
  const { stdout } = await run("find", ["node_modules", "-path", "*/@pulumi/pulumi/package.json"], { cwd: dir, encoding: "utf8" });
  return stdout.split("\n").filter((line) => line !== "");
}

export async function installedVersion(dir: string, name: string): Promise<string> {
  return (JSON.parse(await readFile(join(dir, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}
