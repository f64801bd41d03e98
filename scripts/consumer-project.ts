/**
 * The package as a user gets it: packed with `npm pack` from the built repository (`npm test`
 * builds first) and installed into a fresh project made like `pulumi new typescript`, in the
 * system's temp directory so that nothing resolves from the repository's node_modules. Used by the
 * tests of what users get and by the provider benchmark.
 *
 *   const project = await createConsumerProject({ pulumiVersion: "3.259.0", files: { "index.ts": program } });
 *   await project.run("node", ["node_modules/typescript/bin/tsc", "--noEmit"]);
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

/** This package's root, by self-reference: the same from the sources (tests) and from dist (scripts). */
const repoRoot = dirname(require.resolve("pulumi-monitoring/package.json"));

const run = promisify(execFile);

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
}

/**
 * Packs the repository (dist must be built) and installs the tarball into a new project with the
 * template's own dependencies: `@pulumi/pulumi`, `typescript` ^5 and `@types/node`. npm takes what
 * it can from its cache and asks the registry for the rest.
 */
export async function createConsumerProject(options: ConsumerOptions): Promise<ConsumerProject> {
  const dir = await mkdtemp(join(tmpdir(), "pulumi-monitoring-consumer-"));
  const inProject = async (command: string, args: readonly string[]) => {
    try {
      return await run(command, args, { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`${command} ${args.join(" ")} failed in ${dir}:\n${stdout ?? ""}${stderr ?? ""}`);
    }
  };
  const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", dir, repoRoot], { cwd: dir, encoding: "utf8" });
  const tarball = stdout.trim().split("\n").pop() as string;
  const manifest = {
    name: "consumer",
    main: "index.ts",
    devDependencies: { "@types/node": "^24", typescript: "^5.0.0" },
    dependencies: { "@pulumi/pulumi": options.pulumiVersion },
  };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, "tsconfig.json"), `${JSON.stringify(STOCK_TSCONFIG, null, 2)}\n`);
  for (const [name, text] of Object.entries(options.files)) await writeFile(join(dir, name), text);
  try {
    await inProject("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", `./${tarball}`]);
  } catch (error) {
    const unreachable = /ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ENOTCACHED|network/i.test(String(error));
    throw unreachable ? new Error(`the npm registry is unreachable, so the packed package cannot be installed: ${String(error)}`) : error;
  }
  return { dir, run: inProject, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** Paths of every copy of `@pulumi/pulumi` in the project's node_modules, by their package.json. */
export async function pulumiCopies(dir: string): Promise<string[]> {
  const { stdout } = await run("find", ["node_modules", "-path", "*/@pulumi/pulumi/package.json"], { cwd: dir, encoding: "utf8" });
  return stdout.split("\n").filter((line) => line !== "");
}

export async function installedVersion(dir: string, name: string): Promise<string> {
  return (JSON.parse(await readFile(join(dir, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}
