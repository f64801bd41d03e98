/**
 * `fleet drift` of a fleet the engine deployed, with no engine run of its own: four client stacks
 * of test/programs/clients (a client, an email channel, two monitors attached to it, each) deployed
 * with `fleet up`, then changed by hand, one finding kind or two per stack:
 *   - alpha: a declared field (`site-0`'s name: put back) and a field the program leaves out
 *     (`site-1`'s followRedirects: kept);
 *   - bravo: a monitor deleted (`site-0`) and one paused by hand (`site-1`; the program leaves
 *     `paused` out: kept);
 *   - charlie: a monitor made by hand in its client (unmanaged);
 *   - delta: an override (`pulumi-monitoring pause site-1`) and a left-out field changed by hand
 *     that a deploy (`fleet up --stack delta`) then kept (known).
 * The check reads each kind's list once for the whole account (`all_clients=true`, one page
 * here), never a client's own list, plus only what the spec has no list for: each monitor's
 * channels, each client's share links, and a GET confirming the one deleted monitor gone. Narrowed
 * to one stack (`pulumi-monitoring drift --stack alpha`), it reads that client's lists instead.
 * The states it reads from the file backend's files are those `pulumi stack export` prints.
 * The findings' wording and formats are test/cli/drift.test.ts's; the hand-change story of one
 * stack, single objects and a set's members, test/e2e/hand-changes.test.ts.
 */
import { randomBytes } from "node:crypto";
import { cp, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stackState } from "../../cli/fleet/runners/stack-state.js";
import { exportedState } from "../../cli/project/state.js";
import { fleetWorkspace } from "../../cli/project/workspace.js";
import type { FleetReport, StackReport } from "../../cli/report/fleet.js";
import type { RequestLogEntry } from "../../emulator/index.js";
import { runFleetCli, runHere } from "../examples/support.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { fleetTestEnv, repoRoot, stacksInFiles } from "../support/pulumi.js";

const STACKS = ["alpha", "bravo", "charlie", "delta"];
const MONITORS = 2;
const STEP_MS = 300_000;

/** A list request, as `path?query` without its page size; undefined for other requests. */
function listOf({ method, path, query }: RequestLogEntry): string | undefined {
  if (method !== "GET" || !/(^|&)limit=250(&|$)/.test(query)) return undefined;
  return `${path}?${query.replace(/(^|&)limit=250/, "").replace(/^&/, "")}`.toLowerCase();
}

describe("fleet drift of a deployed fleet, from one read of each kind's list", () => {
  let emulator: TestEmulator;
  let workDir: string;
  let env: NodeJS.ProcessEnv;
  /** Per stack: its client's id, and its monitors' ids by name in the program (`site-0`). */
  const clients: Record<string, string> = {};
  const monitors: Record<string, Record<string, string>> = {};
  let stray: string;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    // Inside the repository, so that the program loads this package as `pulumi-monitoring`.
    workDir = join(repoRoot, ".work", `fleet-drift-${randomBytes(4).toString("hex")}`);
    await mkdir(join(workDir, ".state"), { recursive: true });
    for (const file of ["Pulumi.yaml", "index.ts"]) await cp(join(repoRoot, "test/programs/clients", file), join(workDir, file));
    env = fleetTestEnv(workDir, emulator);
    await stacksInFiles(workDir, join(workDir, ".state"), STACKS, () => ({ "clients:monitorCount": { value: String(MONITORS) } }));
    const up = await runFleetCli(["up", "--yes", "--json", "--parallel", "2", "--cwd", workDir], env);
    expect(up.code, up.stderr).toBe(0);

    const { byHand } = emulator;
    for (const stack of STACKS) {
      const [client] = await byHand<Array<{ id: string }>>("GET", `/clients?q=${encodeURIComponent(`Client ${stack}`)}`);
      clients[stack] = client!.id;
      const listed = await byHand<Array<{ id: string; name: string }>>("GET", `/monitors?client_id=${client!.id}`);
      monitors[stack] = Object.fromEntries(listed.map((monitor) => [`site-${monitor.name.split(" ").pop()}`, monitor.id]));
    }
    await byHand("PATCH", `/monitors/${monitors.alpha!["site-0"]}`, { name: "Renamed by hand" });
    await byHand("PATCH", `/monitors/${monitors.alpha!["site-1"]}`, { follow_redirects: false });
    await byHand("DELETE", `/monitors/${monitors.bravo!["site-0"]}`);
    await byHand("POST", `/monitors/${monitors.bravo!["site-1"]}/pause`);
    stray = (await byHand<{ id: string }>("POST", "/monitors", { name: "Stray", url: "https://stray.example", client_id: clients.charlie })).id;
    const pause = await runHere(["pause", "site-1", "--stack", "delta", "--for", "2h", "--reason", "incident 7", "--cwd", workDir], env);
    expect(pause.code, pause.stdout + pause.stderr).toBe(0);
    await byHand("PATCH", `/monitors/${monitors.delta!["site-0"]}`, { follow_redirects: false });
    // The deploy's refresh records the value set by hand in a field the program leaves out, and keeps it.
    const keep = await runFleetCli(["up", "--yes", "--stack", "delta", "--cwd", workDir], env);
    expect(keep.code, keep.stderr).toBe(0);
  }, STEP_MS);
  afterAll(async () => {
    await emulator?.stop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("finds every kind of change, each in its stack, and exits 3", async () => {
    await emulator.admin.clearRequestLog();
    const { code, stdout, stderr } = await runHere(["fleet", "drift", "--json", "--parallel", "2", "--cwd", workDir], env);
    expect(code, stderr).toBe(3);
    const report = JSON.parse(stdout) as FleetReport;
    const stack = (name: string): StackReport => report.stacks.find((each) => each.stack === name)!;
    expect(report.stacks.map((each) => [each.stack, each.result])).toEqual([
      ["alpha", "drifted"],
      ["bravo", "drifted"],
      ["charlie", "drifted"],
      ["delta", "in sync"],
    ]);
    expect(stack("alpha").drift).toEqual([
      expect.objectContaining({ type: "Monitor", name: "site-0", drift: "changed", fields: [{ field: "name", recorded: "alpha site 0", actual: "Renamed by hand", declared: true }] }),
      expect.objectContaining({ type: "Monitor", name: "site-1", drift: "changed", fields: [{ field: "followRedirects", recorded: true, actual: false, declared: false }] }),
    ]);
    expect(stack("bravo").drift).toEqual([
      expect.objectContaining({ type: "Monitor", name: "site-0", id: monitors.bravo!["site-0"], drift: "deleted", fields: [] }),
      expect.objectContaining({ type: "Monitor", name: "site-1", drift: "changed", fields: [], paused: { managed: false, nextDeploy: "keeps" } }),
    ]);
    expect(stack("charlie").drift).toEqual([]);
    expect(stack("charlie").unmanaged).toEqual([expect.objectContaining({ kind: "Monitor", name: "Stray", id: stray, clientId: clients.charlie })]);
    expect(stack("delta").drift).toEqual([]);
    expect(stack("delta").known).toEqual([expect.objectContaining({ type: "Monitor", name: "site-0", field: "followRedirects", recorded: true, actual: false, keptBy: expect.objectContaining({ operation: "deploy" }) })]);
    expect(stack("delta").overrides).toEqual([expect.objectContaining({ type: "Monitor", name: "site-1", cause: "override", reason: "incident 7", nextDeploy: "keeps" })]);
    for (const each of report.stacks.filter((other) => other.stack !== "charlie")) expect(each.unmanaged).toEqual([]);

    const requests = await emulator.admin.requestLog();
    const lists = requests.flatMap((request) => listOf(request) ?? []);
    const channelReads = lists.filter((list) => /^\/monitors\/[^/?]+\/notification_channels\?$/.test(list));
    const shareLinks = lists.filter((list) => /^\/clients\/[^/?]+\/share-links\?$/.test(list));
    const kindLists = lists.filter((list) => !channelReads.includes(list) && !shareLinks.includes(list));
    // Each kind's list once for the whole account: the 6 kinds that live in clients across all of
    // them, and the clients' own list (4 clients recorded: a page, not 4 GETs).
    expect(kindLists.sort()).toEqual(["/clients?", "/escalation-policies?all_clients=true", "/heartbeat-groups?all_clients=true", "/heartbeats?all_clients=true", "/monitors?all_clients=true", "/notification_channels?all_clients=true", "/webhook-subscriptions?all_clients=true"]);
    // What the spec has no list of the account for: each monitor's channels (every monitor but the
    // deleted one), each client's share links; and a GET finding the deleted monitor gone.
    expect(channelReads).toHaveLength(STACKS.length * MONITORS - 1);
    expect(shareLinks.sort()).toEqual(STACKS.map((name) => `/clients/${clients[name]!.toLowerCase()}/share-links?`).sort());
    const others = requests.filter((request) => listOf(request) === undefined).map(({ method, path }) => `${method} ${path.toLowerCase()}`);
    expect(others).toEqual([`GET /monitors/${monitors.bravo!["site-0"]!.toLowerCase()}`]);
    expect(requests).toHaveLength(7 + (STACKS.length * MONITORS - 1) + STACKS.length + 1);
  }, STEP_MS);

  it("reads each stack's state from the file backend's file, as pulumi stack export shows it", async () => {
    const backend = env["PULUMI_BACKEND_URL"]!;
    const workspace = await fleetWorkspace(workDir, { PULUMI_BACKEND_URL: backend, PULUMI_CONFIG_PASSPHRASE: env["PULUMI_CONFIG_PASSPHRASE"]! });
    // A CLI pointed at an empty backend knows no stack: what comes back came from the file.
    const noCli = await fleetWorkspace(workDir, { PULUMI_BACKEND_URL: `file://${join(workDir, ".empty")}`, PULUMI_CONFIG_PASSPHRASE: env["PULUMI_CONFIG_PASSPHRASE"]! });
    for (const stack of ["alpha", "delta"]) {
      const exported = await exportedState(workspace, stack);
      expect((exported.deployment as { resources: unknown[] }).resources.length).toBeGreaterThan(MONITORS);
      expect(await stackState(noCli, "clients", stack, backend)).toEqual(exported);
    }
  }, STEP_MS);

  it("narrowed to one stack (pulumi-monitoring drift --stack alpha), reads that client's lists, not the account's", async () => {
    await emulator.admin.clearRequestLog();
    const { code, stdout, stderr } = await runHere(["drift", "--stack", "alpha", "--json", "--cwd", workDir], env);
    expect(code, stderr).toBe(3);
    const [alpha] = (JSON.parse(stdout) as FleetReport).stacks;
    expect(alpha?.drift?.map((object) => [object.name, object.fields.map((field) => field.field)])).toEqual([
      ["site-0", ["name"]],
      ["site-1", ["followRedirects"]],
    ]);
    const requests = await emulator.admin.requestLog();
    const client = clients.alpha!.toLowerCase();
    const kindLists = requests.flatMap((request) => listOf(request) ?? []).filter((list) => !list.startsWith("/monitors/"));
    expect(kindLists.sort()).toEqual([
      `/clients/${client}/share-links?`,
      ...["/escalation-policies", "/heartbeat-groups", "/heartbeats", "/monitors", "/notification_channels", "/webhook-subscriptions"].map((path) => `${path}?client_id=${client}`),
    ]);
    // The client alone is read by id (a GET costs what a page costs), and each monitor's channels.
    expect(requests).toHaveLength(kindLists.length + 1 + MONITORS);
  }, STEP_MS);
});
