/**
 * The drift report end to end: a client stack deployed, then five changes made by hand through
 * the API (a declared field, a field the program leaves out, a pause, a deletion, a monitor
 * created inside the client). `pulumi-monitoring drift` and `fleet drift` report each of them,
 * naming stack, kind, name and field, and exit 3; after a `fleet up` (which refreshes first) puts
 * back what the program declares, and with the hand-made monitor ignored in Pulumi.yaml,
 * `fleet drift` reports only the interval the up kept. The commands run as users run them.
 *
 * On the default profile: the commands, their wording and their exit status are the same whatever
 * the server. What a refresh finds on the alt profile, another server's choices, and the
 * classification it gets, go through the provider's and the report's own interfaces
 * (test/cli/drift-alt-profile.test.ts).
 */
import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/fleet/report.js";
import { deploy, type Deployment, runCli } from "./support.js";

const resources = [
  { kind: "Client", name: "acme", args: { name: "Acme" } },
  { kind: "Monitor", name: "web", args: { name: "Web", url: "https://acme.example", paused: false, clientId: { $ref: "acme" } } },
  { kind: "Heartbeat", name: "backup", args: { name: "Backup", expectedIntervalSeconds: 86_400, clientId: { $ref: "acme" } } },
];
const STEP_MS = 300_000;

describe("drift report (default profile)", () => {
  let deployment: Deployment;
  let ids: Record<string, string>;
  let stray: string;
  let stackName: string;

  /** `pulumi-monitoring <args>` in the stack's project, with what it printed and its exit status. */
  const cli = (...args: string[]) => runCli(deployment, ...args);
  async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${deployment.emulator.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${deployment.emulator.apiKey}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
    return response.status === 204 ? {} : ((await response.json()) as { data: Record<string, unknown> }).data;
  }

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: JSON.stringify(resources) } } });
    stackName = deployment.harness.stack.name;
    // Every deploy reconciles: the project refreshes before each up (Pulumi's own option).
    const projectFile = join(deployment.harness.workDir, "Pulumi.yaml");
    if (!/refresh:\s*always/.test(await readFile(projectFile, "utf8"))) await appendFile(projectFile, "options:\n  refresh: always\n");
    ids = (await deployment.harness.stack.up()).outputs.ids!.value as Record<string, string>;

    await call("PATCH", `/monitors/${ids.web}`, { name: "Renamed by hand", interval_seconds: 900 });
    await call("POST", `/monitors/${ids.web}/pause`);
    await call("DELETE", `/heartbeats/${ids.backup}`);
    stray = String((await call("POST", "/monitors", { name: "Stray", url: "https://stray.example", client_id: ids.acme }))["id"]);
  }, STEP_MS);
  afterAll(async () => {
    if (stray !== undefined) await call("DELETE", `/monitors/${stray}`);
    await deployment?.dispose();
  }, STEP_MS);

  it("pulumi-monitoring drift reports the five changes of the stack, in a table, and exits 3", async () => {
    const { code, stdout, stderr } = await cli("drift", "--stack", stackName);
    console.log(stdout);
    expect(code, stderr).toBe(3);
    expect(stdout).toMatch(new RegExp(`^${stackName} +1 +1 +1 +1 +1 .* drifted$`, "m"));
    expect(stdout).toContain(`  ${stackName}: Monitor web: name "Web" -> "Renamed by hand"`);
    expect(stdout).toContain(`  ${stackName}: Monitor web: intervalSeconds 60 -> 900`);
    expect(stdout).toContain(`  ${stackName}: Monitor web (id ${ids.web}): PAUSED; the next deploy resumes it`);
    expect(stdout).toContain(`  ${stackName}: Heartbeat backup (id ${ids.backup})`);
    expect(stdout).toContain(`  ${stackName}: Monitor "Stray" (id ${stray}, in client ${ids.acme})`);
    expect(stdout).toContain(`adoptId: "${stray}"`);
    expect(stdout).not.toContain(deployment.emulator.apiKey);
  }, STEP_MS);

  it("fleet drift reports the same, as JSON and as markdown, and exits 3", async () => {
    const { code, stdout, stderr } = await cli("fleet", "drift", "--json");
    expect(code, stderr).toBe(3);
    const [stack] = (JSON.parse(stdout) as FleetReport).stacks;
    expect(stack).toMatchObject({ stack: stackName, result: "drifted" });
    expect(stack?.drift).toEqual([
      expect.objectContaining({ type: "Heartbeat", name: "backup", drift: "deleted" }),
      expect.objectContaining({
        type: "Monitor",
        name: "web",
        drift: "changed",
        paused: { declared: true },
        fields: [
          { field: "intervalSeconds", recorded: 60, actual: 900, declared: false },
          { field: "name", recorded: "Web", actual: "Renamed by hand", declared: true },
        ],
      }),
    ]);
    expect(stack?.unmanaged).toEqual([expect.objectContaining({ kind: "Monitor", name: "Stray", id: stray, clientId: ids.acme })]);

    // The markdown renders the same report (its table and escaping: test/cli/drift.test.ts); this proves that --markdown reaches it.
    const markdown = await cli("fleet", "drift", "--markdown");
    console.log(markdown.stdout);
    expect(markdown.code).toBe(3);
    expect(markdown.stdout).toContain(`| ${stackName} | Monitor | web | \`intervalSeconds\` | \`60\` | \`900\` |`);
  }, STEP_MS);

  it("after a fleet up puts back what the program declares, and with the hand-made monitor ignored, fleet drift reports only the kept interval", async () => {
    const up = await cli("fleet", "up", "--yes");
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(await call("GET", `/monitors/${ids.web}`)).toMatchObject({ name: "Web", paused: false, interval_seconds: 900 });
    await appendFile(join(deployment.harness.workDir, "Pulumi.yaml"), `drift:\n  ignore:\n    ids: [${stray}]\n`);
    const { code, stdout, stderr } = await cli("fleet", "drift");
    expect(code, stdout + stderr).toBe(3);
    // The up's refresh recorded 900; it is still the value set by hand that every deploy keeps.
    expect(stdout).toMatch(new RegExp(`^${stackName} +0 +1 +0 +0 +0 .* drifted$`, "m"));
    expect(stdout).toContain(`  ${stackName}: Monitor web: intervalSeconds 60 -> 900`);
  }, STEP_MS);
});
