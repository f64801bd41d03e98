/**
 * Benchmark of an agency's fleet as the agency runs it (issue 58): N client stacks of
 * test/programs/clients (a client, an email channel and 8 monitors attached to it: 10 objects
 * each), one runner, `--parallel 2`, against the in-memory emulator, which follows the spec and
 * injects no fault. Twice: with the key limited to R requests per second (`--rate-limit R` on the
 * emulator, `--max-rps R` on the fleet), then with no limit.
 *
 * Per step it prints the wall time, the seconds per stack, the requests the service saw against the
 * fewest the spec allows, the requests it refused (429), and, under the limit, how the wall time
 * compares with the time the requests take at the rate (requests ÷ R). The steps:
 *  - `up` of the new stacks (the fleet's setup, and a figure of its own);
 *  - `drift`, clean: `fleet drift` of the fleet as deployed (exit 0 expected);
 *  - `up, nothing changed`: `fleet up` again, every stack expected skipped (cli/fleet/affected/:
 *    the records of the deploys read, and the fleet's one read of the service, no engine run):
 *    the minimum of a clean drift, which that read is;
 *  - `preview, 1 changed` and `up, 1 changed`: the first stack's settings changed (one monitor
 *    more), that stack expected to run and every other one skipped. Their minimum is not the
 *    spec's alone (what a refresh and a deploy of the one stack read besides): shown as `-`;
 *  - `apply-due, nothing due`: the job that runs every 15 minutes, finding nothing due;
 *  - `destroy` of every stack.
 *
 * The stacks are made without a CLI run each: one `pulumi stack init`, whose settings file (its
 * encryption salt) every other stack copies, and an empty checkpoint per stack in the file backend,
 * as `pulumi stack init` writes it.
 *
 * Usage: npm run bench:agency -- --stacks 500 [--parallel 2 --max-rps 10 --monitors 8 --only limited|free]
 */
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { execFile } from "node:child_process";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type RequestLogEntry, type RunningEmulator } from "../emulator/index.js";
import type { StackReport } from "../cli/report/fleet.js";

const repoRoot = join(__dirname, "..", "..");
const { values } = parseArgs({
  options: {
    stacks: { type: "string", default: "20" },
    parallel: { type: "string", default: "2" },
    "max-rps": { type: "string", default: "10" },
    monitors: { type: "string", default: "8" },
    only: { type: "string" },
  },
});
const stackCount = Number(values.stacks);
const parallel = Number(values.parallel);
const rate = Number(values["max-rps"]);
const monitorCount = Number(values.monitors);
for (const [name, value] of [["--stacks", stackCount], ["--parallel", parallel], ["--max-rps", rate], ["--monitors", monitorCount]] as const) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number of at least 1`);
}
if (values.only !== undefined && values.only !== "limited" && values.only !== "free") throw new Error("--only takes limited or free");

/** List pages of `count` objects at 250 a page; an empty list still costs its one page. */
const pages = (count: number): number => Math.max(1, Math.ceil(count / 250));

/**
 * The spec's fewest requests per step, for `stacks` stacks of `monitors` monitors:
 *  - up: 1 POST per object and 1 attach per monitor;
 *  - drift: each kind's list of the whole account, every page (`all_clients=true`: monitors,
 *    channels and the 4 other kinds that live in clients; the clients' own list), each client's
 *    share links (the spec lists them only per client), and each monitor's channels (the spec reads
 *    a monitor's associations only from their endpoint). One stack alone: its client's lists
 *    instead, the client by id;
 *  - apply-due with nothing due: none (the states alone say nothing is due);
 *  - destroy: 1 request per object (a DELETE; the client, which the service cannot delete, is
 *    archived), a monitor's attachments going with it.
 */
function minimums(stacks: number, monitors: number): Record<string, number> {
  const perStack = stacks * (1 + monitors);
  const accountLists = stacks === 1 ? 6 + 1 : pages(stacks * monitors) + pages(stacks) + 4 + pages(stacks);
  return { up: stacks * (2 + 2 * monitors), drift: accountLists + perStack, destroy: stacks * (2 + monitors) };
}

/** A stack's line in a report: the fleet's (cli/report/fleet.ts), or apply-due's, which has a stack and a result too. */
type StackLine = Pick<StackReport, "stack" | "error" | "affected" | "note"> & { result: string };

interface StepFigures {
  fleet: "limited" | "free";
  step: string;
  seconds: number;
  requests: number;
  answered: number;
  refused: number;
  /** The spec's fewest requests, where a step has one worked out. */
  minimum: number | undefined;
  /** From the first request the service saw to the last. */
  sendingSeconds: number;
  stacksOk: number;
}

function fleet(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; report: { stacks: StackLine[] } }> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [join(repoRoot, "dist/cli/main.js"), "fleet", ...args, "--json", "--cwd", cwd], { cwd, env, maxBuffer: 1 << 30 }, (error, stdout, stderr) => {
      try {
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, report: JSON.parse(stdout) as { stacks: StackLine[] } });
      } catch {
        reject(new Error(`fleet ${args.join(" ")} wrote no report (exit ${error?.code ?? 0}${error?.signal ? `, ${error.signal}` : ""}): ${error?.message ?? ""}\nstdout begins: ${stdout.slice(0, 300)}\nstdout ends: ${stdout.slice(-300)}\nstderr ends: ${stderr.slice(-2000)}`));
      }
    }),
  );
}

async function admin<T>(emulator: RunningEmulator, method: string, path: string): Promise<T> {
  const response = await fetch(`${emulator.adminUrl}${path}`, { method });
  const text = await response.text();
  if (!response.ok) throw new Error(`admin ${method} ${path}: ${response.status} ${text}`);
  return (text === "" ? undefined : (JSON.parse(text) as { data: T }).data) as T;
}

/** N stacks of the project in `workDir`: one made by the CLI, the others copies of its settings and an empty checkpoint each. */
async function makeStacks(workDir: string, env: NodeJS.ProcessEnv, names: readonly string[]): Promise<void> {
  const workspace = await LocalWorkspace.create({ workDir, envVars: { PULUMI_BACKEND_URL: env["PULUMI_BACKEND_URL"]!, PULUMI_CONFIG_PASSPHRASE: env["PULUMI_CONFIG_PASSPHRASE"]! } });
  const [first, ...others] = names;
  await (await Stack.create(first!, workspace)).setConfig("clients:monitorCount", { value: String(monitorCount) });
  const settings = await readFile(join(workDir, `Pulumi.${first}.yaml`), "utf8");
  const checkpoints = join(workDir, ".state", ".pulumi", "stacks", "clients");
  for (const name of others) {
    await writeFile(join(workDir, `Pulumi.${name}.yaml`), settings);
    await writeFile(join(checkpoints, `${name}.json`), JSON.stringify({ version: 3, checkpoint: { stack: `organization/clients/${name}` } }));
  }
}

async function round(label: "limited" | "free"): Promise<StepFigures[]> {
  const limited = label === "limited";
  const emulator = await startEmulator({ quiet: true, ...(limited ? { rateLimit: rate } : {}) });
  const workDir = join(repoRoot, ".work", `bench-agency-${process.pid}`, label);
  try {
    await mkdir(join(workDir, ".state"), { recursive: true });
    for (const file of ["Pulumi.yaml", "index.ts"]) await cp(join(repoRoot, "test/programs/clients", file), join(workDir, file));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "bench",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      MONITORING_API_URL: emulator.baseUrl,
      MONITORING_API_KEY: emulator.apiKey,
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    };
    const width = String(stackCount).length;
    const names = Array.from({ length: stackCount }, (_, index) => `${label}-c${String(index + 1).padStart(width, "0")}`);
    await makeStacks(workDir, env, names);
    const options = ["--parallel", String(parallel), ...(limited ? ["--max-rps", String(rate)] : [])];
    const minimum = minimums(stackCount, monitorCount);
    const [changed] = names;
    /** The first stack's settings with one monitor more: a change that affects it alone. */
    const changeOne = async (): Promise<void> => {
      const file = join(workDir, `Pulumi.${changed}.yaml`);
      const text = await readFile(file, "utf8");
      const edited = text.replace(`clients:monitorCount: "${monitorCount}"`, `clients:monitorCount: "${monitorCount + 1}"`);
      if (edited === text) throw new Error(`${file} sets no clients:monitorCount of ${monitorCount}:\n${text}`);
      await writeFile(file, edited);
    };
    /** What each stack's result should be in a step: the one changed runs, the others are skipped. */
    const oneRuns = (ran: string) => (stack: StackLine) => stack.result === (stack.stack === changed ? ran : "skipped");
    const steps: Array<{ step: string; args: string[]; ok: (stack: StackLine) => boolean; before?: () => Promise<void>; minimum?: number }> = [
      { step: "up", args: ["up", "--yes"], ok: (stack) => stack.result === "succeeded", minimum: minimum["up"] },
      { step: "drift", args: ["drift"], ok: (stack) => stack.result === "in sync", minimum: minimum["drift"] },
      { step: "up, nothing changed", args: ["up", "--yes"], ok: (stack) => stack.result === "skipped", minimum: minimum["drift"] },
      { step: "preview, 1 changed", args: ["preview"], ok: oneRuns("changes"), before: changeOne },
      { step: "up, 1 changed", args: ["up", "--yes"], ok: oneRuns("succeeded") },
      { step: "apply-due, nothing due", args: ["apply-due"], ok: (stack) => stack.result === "nothing due", minimum: 0 },
      { step: "destroy", args: ["destroy", "--yes"], ok: (stack) => stack.result === "succeeded", minimum: minimum["destroy"] },
    ];
    const figures: StepFigures[] = [];
    for (const { step, args, ok, before } of steps) {
      await before?.();
      await admin(emulator, "DELETE", "/requests");
      const started = performance.now();
      const { report } = await fleet([...args, ...options], workDir, env);
      const seconds = (performance.now() - started) / 1000;
      for (const stack of report.stacks.filter((each) => !ok(each))) console.error(`${label} ${step}: ${stack.stack} ${stack.result}: ${stack.error ?? stack.affected ?? stack.note ?? ""}`);
      const log = await admin<RequestLogEntry[]>(emulator, "GET", "/requests");
      const times = log.map((entry) => Date.parse(entry.time));
      figures.push({
        fleet: label,
        step,
        seconds,
        requests: log.length,
        answered: log.filter((entry) => entry.status !== null && entry.status >= 200 && entry.status < 300).length,
        refused: log.filter((entry) => entry.status === 429).length,
        minimum: steps.find((each) => each.step === step)?.minimum,
        sendingSeconds: times.length < 2 ? 0 : (Math.max(...times) - Math.min(...times)) / 1000,
        stacksOk: report.stacks.filter(ok).length,
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

async function main(): Promise<void> {
  const rounds: Array<"limited" | "free"> = values.only === "limited" || values.only === "free" ? [values.only] : ["limited", "free"];
  const figures: StepFigures[] = [];
  try {
    for (const label of rounds) figures.push(...(await round(label)));
  } finally {
    await rm(join(repoRoot, ".work", `bench-agency-${process.pid}`), { recursive: true, force: true });
  }
  console.log(
    `agency benchmark: ${stackCount} client stacks of test/programs/clients (a client, an email channel, ${monitorCount} monitors attached to it), ` +
      `fleet --parallel ${parallel}, in-memory emulator, file backend, ${cpus().length} cores\n` +
      `limited: --max-rps ${rate} against the emulator's --rate-limit ${rate}; free: no limit. No faults.\n`,
  );
  console.log("| fleet | step | wall (s) | s/stack | requests | answered 2xx | minimum | requests / minimum | 429 | first to last request (s) | requests ÷ rate (s) | wall / (requests ÷ rate) | stacks ok |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const row of figures) {
    // A step that sends nothing (apply-due with nothing due) has no time at the rate to compare with.
    const atRate = row.fleet === "limited" && row.requests > 0 ? row.requests / rate : undefined;
    console.log(
      `| ${row.fleet} | ${row.step} | ${row.seconds.toFixed(1)} | ${(row.seconds / stackCount).toFixed(2)} | ${row.requests} | ${row.answered} | ${row.minimum ?? "-"} | ${row.minimum === undefined || row.minimum === 0 ? "-" : `${(row.answered / row.minimum).toFixed(2)}x`} | ${row.refused} | ${row.sendingSeconds.toFixed(1)} | ` +
        `${atRate === undefined ? "-" : atRate.toFixed(1)} | ${atRate === undefined ? "-" : `${(row.seconds / atRate).toFixed(2)}x`} | ${row.stacksOk}/${stackCount} |`,
    );
  }
  console.log(`\nminimum: the spec's fewest requests (see the top of scripts/bench-agency.ts). drift, clean, of ${stackCount} stacks: ${minimums(stackCount, monitorCount).drift}.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
