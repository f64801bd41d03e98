/**
 * Throughput of the emulator: monitor creates per second and list requests per second at
 * concurrency 16, with the state in memory and with a data file (--data). The emulator runs in
 * its own process, as `npx pulumi-monitoring-emulator` would.
 *
 *   npx tsc -p tsconfig.build.json && node dist/scripts/bench-emulator.js [--creates 5000] [--lists 5000]
 */
// @ts-nocheck

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Pool } from "undici";

const CONCURRENCY = 16;
const KEY = "pls_test_benchmark000000000000000000000";
const binPath = join(__dirname, "..", "emulator", "bin.js");

interface Emulator {
  baseUrl: string;
  stop(): Promise<void>;
}

async function startEmulatorProcess(dataFile: string | undefined): Promise<Emulator> {
  const args = [binPath, "--port", "0", "--key", KEY, ...(dataFile === undefined ? [] : ["--data", dataFile])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match !== null) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code} before listening`)));
  });
  return {
    baseUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Runs `total` calls of `operation` with `CONCURRENCY` in flight; returns calls per second. */
async function measure(total: number, operation: (index: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let index = next++; index < total; index = next++) await operation(index);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return total / ((performance.now() - started) / 1000);
}

async function call(pool: Pool, method: "GET" | "POST", path: string, expected: number, body?: unknown): Promise<void> {
  const response = await pool.request({
    method,
    path,
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== expected) throw new Error(`${method} ${path} answered ${response.statusCode}: ${text}`);
}

async function benchmark(label: string, dataFile: string | undefined, creates: number, lists: number): Promise<{ label: string; createsPerSecond: number; listsPerSecond: number }> {
  const emulator = await startEmulatorProcess(dataFile);
  const url = new URL(emulator.baseUrl);
  const pool = new Pool(url.origin, { connections: CONCURRENCY });
  try {
    const create = (index: number) =>
      call(pool, "POST", `${url.pathname}/monitors`, 201, {
        name: `Bench ${label} ${index}`,
        url: `https://bench-${index}.example.com`,
        interval_seconds: 60,
        regions: ["us-east-1", "eu-west-1"],
      });
    await measure(200, create);
    const createsPerSecond = await measure(creates, create);
    const list = () => call(pool, "GET", `${url.pathname}/monitors?limit=50`, 200);
    await measure(200, list);
    const listsPerSecond = await measure(lists, list);
    return { label, createsPerSecond, listsPerSecond };
  } finally {
    await pool.close();
    await emulator.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { creates: { type: "string", default: "5000" }, lists: { type: "string", default: "5000" } } });
  const creates = Number(values.creates);
  const lists = Number(values.lists);
  if (!existsSync(binPath)) throw new Error(`${binPath} is missing; build first with npx tsc -p tsconfig.build.json`);
  const directory = await mkdtemp(join(tmpdir(), "emulator-bench-"));
  try {
    const results = [
      await benchmark("in memory", undefined, creates, lists),
      await benchmark("--data", join(directory, "state.json"), creates, lists),
    ];
    console.log(`Emulator throughput, concurrency ${CONCURRENCY}, ${creates} creates and ${lists} lists (limit=50) per mode, node ${process.version}`);
    console.log(`${"mode".padEnd(12)}${"creates/s".padStart(12)}${"lists/s".padStart(12)}`);
    for (const result of results) {
      console.log(`${result.label.padEnd(12)}${result.createsPerSecond.toFixed(0).padStart(12)}${result.listsPerSecond.toFixed(0).padStart(12)}`);
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
