/**
 * The drift of a MonitorSet, member by member, on the real engine and both emulator profiles: a
 * set of three monitors in a client (project with `refresh: always`), then four changes by hand
 * through the API: `api` renamed (declared: put back), `web` paused (the program declares
 * `paused: false`: resumed), `web`'s interval changed (left out by the program: kept), `docs`
 * deleted (made again). `pulumi-monitoring drift` and `fleet drift` report each as its own entry,
 * `MonitorSet fleet[<key>]` with its id, in the words used for single monitors, and no whole-map
 * field; one plain `pulumi up` then does what the report said, and drift after it reports only
 * the kept interval (the up's refresh recorded 900, and drift still tells it changed by hand).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMarkdown } from "../../cli/drift/report.js";
import { type FleetReport, renderTable } from "../../cli/fleet/report.js";
import { deploy, type Deployment, profiles, runCli } from "./support.js";

const monitors = {
  api: { name: "Api", url: "https://acme.example/api", paused: false },
  web: { name: "Web", url: "https://acme.example", paused: false },
  docs: { name: "Docs", url: "https://acme.example/docs" },
};
const resources = [
  { kind: "Client", name: "acme", args: { name: "Acme" } },
  { kind: "MonitorSet", name: "fleet", args: { clientId: { $ref: "acme" }, monitors } },
];
const STEP_MS = 300_000;

describe.each(profiles)("a MonitorSet's drift, member by member ($profile profile)", ({ profile }) => {
  let deployment: Deployment;
  let ids: Record<string, string>;
  let stackName: string;

  /** `pulumi-monitoring <args>` in the stack's project, as a user runs it. */
  const cli = (...args: string[]) => runCli(deployment, ...args);
  const setIds = (outputs: Record<string, { value: unknown }>) => (outputs["setIds"]!.value as Record<string, Record<string, string>>)["fleet"]!;

  beforeAll(async () => {
    // The declared program's project refreshes before every up (options: refresh: always).
    deployment = await deploy({ program: "test/programs/declared", profile, config: { resources: { value: JSON.stringify(resources) } } });
    stackName = deployment.harness.stack.name;
    ids = setIds((await deployment.harness.stack.up()).outputs);
    const { byHand } = deployment.emulator;
    await byHand("PATCH", `/monitors/${ids.api}`, { name: "Api renamed by hand" });
    await byHand("POST", `/monitors/${ids.web}/pause`);
    await byHand("PATCH", `/monitors/${ids.web}`, { interval_seconds: 900 });
    await byHand("DELETE", `/monitors/${ids.docs}`);
  }, STEP_MS);
  afterAll(async () => deployment?.dispose(), STEP_MS);

  it("pulumi-monitoring drift and fleet drift report each member as a single monitor, and exit 3", async () => {
    const drift = await cli("drift", "--stack", stackName);
    console.log(drift.stdout);
    expect(drift.code, drift.stderr).toBe(3);
    expect(drift.stdout).toMatch(new RegExp(`^${stackName} +1 +1 +1 +1 +0 .* drifted$`, "m"));
    expect(drift.stdout).toContain(`  ${stackName}: MonitorSet fleet[web] (id ${ids.web}): PAUSED; the next deploy resumes it`);
    expect(drift.stdout).toContain(`Declared fields changed by hand. The next deploy puts them back.\n  ${stackName}: MonitorSet fleet[api]: name "Api" -> "Api renamed by hand"\n`);
    expect(drift.stdout).toContain(`The next deploy keeps them: declare a field to manage it.\n  ${stackName}: MonitorSet fleet[web]: intervalSeconds 60 -> 900\n`);
    expect(drift.stdout).toContain(`Deleted by hand. The next deploy creates them again.\n  ${stackName}: MonitorSet fleet[docs] (id ${ids.docs})\n`);
    expect(drift.stdout).not.toMatch(/\b(ids|statuses|monitors)\b/);

    // `drift` is `fleet drift` narrowed to one stack, and the report's code is shared (test/cli/drift.test.ts):
    // one fleet run, on one profile, keeps the file's time low.
    if (profile === "default") await expectFleetDrift();
  }, STEP_MS);

  it("one plain up does what they said, and drift after it reports only the kept interval", async () => {
    // One plain `pulumi up` (refreshing first): the rename put back, web resumed with its interval kept, docs made again.
    const after = setIds((await deployment.harness.stack.up()).outputs);
    expect([after.api, after.web]).toEqual([ids.api, ids.web]);
    expect(after.docs).not.toBe(ids.docs);
    const byId = new Map((await deployment.listAll<{ id: string; name: string; paused: boolean; interval_seconds: number }>("/monitors")).map((monitor) => [monitor.id, monitor]));
    expect(byId.get(after.api!)).toMatchObject({ name: "Api", paused: false });
    expect(byId.get(after.web!)).toMatchObject({ name: "Web", paused: false, interval_seconds: 900 });
    expect(byId.get(after.docs!)).toMatchObject({ name: "Docs", paused: false });
    expect(byId.size).toBe(3);

    // The up's refresh recorded the kept interval; drift still reports it, and only it: changed by
    // hand since the provider wrote 60, kept by every deploy until the program declares it.
    // `drift` on one profile, `fleet drift` on the other: one code path (`drift` is `fleet drift`
    // narrowed to the stack), one engine run each.
    const again = profile === "default" ? await cli("fleet", "drift", "--json") : await cli("drift", "--stack", stackName, "--json");
    expect(again.code, again.stdout + again.stderr).toBe(3);
    const report = JSON.parse(again.stdout) as FleetReport;
    expect(report.stacks[0]?.drift).toEqual([
      expect.objectContaining({ type: "MonitorSet", name: "fleet[web]", id: ids.web, drift: "changed", fields: [{ field: "intervalSeconds", recorded: 60, actual: 900, declared: false }] }),
    ]);
    expect(report.stacks[0]?.drift?.[0]).not.toHaveProperty("paused");
    // The table and the markdown of that very report say the same.
    const table = renderTable(report);
    console.log(table);
    expect(table).toMatch(new RegExp(`^${stackName} +0 +1 +0 +0 +0 .* drifted$`, "m"));
    expect(table).toContain(`The next deploy keeps them: declare a field to manage it.\n  ${stackName}: MonitorSet fleet[web]: intervalSeconds 60 -> 900\n`);
    expect(table).not.toMatch(/PAUSED|Declared fields changed|Deleted by hand/);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain(`| ${stackName} | MonitorSet | fleet[web] | \`intervalSeconds\` | \`60\` | \`900\` |`);
    expect(markdown).not.toMatch(/fleet\[(api|docs)\]/);
  }, STEP_MS);

  /** `fleet drift --json` on the project: the set in the client stack, member by member. */
  async function expectFleetDrift(): Promise<void> {
    const fleet = await cli("fleet", "drift", "--json");
    expect(fleet.code, fleet.stderr).toBe(3);
    const [stack] = (JSON.parse(fleet.stdout) as FleetReport).stacks;
    expect(stack?.drift).toEqual([
      expect.objectContaining({ type: "MonitorSet", name: "fleet[api]", id: ids.api, drift: "changed", fields: [{ field: "name", recorded: "Api", actual: "Api renamed by hand", declared: true }] }),
      expect.objectContaining({ type: "MonitorSet", name: "fleet[docs]", id: ids.docs, drift: "deleted", fields: [] }),
      expect.objectContaining({
        type: "MonitorSet",
        name: "fleet[web]",
        id: ids.web,
        drift: "changed",
        paused: { declared: true },
        fields: [{ field: "intervalSeconds", recorded: 60, actual: 900, declared: false }],
      }),
    ]);
    expect(stack?.unmanaged).toEqual([]);
  }
});
