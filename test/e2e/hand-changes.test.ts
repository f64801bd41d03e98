/**
 * Changes made by hand, on the real engine: what the drift report tells of them, what the next
 * deploy does, and what a refresh records. One client stack, in a project set up as the docs say
 * (`options: refresh: always` in Pulumi.yaml), holds single objects and a MonitorSet, and takes
 * every kind of change at once through the API:
 *   - the monitor `web`: renamed, its channel detached (declared: put back), its interval changed
 *     (left out by the program: kept), paused (the program declares `paused: false`: resumed, the
 *     stack setting `monitoring:handPauses: putBack`);
 *   - the heartbeat `backup`: deleted (made again);
 *   - the set `fleet`, member by member: `api` renamed, `web` paused with its interval changed,
 *     `docs` deleted;
 *   - a monitor made by hand inside the client (unmanaged).
 * `pulumi-monitoring drift` reports each, a set's member as a single monitor
 * (`MonitorSet fleet[<key>]`), reading each list of the client once, in its JSON report (the
 * table and markdown rendered from it are test/cli/drift.test.ts's), and exits 3; one plain up (the Automation API's, without its refresh
 * option: the project's option alone makes it refresh) puts back what the program declares, and
 * `fleet drift --markdown` after it exits 0, listing the intervals that deploy kept as known, single
 * and member alike; a second change by hand of the same intervals is drift again (exit 3). Then `pulumi refresh`
 * records changes made by hand in the state. That a plain `pulumi up` run as users run it (the
 * CLI) does the same, its preview showing the repair before it is made, and `--refresh=false`
 * skips it, is test/e2e/reconcile.test.ts; that a plain preview refreshes first reading only, its
 * request log in test/e2e/lifecycle.test.ts and test/e2e/monitor-set.test.ts.
 *
 * On the default profile: the engine's part (the project's option, the commands, their wording
 * and exit status) is the same whatever the server. What a refresh finds on the alt
 * profile, and how it is classified, goes through the provider's and the report's own interfaces
 * (test/cli/drift-alt-profile.test.ts); what each update puts back, on both profiles, through the
 * provider's (test/provider/hand-changes.test.ts, test/provider/left-out.test.ts).
 */
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/report/fleet.js";
import { deploy, type Deployment, runCommandOn, setMembersChangedByHand } from "./support.js";

const monitors = {
  api: { name: "Api", url: "https://acme.example/api", paused: false },
  web: { name: "Web", url: "https://acme.example", paused: false },
  docs: { name: "Docs", url: "https://acme.example/docs" },
};
const resources = [
  { kind: "Client", name: "acme", args: { name: "Acme" } },
  { kind: "NotificationChannel", name: "ops", args: { name: "Ops", kind: "email", config: { address: "ops@example.com" }, clientId: { $ref: "acme" } } },
  { kind: "Monitor", name: "web", args: { name: "Web", url: "https://acme.example", paused: false, clientId: { $ref: "acme" }, notificationChannelIds: [{ $ref: "ops" }] } },
  { kind: "Heartbeat", name: "backup", args: { name: "Backup", expectedIntervalSeconds: 86_400, clientId: { $ref: "acme" } } },
  { kind: "MonitorSet", name: "fleet", args: { clientId: { $ref: "acme" }, monitors } },
];
const STEP_MS = 300_000;

interface ApiMonitor {
  id: string;
  name: string;
  paused: boolean;
  interval_seconds: number;
}
type Outputs = Record<string, { value: unknown }>;

describe("changes made by hand, single objects and a set's members (default profile)", () => {
  let deployment: Deployment;
  let ids: Record<string, string>;
  let setIds: Record<string, string>;
  let stray: string;
  let stackName: string;

  /** `pulumi-monitoring <args>` in the stack's project, as a user runs it. */
  const cli = (...args: string[]) => runCommandOn(deployment, ...args);
  const idsOf = (outputs: Outputs) => outputs["ids"]!.value as Record<string, string>;
  const setIdsOf = (outputs: Outputs) => (outputs["setIds"]!.value as Record<string, Record<string, string>>)["fleet"]!;
  const monitorsById = async () => new Map((await deployment.listAll<ApiMonitor>("/monitors")).map((monitor) => [monitor.id, monitor]));
  const channelsOf = async (monitorId: string) => (await deployment.api<{ id: string }[]>(`/monitors/${monitorId}/notification_channels`)).map((channel) => channel.id);

  beforeAll(async () => {
    // The declared program's project refreshes before every up and preview (options: refresh: always).
    // `putBack`: this stack's story is the deploy that puts back every declared field at once, the
    // pause state included. By default (4h) the deploys keep a pause made by hand for a while
    // (test/cli/drift-alt-profile.test.ts, test/provider/pauses.test.ts, test/e2e/reconcile.test.ts).
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: JSON.stringify(resources) }, "monitoring:handPauses": { value: "putBack" } } });
    stackName = deployment.harness.stack.name;
    const { outputs } = await deployment.harness.stack.up();
    ids = idsOf(outputs);
    setIds = setIdsOf(outputs);

    const { byHand } = deployment.emulator;
    await byHand("PATCH", `/monitors/${ids.web}`, { name: "Renamed by hand", interval_seconds: 900 });
    await byHand("DELETE", `/monitors/${ids.web}/notification_channels/${ids.ops}`);
    await byHand("POST", `/monitors/${ids.web}/pause`);
    await byHand("DELETE", `/heartbeats/${ids.backup}`);
    await byHand("PATCH", `/monitors/${setIds.api}`, { name: "Api renamed by hand" });
    await byHand("POST", `/monitors/${setIds.web}/pause`);
    await byHand("PATCH", `/monitors/${setIds.web}`, { interval_seconds: 900 });
    await byHand("DELETE", `/monitors/${setIds.docs}`);
    stray = (await byHand<{ id: string }>("POST", "/monitors", { name: "Stray", url: "https://stray.example", client_id: ids.acme })).id;
  }, STEP_MS);
  // Nothing a destroy would prove here (test/e2e/lifecycle.test.ts destroys every kind): the objects go with the emulator.
  afterAll(async () => deployment?.dispose({ keepObjects: true }), STEP_MS);

  it("pulumi-monitoring drift --json reports each change, a set's member as a single monitor, naming stack, kind, name, id and field, and exits 3", async () => {
    // The report itself; its table and its markdown are renderings of it (test/cli/drift.test.ts),
    // the markdown reached through `fleet drift` below.
    await deployment.emulator.admin.clearRequestLog();
    const { code, stdout, stderr } = await cli("drift", "--stack", stackName, "--json");
    // The check reads each of the 7 lists of the client's scope once, and finds the stack's
    // objects in them, the set's members and the single monitor in the one list of the client's
    // monitors; by id only the client alone (a GET costs what its list's page costs) and the
    // deleted heartbeat, whose absence from its list a GET confirms.
    const requests = await deployment.emulator.admin.requestLog();
    const readById = requests.filter(({ path, query }) => /^\/[^/]+\/[^/]+$/.test(path) && query === "").map(({ path }) => path.toLowerCase());
    expect(readById.sort()).toEqual([`/clients/${ids.acme!.toLowerCase()}`, `/heartbeats/${ids.backup!.toLowerCase()}`]);
    const lists = new Map<string, number>();
    for (const { path, query } of requests) {
      if (!/(^|&)limit=250(&|$)/.test(query) || path.startsWith("/monitors/")) continue;
      const list = `${path}?${query.replace(/(^|&)limit=250/, "")}`.toLowerCase();
      lists.set(list, (lists.get(list) ?? 0) + 1);
    }
    expect(Object.fromEntries(lists)).toEqual(Object.fromEntries([...lists.keys()].map((list) => [list, 1])));
    expect(lists.size).toBe(7);
    expect(code, stderr).toBe(3);
    expect(stdout).not.toContain(deployment.emulator.apiKey);
    const [stack] = (JSON.parse(stdout) as FleetReport).stacks;
    expect(stack).toMatchObject({ stack: stackName, result: "drifted" });
    expect(stack?.drift).toEqual([
      expect.objectContaining({ type: "Heartbeat", name: "backup", id: ids.backup, drift: "deleted", fields: [] }),
      expect.objectContaining({
        type: "Monitor",
        name: "web",
        id: ids.web,
        drift: "changed",
        paused: { managed: true, nextDeploy: "resumes", rule: "putBack" },
        fields: [
          { field: "intervalSeconds", recorded: 60, actual: 900, declared: false },
          { field: "name", recorded: "Web", actual: "Renamed by hand", declared: true },
          { field: "notificationChannelIds", recorded: [ids.ops], actual: [], declared: true },
        ],
      }),
      ...setMembersChangedByHand(setIds, { managed: true, nextDeploy: "resumes", rule: "putBack" }),
    ]);
    expect(stack?.unmanaged).toEqual([expect.objectContaining({ kind: "Monitor", name: "Stray", id: stray, clientId: ids.acme, adopt: expect.stringContaining(`adoptId: "${stray}"`) })]);
  }, STEP_MS);

  it("one plain up puts back what the program declares, makes the deleted objects again, and keeps the fields it leaves out", async () => {
    // The Automation API's up without its refresh option: it refreshes first only because the project says so.
    const { outputs, summary } = await deployment.harness.stack.up();
    expect(summary.resourceChanges).toMatchObject({ update: 2, create: 1 });
    const now = idsOf(outputs);
    const members = setIdsOf(outputs);
    expect([now.web, members.api, members.web]).toEqual([ids.web, setIds.api, setIds.web]);
    expect(now.backup).not.toBe(ids.backup);
    expect(members.docs).not.toBe(setIds.docs);
    const byId = await monitorsById();
    expect(byId.get(ids.web!)).toMatchObject({ name: "Web", paused: false, interval_seconds: 900 });
    expect(await channelsOf(ids.web!)).toEqual([ids.ops]);
    expect(await deployment.api(`/heartbeats/${now.backup}`)).toMatchObject({ name: "Backup" });
    expect(byId.get(setIds.api!)).toMatchObject({ name: "Api", paused: false });
    expect(byId.get(setIds.web!)).toMatchObject({ name: "Web", paused: false, interval_seconds: 900 });
    expect(byId.get(members.docs!)).toMatchObject({ name: "Docs", paused: false });
    expect(byId.size).toBe(5); // web, the set's three, the stray
    ids = now;
    setIds = members;
  }, STEP_MS);

  it("fleet drift after it, the hand-made monitor ignored, exits 0: the intervals the up kept are known, single and member alike", async () => {
    await appendFile(join(deployment.harness.workDir, "Pulumi.yaml"), `drift:\n  ignore:\n    ids: [${stray}]\n`);
    // The up's refresh recorded 900; it is the value set by hand that every deploy keeps until the program declares it.
    // As markdown: the report's rendering is test/cli/drift.test.ts; this proves that --markdown reaches it.
    const { code, stdout, stderr } = await cli("fleet", "drift", "--markdown");
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain(`| ${stackName} | 0 | 0 | 2 | 0 | 0 | 0 | 0 | in sync |`);
    // Dated by the stack's last operation, the up.
    const since = "kept by the deploy of \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC";
    expect(stdout).toMatch(new RegExp(`\\| ${stackName} \\| Monitor \\| web \\| \`intervalSeconds\` \\| \`60\` \\| \`900\` \\| ${since} \\|`));
    expect(stdout).toMatch(new RegExp(`\\| ${stackName} \\| MonitorSet \\| fleet\\[web\\] \\| \`intervalSeconds\` \\| \`60\` \\| \`900\` \\| ${since} \\|`));
    expect(stdout).not.toMatch(/### (Paused|Declared fields|Fields the program leaves out|Deleted|Unmanaged)/);
  }, STEP_MS);

  it("a second change by hand of the known intervals is drift again, and exits 3", async () => {
    await deployment.emulator.byHand("PATCH", `/monitors/${ids.web}`, { interval_seconds: 300 });
    await deployment.emulator.byHand("PATCH", `/monitors/${setIds.web}`, { interval_seconds: 300 });
    const { code, stdout, stderr } = await cli("drift", "--stack", stackName, "--json");
    expect(code, stderr).toBe(3);
    const [stack] = (JSON.parse(stdout) as FleetReport).stacks;
    const interval = [{ field: "intervalSeconds", recorded: 60, actual: 300, declared: false }];
    expect(stack?.drift).toEqual([
      expect.objectContaining({ type: "Monitor", name: "web", fields: interval }),
      expect.objectContaining({ type: "MonitorSet", name: "fleet[web]", fields: interval }),
    ]);
    expect(stack?.known).toEqual([]);
  }, STEP_MS);

  it("then previews no changes", async () => {
    await deployment.harness.stack.preview({ expectNoChanges: true });
  }, STEP_MS);

  it("pulumi refresh records what the service holds: changed fields, a detached channel, pauses, deleted objects", async () => {
    const { byHand } = deployment.emulator;
    await byHand("PATCH", `/monitors/${ids.web}`, { name: "Renamed by hand" });
    await byHand("DELETE", `/monitors/${ids.web}/notification_channels/${ids.ops}`);
    await byHand("POST", `/monitors/${ids.web}/pause`);
    await byHand("DELETE", `/heartbeats/${ids.backup}`);
    await byHand("PATCH", `/monitors/${setIds.api}`, { name: "Api renamed by hand" });
    await byHand("POST", `/monitors/${setIds.web}/pause`);
    await byHand("DELETE", `/monitors/${setIds.docs}`);

    const refresh = await deployment.harness.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 2, delete: 1 }); // web and the set; backup gone
    const state = (await deployment.harness.stack.exportStack()).deployment.resources as { type: string; outputs: Record<string, unknown> }[];
    const ofKind = (kind: string) => state.filter((resource) => resource.type.endsWith(`:${kind}`));
    expect(ofKind("Monitor")[0]!.outputs).toMatchObject({ intervalSeconds: 300, name: "Renamed by hand", paused: true, notificationChannelIds: [] });
    expect(ofKind("Heartbeat")).toEqual([]);
    const set = ofKind("MonitorSet")[0]!.outputs as { ids: Record<string, string>; monitors: Record<string, Record<string, unknown>> };
    expect(set.monitors.api).toMatchObject({ name: "Api renamed by hand" });
    expect(set.monitors.web).toMatchObject({ paused: true, intervalSeconds: 300 });
    expect(set.ids).not.toHaveProperty("docs");
  }, STEP_MS);
});
