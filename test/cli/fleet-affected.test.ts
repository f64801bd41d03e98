/**
 * Which client stacks a `fleet up` or `fleet preview` runs, in its pure parts: the deploy
 * fingerprint (what counts as a change of the program, the settings and the shared outputs), what
 * a stack's state says (pending operations, a write since the recorded deploy, a pause due), the
 * record kept beside a file backend's state (beside a PostgreSQL backend's:
 * test/cli/fleet-locks.test.ts), `--all`, the report's list of skipped stacks, and the progress line.
 * The same on the engine, each reason on a deployed stack: test/examples/agency-fleet.test.ts
 * (skipped, preview alike, --all, settings, program, the shared stack's program and the shared
 * outputs a client reads, a failed run, drift) and
 * test/examples/overrides-alt.test.ts (a settings change at +10 min, a resume due at +2h05); on a
 * PostgreSQL backend, test/examples/teams.test.ts.
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedParts, programFingerprint, sharedValuesOf, stackFingerprint } from "../../cli/fleet/affected/fingerprint.js";
import { deployRecordsOf } from "../../cli/fleet/affected/records.js";
import { openLockStore } from "../../cli/fleet/runners/backend.js";
import { stateReason, stateTimeOf } from "../../cli/fleet/affected/select.js";
import { parseFleetArgs } from "../support/fleet-args.js";
import { createDisplay, ProgressCounter, progressEvent, progressLine } from "../../cli/fleet/stacks/display.js";
import { parseProject } from "../../cli/project/project.js";
import { exitCodeOf, type FleetReport, mergeReports, noChanges } from "../../cli/report/fleet.js";
import { renderTable } from "../../cli/report/table.js";

const SETTINGS = "encryptionsalt: v1:abc\nconfig:\n  agency:client:\n    name: Acme\n  agency:templateId: tpl_1\n  monitoring:apiKey:\n    secure: v1:cipher1\n";

describe("a stack's deploy fingerprint", () => {
  let dir: string;
  const project = () => parseProject(dir, "name: agency\nruntime: nodejs\nfleet:\n  shared:\n    dir: shared\n    stack: shared\n  clients:\n    dir: clients\n");
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "fleet-affected-"));
    for (const folder of ["lib", "clients", "shared", "node_modules/left-pad", ".state"]) await mkdir(join(dir, folder), { recursive: true });
    await writeFile(join(dir, "Pulumi.yaml"), "name: agency\nruntime: nodejs\n");
    await writeFile(join(dir, "index.ts"), "export const a = 1;\n");
    await writeFile(join(dir, "lib", "spec.ts"), "export const b = 2;\n");
  });
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("changes with any file of the program, and with nothing the program does not read", async () => {
    const before = await programFingerprint(project());
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    // Other stacks' settings, the clients' specs (copied into each stack's own settings by init),
    // the shared project (its outputs count instead), installed packages and the state.
    await writeFile(join(dir, "Pulumi.acme.yaml"), SETTINGS);
    await writeFile(join(dir, "clients", "acme.yaml"), "name: Acme\n");
    await writeFile(join(dir, "shared", "index.ts"), "export const t = 1;\n");
    await writeFile(join(dir, "node_modules", "left-pad", "index.js"), "module.exports = 1;\n");
    await writeFile(join(dir, ".state", "acme.json"), "{}");
    expect(await programFingerprint(project())).toBe(before);

    await writeFile(join(dir, "lib", "spec.ts"), "export const b = 3;\n");
    const edited = await programFingerprint(project());
    expect(edited).not.toBe(before);
    // A file renamed with the same bytes is another program.
    await rm(join(dir, "lib", "spec.ts"));
    await writeFile(join(dir, "lib", "spec2.ts"), "export const b = 3;\n");
    expect(await programFingerprint(project())).not.toBe(edited);
  });

  it("changes with the nearest package.json and lockfile, in a folder above the project's too (a workspace of several projects)", async () => {
    const root = join(dir, "monorepo");
    const nested = join(root, "agency");
    await mkdir(nested, { recursive: true });
    await writeFile(join(nested, "index.ts"), "export const a = 1;\n");
    const agency = () => parseProject(nested, "name: agency\nruntime: nodejs\n");
    const before = await programFingerprint(agency());
    await writeFile(join(root, "package.json"), '{"dependencies":{"pulumi-monitoring":"^0.1.0"}}');
    const withManifest = await programFingerprint(agency());
    expect(withManifest).not.toBe(before);
    await writeFile(join(root, "package-lock.json"), '{"lockfileVersion":3,"packages":{"node_modules/pulumi-monitoring":{"version":"0.1.0"}}}');
    const locked = await programFingerprint(agency());
    expect(locked).not.toBe(withManifest);
    await writeFile(join(root, "package-lock.json"), '{"lockfileVersion":3,"packages":{"node_modules/pulumi-monitoring":{"version":"0.1.1"}}}');
    expect(await programFingerprint(agency())).not.toBe(locked);
  });

  it("tells which part changed: the program, the settings file, or the shared outputs the stack reads", () => {
    const shared = { "agency:templateId": "tpl_1" };
    const deployed = stackFingerprint("p1", SETTINGS, shared);
    expect(changedParts(deployed, stackFingerprint("p1", SETTINGS, shared))).toEqual([]);
    expect(changedParts(deployed, stackFingerprint("p2", SETTINGS, shared))).toEqual(["its program, package.json, lockfile or pulumi-monitoring version changed"]);
    expect(changedParts(deployed, stackFingerprint("p1", SETTINGS.replace("Acme", "Acme Corp"), shared))).toEqual(["its settings file changed"]);
    // A secret's ciphertext is compared as written, never decrypted.
    expect(changedParts(deployed, stackFingerprint("p1", SETTINGS.replace("cipher1", "cipher2"), shared))).toEqual(["its settings file changed"]);
    expect(changedParts(deployed, stackFingerprint("p1", SETTINGS, { "agency:templateId": "tpl_2" }))).toEqual(["the shared stack's outputs it reads changed"]);
  });

  it("takes a secret shared output's value only through scrypt, the same for every runner, and a plain one as it is", async () => {
    const values = await sharedValuesOf({ "agency:templateId": { value: "tpl_1", secret: false }, "agency:token": { value: "hunter2", secret: true } });
    expect(values["agency:templateId"]).toBe("tpl_1");
    expect(values["agency:token"]).toMatch(/^secret:[0-9a-f]{64}$/);
    expect(JSON.stringify(values)).not.toContain("hunter2");
    expect(await sharedValuesOf({ "agency:token": { value: "hunter2", secret: true } })).toEqual({ "agency:token": values["agency:token"] });
    expect((await sharedValuesOf({ "agency:token": { value: "hunter3", secret: true } }))["agency:token"]).not.toBe(values["agency:token"]);
    expect(await sharedValuesOf(undefined)).toEqual({});
  });

  it("leaves out of the settings the keys the fleet writes the shared outputs to, the encryption salt, and the file's layout", () => {
    const shared = { "agency:templateId": "tpl_1" };
    const deployed = stackFingerprint("p1", SETTINGS, shared);
    // The fleet writes a secret output as a new ciphertext each run: judged by the output's value instead.
    expect(stackFingerprint("p1", SETTINGS.replace("agency:templateId: tpl_1", "agency:templateId:\n    secure: v1:new"), shared)).toEqual(deployed);
    const reordered = "# a comment\nconfig:\n  monitoring:apiKey: { secure: v1:cipher1 }\n  agency:templateId: tpl_1\n  agency:client: { name: Acme }\nencryptionsalt: v1:abc\n";
    expect(stackFingerprint("p1", reordered, shared)).toEqual(deployed);
    // The salt the CLI adds to a file without one during the stack's first run.
    expect(stackFingerprint("p1", SETTINGS.replace("encryptionsalt: v1:abc\n", ""), shared)).toEqual(deployed);
  });
});

describe("what a stack's state says", () => {
  const record = { fingerprint: stackFingerprint("p", "", {}), stateTime: "2026-12-06T05:00:00Z", deployedAt: "2026-12-06T05:00:01Z" };
  const state = (deployment: Record<string, unknown>): Deployment => ({ version: 3, deployment: { manifest: { time: "2026-12-06T05:00:00Z" }, ...deployment } });

  it("affects nothing when the state is the one the recorded deploy left and nothing is due", () => {
    expect(stateTimeOf(state({}))).toBe("2026-12-06T05:00:00Z");
    expect(stateReason(state({}), record, [])).toBeUndefined();
  });

  it("affects the stack when an interrupted run left pending operations, another run wrote the state since, or a pause or resume is due", () => {
    expect(stateReason(state({ pending_operations: [{ type: "creating" }, { type: "updating" }] }), record, [])).toBe("its state holds 2 pending operations of an interrupted run");
    expect(stateReason(state({ manifest: { time: "2026-12-06T05:30:00Z" } }), record, [])).toBe("its state was written since its last fleet deploy (at 2026-12-06T05:30:00Z)");
    expect(stateReason(state({}), record, ["maintenance", "maintenance", "declared"])).toBe("a pause or resume is due now (maintenance, declared)");
  });
});

describe("the record of a stack's last successful up", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "fleet-records-"));
  });
  afterAll(async () => {
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  });

  const fileRecords = async () => deployRecordsOf(await openLockStore(`file://${root}`))!;

  it("lives beside a file backend's state, is read back whole, and is gone once dropped", async () => {
    const records = await fileRecords();
    const stack = { project: "agency", stack: "acme" };
    expect(await records.readAll("agency", ["acme"])).toEqual(new Map());
    const record = { fingerprint: stackFingerprint("p", SETTINGS, {}), stateTime: "2026-12-06T05:00:00Z", deployedAt: "2026-12-06T05:00:01Z" };
    await records.write(stack, record);
    expect(await readdir(join(root, ".pulumi-monitoring", "deployed", "agency"))).toEqual(["acme.json"]);
    expect(await records.readAll("agency", ["acme", "globex"])).toEqual(new Map([["acme", record]]));
    await records.drop(stack);
    expect(await records.readAll("agency", ["acme"])).toEqual(new Map());
  });

  it("is a record nobody can read when cut short: the stack runs", async () => {
    const records = await fileRecords();
    await mkdir(join(root, ".pulumi-monitoring", "deployed", "agency"), { recursive: true });
    await writeFile(join(root, ".pulumi-monitoring", "deployed", "agency", "globex.json"), '{"fingerprint":');
    expect(await records.readAll("agency", ["globex"])).toEqual(new Map());
  });

  it("is kept on file and PostgreSQL backends only (test/cli/fleet-locks.test.ts): elsewhere every stack runs", async () => {
    expect(deployRecordsOf(await openLockStore("https://api.pulumi.com"))).toBeUndefined();
    expect(deployRecordsOf(await openLockStore(undefined))).toBeUndefined();
  });
});

describe("--all and the report", () => {
  it("--all goes with up and preview (every stack), and verify (every object)", () => {
    expect(parseFleetArgs(["up", "--all"], "/")).toMatchObject({ command: "up", all: true });
    expect(parseFleetArgs(["preview", "--all"], "/")).toMatchObject({ command: "preview", all: true });
    expect(parseFleetArgs(["verify", "--all"], "/")).toMatchObject({ command: "verify", verifyAll: true });
    expect(parseFleetArgs(["up"], "/")).not.toHaveProperty("all");
    expect(() => parseFleetArgs(["refresh", "--all"], "/")).toThrow("--all goes with preview, up and verify, not with refresh");
    expect(() => parseFleetArgs(["up", "--all", "--alerts"], "/")).toThrow("--alerts goes with verify, not with up");
  });

  it("lists the stacks skipped and why, and those run and what affected them; a skipped stack fails nothing", () => {
    const report: FleetReport = {
      verb: "up",
      project: "agency",
      parallel: 2,
      interrupted: false,
      selection: "affected",
      stacks: [
        { stack: "acme", role: "client", result: "succeeded", counts: { ...noChanges(), update: 1 }, durationMs: 4000, affected: "its settings file changed" },
        { stack: "globex", role: "client", result: "skipped", counts: noChanges(), durationMs: 0, note: "unchanged since its deploy at 2026-12-06T05:00:01Z, in sync with the service, nothing due" },
      ],
    };
    const table = renderTable(report);
    expect(table).toMatch(/^globex .* skipped$/m);
    expect(table).toContain("Run, as the change affects them:\n  acme: its settings file changed\n");
    expect(table).toContain("Skipped, nothing affected them since their last deploy (--all runs them too): 1\n  globex: unchanged since its deploy at 2026-12-06T05:00:01Z, in sync with the service, nothing due\n");
    expect(exitCodeOf(report)).toBe(0);
  });

  it("merged from the shards, keeps the choice they agree on and every skipped stack", () => {
    const shard = (index: number, stack: string, selection: string): FleetReport => ({
      verb: "up",
      project: "agency",
      parallel: 1,
      interrupted: false,
      shard: `${index}/2`,
      selection,
      stacks: [{ stack, role: "client", result: "skipped", counts: noChanges(), durationMs: 0, note: "unchanged" }],
    });
    const merged = mergeReports([{ file: "1.json", report: shard(1, "acme", "affected") }, { file: "2.json", report: shard(2, "globex", "affected") }]);
    expect(merged.selection).toBe("affected");
    expect(merged.stacks.map((stack) => [stack.stack, stack.result])).toEqual([["acme", "skipped"], ["globex", "skipped"]]);
    expect(mergeReports([{ file: "1.json", report: shard(1, "acme", "affected") }, { file: "2.json", report: shard(2, "globex", "all") }])).not.toHaveProperty("selection");
  });
});

describe("the progress line", () => {
  const done = { state: "done", result: "succeeded", counts: noChanges(), durationMs: 1 } as const;
  const running = { state: "running", counts: noChanges(), startedAt: 0 } as const;

  it("counts the stacks done of all, skipped ones too, at the pace of those that ran, and what is left at that pace", () => {
    const progress = new ProgressCounter(5);
    expect(progressLine(progress.at(0))).toBe("0/5 done");
    // Two skipped at the start end at once: no pace from them.
    expect(progress.note("a", { state: "skipped", note: "unchanged" }, 0)).toBe(false);
    expect(progress.note("b", { state: "skipped", note: "unchanged" }, 0)).toBe(false);
    progress.note("c", running, 0);
    expect(progressLine(progress.at(10_000))).toBe("2/5 done");
    expect(progress.note("c", done, 30_000)).toBe(true);
    // Once only: a stack's later updates do not count again.
    expect(progress.note("c", done, 30_000)).toBe(false);
    expect(progress.at(30_000)).toEqual({ done: 3, total: 5, elapsedMs: 30_000, perMinute: 2, leftMs: 60_000 });
    expect(progressLine(progress.at(30_000))).toBe("3/5 done, 2.0 stacks a minute, about 1m00s left");
    progress.note("d", { state: "failed", error: "boom", durationMs: 1 }, 60_000);
    progress.note("e", done, 60_000);
    expect(progressLine(progress.at(60_000))).toBe("5/5 done, 3.0 stacks a minute");
  });

  it("is a JSON event under --json, with the stack that just ended", () => {
    const progress = new ProgressCounter(2);
    progress.note("a", running, 0);
    progress.note("a", done, 45_000);
    expect(JSON.parse(progressEvent(progress.at(45_000), "a", "succeeded"))).toEqual({ event: "progress", stack: "a", result: "succeeded", done: 1, total: 2, elapsedMs: 45_000, perMinute: 1.33, leftMs: 45_000 });
    expect(JSON.parse(progressEvent(new ProgressCounter(1).at(0), "a", "failed"))).toMatchObject({ perMinute: null, leftMs: null });
  });

  it("follows each stack that ran in a log, one event line each, skipped stacks listed without one", () => {
    let written = "";
    const display = createDisplay({ write: (text: string) => (written += text) } as never, ["a", "b"], { json: true });
    display.update("a", { state: "skipped", note: "unchanged" });
    display.update("b", running);
    display.update("b", done);
    display.close();
    const lines = written.trimEnd().split("\n");
    expect(lines[0]).toBe("a  skipped: unchanged");
    expect(lines[1]).toMatch(/^b {2}running \S+ {2}starting$/);
    expect(lines[2]).toBe("b  succeeded in 0.0s: no changes");
    expect(JSON.parse(lines[3]!)).toMatchObject({ event: "progress", stack: "b", result: "succeeded", done: 2, total: 2 });
    expect(lines).toHaveLength(4);
  });
});
