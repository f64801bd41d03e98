/**
 * Benchmark of `pulumi-monitoring fleet`, in two cases.
 *
 * The default case compares the fleet with running the stacks one by one with the CLI. It builds
 * the agency example (examples/agency, without its shared template) with N client stacks
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
 * The load case (`--load`) is a fleet on a service that limits its key: 20 client stacks
 * (test/programs/clients: a client, an email channel, 8 monitors attached to it) through
 * `fleet up` (new stacks), a second `fleet up` (no change), `fleet drift` and `fleet destroy`,
 * `--parallel 4 --max-rps 10`, against an emulator with `--rate-limit 10` (429 with Retry-After
 * beyond 10 requests of the key in a second) that answers 20 % of requests 503 and drops 5 % of
 * connections; then the same fleet with no limit and no faults. Per step it prints the wall time,
 * the requests the service saw (answered, 503, dropped, refused by its limit) against the
 * minimum the spec allows, the share of the budget used, whether every stack succeeded in one
 * attempt, and the objects created twice.
 *
 * Usage: npm run bench:fleet [-- --stacks 50 --parallel 1,2,4 --isolated-parallel 2]
 *        npm run bench:fleet -- --load [--stacks 20 --parallel 4 --max-rps 10 --monitors 8]
 */
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ALL_SCOPES, startEmulator, type FaultSpec, type RequestLogEntry, type RunningEmulator } from "../emulator/index.js";
import type { FleetReport } from "../cli/report/fleet.js";

const repoRoot = join(__dirname, "..", "..");
const { values } = parseArgs({
  options: {
    load: { type: "boolean", default: false },
    stacks: { type: "string" },
    parallel: { type: "string" },
    "isolated-parallel": { type: "string", default: "2" },
    "max-rps": { type: "string", default: "10" },
    monitors: { type: "string", default: "8" },
  },
});
values.stacks ??= values.load ? "20" : "50";
values.parallel ??= values.load ? "4" : "1,2,4";
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

/**
 * The environment of every run of a bench project: its own file backend in `.state`, the emulator
 * as the service, and no type-check of the program (a loop of `pulumi up` would otherwise
 * type-check once per stack, which the in-process fleet does once in all).
 */
function benchEnv(workDir: string, emulator: RunningEmulator): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`,
    PULUMI_CONFIG_PASSPHRASE: "bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    MONITORING_API_URL: emulator.baseUrl,
    MONITORING_API_KEY: emulator.apiKey,
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
}

async function seconds(action: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await action();
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  if (values.load) return loadCase();
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
    const env = benchEnv(workDir, emulator);
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

// ---------------------------------------------------------------------------------------------
// The load case

interface StepFigures {
  step: string;
  seconds: number;
  requests: number;
  answered: number;
  unavailable: number;
  dropped: number;
  refused: number;
  minimum: number;
  /** Requests per second over the step, and over the time the stacks were sending. */
  perSecond: number;
  perSecondSending: number;
  busiestSecond: number;
  stacksOk: number;
  late: number;
  duplicates?: number;
}

/** `fleet <args> --json`: its exit status and report (which it writes even when a stack fails). */
function fleetReport(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; report: FleetReport }> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [join(repoRoot, "dist/cli/main.js"), "fleet", ...args, "--json", "--cwd", cwd], { cwd, env, maxBuffer: 256 << 20 }, (error, stdout, stderr) => {
      try {
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, report: JSON.parse(stdout) as FleetReport });
      } catch {
        reject(new Error(`fleet ${args.join(" ")} wrote no report: ${error?.message ?? ""}\n${stderr}`));
      }
    }),
  );
}

async function admin<T>(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.adminUrl}${path}`, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${text}`);
  return (text === "" ? undefined : (JSON.parse(text) as { data: T }).data) as T;
}

/** Names that more than one object of a collection carries: objects created twice. */
async function duplicateObjects(emulator: RunningEmulator, key: string): Promise<number> {
  let duplicates = 0;
  for (const collection of ["/clients", "/notification_channels", "/monitors"]) {
    const names = new Map<string, number>();
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ limit: "250", all_clients: "true", ...(cursor === null ? {} : { cursor }) });
      const response = await fetch(`${emulator.baseUrl}${collection}?${query}`, { headers: { authorization: `Bearer ${key}` } });
      if (!response.ok) throw new Error(`GET ${collection}: ${response.status}`);
      const page = (await response.json()) as { data: Array<{ name: string; archived?: boolean }>; pagination: { next_cursor: string | null } };
      for (const object of page.data.filter((item) => item.archived !== true)) names.set(object.name, (names.get(object.name) ?? 0) + 1);
      cursor = page.pagination.next_cursor;
    } while (cursor !== null);
    for (const count of names.values()) duplicates += count - 1;
  }
  return duplicates;
}

async function loadRound(label: string, limited: boolean): Promise<StepFigures[]> {
  const budget = Number(values["max-rps"]);
  const monitorCount = Number(values.monitors);
  const parallel = parallels[0] ?? 4;
  const emulator = await startEmulator({ quiet: true, ...(limited ? { rateLimit: budget } : {}) });
  const faults: FaultSpec[] = limited
    ? [
        { drop_connection: true, probability: 0.05 },
        // 20 % of all requests: of the 95 % not dropped, this share.
        { status: 503, probability: 0.2 / 0.95 },
      ]
    : [];
  const workDir = join(repoRoot, ".work", `bench-fleet-load-${process.pid}`, label);
  try {
    await mkdir(join(workDir, ".state"), { recursive: true });
    for (const file of ["Pulumi.yaml", "index.ts"]) await writeFile(join(workDir, file), await readFile(join(repoRoot, "test/programs/clients", file), "utf8"));
    const env = benchEnv(workDir, emulator);
    const workspace = await LocalWorkspace.create({ workDir, envVars: { PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`, PULUMI_CONFIG_PASSPHRASE: "bench" } });
    const stacks = Array.from({ length: stackCount }, (_, index) => `${label}-c${String(index + 1).padStart(2, "0")}`);
    for (const name of stacks) await (await Stack.create(name, workspace)).setConfig("clients:monitorCount", { value: String(monitorCount) });
    // The duplicate count reads with a key of its own, so that its reads spend none of the fleet's limit.
    const reader = await admin<{ key: string }>(emulator, "POST", "/keys", { scopes: ALL_SCOPES, label: "bench reader" });

    const minimums = {
      up: stackCount * (2 + 2 * monitorCount),
      refresh: stackCount * (3 + monitorCount),
      // The refresh's reads, plus the check for unmanaged objects: a page of each kind that lives in a
      // client (7) the refresh has not read (5: all but channels and monitors).
      drift: stackCount * (3 + monitorCount + 5),
      destroy: stackCount * (2 + monitorCount),
    };
    const options = ["--parallel", String(parallel), ...(limited ? ["--max-rps", String(budget)] : [])];
    const steps: Array<{ step: string; args: string[]; minimum: number; ok: string }> = [
      { step: "up", args: ["up", "--yes"], minimum: minimums.up, ok: "succeeded" },
      { step: "no-change up", args: ["up", "--yes"], minimum: minimums.refresh, ok: "succeeded" },
      { step: "drift", args: ["drift"], minimum: minimums.drift, ok: "in sync" },
      { step: "destroy", args: ["destroy", "--yes"], minimum: minimums.destroy, ok: "succeeded" },
    ];
    const figures: StepFigures[] = [];
    for (const { step, args, minimum, ok } of steps) {
      await admin(emulator, "DELETE", "/requests");
      for (const fault of faults) await admin(emulator, "POST", "/faults", fault);
      const started = performance.now();
      const { report } = await fleetReport([...args, ...options], workDir, env);
      const seconds = (performance.now() - started) / 1000;
      for (const stack of report.stacks.filter((each) => each.result !== ok)) console.error(`${label} ${step}: ${stack.stack} ${stack.result}: ${stack.error ?? stack.note ?? ""}`);
      await admin(emulator, "DELETE", "/faults");
      const log = await admin<RequestLogEntry[]>(emulator, "GET", "/requests");
      const times = log.map((entry) => Date.parse(entry.time));
      const perSecond = new Map<number, number>();
      for (const time of times) perSecond.set(Math.floor(time / 1000), (perSecond.get(Math.floor(time / 1000)) ?? 0) + 1);
      const sendingSeconds = times.length < 2 ? 1 : (Math.max(...times) - Math.min(...times)) / 1000;
      figures.push({
        step,
        seconds,
        requests: log.length,
        answered: log.filter((entry) => entry.status !== null && entry.status >= 200 && entry.status < 300).length,
        unavailable: log.filter((entry) => entry.status === 503).length,
        dropped: log.filter((entry) => entry.fault === "drop_connection").length,
        refused: log.filter((entry) => entry.status === 429).length,
        minimum,
        perSecond: log.length / seconds,
        perSecondSending: log.length / sendingSeconds,
        busiestSecond: Math.max(0, ...perSecond.values()),
        stacksOk: report.stacks.filter((stack) => stack.result === ok).length,
        late: report.rateLimit?.late ?? 0,
        ...(step === "up" ? { duplicates: await duplicateObjects(emulator, reader.key) } : {}),
      });
      // As it comes, for a long run: the table follows at the end.
      console.error(`${label} ${step}: ${JSON.stringify(figures.at(-1))}`);
    }
    return figures;
  } finally {
    await emulator.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

async function loadCase(): Promise<void> {
  const budget = Number(values["max-rps"]);
  const loaded = await loadRound("limited", true);
  const free = await loadRound("free", false);
  const parallel = parallels[0] ?? 4;
  console.log(
    `fleet load case: ${stackCount} stacks of test/programs/clients (a client, an email channel, ${values.monitors} monitors attached to it), ` +
      `fleet --parallel ${parallel}, in-memory emulator, file backend, ${cpus().length} cores\n` +
      `limited: --max-rps ${budget} against the emulator's --rate-limit ${budget}, 20 % of requests answered 503, 5 % of connections dropped; free: no limit, no faults\n`,
  );
  console.log("| fleet | step | wall (s) | requests | answered 2xx | minimum | requests / minimum | 503 | dropped | 429 | req/s over the step | req/s while sending | busiest second | budget used | stacks ok | late grants | duplicates |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const [name, rows] of [["limited", loaded], ["free", free]] as const) {
    for (const row of rows) {
      const used = name === "limited" ? `${Math.round((100 * row.perSecond) / budget)} % (${Math.round((100 * row.perSecondSending) / budget)} % while sending)` : "-";
      console.log(
        `| ${name} | ${row.step} | ${row.seconds.toFixed(1)} | ${row.requests} | ${row.answered} | ${row.minimum} | ${(row.answered / row.minimum).toFixed(2)}x | ${row.unavailable} | ${row.dropped} | ${row.refused} | ` +
          `${row.perSecond.toFixed(1)} | ${row.perSecondSending.toFixed(1)} | ${row.busiestSecond} | ${used} | ${row.stacksOk}/${stackCount} | ${row.late} | ${row.duplicates ?? "-"} |`,
      );
    }
  }
  console.log(
    "\nminimum: the spec's fewest requests (up: 1 POST per object and 1 attach per monitor; no-change up: 3 list pages and 1 association read per monitor per stack; " +
      "drift: the same, plus its check for unmanaged objects, a list page of each of the 5 other kinds that live in the stack's client; destroy: 1 DELETE per object). requests / minimum counts the answered ones: a 503 or a drop costs a retry, not a wasted request of the client's making.",
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
