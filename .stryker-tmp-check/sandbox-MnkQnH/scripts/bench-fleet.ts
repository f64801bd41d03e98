/**
 * Benchmark of `pulumi-monitoring fleet` against running the stacks one by one with the CLI.
 *
 * Builds the agency example (examples/agency, without its shared template) with N client stacks
 * (default 50) made by `fleet init`, against the in-memory emulator, and prints the wall time of
 *  - a loop of `pulumi up -s X --yes --skip-preview` over the stacks (the same work as `fleet up`,
 *    which deploys without a preview first, as the Automation API's `up` does; a plain
 *    `pulumi up --yes` previews first and takes about twice as long), then a loop of `pulumi preview -s X`;
 *  - `fleet up` and `fleet preview` with each `--parallel` (default 1, 2 and 4), the programs
 *    running inside the fleet's process;
 *  - the same with `--isolated` for each `--isolated-parallel` (default 2): each stack's program
 *    in a process of its own, as the loop runs it, to show what running them in-process gains;
 * every up starting from new stacks in a project of its own. Every run has
 * PULUMI_NODEJS_TRANSPILE_ONLY=true: a loop of `pulumi up` would otherwise type-check the program
 * once per stack, which the in-process fleet does once in all, and that is not what is compared.
 *
 * Usage: npm run bench:fleet [-- --stacks 50 --parallel 1,2,4 --isolated-parallel 2]
 */
// @ts-nocheck

import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator/index.js";

const repoRoot = join(__dirname, "..", "..");
const { values } = parseArgs({
  options: { stacks: { type: "string", default: "50" }, parallel: { type: "string", default: "1,2,4" }, "isolated-parallel": { type: "string", default: "2" } },
});
const stackCount = Number(values.stacks);
const numbers = (list: string): number[] => (list === "" ? [] : list.split(",").map(Number));
const parallels = numbers(values.parallel);
const isolatedParallels = numbers(values["isolated-parallel"]);
if (!Number.isInteger(stackCount) || stackCount < 1 || [...parallels, ...isolatedParallels].some((parallel) => !Number.isInteger(parallel) || parallel < 1)) {
  throw new Error("--stacks takes a whole number of at least 1, --parallel and --isolated-parallel a comma-separated list of them");
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { cwd, env, maxBuffer: 256 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(),
    ),
  );
}

async function seconds(action: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await action();
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ quiet: true });
  const benchDir = join(repoRoot, ".work", `bench-fleet-${process.pid}`);
  const project = (await readFile(join(repoRoot, "examples/agency/Pulumi.yaml"), "utf8")).replace(/\n# For `pulumi-monitoring fleet`[\s\S]*$/, "\n");
  const program = await readFile(join(repoRoot, "examples/agency/index.ts"), "utf8");

  /**
   * A project of its own per measured run, with clients named after it: a destroyed client is
   * archived, and creating it again with the same body within a day replays the first creation.
   * The client program without the fleet section: the shared template is not what is measured.
   */
  async function round(label: string) {
    const workDir = join(benchDir, label);
    await mkdir(join(workDir, "clients"), { recursive: true });
    await mkdir(join(workDir, ".state"));
    await writeFile(join(workDir, "Pulumi.yaml"), project);
    await writeFile(join(workDir, "index.ts"), program);
    const stacks = Array.from({ length: stackCount }, (_, index) => `${label}-c${String(index + 1).padStart(3, "0")}`);
    for (const stack of stacks) {
      await writeFile(join(workDir, "clients", `${stack}.yaml`), `name: ${stack}\ndomain: ${stack}.example.com\nendpoints:\n  - path: /\ncontacts:\n  emails: [ops@${stack}.example.com]\n`);
    }
    const env = {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "bench",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      MONITORING_API_URL: emulator.baseUrl,
      MONITORING_API_KEY: emulator.apiKey,
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    };
    const fleet = (...args: string[]): Promise<void> => run(process.execPath, [join(repoRoot, "dist/cli/main.js"), "fleet", ...args, "--cwd", workDir], workDir, env);
    const pulumiLoop = async (args: string[]): Promise<void> => {
      for (const stack of stacks) await run("pulumi", [...args, "-s", stack, "--non-interactive"], workDir, env);
    };
    await fleet("init");
    return { fleet, pulumiLoop };
  }

  try {
    await rm(benchDir, { recursive: true, force: true });
    const loop = await round("loop");
    const loopUp = await seconds(() => loop.pulumiLoop(["up", "--yes", "--skip-preview"]));
    const loopPreview = await seconds(() => loop.pulumiLoop(["preview"]));
    const rows: Array<[string, number, number]> = [["one by one: pulumi up -s X --yes --skip-preview / pulumi preview -s X", loopUp, loopPreview]];
    const runs = [...parallels.map((parallel) => ({ parallel, isolated: false })), ...isolatedParallels.map((parallel) => ({ parallel, isolated: true }))];
    for (const { parallel, isolated } of runs) {
      const { fleet } = await round(`${isolated ? "i" : "p"}${parallel}`);
      const options = ["--parallel", String(parallel), ...(isolated ? ["--isolated"] : [])];
      const up = await seconds(() => fleet("up", "--yes", ...options));
      const preview = await seconds(() => fleet("preview", ...options));
      rows.push([`fleet ${options.join(" ")}${isolated ? " (a program process per stack)" : ""}`, up, preview]);
    }

    console.log(`fleet benchmark: ${stackCount} client stacks of examples/agency (client, channel, policy, monitor each), in-memory emulator, file backend, ${cpus().length} cores\n`);
    console.log("| run | up (s) | up: times faster than the loop | preview (s) | preview: times faster than the loop |");
    console.log("| --- | ---: | ---: | ---: | ---: |");
    for (const [label, up, preview] of rows) {
      console.log(`| ${label} | ${up.toFixed(1)} | ${(loopUp / up).toFixed(2)}x | ${preview.toFixed(1)} | ${(loopPreview / preview).toFixed(2)}x |`);
    }
  } finally {
    await emulator.stop();
    await rm(benchDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
