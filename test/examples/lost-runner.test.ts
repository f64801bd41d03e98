/**
 * A CI runner lost mid-deploy costs nobody more than a rerun (docs/teams-and-ci.md), with the state
 * in PostgreSQL: `fleet up` of three stacks is killed with SIGKILL (its whole process group, as a
 * reclaimed machine or a job's time limit kills it) while objects are being created, and again
 * while every one of them is being renamed; each time the next `fleet up`, a fresh runner with its
 * own PULUMI_HOME, succeeds in one attempt with no `pulumi cancel`, names the locks it took over,
 * and the service holds exactly what the stacks declare. Then a setting that cannot work: with
 * MONITORING_API_URL on a port where nothing listens, `fleet up` of ten stacks fails within 15 s,
 * naming the URL and where it came from, after two attempts a second apart, and starts no stack
 * after the first failures.
 * (Locks of live runs, of other hosts and without leases: test/cli/fleet-locks.test.ts.)
 */
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/fleet/report.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { startTestPostgres, type TestPostgres } from "../support/postgres.js";
import { repoRoot, testPassphrase } from "../support/pulumi.js";
import { runFleetCli, ServiceView } from "./support.js";

const STACKS = Array.from({ length: 10 }, (_, index) => `c${String(index + 1).padStart(2, "0")}`);
/** The stacks the killed runner deploys. */
const RUNNING = STACKS.slice(0, 3);
const STEP_MS = 400_000;

/** Per stack: one email channel and two monitors attached to it, every name carrying the stack and the generation. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const stack = pulumi.getStack();
const generation = new pulumi.Config().getNumber("generation") ?? 1;
const channel = new mon.NotificationChannel("ops", { name: \`\${stack} g\${generation} ops\`, kind: "email", config: { address: \`ops@\${stack}.example\` } });
for (let index = 0; index < 2; index++) {
  new mon.Monitor(\`site-\${index}\`, { name: \`\${stack} g\${generation} site \${index}\`, url: \`https://\${stack}.example/\${index}\`, intervalSeconds: 60, notificationChannelIds: [channel.id] });
}
`;
const declared = (generation: number): string[] => RUNNING.flatMap((stack) => [`${stack} g${generation} ops`, ...[0, 1].map((index) => `${stack} g${generation} site ${index}`)]).sort();

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

async function fleetReport(args: string[], env: NodeJS.ProcessEnv = runnerEnv()): Promise<{ code: number; report: FleetReport; stderr: string }> {
  const { code, stdout, stderr } = await runFleetCli([...args, "--json", "--cwd", dir], env);
  try {
    return { code, report: JSON.parse(stdout) as FleetReport, stderr };
  } catch {
    throw new Error(`fleet ${args.join(" ")} printed no report (exit ${code}): ${stderr}`);
  }
}

/**
 * Starts `fleet up` of the running stacks in a session of its own and kills all of it with SIGKILL
 * once the service has received `inFlight` requests `method path` (every one the
 * stacks send, each held up by a latency fault, so that all of them are in flight).
 */
async function killMidway(method: string, path: string, inFlight: number): Promise<void> {
  const fault = await emulator.admin.injectFault({ method, path, latency_ms: 20_000 });
  const child = spawn(process.execPath, [join(repoRoot, "dist/cli/main.js"), "fleet", "up", "--yes", "--parallel", "3", ...RUNNING.flatMap((stack) => ["--stack", stack]), "--cwd", dir], {
    env: runnerEnv(),
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const deadline = Date.now() + 200_000;
    while (((await emulator.admin.faults()).find((active) => active.id === fault.id)?.fired ?? 0) < inFlight) {
      if (Date.now() > deadline) throw new Error(`the fleet never sent ${method} ${path}: ${JSON.stringify(await emulator.admin.faults())} ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await killSession(child.pid ?? 0);
    await exited;
    await emulator.admin.clearFaults();
  }
}

/**
 * SIGKILL to every process of the session `detached` started, as a machine that goes away ends
 * them: the fleet, the Pulumi CLIs and their plugins, which the CLI starts in process groups of
 * their own.
 */
async function killSession(session: number): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const members: number[] = [];
    for (const entry of await readdir("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
      // pid (comm) state ppid pgrp session ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[3]) === session && fields[0] !== "Z") members.push(Number(entry));
    }
    if (members.length === 0) return;
    for (const pid of members) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The names of every object of the kinds the stacks declare, all clients, sorted. */
async function serviceNames(): Promise<string[]> {
  const objects = [...(await service.list("/notification_channels", { all_clients: "true" })), ...(await service.list("/monitors", { all_clients: "true" }))];
  return objects.map((object) => String(object["name"])).sort();
}

async function stateLocks(): Promise<string[]> {
  return (await postgres.query("SELECT key FROM pulumi_state WHERE key LIKE '%/.pulumi/locks/%'")).map(([key]) => key ?? "");
}

beforeAll(async () => {
  [postgres, emulator] = await Promise.all([startTestPostgres(), startTestEmulator()]);
  service = new ServiceView(emulator);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "Pulumi.yaml"), "name: lost-runner\nmain: index.ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\noptions:\n  refresh: always\n");
  await writeFile(join(dir, "index.ts"), PROGRAM);
  const workspace = await LocalWorkspace.create({ workDir: dir, envVars: { ...(runnerEnv() as Record<string, string>), PULUMI_DIY_BACKEND_PARALLEL: "1" } });
  // The first stack alone: the backend creates its table on first use, and two CLIs doing so at once collide.
  await workspace.createStack(STACKS[0] as string);
  for (let index = 1; index < STACKS.length; index += 3) await Promise.all(STACKS.slice(index, index + 3).map((stack) => workspace.createStack(stack)));
}, STEP_MS);
afterAll(async () => {
  await Promise.all([postgres?.stop(), emulator?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

describe("a runner killed mid-deploy", () => {
  it.each([
    // Each stack creates its channel first (its monitors wait for its id): one create in flight per stack.
    ["while objects are being created", 1, "POST", "/**", RUNNING.length],
    // Each stack renames its two monitors at once (its channel with a PUT).
    ["while every object is being renamed", 2, "PATCH", "/monitors/*", 2 * RUNNING.length],
  ])("%s: the next fleet up takes over its locks and completes the deploy in one attempt", async (_when, generation, method, path, inFlight) => {
    for (const stack of RUNNING) await writeFile(join(dir, `Pulumi.${stack}.yaml`), (await readFile(join(dir, `Pulumi.${stack}.yaml`), "utf8").catch(() => "")).replace(/\n?config:[\s\S]*$/, "") + `\nconfig:\n  lost-runner:generation: "${generation}"\n`);
    await killMidway(method, path, inFlight);
    expect((await stateLocks()).length, "the killed run left its locks").toBe(RUNNING.length);

    const { code, report, stderr } = await fleetReport(["up", "--yes", "--parallel", "3", ...RUNNING.flatMap((stack) => ["--stack", stack])]);
    expect(code, stderr).toBe(0);
    for (const stack of report.stacks) {
      expect(stack.result, stack.stack).toBe("succeeded");
      expect(stack.takenOver, stack.stack).toEqual([{ holder: expect.objectContaining({ host: hostname() }), why: expect.stringMatching(/^its process \(pid \d+\) no longer exists on this host/) }]);
    }
    // The service holds exactly what the stacks declare: nothing twice, nothing left over, nothing missing.
    expect(await serviceNames()).toEqual(declared(generation));
    expect(await stateLocks()).toEqual([]);
    if (generation === 2) {
      // As the lead reads it: the table a recovered run prints.
      const table = await runFleetCli(["report", "merge", "recovered.json", "--cwd", dir], runnerEnv());
      expect(table.code).toBe(0);
      expect(table.stdout).toContain("Locks taken over from runs that had stopped (each stack was then read from the service and run):");
      for (const stack of RUNNING) {
        expect(table.stdout).toMatch(new RegExp(`^  ${stack}: the lock of .+@${hostname()} \\(pid (\\d+), since [^)]+\\): its process \\(pid \\1\\) no longer exists on this host`, "m"));
      }
      const preview = await fleetReport(["preview", ...RUNNING.flatMap((stack) => ["--stack", stack])]);
      expect(preview.code, preview.stderr).toBe(0);
      expect(new Set(preview.report.stacks.map((stack) => stack.result))).toEqual(new Set(["no changes"]));
    } else {
      await writeFile(join(dir, "recovered.json"), JSON.stringify(report));
    }
  }, STEP_MS);
});

describe("a URL where nothing listens", () => {
  it("fails fleet up of ten stacks at once, naming the URL and its source, and starts no stack after the first failures", async () => {
    const closed = `http://127.0.0.1:${await closedPort()}/v1`;
    const started = Date.now();
    const { code, report } = await fleetReport(["up", "--yes", "--parallel", "2"], runnerEnv({ MONITORING_API_URL: closed }));
    const seconds = (Date.now() - started) / 1000;
    expect(code).toBe(1);
    // On an idle machine the whole run takes under 15 s: a CLI start, then two attempts a second
    // apart. The bound here leaves room for a busy one (the suite runs four files at once on two
    // cores) and still excludes the two-minute retry budget each stack spent before.
    expect(seconds).toBeLessThan(60);
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
});

async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
