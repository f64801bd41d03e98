/**
 * Locks left by runs that died (cli/fleet/runners/lease.ts), without an engine: the decision table of
 * `judgeLock`, then, on a real PostgreSQL state table and on a file backend, locks written as the
 * Pulumi CLI writes them (another host's, with an expired lease or none, or one whose lease a live
 * runner keeps renewing past the threshold) and what `takeOverStaleLocks` does with them; and
 * the records of deploys and the checkpoints the fleet reads beside a PostgreSQL backend's state.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { deployRecordsOf } from "../../cli/fleet/affected/records.js";
import { stackFingerprint } from "../../cli/fleet/affected/fingerprint.js";
import { openLockStore } from "../../cli/fleet/runners/backend.js";
import type { PostgresBackend } from "../../cli/fleet/runners/postgres-backend.js";
import type { PostgresLockStore } from "../../cli/fleet/runners/postgres-lock-store.js";
import { StackStates, stackState } from "../../cli/fleet/runners/stack-state.js";
import { writeStack, StackLockedError } from "../../cli/fleet/runners/dead-locks.js";
import type { FleetProject } from "../../cli/project/project.js";
import { FileLockStore, fileBackendRoot } from "../../cli/fleet/runners/file-lock-store.js";
import { judgeLock, keepLease, type LockPolicy, renewalPeriod, takeOverStaleLocks } from "../../cli/fleet/runners/lease.js";
import type { Lease, LockStore, StoredLock } from "../../cli/fleet/runners/lock-store.js";
import { parseDuration } from "../../cli/command/args.js";
import { endedPid, writeLockFile } from "../support/killed-run-lock.js";
import { startTestPostgres, type TestPostgres } from "../support/postgres.js";

const MINUTE = 60_000;
const policy: LockPolicy = { staleAfterMs: MINUTE, pidCheck: true };
const here = { host: "vm", pidExists: (pid: number) => pid === 4242 };
const lockOf = (host: string, pid: number, ageMs = 5_000): StoredLock => ({ key: "k", holder: { user: "ci", host, pid, since: "2026-11-25T12:00:00Z" }, ageMs });
const leaseOf = (ageMs: number, renewEveryMs = 5_000): Lease => ({ lockKey: "k", holder: { host: "runner-9", user: "ci", pid: 7 }, renewEveryMs, ageMs, renewal: "r1" });

describe("judging a lock", () => {
  it.each<[string, StoredLock, Lease | undefined, Partial<LockPolicy>, boolean, RegExp]>([
    ["this host, its process gone", lockOf("vm", 19840), undefined, {}, true, /^its process \(pid 19840\) no longer exists on this host \(vm\)$/],
    ["this host, its process gone, even with a fresh lease", lockOf("vm", 19840), leaseOf(1_000), {}, true, /no longer exists on this host/],
    ["this host, its process running, even with a stale lease", lockOf("vm", 4242), leaseOf(10 * MINUTE), {}, false, /^its process \(pid 4242\) is still running on this host$/],
    ["this host with --no-pid-check: the lease decides", lockOf("vm", 19840), leaseOf(2_000), { pidCheck: false }, false, /^its run renewed its lease 2 s ago$/],
    ["this host with --no-pid-check and no lease", lockOf("vm", 19840), undefined, { pidCheck: false }, false, /^it has no lease/],
    ["another host, lease renewed within the threshold", lockOf("runner-9", 77), leaseOf(59_000), {}, false, /renewed its lease 59 s ago/],
    ["another host, lease not renewed for longer", lockOf("runner-9", 77), leaseOf(95_000), {}, true, /^its lease was last renewed 95 s ago \(stale after 60 s, --stale-lock-after\)$/],
    ["a threshold shorter than three of the holder's renewals waits for three", lockOf("runner-9", 77), leaseOf(12_000), { staleAfterMs: 3_000 }, false, /renewed its lease 12 s ago/],
    ["... and no longer", lockOf("runner-9", 77), leaseOf(16_000), { staleAfterMs: 3_000 }, true, /stale after 15 s/],
    ["another host, no lease: never by itself", lockOf("runner-9", 77, 5 * 60 * MINUTE), undefined, {}, false, /^it has no lease .*once sure that run is over, run `pulumi cancel`, or give a fleet command --break-locks-older-than$/],
    ["no lease, older than --break-locks-older-than", lockOf("runner-9", 77, 2 * 60 * MINUTE), undefined, { breakOlderThanMs: 60 * MINUTE }, true, /^it has no lease and is 2 h old \(--break-locks-older-than 60 min\)$/],
    ["no lease, younger than --break-locks-older-than", lockOf("runner-9", 77, 30 * MINUTE), undefined, { breakOlderThanMs: 60 * MINUTE }, false, /^it has no lease/],
  ])("%s", (_title, lock, lease, overrides, stale, why) => {
    const verdict = judgeLock(lock, lease, { ...policy, ...overrides }, here);
    expect(verdict.stale).toBe(stale);
    expect(verdict.why).toMatch(why);
  });

  it("renews a lease four times per threshold, at most every 5 s; reads durations as the options give them", () => {
    expect([renewalPeriod(60_000), renewalPeriod(2_000), renewalPeriod(100)]).toEqual([5_000, 500, 250]);
    expect(["90", "90s", "1.5m", "2h", "500ms"].map((text) => parseDuration("--x", text))).toEqual([90_000, 90_000, 90_000, 7_200_000, 500]);
    for (const bad of ["", "0", "-5s", "soon", "5 days"]) expect(() => parseDuration("--stale-lock-after", bad), bad).toThrow(/^--stale-lock-after must be a duration/);
  });

  it("finds a file backend's folder as the CLI does", () => {
    expect(fileBackendRoot("file:///var/state")).toBe("/var/state");
    expect(fileBackendRoot("file://~/state?no_tmp_dir=true")).toMatch(/\/state$/);
  });
});

/** A backend under test: its lock store and a way to write locks and age them as the CLI and time would. */
interface Backend {
  store: LockStore;
  writeLock(stack: string, id: string, content: object, ageMs?: number): Promise<string>;
  lockKeys(stack: string): Promise<string[]>;
  /** Moves the lease's last renewal back by `ms`. */
  ageLease(lockKey: string, ms: number): Promise<void>;
  close(): Promise<void>;
}

const PROJECT = "agency";
const lockContent = (host: string, pid: number, ageMs = 0) => ({ pid, username: "ci", hostname: host, timestamp: new Date(Date.now() - ageMs).toISOString() });

let postgres: TestPostgres;
let fileRoot: string;
beforeAll(async () => {
  postgres = await startTestPostgres();
  fileRoot = await mkdtemp(join(tmpdir(), "fleet-locks-"));
}, 120_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await postgres?.stop();
  if (fileRoot) await rm(fileRoot, { recursive: true, force: true });
});

async function postgresBackend(): Promise<Backend> {
  await postgres.query("CREATE TABLE IF NOT EXISTS pulumi_state (key TEXT PRIMARY KEY, data JSON NOT NULL, updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now())");
  // The credentials as the CLI reads them: the libpq environment (put back in afterAll).
  for (const [name, value] of Object.entries(postgres.env)) vi.stubEnv(name, value);
  const store = (await openLockStore(postgres.backendUrl)) as LockStore;
  const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
  return {
    store,
    async writeLock(stack, id, content, ageMs = 0) {
      // As the backend writes a file: a row keyed by the URL's path and the file's, its bytes in base64.
      const key = `pulumi/.pulumi/locks/organization/${PROJECT}/${stack}/${id}.json`;
      const data = JSON.stringify({ data: Buffer.from(JSON.stringify(content)).toString("base64") });
      await postgres.query(`INSERT INTO pulumi_state (key, data, updated_at) VALUES (${quote(key)}, ${quote(data)}, now() - interval '${ageMs} milliseconds')`);
      return key;
    },
    async lockKeys(stack) {
      return (await postgres.query(`SELECT key FROM pulumi_state WHERE key LIKE 'pulumi/.pulumi/locks/organization/${PROJECT}/${stack}/%'`)).map(([key]) => key ?? "");
    },
    async ageLease(lockKey, ms) {
      await postgres.query(`UPDATE pulumi_state_leases SET renewed_at = renewed_at - interval '${ms} milliseconds' WHERE lock_key = ${quote(lockKey)}`);
    },
    close: () => store.close(),
  };
}

async function fileBackend(): Promise<Backend> {
  const store = (await openLockStore(`file://${fileRoot}`)) as FileLockStore;
  const dirOf = (stack: string) => join(fileRoot, ".pulumi/locks/organization", PROJECT, stack);
  return {
    store,
    async writeLock(stack, id, content) {
      await mkdir(dirOf(stack), { recursive: true });
      await writeFile(join(dirOf(stack), `${id}.json`), JSON.stringify(content));
      return `.pulumi/locks/organization/${PROJECT}/${stack}/${id}.json`;
    },
    async lockKeys(stack) {
      return (await readdir(dirOf(stack)).catch(() => [])).map((file) => `.pulumi/locks/organization/${PROJECT}/${stack}/${file}`);
    },
    async ageLease(lockKey, ms) {
      const path = join(fileRoot, ".pulumi-monitoring/leases", lockKey.replace(".pulumi/locks/", ""));
      const { readFile } = await import("node:fs/promises");
      const lease = JSON.parse(await readFile(path, "utf8")) as { renewedAt: number };
      await writeFile(path, JSON.stringify({ ...lease, renewedAt: lease.renewedAt - ms }));
    },
    close: () => store.close(),
  };
}

describe.each([
  ["PostgreSQL", postgresBackend],
  ["a file backend", fileBackend],
])("locks on %s", (_name, open) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    await backend?.close();
  });
  const other = { host: "runner-9", user: "ci", pid: 77 };

  it("takes over another host's lock whose lease expired, naming whose it was and why, and leaves other stacks' locks alone", async () => {
    const key = await backend.writeLock("acme", "0b7c", lockContent("runner-9", 77));
    const neighbour = await backend.writeLock("acme-staging", "1d2e", lockContent("runner-9", 78));
    await backend.store.renew(key, { project: PROJECT, stack: "acme" }, other, 5_000);
    await backend.ageLease(key, 2 * MINUTE);

    const outcome = await takeOverStaleLocks(backend.store, { project: PROJECT, stack: "acme" }, policy);
    expect(outcome).toEqual({ taken: [{ holder: { user: "ci", host: "runner-9", pid: 77, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) }, why: expect.stringMatching(/^its lease was last renewed 2 min ago \(stale after 60 s, --stale-lock-after\)$/) }] });
    expect(await backend.lockKeys("acme")).toEqual([]);
    expect(await backend.store.leasesOf([key])).toEqual(new Map());
    expect(await backend.lockKeys("acme-staging")).toEqual([neighbour]);
  });

  it("takes over at once the lock of this host whose process is gone, though its runner renewed the lease a moment before it was killed", async () => {
    const key = await backend.writeLock("umbrella", "7f80", lockContent("vm", 19840));
    const stack = { project: PROJECT, stack: "umbrella" };
    await backend.store.renew(key, stack, { host: "vm", user: "ci", pid: 19839 }, 5_000);

    const outcome = await takeOverStaleLocks(backend.store, stack, policy, here);
    expect(outcome).toEqual({ taken: [{ holder: expect.objectContaining({ host: "vm", pid: 19840 }), why: "its process (pid 19840) no longer exists on this host (vm)" }] });
    expect(await backend.lockKeys("umbrella")).toEqual([]);
    expect(await backend.store.leasesOf([key])).toEqual(new Map());
  });

  it("leaves a lock judged stale whose lease is renewed (or first written) before it is deleted: its run is alive after all", async () => {
    const stack = { project: PROJECT, stack: "wonka" };
    const key = await backend.writeLock("wonka", "8091", lockContent("runner-9", 77));
    await backend.store.renew(key, stack, other, 5_000);
    await backend.ageLease(key, 2 * MINUTE);
    const judged = (await backend.store.leasesOf([key])).get(key);
    await backend.store.renew(key, stack, other, 5_000);
    expect(await backend.store.breakLock(key, judged)).toBe(false);

    const unleased = await backend.writeLock("wonka", "90a2", lockContent("runner-9", 78));
    await backend.store.renew(unleased, stack, other, 5_000);
    expect(await backend.store.breakLock(unleased, undefined)).toBe(false);
    expect((await backend.lockKeys("wonka")).sort()).toEqual([key, unleased].sort());
  });

  it("reports a lock with no lease as held, and takes it over only past --break-locks-older-than", async () => {
    const key = await backend.writeLock("globex", "2f3a", lockContent("runner-9", 77, 10 * MINUTE), 10 * MINUTE);
    const stack = { project: PROJECT, stack: "globex" };
    const held = await takeOverStaleLocks(backend.store, stack, policy);
    expect(held).toEqual({ held: { holder: expect.objectContaining({ host: "runner-9", pid: 77 }), why: expect.stringMatching(/^it has no lease/) } });
    expect(await takeOverStaleLocks(backend.store, stack, { ...policy, breakOlderThanMs: 60 * MINUTE })).toMatchObject({ held: {} });
    expect(await backend.lockKeys("globex")).toEqual([key]);

    const taken = await takeOverStaleLocks(backend.store, stack, { ...policy, breakOlderThanMs: 5 * MINUTE });
    expect(taken).toEqual({ taken: [{ holder: expect.objectContaining({ host: "runner-9" }), why: expect.stringMatching(/^it has no lease and is 10 min old \(--break-locks-older-than 5 min\)$/) }] });
    expect(await backend.lockKeys("globex")).toEqual([]);
  });

  it("never takes over the lock of a live runner that keeps renewing its lease past the threshold; once it stops, the lock goes", async () => {
    const stack = { project: PROJECT, stack: "hooli" };
    const key = await backend.writeLock("hooli", "3b4c", lockContent(hostname(), process.pid));
    // The holder renews every 250 ms; the other runner judges with a 1 s threshold and no pid rule, as on another host.
    const shortPolicy: LockPolicy = { staleAfterMs: 1_000, pidCheck: false };
    const holder = keepLease(backend.store, stack, renewalPeriod(shortPolicy.staleAfterMs), async () => true);
    // Judged for twice the threshold: a lease that were not renewed would go stale halfway through.
    const deadline = Date.now() + 2_000;
    const verdicts: string[] = [];
    await new Promise((resolve) => setTimeout(resolve, 400));
    while (Date.now() < deadline) {
      const outcome = await takeOverStaleLocks(backend.store, stack, shortPolicy);
      verdicts.push("held" in outcome ? outcome.held.why : "taken over");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(verdicts.length).toBeGreaterThan(5);
    expect(verdicts.every((why) => /^its run renewed its lease [01] s ago$/.test(why)), verdicts.join("; ")).toBe(true);
    expect(await backend.lockKeys("hooli")).toEqual([key]);

    // The runner stops but its CLI left the lock (it crashed): the lease is left to expire. Its
    // last renewal moved 2 s back, as if that long had passed, rather than waited for; then two
    // renewal periods waited, in which a keeper still running would have renewed it.
    await holder.stop();
    expect((await backend.store.leasesOf([key])).size).toBe(1);
    await backend.ageLease(key, 2_000);
    await new Promise((resolve) => setTimeout(resolve, 2 * renewalPeriod(shortPolicy.staleAfterMs)));
    // At least the 2 s it was aged; more on a loaded machine, whose timers run late.
    expect(await takeOverStaleLocks(backend.store, stack, shortPolicy)).toMatchObject({ taken: [{ why: expect.stringMatching(/^its lease was last renewed [2-9] s ago \(stale after 1 s, --stale-lock-after\)$/) }] });
  });

  it("a lock another runner takes over between the reads of locks and of leases is not reported held: it is gone", async () => {
    const key = await backend.writeLock("umbrella", "6e7f", lockContent("runner-9", 77));
    await backend.store.renew(key, { project: PROJECT, stack: "umbrella" }, other, 5_000);
    await backend.ageLease(key, 2 * MINUTE);
    const store = backend.store;
    let otherRunnerWent = false;
    // The other runner deletes the lock, then its lease, just after this one has listed the locks.
    const racing: LockStore = {
      locksOf: (stack) => store.locksOf(stack),
      leasesOf: async (keys) => {
        if (!otherRunnerWent) {
          otherRunnerWent = true;
          expect(await store.breakLock(key, (await store.leasesOf([key])).get(key))).toBe(true);
        }
        return store.leasesOf(keys);
      },
      renew: (...args) => store.renew(...args),
      dropLease: (lockKey) => store.dropLease(lockKey),
      breakLock: (lockKey, judged) => store.breakLock(lockKey, judged),
      close: () => store.close(),
    };
    expect(await takeOverStaleLocks(racing, { project: PROJECT, stack: "umbrella" }, policy)).toEqual({ taken: [] });
  });

  it("of two runners taking over one dead lock at once, exactly one deletes it", async () => {
    const key = await backend.writeLock("initech", "4c5d", lockContent("runner-9", 77));
    await backend.store.renew(key, { project: PROJECT, stack: "initech" }, other, 5_000);
    await backend.ageLease(key, 2 * MINUTE);
    const stack = { project: PROJECT, stack: "initech" };
    const outcomes = await Promise.all([takeOverStaleLocks(backend.store, stack, policy), takeOverStaleLocks(backend.store, stack, policy)]);
    expect(outcomes.map((outcome) => ("taken" in outcome ? outcome.taken.length : -1)).sort()).toEqual([0, 1]);
  });

  it("keeps a lease on the lock its own child process holds, and drops it with the lock", async () => {
    const child: ChildProcess = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore" });
    try {
      const stack = { project: PROJECT, stack: "tyrell" };
      const stranger = await backend.writeLock("tyrell", "5d6e", lockContent(hostname(), 1));
      const key = await backend.writeLock("tyrell", "6e7f", lockContent(hostname(), child.pid ?? 0));
      const keeper = keepLease(backend.store, stack, 250);
      const deadline = Date.now() + 5_000;
      while ((await backend.store.leasesOf([key])).size === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const leases = await backend.store.leasesOf([key, stranger]);
      expect([...leases.keys()]).toEqual([key]);
      expect(leases.get(key)?.holder).toEqual({ host: hostname(), user: expect.any(String), pid: process.pid });
      // The CLI ends and deletes its lock, then the runner stops keeping the lease.
      await backend.store.breakLock(stranger, undefined);
      const { rm: remove } = await import("node:fs/promises");
      if (backend.store instanceof FileLockStore) await remove(join(fileRoot, key));
      else await postgres.query(`DELETE FROM pulumi_state WHERE key = '${key}'`);
      await keeper.stop();
      expect((await backend.store.leasesOf([key])).size).toBe(0);
    } finally {
      child.kill();
    }
  });
});

/**
 * What else the fleet keeps and reads beside a PostgreSQL backend's state, on the lock store's
 * connection: the records of deploys (cli/fleet/affected/records.ts), which let a `fleet up` skip
 * the stacks a change does not affect, and the stacks' checkpoints, which `apply-due`, `fleet
 * drift` and the selection read without a CLI run each (cli/fleet/runners/stack-state.ts). Those
 * of all the stacks of a run come in one query: 500 stacks are not 500 round trips. (The rows the
 * CLI itself writes, read back: test/examples/teams.test.ts.)
 */
describe("records and states beside a PostgreSQL backend", () => {
  let backend: Backend;
  let database: PostgresBackend;
  let queries: MockInstance;
  beforeAll(async () => {
    backend = await postgresBackend();
    database = (backend.store as PostgresLockStore).backend;
  });
  beforeEach(() => {
    queries = vi.spyOn(database.pool, "query");
  });
  afterEach(() => {
    queries.mockRestore();
  });
  afterAll(async () => {
    await backend?.close();
  });
  const record = (deployedAt: string) => ({ fingerprint: stackFingerprint("program", `config: ${deployedAt}`, {}), stateTime: "2026-12-06T05:00:00Z", deployedAt });

  it("records a stack's successful up in <state table>_deployed, made by the first record written, and reads those of many stacks in one query", async () => {
    const records = deployRecordsOf(backend.store)!;
    // Before any deploy was recorded in this database, no stack has a record: every one runs.
    expect(await records.readAll(PROJECT, ["acme", "globex"])).toEqual(new Map());
    expect(await postgres.query("SELECT count(*) FROM pg_tables WHERE tablename = 'pulumi_state_deployed'")).toEqual([["0"]]);

    const [acme, globex] = [record("2026-12-06T05:00:01Z"), record("2026-12-06T05:00:02Z")];
    await records.write({ project: PROJECT, stack: "acme" }, acme);
    await records.write({ project: PROJECT, stack: "globex" }, globex);
    // The shared project's stack of the same name is another stack.
    await records.write({ project: "agency-shared", stack: "acme" }, record("2026-12-06T05:00:03Z"));
    queries.mockClear();
    const stacks = Array.from({ length: 500 }, (_, index) => `client-${index}`);
    expect(await records.readAll(PROJECT, ["acme", "globex", ...stacks])).toEqual(new Map([["acme", acme], ["globex", globex]]));
    expect(queries).toHaveBeenCalledTimes(1);

    // Rewritten by the next successful up; gone once an up or destroy of the stack starts.
    const again = record("2026-12-06T06:00:00Z");
    await records.write({ project: PROJECT, stack: "acme" }, again);
    await records.drop({ project: PROJECT, stack: "globex" });
    expect(await records.readAll(PROJECT, ["acme", "globex"])).toEqual(new Map([["acme", again]]));
    expect(await records.readAll("agency-shared", ["acme", "globex"])).toEqual(new Map([["acme", record("2026-12-06T05:00:03Z")]]));
  });

  it("counts a row that is not a whole record as none: the stack runs", async () => {
    await postgres.query(`INSERT INTO pulumi_state_deployed (project, stack, record) VALUES ('${PROJECT}', 'initech', '{"fingerprint": null}')`);
    expect(await deployRecordsOf(backend.store)!.readAll(PROJECT, ["initech"])).toEqual(new Map());
  });

  it("reads the checkpoints of many stacks, plain or gzipped, in one query, as pulumi stack export shows them; a stack whose row is not there is read through the CLI", async () => {
    const latest = (stack: string) => ({ manifest: { time: "2026-12-06T05:00:00Z" }, resources: [{ urn: `urn:pulumi:${stack}::agency::pulumi:pulumi:Stack::agency-${stack}` }] });
    const checkpoint = (stack: string) => Buffer.from(JSON.stringify({ version: 3, checkpoint: { stack: `organization/${PROJECT}/${stack}`, latest: latest(stack) } }));
    // As the backend stores a file: a row keyed by the URL's path and the file's, its bytes in base64.
    const insert = (key: string, bytes: Buffer) => postgres.query(`INSERT INTO pulumi_state (key, data) VALUES ('pulumi/.pulumi/stacks/${PROJECT}/${key}', '${JSON.stringify({ data: bytes.toString("base64") })}')`);
    await insert("acme.json", checkpoint("acme"));
    await insert("globex.json.gz", gzipSync(checkpoint("globex")));
    // The CLI, for the stack it is asked for: a state none of the rows holds.
    const cli = join(fileRoot, "pulumi-export");
    await writeFile(cli, `#!/bin/sh\necho '{"version": 3, "deployment": {"exportedBy": "the CLI"}}'\n`, { mode: 0o755 });
    const workspace = { pulumiCommand: { command: cli }, workDir: fileRoot, envVars: {} } as unknown as LocalWorkspace;

    queries.mockClear();
    const states = await StackStates.of(postgres.backendUrl, ["acme", "globex", "umbrella"].map((stack) => ({ project: PROJECT, stack })), database);
    expect(queries).toHaveBeenCalledTimes(1);
    expect(await states.read(workspace, PROJECT, "acme")).toEqual({ version: 3, deployment: latest("acme") });
    expect(await states.read(workspace, PROJECT, "globex")).toEqual({ version: 3, deployment: latest("globex") });
    expect(await states.read(workspace, PROJECT, "umbrella")).toEqual({ version: 3, deployment: { exportedBy: "the CLI" } });
    // On a connection of its own, for a caller with none open; a fully qualified stack name as well.
    expect(await stackState(workspace, PROJECT, `organization/${PROJECT}/acme`, postgres.backendUrl)).toEqual({ version: 3, deployment: latest("acme") });
  });
});

/**
 * `pause` and `resume` outside a fleet run (cli/overrides/run.ts): the CLI refused their run because
 * the stack is locked, with the lock error Pulumi prints; the lock is judged as the fleet judges it.
 */
describe("a command refused by a stack's lock", () => {
  const project = { name: PROJECT } as FleetProject;
  const workspace = {} as LocalWorkspace;
  const lockDir = (stack: string) => join(fileRoot, ".pulumi/locks/organization", PROJECT, stack);
  /** The CLI's lock, and the error the Automation API gives for the run it refused. */
  async function lockedBy(stack: string, pid: number): Promise<Error> {
    const content = await writeLockFile(fileRoot, PROJECT, stack, pid, "4c5d");
    const stderr = `error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with \`pulumi cancel\`.\n  file://${lockDir(stack)}/4c5d.json: created by ci@${hostname()} (pid ${pid}) at ${content.timestamp}\n`;
    return Object.assign(new Error(`code: 255\n stderr: ${stderr}`), { commandResult: { stderr } });
  }
  /** An operation that the lock refuses once, then runs. */
  const refusedOnce = (refusal: Error) => {
    const calls = { count: 0 };
    const operation = async () => {
      calls.count += 1;
      if (calls.count === 1) throw refusal;
      return "recorded";
    };
    return { calls, operation };
  };
  beforeAll(() => {
    vi.stubEnv("PULUMI_BACKEND_URL", `file://${fileRoot}`);
  });

  it("takes over the lock of a run whose process is gone (a pause killed mid-run), runs again, and says whose it was", async () => {
    const ended = await endedPid();
    const { calls, operation } = refusedOnce(await lockedBy("soylent", ended));
    const { result, takenOver } = await writeStack(project, workspace, "soylent", operation);
    expect([result, calls.count]).toEqual(["recorded", 2]);
    expect(takenOver).toEqual([{ holder: expect.objectContaining({ host: hostname(), pid: ended }), why: `its process (pid ${ended}) no longer exists on this host (${hostname()})` }]);
    expect(await readdir(lockDir("soylent"))).toEqual([]);
  });

  it("leaves the lock of a run still going, tries nothing more, and names the holder and why", async () => {
    const { calls, operation } = refusedOnce(await lockedBy("cyberdyne", process.pid));
    const refused = await writeStack(project, workspace, "cyberdyne", operation).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StackLockedError);
    const holder = `ci@${hostname().replaceAll(".", "\\.")}, pid ${process.pid}`;
    expect((refused as Error).message).toMatch(new RegExp(`^locked \\(by ${holder}, since \\S+\\), and its lock stands: its process \\(pid ${process.pid}\\) is still running on this host$`));
    expect(calls.count).toBe(1);
    expect(await readdir(lockDir("cyberdyne"))).toEqual(["4c5d.json"]);
  });

  it("passes on a failure that is not a lock's", async () => {
    const failure = new Error("error: update failed");
    await expect(writeStack(project, workspace, "stark", () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
