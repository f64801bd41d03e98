/**
 * Throughput of the emulator: monitor creates per second and list requests per second at
 * concurrency 16, with the state in memory and with a data file (--data). The emulator runs in
 * its own process, as `npx pulumi-monitoring-emulator` would.
 *
 *   npx tsc -p tsconfig.build.json && node dist/scripts/bench-emulator.js [--creates 5000] [--lists 5000]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { BENCHMARK_KEY as KEY, startEmulatorProcess } from "./emulator-process.js";

const CONCURRENCY = 16;

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
  const emulator = await startEmulatorProcess(dataFile === undefined ? {} : { dataFile });
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
