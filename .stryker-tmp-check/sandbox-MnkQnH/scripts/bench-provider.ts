/**
 * Benchmark of the provider on the real Pulumi engine against the in-memory emulator, reset before
 * each program's lifecycle so that every `up` is a first one (no idempotency record of an earlier run).
 *
 * For each size N it runs `up`, `preview`, `refresh`, a no-change `up` without and with a refresh
 * first (`up --refresh`, what `options: refresh: always` makes every `up`), and `destroy` of four programs, run after run
 * interleaved (run 1 of every program, then run 2, ...), and prints the median of each figure:
 *  - `monitor`: N `Monitor` resources with the inputs of a basic monitor;
 *  - `floor`: the same-shape floor, N do-nothing dynamic resources with Monitor's property names
 *    and the same inputs: what the engine itself costs for such resources;
 *  - `noop`: N do-nothing dynamic resources with one property;
 *  - `set`: one `MonitorSet` of N monitors.
 * Figures: wall time; CPU of the engine (the `pulumi` CLI and language host), the program and the dynamic
 * provider, sampled from /proc while each operation runs (a process's last ~0.2 s can be missed);
 * API requests per monitor; state bytes per monitor; and the ratio of wall times to the floor.
 * After each table, the cost of reconciling: the no-change `up --refresh` against the plain one.
 * Then one `MonitorSet` of `--set-max` monitors (default 10,000) is deployed and destroyed once.
 * The programs are projects in one directory made like `pulumi new typescript`, with the package
 * installed from `npm pack` (dist must be built): what users get, its serialized provider included.
 *
 * Usage: npm run bench:provider [-- --sizes 300,1000 --runs 3 --set-max 10000]
 */
// @ts-nocheck

import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { readFileSync, readdirSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator/index.js";
import { propertyNamesOf } from "../sdk/runtime.js";
import { type ConsumerProject, createConsumerProject } from "./consumer-project.js";

const repoRoot = join(__dirname, "..", "..");
const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "300,1000" },
    runs: { type: "string", default: "3" },
    "set-max": { type: "string", default: "10000" },
  },
});
const sizes = (values.sizes ?? "").split(",").map(Number);
const runs = Number(values.runs);
const setMax = Number(values["set-max"]);

/** The property names a `Monitor` declares to the engine (sdk/runtime.ts), given to the floor. */
const monitorPropertyNames = propertyNamesOf("Monitor");

/** A basic monitor's inputs, the same in every program. */
const basicInputs = "{ name: `bench ${i}`, url: `https://example.com/${i}`, intervalSeconds: 60, regions: [\"eu-west-1\", \"us-east-1\"] }";

const programs = {
  monitor: `
import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";
const count = new pulumi.Config().requireNumber("count");
for (let i = 0; i < count; i++) new mon.Monitor(\`m\${i}\`, ${basicInputs});
`,
  floor: `
import * as pulumi from "@pulumi/pulumi";
const noop: pulumi.dynamic.ResourceProvider = {
  async create(inputs) { return { id: inputs.name, outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async diff() { return { changes: false }; },
};
const names: string[] = ${JSON.stringify(monitorPropertyNames)};
const count = new pulumi.Config().requireNumber("count");
for (let i = 0; i < count; i++) {
  const props: Record<string, unknown> = Object.fromEntries(names.map((name) => [name, undefined]));
  new (class extends pulumi.dynamic.Resource {})(noop, \`f\${i}\`, { ...props, ...${basicInputs} }, {}, "bench", "Floor");
}
`,
  noop: `
import * as pulumi from "@pulumi/pulumi";
const noop: pulumi.dynamic.ResourceProvider = {
  async create(inputs) { return { id: inputs.name, outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async diff() { return { changes: false }; },
};
const count = new pulumi.Config().requireNumber("count");
for (let i = 0; i < count; i++) new (class extends pulumi.dynamic.Resource {})(noop, \`n\${i}\`, { name: \`bench \${i}\` }, {}, "bench", "Noop");
`,
  set: `
import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";
const count = new pulumi.Config().requireNumber("count");
const monitors: Record<string, mon.MonitorSetMonitorArgs> = {};
for (let i = 0; i < count; i++) monitors[\`m\${i}\`] = ${basicInputs};
new mon.MonitorSet("fleet", { monitors });
`,
};
type Program = keyof typeof programs;
const operations = ["up", "preview", "refresh", "up, no change", "up --refresh, no change", "destroy"] as const;
type Operation = (typeof operations)[number];

interface Figures {
  seconds: number;
  engineCpu: number;
  programCpu: number;
  providerCpu: number;
  requests: number;
}

// ---------------------------------------------------------------------------------------------
// CPU of the processes an operation starts, from /proc

/** CPU seconds so far of every descendant of this process, by pid, with what it runs. */
function descendantsCpu(): Map<number, { role: keyof Omit<Figures, "seconds" | "requests">; cpu: number }> {
  const ticks = 100; // USER_HZ on Linux
  const stats = new Map<number, { ppid: number; cpu: number; command: string }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      stats.set(Number(entry), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / ticks, command });
    } catch {
      // The process ended while being read.
    }
  }
  const result = new Map<number, { role: keyof Omit<Figures, "seconds" | "requests">; cpu: number }>();
  const isDescendant = (pid: number): boolean => {
    for (let current = stats.get(pid); current !== undefined; current = stats.get(current.ppid)) {
      if (current.ppid === process.pid) return true;
    }
    return false;
  };
  for (const [pid, { cpu, command }] of stats) {
    if (!isDescendant(pid)) continue;
    const role = command.includes("dynamic-provider")
      ? "providerCpu"
      : command.includes("node") && !command.includes("pulumi-language-nodejs")
        ? "programCpu"
        : "engineCpu";
    result.set(pid, { role, cpu });
  }
  return result;
}

/** Runs `action` while sampling the CPU of the processes it starts. */
async function measured(action: () => Promise<unknown>): Promise<Omit<Figures, "requests">> {
  const seen = new Map<number, { role: keyof Omit<Figures, "seconds" | "requests">; cpu: number }>();
  const before = new Set(descendantsCpu().keys());
  const sample = () => {
    for (const [pid, usage] of descendantsCpu()) if (!before.has(pid)) seen.set(pid, usage);
  };
  const sampler = setInterval(sample, 200);
  const started = performance.now();
  try {
    await action();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const figures = { seconds, engineCpu: 0, programCpu: 0, providerCpu: 0 };
  for (const { role, cpu } of seen.values()) figures[role] += cpu;
  return figures;
}

// ---------------------------------------------------------------------------------------------
// Stacks

/** The project the benchmark's stacks live in, one folder each: made once, in main. */
let consumer: ConsumerProject;

async function createStack(program: Program, count: number, env: Record<string, string>): Promise<{ stack: Stack; workDir: string }> {
  const workDir = join(consumer.dir, `${program}-${count}`);
  await rm(workDir, { recursive: true, force: true });
  await mkdir(join(workDir, ".state"), { recursive: true });
  await writeFile(join(workDir, "Pulumi.yaml"), `name: bench-${program}\nmain: index.ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
  await writeFile(join(workDir, "index.ts"), programs[program]);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "bench", workDir },
    { envVars: { PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`, PULUMI_CONFIG_PASSPHRASE: "bench", PULUMI_SKIP_UPDATE_CHECK: "true" } },
  );
  await stack.setAllConfig({ count: { value: String(count) }, ...Object.fromEntries(Object.entries(env).map(([key, value]) => [key, { value }])) });
  return { stack, workDir };
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] as number;

async function main(): Promise<void> {
  const pulumiVersion = (JSON.parse(readFileSync(join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8")) as { version: string }).version;
  consumer = await createConsumerProject({ pulumiVersion, files: {} });
  const emulator = await startEmulator({ quiet: true });
  const requestCount = async () => ((await (await fetch(`${emulator.adminUrl}/requests`)).json()) as { data: unknown[] }).data.length;
  const clearRequests = async () => void (await fetch(`${emulator.adminUrl}/requests`, { method: "DELETE" }));
  /**
   * Back to a service that has never seen these resources. Every lifecycle declares the same URNs
   * and bodies (the first 300 monitors of N = 1,000 are those of N = 300), so without this their
   * creates would replay the idempotency records of an earlier, destroyed lifecycle: the provider
   * then reads each replayed object back, finds it gone and creates afresh, 3 requests instead of 1.
   */
  const resetService = async () => void (await fetch(`${emulator.adminUrl}/reset`, { method: "POST" }));
  const config = { "monitoring:apiUrl": emulator.baseUrl, "monitoring:apiKey": emulator.apiKey };

  /** One program through its operations; figures by operation, and state bytes per monitor. */
  async function lifecycle(program: Program, count: number): Promise<{ figures: Record<Operation, Figures>; stateBytes: number; propertyBytes: number }> {
    await resetService();
    const { stack, workDir } = await createStack(program, count, program === "monitor" || program === "set" ? config : {});
    const figures = {} as Record<Operation, Figures>;
    let stateBytes = 0;
    let propertyBytes = 0;
    try {
      for (const operation of operations) {
        await clearRequests();
        const timed = await measured(async () => {
          if (operation === "up") {
            const up = await stack.up();
            const created = up.summary.resourceChanges?.create;
            // The stack itself is one of the creates; a program that declared nothing must not pass as fast.
            if (created !== (program === "set" ? 2 : count + 1)) throw new Error(`${program}: up created ${created} resources`);
          } else if (operation === "preview") await stack.preview({ expectNoChanges: true });
          else if (operation === "refresh") await stack.refresh({ expectNoChanges: true });
          else if (operation === "up, no change") await stack.up({ expectNoChanges: true });
          else if (operation === "up --refresh, no change") await stack.up({ expectNoChanges: true, refresh: true });
          else await stack.destroy();
        });
        figures[operation] = { ...timed, requests: (await requestCount()) / count };
        if (operation === "up") {
          const resources = (await stack.exportStack()).deployment.resources as { type: string; inputs: object; outputs: object }[];
          const own = resources.filter((resource) => !resource.type.startsWith("pulumi:"));
          stateBytes = Buffer.byteLength(JSON.stringify(own)) / count;
          propertyBytes = own.reduce((sum, resource) => sum + Buffer.byteLength(JSON.stringify(resource.inputs)) + Buffer.byteLength(JSON.stringify(resource.outputs)), 0) / count;
        }
      }
    } finally {
      await stack.workspace.removeStack("bench").catch(() => undefined);
      await rm(workDir, { recursive: true, force: true });
    }
    return { figures, stateBytes, propertyBytes };
  }

  try {
    console.log(`benchmark: sizes ${sizes.join(", ")}, ${runs} interleaved run(s), median shown; emulator in memory; ${process.platform} ${require("node:os").cpus().length} cores`);
    for (const count of sizes) {
      const results: Record<Program, { figures: Record<Operation, Figures>; stateBytes: number; propertyBytes: number }[]> = { monitor: [], floor: [], noop: [], set: [] };
      for (let run = 1; run <= runs; run++) {
        for (const program of Object.keys(programs) as Program[]) {
          results[program].push(await lifecycle(program, count));
          process.stderr.write(`  N=${count} run ${run} ${program} done\n`);
        }
      }
      const medianOf = (program: Program, operation: Operation, figure: keyof Figures) => median(results[program].map((result) => result.figures[operation][figure]));
      console.log(`\nN = ${count}`);
      console.log("| program | operation | wall s | x floor | engine CPU s | program CPU s | provider CPU s | requests/monitor | state B/monitor: entry (inputs+outputs) |");
      console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
      for (const program of Object.keys(programs) as Program[]) {
        for (const operation of operations) {
          const seconds = medianOf(program, operation, "seconds");
          const cells = [
            program === "set" ? `MonitorSet of ${count}` : program === "monitor" ? `Monitor x ${count}` : program === "floor" ? "same-shape floor" : "one-property noop",
            operation,
            seconds.toFixed(1),
            `${(seconds / medianOf("floor", operation, "seconds")).toFixed(2)}x`,
            medianOf(program, operation, "engineCpu").toFixed(1),
            medianOf(program, operation, "programCpu").toFixed(1),
            medianOf(program, operation, "providerCpu").toFixed(1),
            program === "monitor" || program === "set" ? medianOf(program, operation, "requests").toFixed(3) : "-",
            operation === "up"
              ? `${Math.round(median(results[program].map((result) => result.stateBytes)))} (${Math.round(median(results[program].map((result) => result.propertyBytes)))})`
              : "",
          ];
          console.log(`| ${cells.join(" | ")} |`);
        }
      }
      for (const program of ["monitor", "set"] as const) {
        const plain = medianOf(program, "up, no change", "seconds");
        const refreshing = medianOf(program, "up --refresh, no change", "seconds");
        console.log(
          `${program === "monitor" ? `Monitor x ${count}` : `MonitorSet of ${count}`}: no-change up with refresh ${refreshing.toFixed(1)} s / without ${plain.toFixed(1)} s = ` +
            `${(refreshing / plain).toFixed(2)}x; refresh ${(medianOf(program, "refresh", "requests") * count).toFixed(0)} requests ` +
            `(${medianOf(program, "refresh", "requests").toFixed(3)} per monitor)`,
        );
      }
    }

    if (setMax > 0) {
      await resetService();
      const { stack, workDir } = await createStack("set", setMax, config);
      try {
        await clearRequests();
        const up = await measured(() => stack.up());
        const upRequests = await requestCount();
        await clearRequests();
        const refresh = await measured(() => stack.refresh({ expectNoChanges: true }));
        const refreshRequests = await requestCount();
        const destroy = await measured(() => stack.destroy());
        console.log(
          `\nMonitorSet of ${setMax}: up ${up.seconds.toFixed(1)} s (${upRequests} requests), refresh ${refresh.seconds.toFixed(1)} s ` +
            `(${refreshRequests} requests), destroy ${destroy.seconds.toFixed(1)} s`,
        );
      } finally {
        await stack.workspace.removeStack("bench").catch(() => undefined);
        await rm(workDir, { recursive: true, force: true });
      }
    }
  } finally {
    await emulator.stop();
    await consumer.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
