/**
 * The pure parts of the fleet for teams and CI: which runner a stack belongs to (`--shard`), the
 * CI matrix, the stack names the PostgreSQL backend mixes up, the environment that keeps its
 * listing from waiting forever, the CLI's lock error, and merging the runners' reports (and a
 * report as long as 500 stacks' reaching the process that reads it).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { collisionMessage, explainListingCrash, likeCollide, likeCollisions } from "../../cli/fleet/runners/backend.js";
import { cliEnvironment } from "../../cli/project/workspace.js";
import { describeLock, lockHolderOf, parseLockError } from "../../cli/fleet/runners/lock.js";
import { parseFleetArgs } from "../support/fleet-args.js";
import { exitCodeOf, type FleetReport, mergeReports, type StackReport } from "../../cli/report/fleet.js";
import { renderTable } from "../../cli/report/table.js";
import { parseShard, shardMatrix, shardOf, stacksOfShard } from "../../cli/fleet/runners/shard.js";
import { repoRoot } from "../support/pulumi.js";

const run = promisify(execFile);
const clients = Array.from({ length: 40 }, (_, index) => `client${String(index + 1).padStart(2, "0")}`);

describe("shards", () => {
  it("reads I/N and refuses what is not a share", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    for (const bad of ["0/2", "3/2", "1/0", "1", "a/b", "-1/2", "1.5/2"]) expect(() => parseShard(bad), bad).toThrow("--shard must be I/N with 1 <= I <= N");
  });

  it("puts every stack in exactly one share", () => {
    const shares = [1, 2, 3].map((index) => stacksOfShard(clients, { index, count: 3 }));
    expect(shares.flat().sort()).toEqual(clients);
    // Forty stacks spread over three runners: none is left idle or given nearly all.
    for (const share of shares) expect(share.length).toBeGreaterThan(5);
  });

  it("places a stack by its own name: adding or removing other stacks moves none", () => {
    const before = new Map(clients.map((stack) => [stack, shardOf(stack, 4)]));
    const after = [...clients, "newcomer", "another"].filter((stack) => stack !== "client07");
    for (const stack of after.filter((name) => before.has(name))) expect(shardOf(stack, 4), stack).toBe(before.get(stack));
  });

  it("moves only the stacks the new runner takes when a runner is added", () => {
    const moved = clients.filter((stack) => shardOf(stack, 3) !== shardOf(stack, 4));
    expect(moved.every((stack) => shardOf(stack, 4) === 4)).toBe(true);
    expect(moved.length).toBeLessThan(clients.length / 2);
  });

  it("reads a stack's name the same with or without its organization and project", () => {
    expect(shardOf("organization/agency/acme", 5)).toBe(shardOf("acme", 5));
  });

  it("prints a CI matrix with every share and its stacks", () => {
    const matrix = shardMatrix(clients, 3);
    expect(matrix.map((entry) => entry.shard)).toEqual(["1/3", "2/3", "3/3"]);
    expect(matrix.flatMap((entry) => entry.stacks.split(" ")).sort()).toEqual(clients);
    expect(shardMatrix(["acme"], 2)).toEqual([
      { shard: "1/2", stacks: shardOf("acme", 2) === 1 ? "acme" : "" },
      { shard: "2/2", stacks: shardOf("acme", 2) === 2 ? "acme" : "" },
    ]);
  });
});

describe("stack names the PostgreSQL backend's LIKE match mixes up", () => {
  it.each([
    ["c_1", "c-1", true],
    ["c_1", "cx1", true],
    ["a_b_c", "a-b.c", true],
    ["c_1", "c_2", false],
    ["c_1", "c-12", false],
    ["c-1", "c.1", false],
    ["acme", "acme-staging", false],
    ["c_1", "c_1", false],
  ])("%s and %s: %s", (a, b, collide) => {
    expect(likeCollide(a, b)).toBe(collide);
    expect(likeCollide(b, a)).toBe(collide);
  });

  it("lists each colliding pair once, and says why in the message", () => {
    expect(likeCollisions(["c-1", "acme", "c_1", "c-1", "b_x", "bxx"])).toEqual([
      ["b_x", "bxx"],
      ["c-1", "c_1"],
    ]);
    expect(collisionMessage([["c-1", "c_1"]])).toMatch(/^stack names c-1 and c_1 cannot share a PostgreSQL state backend: .*LIKE, where `_` matches any one character.*slice bounds out of range/);
  });

  it("explains the CLI's crash on such names, and nothing else", () => {
    const crash = Object.assign(new Error("code: 2"), { commandResult: { stderr: "panic: runtime error: slice bounds out of range [:45] with length 38\n\tgithub.com/pulumi/pulumi/pkg/v3/backend/diy/postgres.(*postgresBucketDriver).ListPaged" } });
    expect(explainListingCrash(crash)?.message).toMatch(/^pulumi stack ls crashed on the PostgreSQL backend .*\.json\.bak/);
    expect(explainListingCrash(new Error("error: no Pulumi.yaml project file found"))).toBeUndefined();
  });
});

describe("the environment of the fleet's CLI commands", () => {
  it.each([
    // [environment, cores] -> [GOMAXPROCS, PULUMI_DIY_BACKEND_PARALLEL]: the listing always below the pool of 2 × GOMAXPROCS.
    [{}, 1, "1", "1"],
    [{}, 2, "2", "3"],
    [{}, 4, "4", "7"],
    [{}, 16, "16", "10"],
    [{ GOMAXPROCS: "1" }, 8, "1", "1"],
    [{ PULUMI_DIY_BACKEND_PARALLEL: "2" }, 2, "2", "2"],
    [{ PULUMI_DIY_BACKEND_PARALLEL: "10" }, 2, "2", "3"],
    [{ GOMAXPROCS: "zero", PULUMI_DIY_BACKEND_PARALLEL: "-3" }, 2, "2", "3"],
  ])("%j on %i cores", (env, cores, gomaxprocs, parallel) => {
    expect(cliEnvironment(env, cores)).toEqual({ GOMAXPROCS: gomaxprocs, PULUMI_DIY_BACKEND_PARALLEL: parallel });
  });
});

describe("a stack locked by another run", () => {
  // As Pulumi 3.259 prints it (backend/diy/lock.go).
  const stderr = [
    "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.",
    "  postgres:///pulumi/.pulumi/locks/organization/agency/acme/0b7c1f.json: created by ci@runner-7 (pid 4242) at 2026-11-23T20:40:00Z",
    "",
  ].join("\n");

  it("names who holds the lock and since when", () => {
    const holder = parseLockError(stderr);
    expect(holder).toEqual({ user: "ci", host: "runner-7", pid: 4242, since: "2026-11-23T20:40:00Z" });
    expect(describeLock(holder!)).toBe("locked (by ci@runner-7, pid 4242, since 2026-11-23T20:40:00Z)");
  });

  it("reads the CLI's stderr of a failed command, and a user name with @ in it", () => {
    expect(lockHolderOf(Object.assign(new Error("code: 255"), { commandResult: { stderr } }))?.host).toBe("runner-7");
    expect(parseLockError(stderr.replace("ci@runner-7", "ci@corp.example@runner-7"))?.user).toBe("ci@corp.example");
  });

  it("is not any other error", () => {
    expect(parseLockError("error: update failed")).toBeUndefined();
    expect(lockHolderOf(new Error("conflict: Another update is currently in progress."))).toBeUndefined();
  });
});

describe("the command line for teams and CI", () => {
  it("reads --shard, --shards, --shared-only, --wait-lock and report merge", () => {
    expect(parseFleetArgs(["up", "--shard", "2/3", "--wait-lock", "90"], "/")).toMatchObject({ shard: { index: 2, count: 3 }, waitLockMs: 90_000 });
    expect(parseFleetArgs(["up", "--wait-lock", "5m"], "/")).toMatchObject({ waitLockMs: 300_000 });
    expect(parseFleetArgs(["list", "--json", "--shards", "4"], "/")).toMatchObject({ command: "list", json: true, shards: 4 });
    expect(parseFleetArgs(["up", "--shared-only"], "/")).toMatchObject({ sharedOnly: true, shared: true });
    expect(parseFleetArgs(["report", "merge", "a.json", "b.json"], "/")).toMatchObject({ command: "report", reports: ["a.json", "b.json"] });
  });

  it("refuses combinations that mean nothing", () => {
    expect(() => parseFleetArgs(["up", "--shard", "3/2"], "/")).toThrow("--shard must be I/N");
    expect(() => parseFleetArgs(["up", "--shards", "2"], "/")).toThrow("--shards goes with list, not with up; a runner takes its share with --shard I/N");
    expect(() => parseFleetArgs(["up", "--shared-only", "--shard", "1/2"], "/")).toThrow("--shared-only runs the shared stack alone");
    expect(() => parseFleetArgs(["up", "--wait-lock", "soon"], "/")).toThrow("--wait-lock must be a duration such as 90s, 5m or 1h, got \"soon\"");
    expect(() => parseFleetArgs(["report"], "/")).toThrow("report merge FILE");
    expect(() => parseFleetArgs(["report", "merge"], "/")).toThrow("report merge needs");
  });
});

describe("merging the runners' reports", () => {
  const counts = { create: 2, update: 0, delete: 0, replace: 0 };
  const stack = (name: string, result: StackReport["result"], extra: Partial<StackReport> = {}): StackReport => ({ stack: name, role: "client", result, counts, durationMs: 1500, ...extra });
  const report = (stacks: StackReport[], extra: Partial<FleetReport> = {}): FleetReport => ({ verb: "up", project: "agency", parallel: 2, interrupted: false, stacks, ...extra });
  const shared = report([stack("agency-shared/shared", "succeeded", { role: "shared" })]);

  it("makes one table of the shared run and every shard, in the order of one run", () => {
    const merged = mergeReports([
      { file: "shard-2.json", report: report([stack("globex", "succeeded"), stack("acme", "succeeded")], { shard: "2/2" }) },
      { file: "shared.json", report: shared },
      { file: "shard-1.json", report: report([stack("initech", "succeeded")], { shard: "1/2" }) },
    ]);
    expect(merged.stacks.map((entry) => entry.stack)).toEqual(["agency-shared/shared", "acme", "globex", "initech"]);
    expect(merged.parallel).toBe(6);
    expect(exitCodeOf(merged)).toBe(0);
    expect(renderTable(merged)).toMatch(/^initech +2 +0 +0 +0 +1\.5s +succeeded$/m);
  });

  it("lists the shared stack last for destroy", () => {
    const destroyed = (stacks: StackReport[], extra: Partial<FleetReport> = {}): FleetReport => ({ ...report(stacks, extra), verb: "destroy" });
    const merged = mergeReports([
      { file: "shared.json", report: destroyed([stack("agency-shared/shared", "succeeded", { role: "shared" })]) },
      { file: "shard-1.json", report: destroyed([stack("acme", "succeeded")], { shard: "1/1" }) },
    ]);
    expect(merged.stacks.map((entry) => entry.stack)).toEqual(["acme", "agency-shared/shared"]);
  });

  it("exits as one run would: a locked or failed stack, or a shard with no report, fails it", () => {
    const lock = { user: "ci", host: "runner-7", pid: 4242, since: "2026-11-23T20:40:00Z" };
    const locked = mergeReports([{ file: "a.json", report: report([stack("acme", "locked", { lock, counts: { create: 0, update: 0, delete: 0, replace: 0 } })], { shard: "1/1" }) }]);
    expect(exitCodeOf(locked)).toBe(1);
    expect(renderTable(locked)).toMatch(/^acme .* locked \(by ci@runner-7, pid 4242, since 2026-11-23T20:40:00Z\)$/m);
    expect(renderTable(locked)).toContain("--wait-lock SECONDS");

    const missing = mergeReports([{ file: "shard-1.json", report: report([stack("acme", "succeeded")], { shard: "1/3" }) }]);
    expect(missing.missingShards).toEqual(["2/3", "3/3"]);
    expect(exitCodeOf(missing)).toBe(1);
    expect(renderTable(missing)).toContain("No report from shard 2/3, 3/3: its runner did not finish");

    const drifted = mergeReports([{ file: "a.json", report: { ...report([stack("acme", "drifted")]), verb: "drift" } }]);
    expect(exitCodeOf(drifted)).toBe(3);
  });

  it("refuses reports of different operations, splits, or the same stack twice", () => {
    expect(() => mergeReports([{ file: "a.json", report: shared }, { file: "b.json", report: { ...shared, verb: "preview" } }])).toThrow(
      "b.json reports preview of project agency, a.json up of project agency: merge the reports of one operation",
    );
    expect(() => mergeReports([{ file: "a.json", report: report([], { shard: "1/2" }) }, { file: "b.json", report: report([], { shard: "1/3" }) }])).toThrow("the reports come from different splits");
    expect(() => mergeReports([{ file: "a.json", report: shared }, { file: "b.json", report: shared }])).toThrow("stack agency-shared/shared is in both a.json and b.json");
  });

  it("reaches the process that reads it whole, however long: 500 stacks' report through a pipe, from both commands", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fleet-report-"));
    try {
      const names = Array.from({ length: 500 }, (_, index) => `client${String(index + 1).padStart(3, "0")}`);
      const shards = [1, 2].map((index) => stacksOfShard(names, { index, count: 2 }));
      const files = await Promise.all(
        shards.map(async (share, index) => {
          const file = join(dir, `shard-${index + 1}.json`);
          await writeFile(file, JSON.stringify(report(share.map((name) => stack(name, "skipped", { note: "unchanged since its deploy, in sync with the service, nothing due" })), { shard: `${index + 1}/2` })));
          return file;
        }),
      );
      // Each command line ends its process explicitly; what it wrote must have left it first.
      for (const command of [["dist/cli/main.js", "fleet"], ["dist/cli/fleet/bin.js"]]) {
        const { stdout } = await run(process.execPath, [join(repoRoot, command[0]!), ...command.slice(1), "report", "merge", ...files, "--json"], { maxBuffer: 64 << 20 });
        expect(stdout.length).toBeGreaterThan(64 * 1024);
        expect((JSON.parse(stdout) as FleetReport).stacks.map((entry) => entry.stack)).toEqual(names);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
