/**
 * How long `pulumi-monitoring import` takes on a large account, and how many requests it makes:
 * seeds an emulator (its own process) with monitors, half of them with an attached channel, then
 * imports the account and prints the time and the requests by kind of call.
 *
 * The lists take one request per 250 objects; each monitor then takes one more, the list of its
 * attached channels (the spec offers no other way to read attachments).
 *
 *   npx tsc -p tsconfig.build.json && node dist/scripts/bench-import.js [--monitors 1000]
 */
import { parseArgs } from "node:util";
import { importAccount } from "../cli/import/main.js";
import { BENCHMARK_KEY as KEY, startEmulatorProcess } from "./emulator-process.js";

const SEED_CONCURRENCY = 16;

async function post(baseUrl: string, path: string, body: unknown = {}): Promise<string> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { data: { id: string } }).data.id;
}

async function seed(baseUrl: string, monitors: number): Promise<void> {
  const channel = await post(baseUrl, "/notification_channels", { name: "Ops", kind: "email", config: { address: "ops@example.com" } });
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < monitors; index = next++) {
      const id = await post(baseUrl, "/monitors", { name: `Monitor ${index}`, url: `https://app${index}.example.com`, interval_seconds: 30 + (index % 5) * 30 });
      if (index % 2 === 0) await post(baseUrl, `/monitors/${id}/notification_channels/${channel}`);
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
}

/** The request log's entries grouped into list pages of collections and reads of associations. */
async function requestsByKind(adminUrl: string): Promise<Record<string, number>> {
  const log = ((await (await fetch(`${adminUrl}/requests`)).json()) as { data: { method: string; path: string }[] }).data;
  const groups: Record<string, number> = {};
  for (const { method, path } of log) {
    const shape = `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, "{id}")}`;
    groups[shape] = (groups[shape] ?? 0) + 1;
  }
  return groups;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { monitors: { type: "string", default: "1000" } } });
  const monitors = Number(values.monitors);
  const emulator = await startEmulatorProcess();
  try {
    process.stdout.write(`seeding ${monitors} monitors (half with an attached channel)...\n`);
    await seed(emulator.baseUrl, monitors);
    await fetch(`${emulator.adminUrl}/requests`, { method: "DELETE" });

    const started = performance.now();
    const result = await importAccount(["--quiet"], {
      stdout: { write: () => undefined },
      stderr: { write: () => undefined },
      env: { MONITORING_API_URL: emulator.baseUrl, MONITORING_API_KEY: KEY },
    });
    const seconds = (performance.now() - started) / 1000;
    if (result === undefined) throw new Error("the import printed its help");

    process.stdout.write(`imported ${result.plan.declarations.length} objects in ${seconds.toFixed(2)} s (${Math.round(result.plan.declarations.length / seconds)} objects/s)\n`);
    process.stdout.write(`requests: ${result.requests} (${(result.requests / seconds).toFixed(0)}/s), program: ${result.text.length} characters\n`);
    for (const [shape, count] of Object.entries(await requestsByKind(emulator.adminUrl)).sort((a, b) => b[1] - a[1])) {
      process.stdout.write(`  ${String(count).padStart(6)}  ${shape}\n`);
    }
  } finally {
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
