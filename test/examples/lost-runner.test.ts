/**
 * A CI runner lost mid-deploy costs nobody more than a rerun (docs/teams-and-ci.md), with the state
 * in PostgreSQL: `fleet up` of three stacks is killed with SIGKILL (its whole session, as a reclaimed
 * machine or a job's time limit kills it) while one stack's objects are being renamed and the two
 * others' created, and the service completes those requests after the runner is gone. The next
 * runs, fresh runners with their own PULUMI_HOME, succeed in one attempt with no `pulumi cancel` and
 * name the locks they took over: `fleet up` of the first two, after which the service holds exactly
 * what they declare, each object recorded once in its stack's state, and `fleet destroy` of the
 * third, after which it holds nothing of it, not even the object whose create the dead run never
 * recorded. The killed runner skips the refresh (--no-refresh), and so does the next one: a stack
 * whose lock is taken over is read from the service first all the same. Then settings that cannot work: with the URL on a port where
 * nothing listens, `fleet up` of four stacks, two at a time, and a plain `pulumi up` each fail
 * within 15 s, naming the URL and where it came from, and the fleet starts no stack after the first
 * failures.
 * (Locks of live runs, of other hosts and without leases: test/cli/fleet-locks.test.ts; a wrong
 * key and an answer that is not JSON: test/http/settings-failures.test.ts.)
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/report/fleet.js";
import { renderTable } from "../../cli/report/table.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { runKilledWhen } from "../support/kill-session.js";
import { NOTHING_LISTENS } from "../support/nothing-listens.js";
import { startTestPostgres, type TestPostgres } from "../support/postgres.js";
import { repoRoot, testPassphrase } from "../support/pulumi.js";
import { type ApiObject, runFleetCli, runFleetHere, ServiceView } from "./support.js";

/**
 * Three stacks for the killed runner; with a closed URL, four, of which the fleet never starts two:
 * at --parallel 2 the first two fail together, and each further stack would be one more failure.
 */
const STACKS = Array.from({ length: 4 }, (_, index) => `c${String(index + 1).padStart(2, "0")}`);
/**
 * The stacks the killed runner deploys: the first renames what it deployed before, the two others
 * deploy for the first time. The next runs deploy the first two again and destroy the third.
 */
const RUNNING = STACKS.slice(0, 3);
const [RENAMED, CREATED, ABANDONED] = RUNNING as [string, string, string];
const RECOVERED = [RENAMED, CREATED];
/** A bound for hangs only: the time budget (test/time-budget.json) holds the file to its pace. */
const STEP_MS = 300_000;

/**
 * Per stack: an email channel and a monitor attached to it, both named after the stack and the
 * generation. The monitor waits for the channel's id, so the channel is in the service (and in the
 * state) before the monitor's create is sent.
 */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const stack = pulumi.getStack();
const generation = new pulumi.Config().getNumber("generation") ?? 1;
const channel = new mon.NotificationChannel("ops", { name: \`\${stack} g\${generation} ops\`, kind: "email", config: { address: \`ops@\${stack}.example\` } });
new mon.Monitor("site", { name: \`\${stack} g\${generation} site\`, url: \`https://\${stack}.example/\`, intervalSeconds: 60, notificationChannelIds: [channel.id] });
`;
const declared = (generations: Record<string, number>): string[] => Object.entries(generations).flatMap(([stack, generation]) => [`${stack} g${generation} ops`, `${stack} g${generation} site`]).sort();

let postgres: TestPostgres;
let emulator: TestEmulator;
let service: ServiceView;
const dir = join(repoRoot, ".work", `lost-runner-${randomBytes(4).toString("hex")}`);
let runners = 0;

/** A fresh runner's environment: its own PULUMI_HOME, the state in PostgreSQL, the service from the environment. */
function runnerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  runners += 1;
  return {
    ...process.env,
    PULUMI_BACKEND_URL: postgres.backendUrl,
    ...postgres.env,
    PULUMI_HOME: join(dir, `home-${runners}`),
    PULUMI_CONFIG_PASSPHRASE: testPassphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    MONITORING_API_URL: emulator.baseUrl,
    MONITORING_API_KEY: emulator.apiKey,
    ...extra,
  };
}

/**
 * `fleet ARGS --json` as a runner runs it: in a process of its own (`alongside`, for runs at once,
 * each with its runner's environment), else in this process through the command's entry.
 */
async function fleetReport(args: string[], env: NodeJS.ProcessEnv = runnerEnv(), { alongside = false } = {}): Promise<{ code: number; report: FleetReport; stderr: string }> {
  const { code, stdout, stderr } = await (alongside ? runFleetCli : runFleetHere)([...args, "--json", "--cwd", dir], env);
  try {
    return { code, report: JSON.parse(stdout) as FleetReport, stderr };
  } catch {
    throw new Error(`fleet ${args.join(" ")} printed no report (exit ${code}): ${stderr}`);
  }
}

async function setStackConfig(stack: string, config: Record<string, string>): Promise<void> {
  const file = join(dir, `Pulumi.${stack}.yaml`);
  const kept = (await readFile(file, "utf8").catch(() => "")).replace(/\n?config:[\s\S]*$/, "");
  await writeFile(file, `${kept}\nconfig:\n${Object.entries(config).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}\n`).join("")}`);
}

/** `pulumi ARGS` in the test's project, as a user runs it: exit code and everything it printed. */
function pulumi(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile("pulumi", [...args, "--non-interactive", "--cwd", dir], { env }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), output: stdout + stderr })),
  );
}

/** Stacks as `--stack` options of a fleet command. */
const stackOptions = (stacks: readonly string[]): string[] => stacks.flatMap((stack) => ["--stack", stack]);

/**
 * The longest the service holds the requests the runner dies during, a bound for a hang only: it
 * holds them until the runner is dead (the faults, `until_cleared`, are cleared once it is), so
 * all of them are in flight when it dies, and they complete after it is gone, as a service
 * completes a request whose client went away.
 */
const HELD_MS = 60_000;

/**
 * Starts `fleet up` of the running stacks in a session of its own and kills all of it with SIGKILL
 * once the service holds `count` requests of each `[method, path]`: each one held up by a latency
 * fault until the kill, so that all of them are in flight when the runner dies. Returns once the
 * service has completed them. The runner skips the refresh, as a team in a hurry does: the next
 * one, taking its locks over, reads the service anyway.
 */
async function killMidway(requests: readonly (readonly [method: string, path: string, count: number])[]): Promise<void> {
  const faults = await Promise.all(requests.map(([method, path]) => emulator.admin.injectFault({ method, path, latency_ms: HELD_MS, until_cleared: true })));
  // Its temporary files in `dir`, which afterAll removes: a killed runner cleans up nothing.
  const temporary = await mkdtemp(join(dir, "tmp-"));
  const held = async (): Promise<boolean> => {
    const active = await emulator.admin.faults();
    return faults.every((fault, index) => (active.find((other) => other.id === fault.id)?.fired ?? 0) >= (requests[index]?.[2] ?? 1));
  };
  try {
    const args = ["fleet", "up", "--yes", "--no-refresh", "--parallel", String(RUNNING.length), "--cwd", dir, ...stackOptions(RUNNING)];
    await runKilledWhen(join(repoRoot, "dist/cli/main.js"), args, runnerEnv({ TMPDIR: temporary }), held, STEP_MS / 2);
  } finally {
    // The runner is dead: the service completes the requests it held.
    await emulator.admin.clearFaults();
  }
  const heldCount = requests.reduce((sum, [, , count]) => sum + count, 0);
  const completedBy = Date.now() + 30_000;
  while ((await emulator.admin.requestLog()).filter((entry) => entry.fault === "latency").length < heldCount) {
    if (Date.now() > completedBy) throw new Error(`the service did not complete the ${heldCount} requests held when the runner died`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every object of the kinds the stacks declare, all clients. */
async function serviceObjects(): Promise<ApiObject[]> {
  return [...(await service.list("/notification_channels", { all_clients: "true" })), ...(await service.list("/monitors", { all_clients: "true" }))];
}

/** An object as the assertions compare it: its name and its id. */
const nameAndId = (name: unknown, id: unknown): string => `${String(name)} (${String(id)})`;

interface Checkpoint {
  resources?: Array<{ type: string; id?: string; outputs?: Record<string, unknown> }>;
  pending_operations?: Array<{ type: string; resource: { urn: string } }>;
}

/** A stack's latest checkpoint, read from its row of the state table. */
async function checkpoint(stack: string): Promise<Checkpoint> {
  const rows = await postgres.query(`SELECT data FROM pulumi_state WHERE key LIKE '%/.pulumi/stacks/lost-runner/${stack}.json'`);
  expect(rows, stack).toHaveLength(1);
  const file = JSON.parse(Buffer.from((JSON.parse(rows[0]?.[0] ?? "{}") as { data: string }).data, "base64").toString()) as { checkpoint: { latest: Checkpoint } };
  return file.checkpoint.latest;
}

/** The objects a stack's state records. */
const recordedObjects = (latest: Checkpoint): string[] =>
  (latest.resources ?? []).filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic/monitoring:")).map((resource) => nameAndId(resource.outputs?.["name"], resource.id));

async function stateLocks(): Promise<string[]> {
  return (await postgres.query("SELECT key FROM pulumi_state WHERE key LIKE '%/.pulumi/locks/%'")).map(([key]) => key ?? "");
}

beforeAll(async () => {
  [postgres, emulator] = await Promise.all([startTestPostgres(), startTestEmulator()]);
  service = new ServiceView(emulator);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "Pulumi.yaml"), "name: lost-runner\nmain: index.ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
  await writeFile(join(dir, "index.ts"), PROGRAM);
  const init = async (stack: string): Promise<void> => {
    const { code, output } = await pulumi(["stack", "init", stack], runnerEnv());
    if (code !== 0) throw new Error(`pulumi stack init ${stack}: ${output}`);
  };
  // The first stack alone: the backend creates its table on first use, and two CLIs doing so at once collide.
  await init(STACKS[0] as string);
  await Promise.all(STACKS.slice(1).map(init));
}, STEP_MS);
afterAll(async () => {
  await Promise.all([postgres?.stop(), emulator?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

describe("a runner killed mid-deploy", () => {
  it("while one stack's objects are being renamed and two others' created: the next fleet up completes two stacks and a fleet destroy removes the third, each in one attempt, taking over the locks", async () => {
    // RENAMED holds its first generation; the killed run renames it to the second and creates the first of CREATED and ABANDONED.
    const first = await fleetReport(["up", "--yes", "--no-refresh", "--stack", RENAMED]);
    expect(first.code, first.stderr).toBe(0);
    await setStackConfig(RENAMED, { "lost-runner:generation": "2" });
    const generations = { [RENAMED]: 2, [CREATED]: 1 };
    // RENAMED renames its channel, then its monitor, whose rename is in flight; CREATED and ABANDONED
    // create their channels, and their monitors' creates, sent once the channels have their ids, are in flight.
    await killMidway([
      ["PATCH", "/monitors/*", 1],
      ["POST", "/monitors", 2],
    ]);
    expect((await stateLocks()).length, "the killed run left its locks").toBe(RUNNING.length);
    // The service made both monitors after the runner was gone: neither state records it.
    expect((await service.list("/monitors", { all_clients: "true" })).map((object) => String(object["name"])).sort()).toEqual([`${RENAMED} g2 site`, `${CREATED} g1 site`, `${ABANDONED} g1 site`].sort());
    await emulator.admin.clearRequestLog();

    // --no-refresh as well: a stack whose lock is taken over is read from the service first all the same.
    const [up, destroy] = await Promise.all([
      fleetReport(["up", "--yes", "--no-refresh", "--parallel", String(RECOVERED.length), ...stackOptions(RECOVERED)], runnerEnv(), { alongside: true }),
      fleetReport(["destroy", "--yes", "--stack", ABANDONED], runnerEnv(), { alongside: true }),
    ]);
    expect(up.code, up.stderr).toBe(0);
    expect(destroy.code, destroy.stderr).toBe(0);
    const stacks = [...up.report.stacks, ...destroy.report.stacks];
    expect(stacks.map((stack) => [stack.stack, stack.result])).toEqual(RUNNING.map((stack) => [stack, "succeeded"]));
    // The killed run had dropped the records of the deploys before (cli/fleet/affected/records.ts): the up ran both stacks.
    expect(up.report.stacks.map((stack) => stack.affected)).toEqual(RECOVERED.map(() => "no successful deploy recorded (never deployed by the fleet, or its last run failed or was interrupted)"));
    for (const stack of stacks) {
      expect(stack.takenOver, stack.stack).toEqual([{ holder: expect.objectContaining({ host: hostname() }), why: expect.stringMatching(/^its process \(pid \d+\) no longer exists on this host/) }]);
    }
    // The monitors the service made for the dead run were found by sending their creates again
    // under the same idempotency keys, the destroy's as much as the up's: answered from the store, not made twice.
    const creates = (await emulator.admin.requestLog()).filter((entry) => entry.method === "POST" && entry.path === "/monitors");
    expect(creates.map((entry) => [entry.status, entry.replayed])).toEqual([
      [201, true],
      [201, true],
    ]);
    // The service holds exactly what the recovered stacks declare and nothing of the destroyed one:
    // nothing twice, nothing left over, nothing missing; and the states record exactly those
    // objects, each once, under their ids.
    const objects = await serviceObjects();
    expect(objects.map((object) => String(object["name"])).sort()).toEqual(declared(generations));
    const checkpoints = await Promise.all(RUNNING.map(checkpoint));
    expect(checkpoints.flatMap(recordedObjects).sort()).toEqual(objects.map((object) => nameAndId(object["name"], object.id)).sort());
    // Nothing the killed run was doing is left pending: neither the renames nor the creates (which
    // Pulumi drops only in a refresh that clears them, as the recovery does after a takeover).
    expect(checkpoints.flatMap((latest) => latest.pending_operations ?? [])).toEqual([]);
    expect(await stateLocks()).toEqual([]);

    // The table the recovered run printed, as a person reads it.
    const table = renderTable(up.report);
    console.log(`fleet up after the runner was killed while ${RENAMED}'s objects were being renamed and ${CREATED}'s created:\n${table}`);
    expect(table).toContain("Locks taken over from runs that had stopped (each stack was then read from the service and run):");
    for (const stack of RECOVERED) {
      expect(table).toMatch(new RegExp(`^  ${stack}: the lock of .+@${hostname()} \\(pid (\\d+), since [^)]+\\): its process \\(pid \\1\\) no longer exists on this host`, "m"));
    }
    // The program and the states agree: nothing to change. The states record the service's objects
    // under their ids and names, as shown above, so the preview need not read the service again;
    // --all, since the records of the recovered deploys would have it skip both stacks.
    const preview = await fleetReport(["preview", "--no-refresh", "--all", ...stackOptions(RECOVERED)]);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.report.stacks.map((stack) => stack.result)).toEqual(RECOVERED.map(() => "no changes"));
  }, STEP_MS);
});

describe("a URL where nothing listens", () => {
  it("fails fleet up of four stacks, two at a time, naming the URL and its source, and starts no stack after the first failures", async () => {
    const closed = `${NOTHING_LISTENS}/v1`;
    const started = Date.now();
    const { code, report } = await fleetReport(["up", "--yes", "--parallel", "2"], runnerEnv({ MONITORING_API_URL: closed }));
    const seconds = (Date.now() - started) / 1000;
    console.log(`fleet up of ${STACKS.length} stacks, nothing listening at the URL: failed in ${seconds.toFixed(1)} s`);
    expect(code).toBe(1);
    // On an idle machine the whole run takes under 15 s: a CLI start, then two attempts a second
    // apart. The bound here leaves room for a busy one (the suite runs four files at once on two
    // cores) and still excludes the two-minute retry budget each stack spent before.
    expect(seconds).toBeLessThan(90);
    const failed = report.stacks.filter((stack) => stack.result === "failed");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThanOrEqual(2);
    for (const stack of failed) {
      expect(stack.error).toContain(`nothing answers at ${closed} (the URL from MONITORING_API_URL): the connection was refused`);
      // The requests themselves: two attempts, one short back-off.
      expect(Number(/failed with network_error after 2 attempts over ([\d.]+) s/.exec(stack.error ?? "")?.[1])).toBeLessThan(5);
    }
    const notStarted = report.stacks.filter((stack) => stack.result === "not started");
    expect(notStarted.length).toBe(STACKS.length - failed.length);
    expect(notStarted[0]?.note).toMatch(/^c0[12] failed on the URL from MONITORING_API_URL, which the other stacks share: fix it and run again$/);
  }, STEP_MS);

  it("fails a plain pulumi up with the URL in the stack's settings, naming the setting of that stack", async () => {
    const closed = `${NOTHING_LISTENS}/v1`;
    const stack = STACKS[STACKS.length - 1] as string;
    await setStackConfig(stack, { "monitoring:apiUrl": closed });
    const started = Date.now();
    const { code, output } = await pulumi(["up", "--yes", "--skip-preview", "--stack", stack], runnerEnv());
    const seconds = (Date.now() - started) / 1000;
    console.log(`pulumi up, nothing listening at the URL: failed in ${seconds.toFixed(1)} s`);
    expect(code, output).not.toBe(0);
    // Under 15 s on an idle machine (a CLI start, a program, two attempts a second apart); room for a busy one.
    expect(seconds).toBeLessThan(90);
    expect(output).toContain(`nothing answers at ${closed} (the URL from monitoring:apiUrl of stack ${stack}): the connection was refused`);
    expect(output).toMatch(/failed with network_error after 2 attempts over [\d.]+ s/);
  }, STEP_MS);
});
