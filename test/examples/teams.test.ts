/**
 * State in PostgreSQL, shared by many runners (docs/teams-and-ci.md), on a throwaway cluster of
 * this file's own, with the credentials in the libpq environment rather than the backend URL:
 * examples/agency with two clients and the shared template, as a CI pipeline runs it: `fleet init`
 * (which refuses names the backend mixes up), the matrix from `list --shards 2`, the shared stack
 * on its own, then two runners, each with its own PULUMI_HOME and checkout, deploying `--shard 1/2`
 * and `--shard 2/2` at once, each state a row of the database with no password in it; the merged
 * report; two runs racing for one stack, one reported locked (its holder's lease, aged by hand past
 * the second run's --stale-lock-after, renewed by the holder meanwhile), while a third runner's `up
 * --no-refresh` of that stack waits for the lock and finds nothing to change: the holder's change is
 * in the state; the records of deploys in the database, by which any runner's next `up` skips the
 * stacks no change affects, runs a changed one, and runs again one whose run failed; the states
 * read from the table's rows as the CLI exports them; and destroy leaving nothing.
 * How a lease is renewed and judged is test/cli/fleet-locks.test.ts's; a single runner's fleet
 * (budget, a broken client, --isolated, drift) is test/examples/agency-fleet.test.ts's; how reports
 * merge and render is test/cli/fleet-teams.test.ts's. Runs at once (the two shards, the race) are
 * child processes, as users run them, each with its runner's environment; the others run in this
 * process through the command line's own entry, with the runner's environment.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FleetReport } from "../../cli/report/fleet.js";
import { stackState } from "../../cli/fleet/runners/stack-state.js";
import { ALL_SCOPES } from "../../emulator/index.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { startTestPostgres, type TestPostgres } from "../support/postgres.js";
import { repoRoot, testCli } from "../support/pulumi.js";
import { runFleetCli, runFleetHere, runnerEnvironment, ServiceView } from "./support.js";

/**
 * One hashes to share 1 of 2 and the other to share 2 (cli/fleet/runners/shard.ts): one stack per runner is
 * enough for two runners at once; how stacks are split is the shards' own test (test/cli/fleet-teams.test.ts).
 */
const CLIENTS = ["acme", "globex"];
const SHARED = "agency-shared/shared";
const STEP_MS = 400_000;

let postgres: TestPostgres;
let emulator: TestEmulator;
let service: ServiceView;

beforeAll(async () => {
  [postgres, emulator] = await Promise.all([startTestPostgres(), startTestEmulator()]);
  service = new ServiceView(emulator);
});
afterAll(async () => {
  await Promise.all([postgres?.stop(), emulator?.stop()]);
});

/** The state backend's rows whose key matches a LIKE pattern, e.g. `%/.pulumi/locks/%` (none before the backend made its table). */
async function stateKeys(pattern: string): Promise<string[]> {
  const [[table] = []] = await postgres.query("SELECT to_regclass('pulumi_state')");
  if (!table) return [];
  return (await postgres.query(`SELECT key FROM pulumi_state WHERE key LIKE '${pattern}' ORDER BY key`)).map(([key]) => key ?? "");
}

describe("examples/agency split across CI runners", () => {
  const base = join(repoRoot, ".work", `agency-teams-${process.pid}`);
  /** One checkout of the project per runner, each with its own PULUMI_HOME. */
  const runners = { a: join(base, "runner-a"), b: join(base, "runner-b"), c: join(base, "runner-c") };
  type Runner = keyof typeof runners;

  const envOf = (runner: Runner, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    ...runnerEnvironment(base, runner, { PULUMI_BACKEND_URL: postgres.backendUrl, ...postgres.env }, emulator),
    ...extra,
  });
  /** `fleet <args>` on the runner's checkout: in a process of its own (`alongside`, for runs at once, each with its runner's environment), else in this process through the command's entry. */
  const fleet = (runner: Runner, args: string[], { alongside = false, extra }: { alongside?: boolean; extra?: Record<string, string> } = {}) =>
    (alongside ? runFleetCli : runFleetHere)([...args, "--cwd", runners[runner]], envOf(runner, extra));
  async function fleetReport(runner: Runner, args: string[], options: { alongside?: boolean; extra?: Record<string, string> } = {}): Promise<{ code: number; report: FleetReport; stderr: string }> {
    const { code, stdout, stderr } = await fleet(runner, [...args, "--json"], options);
    try {
      return { code, report: JSON.parse(stdout) as FleetReport, stderr };
    } catch {
      throw new Error(`fleet ${args.join(" ")} printed no report (exit ${code}): ${stderr}`);
    }
  }
  const results = (report: FleetReport): Record<string, string> => Object.fromEntries(report.stacks.map((stack) => [stack.stack, stack.result]));
  const clientSpec = (client: string): string =>
    [`name: Client ${client}`, `domain: ${client}.example.com`, "endpoints:", "  - path: /", "contacts:", `  emails: [ops@${client}.example.com]`, ""].join("\n");
  /** Updates of each stack the backend recorded, by `project/stack`. */
  async function updatesPerStack(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const key of await stateKeys("%/.pulumi/history/%.history.json")) {
      const [project, stack] = key.split("/.pulumi/history/")[1]?.split("/") ?? [];
      counts[`${project}/${stack}`] = (counts[`${project}/${stack}`] ?? 0) + 1;
    }
    return counts;
  }

  beforeAll(async () => {
    await mkdir(join(runners.a, "shared"), { recursive: true });
    for (const file of ["Pulumi.yaml", "index.ts", "shared/Pulumi.yaml", "shared/index.ts"]) await cp(join(repoRoot, "examples/agency", file), join(runners.a, file));
    await mkdir(join(runners.a, "clients"));
    for (const client of CLIENTS) await writeFile(join(runners.a, "clients", `${client}.yaml`), clientSpec(client));
  });
  afterAll(async () => {
    try {
      if ((await service.list("/monitors", { all_clients: "true" })).length > 0) await fleet("c", ["destroy", "--yes"]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  }, STEP_MS);

  it("init refuses client names that the backend's LIKE match mixes up, creating no stack", async () => {
    await mkdir(join(base, "colliding"), { recursive: true });
    for (const client of ["c_1", "c-1"]) await writeFile(join(base, "colliding", `${client}.yaml`), clientSpec(client));
    const { code, stderr } = await fleet("a", ["init", "--clients", join(base, "colliding")]);
    expect(code).toBe(1);
    expect(stderr).toContain("stack names c-1 and c_1 cannot share a PostgreSQL state backend");
    expect(stderr).toContain("`_` matches any one character");
    expect(await stateKeys("%/.pulumi/stacks/agency%")).toEqual([]);
  }, STEP_MS);

  it("init creates the shared stack and a stack per client, and the checkout goes to every runner", async () => {
    const { code, stdout, stderr } = await fleet("a", ["init"]);
    expect(code, stderr).toBe(0);
    for (const client of CLIENTS) expect(stdout).toMatch(new RegExp(`^${client}\\s+created$`, "m"));
    // As a CI runner checks out the repository: the project with its Pulumi.<stack>.yaml files.
    await cp(runners.a, runners.b, { recursive: true });
    await cp(runners.a, runners.c, { recursive: true });
  }, STEP_MS);

  it("list --shards 2 prints the CI matrix, even where the CLI's own listing would wait forever", async () => {
    // With GOMAXPROCS=1 the backend's pool has two connections, and two stacks read at once by a
    // plain `pulumi stack ls` (ten at a time), each holding one and asking for a second, would wait
    // on each other forever.
    const { code, stdout, stderr } = await fleet("c", ["list", "--json", "--shards", "2"], { extra: { GOMAXPROCS: "1" } });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      include: [
        { shard: "1/2", stacks: "acme" },
        { shard: "2/2", stacks: "globex" },
      ],
    });
  }, STEP_MS);

  it("the shared stack runs once, then two runners deploy their shares at the same time, each stack exactly once", async () => {
    const shared = await fleetReport("a", ["up", "--shared-only", "--yes"]);
    expect(shared.code, shared.stderr).toBe(0);
    expect(results(shared.report)).toEqual({ [SHARED]: "succeeded" });

    const [first, second] = await Promise.all([fleetReport("a", ["up", "--shard", "1/2", "--yes"], { alongside: true }), fleetReport("b", ["up", "--shard", "2/2", "--yes"], { alongside: true })]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(results(first.report)).toEqual({ acme: "succeeded" });
    expect(results(second.report)).toEqual({ globex: "succeeded" });
    expect(await updatesPerStack()).toEqual(Object.fromEntries([[SHARED, 1], ...CLIENTS.map((client) => [`agency/${client}`, 1])]));

    const [template] = await service.list("/client-templates");
    for (const client of CLIENTS) {
      const monitors = await service.list("/monitors", { all_clients: "true", q: `${client}.example.com` });
      expect(monitors, client).toHaveLength(1);
      expect(await service.find(`/clients/${monitors[0]?.["client_id"]}`)).toMatchObject({ template_id: template?.id });
      // The state is a row of the database; the password is in neither the backend URL nor the state.
      const rows = await postgres.query(`SELECT data FROM pulumi_state WHERE key LIKE '%/.pulumi/stacks/agency/${client}.json'`);
      expect(rows).toHaveLength(1);
      const state = Buffer.from((JSON.parse(rows[0]?.[0] ?? "{}") as { data: string }).data, "base64").toString();
      expect(state).toContain(monitors[0]?.id);
      expect(state).not.toContain(postgres.env["PGPASSWORD"]);
    }
    expect(postgres.backendUrl).not.toContain(postgres.env["PGPASSWORD"]);

    // The CI job after the matrix: one table, one exit status.
    for (const [name, report] of Object.entries({ shared, first, second })) await writeFile(join(base, `${name}.json`), JSON.stringify(report.report));
    const merged = await runFleetHere(["report", "merge", "shared.json", "first.json", "second.json", "--cwd", base], envOf("c"));
    expect(merged.code, merged.stderr).toBe(0);
    const rows = merged.stdout.split("\n").filter((line) => / succeeded$/.test(line));
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual([SHARED, ...CLIENTS]);
  }, STEP_MS);

  it("of two runs racing for one stack, the second is reported locked by the first and changes nothing; a third runner's up waits for the lock and finds the first's change in the state", async () => {
    // The same commit in every checkout: acme's client gets a new name.
    for (const dir of Object.values(runners)) {
      const file = join(dir, "Pulumi.acme.yaml");
      await writeFile(file, (await readFile(file, "utf8")).replace("name: Client acme", "name: Acme Corporation"));
    }
    // The rename is held by the service until the second run has been refused (until_cleared; the
    // two minutes are a bound for a hang), so the first run holds the stack's lock all the while
    // the second starts, finds it and judges it: no delay to guess that covers the second's start.
    await emulator.admin.injectFault({ method: "PUT", path: "/clients/*", latency_ms: 120_000, until_cleared: true, times: 1 });
    // The first run keeps a lease on the lock, renewed every 0.5 s (a quarter of its 2 s threshold).
    const holder = fleetReport("a", ["up", "--stack", "acme", "--no-shared", "--yes", "--stale-lock-after", "2s"], { alongside: true });
    let locked: Awaited<typeof holder>;
    let waiting: Promise<Awaited<typeof holder>>;
    try {
      const deadline = Date.now() + 120_000;
      while ((await stateKeys("%/.pulumi/locks/%/acme/%")).length === 0) {
        if (Date.now() > deadline) throw new Error("the first run never took acme's lock");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Its lease, once there, is made a minute old by hand, as if that long had passed since the
      // first run took the lock, rather than waited for: only the first run's renewals (every
      // 0.5 s) keep the lock from being stale to the second, which judges it by its lease alone
      // (as from another host) with a 2 s threshold, and starts after the ageing.
      const leases = async (): Promise<number> => Number((await postgres.query("SELECT count(*) FROM pulumi_state_leases WHERE lock_key LIKE '%/acme/%'").catch(() => [["0"]]))[0]?.[0] ?? 0);
      while ((await leases()) === 0) {
        if (Date.now() > deadline) throw new Error("the first run never took a lease on acme's lock");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await postgres.query("UPDATE pulumi_state_leases SET renewed_at = renewed_at - interval '1 minute' WHERE lock_key LIKE '%/acme/%'");
      const second = fleetReport("b", ["up", "--stack", "acme", "--no-shared", "--yes", "--stale-lock-after", "2s", "--no-pid-check"], { alongside: true });
      // A third runner deploys acme too, waiting for its lock; without reading the service first, so
      // that finding nothing to change means the state it reads holds the first run's rename.
      waiting = fleetReport("c", ["up", "--stack", "acme", "--no-shared", "--no-refresh", "--yes", "--wait-lock", "300"], { alongside: true });
      locked = await second;
    } finally {
      // The service answers the first run's rename.
      await emulator.admin.clearFaults();
    }
    const [first, waited] = await Promise.all([holder, waiting]);

    expect(first.code, first.stderr).toBe(0);
    expect(first.report.stacks[0]).toMatchObject({ stack: "acme", result: "succeeded" });
    expect(first.report.stacks[0]?.counts.update).toBeGreaterThan(0);
    expect(locked.code).toBe(1);
    expect(locked.report.stacks[0]).toMatchObject({ stack: "acme", result: "locked", counts: { create: 0, update: 0, delete: 0, replace: 0 } });
    const lock = locked.report.stacks[0]?.lock;
    expect(lock).toMatchObject({ user: userInfo().username, host: hostname() });
    // A live run's lock is never taken over, however short the threshold: its lease was being renewed.
    expect(locked.report.stacks[0]?.lockNote).toMatch(/^its run renewed its lease \d+ s ago$/);
    expect(locked.report.stacks[0]?.takenOver).toBeUndefined();
    // The table says who holds it.
    await writeFile(join(base, "locked.json"), JSON.stringify(locked.report));
    const table = await runFleetHere(["report", "merge", "locked.json", "--cwd", base], envOf("b"));
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(new RegExp(`^acme .* locked \\(by ${lock?.user}@${lock?.host}, pid ${lock?.pid}, since \\d{4}-\\d\\d-\\d\\dT[^)]+\\)$`, "m"));
    // The third runner, with a checkout and PULUMI_HOME of its own, found acme as its commit declares
    // it once the first run was done: the rename was in the state.
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.report.stacks).toEqual([expect.objectContaining({ stack: "acme", result: "succeeded", counts: { create: 0, update: 0, delete: 0, replace: 0 } })]);

    // Nothing lost: the rename is in the service too, and no lock is left.
    const [monitor] = await service.list("/monitors", { all_clients: "true", q: "acme.example.com" });
    expect(await service.find(`/clients/${monitor?.["client_id"]}`)).toMatchObject({ name: "Acme Corporation" });
    expect(await stateKeys("%/.pulumi/locks/%")).toEqual([]);
  }, STEP_MS);

  it("records each stack's deploy beside the state, so that the next run of any runner skips the stacks no change affects, saying why; a stack whose settings changed runs, and one whose run failed runs again", async () => {
    // Each stack was last deployed by another runner (a, b or c): the records are in the database, one row each.
    expect(await postgres.query("SELECT project, stack FROM pulumi_state_deployed ORDER BY project, stack")).toEqual([["agency", "acme"], ["agency", "globex"], ["agency-shared", "shared"]]);
    const updates = await updatesPerStack();
    const unchanged = await fleetReport("c", ["up", "--yes"]);
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(unchanged.report.selection).toBe("affected");
    const skipped = (stack: string) => expect.objectContaining({ stack, result: "skipped", note: expect.stringMatching(/^unchanged since its deploy at \d{4}-\d\d-\d\dT[\d:.]+Z, in sync with the service, nothing due$/) });
    expect(unchanged.report.stacks).toEqual([SHARED, ...CLIENTS].map(skipped));
    expect(await updatesPerStack()).toEqual(updates);

    // globex's client renamed in runner c's checkout, and the service refusing the rename once: only globex runs, and fails.
    const file = join(runners.c, "Pulumi.globex.yaml");
    await writeFile(file, (await readFile(file, "utf8")).replace("name: Client globex", "name: Globex Inc"));
    await emulator.admin.injectFault({ method: "PUT", path: "/clients/*", status: 400, times: 1 });
    const failed = await fleetReport("c", ["up", "--yes", "--no-shared"]);
    expect(failed.code).toBe(1);
    expect(failed.report.stacks).toEqual([skipped("acme"), expect.objectContaining({ stack: "globex", result: "failed", affected: "its settings file changed" })]);
    // Its record went when its run started: the next run runs it again, though nothing changed since.
    const again = await fleetReport("c", ["up", "--yes", "--no-shared"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.report.stacks).toEqual([
      skipped("acme"),
      expect.objectContaining({ stack: "globex", result: "succeeded", affected: "no successful deploy recorded (never deployed by the fleet, or its last run failed or was interrupted)" }),
    ]);
    const [monitor] = await service.list("/monitors", { all_clients: "true", q: "globex.example.com" });
    expect(await service.find(`/clients/${monitor?.["client_id"]}`)).toMatchObject({ name: "Globex Inc" });

    // The states the selection, apply-due and fleet drift read from the state table's rows are the
    // CLI's exports: a workspace whose CLI cannot run reads them all the same.
    const noCli = { pulumiCommand: { command: "false" }, workDir: runners.c, envVars: {} } as unknown as LocalWorkspace;
    for (const [name, value] of Object.entries(postgres.env)) vi.stubEnv(name, value);
    try {
      for (const client of CLIENTS) {
        const { stdout } = await promisify(execFile)(testCli().command, ["stack", "export", "--stack", client, "--cwd", runners.c], { env: envOf("c"), maxBuffer: 1 << 26 });
        expect(await stackState(noCli, "agency", client, postgres.backendUrl), client).toEqual(JSON.parse(stdout));
      }
    } finally {
      vi.unstubAllEnvs();
    }
  }, STEP_MS);

  it("destroy removes every client's objects, then the shared template, archiving the clients and leaving no lock behind; a key globex's configuration got since its deploy deletes its objects", async () => {
    // A key of its own for globex, set after its last deploy (which ran on the environment's key):
    // the destroy, which runs without the program, must send it, the state being in PostgreSQL (issue 57).
    const globexKey = `pls_test_pgpg${randomBytes(12).toString("hex")}`;
    await emulator.admin.createKey(ALL_SCOPES, "globex", globexKey);
    await promisify(execFile)(testCli().command, ["config", "set", "--secret", "monitoring:apiKey", globexKey, "--stack", "globex", "--cwd", runners.c], { env: envOf("c") });
    const globexMonitors = new Set((await service.list("/monitors", { all_clients: "true", q: "globex.example.com" })).map((monitor) => `/monitors/${monitor.id}`));
    expect(globexMonitors.size).toBeGreaterThan(0);
    await emulator.admin.clearRequestLog();

    const { code, report, stderr } = await fleetReport("c", ["destroy", "--yes"]);
    expect(code, stderr).toBe(0);
    const globexDeletes = (await emulator.admin.requestLog()).filter((entry) => entry.method === "DELETE" && globexMonitors.has(entry.path));
    expect(globexDeletes.map((entry) => entry.key_prefix)).toEqual([...globexMonitors].map(() => `${globexKey.slice(0, 13)}…`));
    expect(report.stacks.map((stack) => stack.stack)).toEqual([...CLIENTS, SHARED]);
    expect(new Set(Object.values(results(report)))).toEqual(new Set(["succeeded"]));
    for (const collection of ["/monitors", "/heartbeats", "/notification_channels", "/escalation-policies"]) {
      expect(await service.list(collection, { all_clients: "true" }), collection).toEqual([]);
    }
    expect(await service.list("/client-templates")).toEqual([]);
    expect((await service.list("/clients")).every((client) => client["archived"] === true)).toBe(true);
    expect(await stateKeys("%/.pulumi/locks/%")).toEqual([]);
  }, STEP_MS);
});
