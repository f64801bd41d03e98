/**
 * `pulumi-monitoring fleet` on examples/agency: the shared template and two client stacks made by
 * `fleet init` from a clients/ folder, deployed at once within one API budget, previewed with no
 * changes (the programs running inside the fleet, and with --isolated in a process of their own)
 * beside a third, broken client that fails alone, checked for a change made by hand, which the
 * next `fleet up` puts back (not with --no-refresh), and destroyed.
 * Two clients are enough to run stacks at once; how many run at a time, and how stacks running at
 * once share one budget, are the scheduler's and the budget's own tests (test/cli/fleet.test.ts,
 * test/http/fleet-budget.test.ts, test/cli/fleet-rate.test.ts).
 * The fleet runs as a child process (`node dist/cli/main.js fleet ...`), as users run it.
 */
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { randomBytes } from "node:crypto";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/fleet/report.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { fleetTestEnv, repoRoot, testPassphrase } from "../support/pulumi.js";
import { type CommandResult, runFleetCli, ServiceView } from "./support.js";

/** Deployed at once (--parallel 2). */
const CLIENTS = ["client01", "client02"];
const BUDGET = 20;
/** Long steps: several Pulumi programs at once on two cores. */
const FLEET_STEP_MS = 400_000;

describe("fleet over examples/agency", () => {
  let emulator: TestEmulator;
  let service: ServiceView;
  let workDir: string;
  let env: NodeJS.ProcessEnv;

  /** Runs `fleet <args> --cwd <project>` and collects what it printed and its exit status. */
  const fleet = (...args: string[]): Promise<CommandResult> => runFleetCli([...args, "--cwd", workDir], env);
  async function fleetReport(...args: string[]): Promise<{ code: number; report: FleetReport; stderr: string }> {
    const { code, stdout, stderr } = await fleet(...args, "--json");
    return { code, report: JSON.parse(stdout) as FleetReport, stderr };
  }
  const results = (report: FleetReport): Record<string, string> => Object.fromEntries(report.stacks.map((stack) => [stack.stack, stack.result]));
  const clientSpec = (client: string): string =>
    [`name: Client ${client}`, `domain: ${client}.example.com`, "endpoints:", "  - path: /", "contacts:", `  emails: [ops@${client}.example.com]`, ""].join("\n");
  const monitorsOf = (client: string) => service.list("/monitors", { all_clients: "true", q: `${client}.example.com` });

  beforeAll(async () => {
    emulator = await startTestEmulator();
    service = new ServiceView(emulator);
    workDir = join(repoRoot, ".work", `agency-fleet-${randomBytes(4).toString("hex")}`);
    await mkdir(join(workDir, "shared"), { recursive: true });
    await mkdir(join(workDir, "clients"));
    await mkdir(join(workDir, ".state"));
    for (const file of ["index.ts", "shared/Pulumi.yaml", "shared/index.ts"]) await cp(join(repoRoot, "examples/agency", file), join(workDir, file));
    // The agency's budget as project configuration, which the fleet's stacks share.
    const project = await readFile(join(repoRoot, "examples/agency/Pulumi.yaml"), "utf8");
    await writeFile(join(workDir, "Pulumi.yaml"), `${project}config:\n  monitoring:maxRequestsPerSecond: ${BUDGET}\n`);
    for (const client of CLIENTS) await writeFile(join(workDir, "clients", `${client}.yaml`), clientSpec(client));
    env = fleetTestEnv(workDir, emulator);
  });
  afterAll(async () => {
    try {
      // Whatever a failed step left behind.
      if (workDir !== undefined && (await service.list("/monitors", { all_clients: "true" })).length > 0) await fleet("destroy", "--yes");
    } finally {
      await emulator?.stop();
      if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
    }
  }, FLEET_STEP_MS);

  it("init creates the shared stack and one stack per client spec file", async () => {
    const { code, stdout } = await fleet("init");
    expect(code).toBe(0);
    expect(stdout).toContain("shared stack shared");
    for (const client of CLIENTS) expect(stdout).toMatch(new RegExp(`^${client}\\s+created$`, "m"));
    expect(await readFile(join(workDir, "Pulumi.client02.yaml"), "utf8")).toContain("domain: client02.example.com");
    expect((await fleet("init")).stdout).toMatch(/^client02\s+unchanged$/m);
  }, FLEET_STEP_MS);

  it("lists the client stacks as a CI matrix", async () => {
    const { code, stdout } = await fleet("list", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ include: CLIENTS.map((stack) => ({ stack })) });
  });

  it("up deploys the shared template, then the clients at once, never above the budget", async () => {
    const workspace = await LocalWorkspace.create({ workDir, envVars: { PULUMI_BACKEND_URL: env.PULUMI_BACKEND_URL!, PULUMI_CONFIG_PASSPHRASE: testPassphrase } });
    await workspace.selectStack("client02");
    await emulator.admin.clearRequestLog();
    const { code, stdout } = await fleet("up", "--parallel", "2", "--yes");
    // The end-of-run table, for the test log.
    console.log(stdout);
    expect(code, stdout).toBe(0);
    // Each command names its stack: the one the user had selected stays selected.
    expect((await workspace.stack())?.name).toBe("client02");
    const rows = stdout.split("\n").filter((line) => / succeeded$/.test(line));
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(["agency-shared/shared", ...CLIENTS]);
    // Read before this test's own requests join it.
    const requests = await emulator.admin.requestLog();

    const [template] = await service.list("/client-templates");
    for (const client of CLIENTS) {
      const [monitor] = await monitorsOf(client);
      expect(monitor).toMatchObject({ url: `https://${client}.example.com/` });
      expect(await service.find(`/clients/${monitor?.["client_id"]}`)).toMatchObject({ template_id: template?.id });
    }
    // The shared template's id was passed on; the per-run rate limit was not written to any stack.
    const settings = await readFile(join(workDir, "Pulumi.client02.yaml"), "utf8");
    expect(settings).toContain(`agency:templateId: ${template?.id}`);
    expect(settings).not.toContain("maxRequestsPerSecond");

    const perSecond = new Map<string, number>();
    for (const entry of requests) perSecond.set(entry.time.slice(0, 19), (perSecond.get(entry.time.slice(0, 19)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(BUDGET);
    expect([...perSecond.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(CLIENTS.length * 4);
  }, FLEET_STEP_MS);

  it("a second preview finds no changes in any stack; a client with a broken configuration fails alone, with its message", async () => {
    await writeFile(join(workDir, "clients", "broken.yaml"), clientSpec("broken").replace("ops@broken.example.com", "not-an-email"));
    expect((await fleet("init")).stdout).toMatch(/^broken\s+created$/m);
    try {
      const { code, report } = await fleetReport("preview", "--parallel", "2");
      expect(code).toBe(1);
      expect(results(report)).toEqual({ "agency-shared/shared": "no changes", broken: "failed", ...Object.fromEntries(CLIENTS.map((client) => [client, "no changes"])) });
      expect(report.stacks.find((stack) => stack.stack === "broken")?.error).toMatch(/ClientMonitoring broken: the spec is invalid: contacts\.emails\.0: must be an email address$/m);
      // The stacks running at once took their turns from the one budget, and the service refused none.
      expect(report.rateLimit).toMatchObject({ budget: BUDGET, limited: 0 });
      expect(report.rateLimit?.granted).toBeGreaterThan(0);
      // The programs ran inside the fleet, once per stack, and each declared its own client.
      expect(report.programs).toBe("in the fleet process");
    } finally {
      const workspace = await LocalWorkspace.create({ workDir, envVars: { PULUMI_BACKEND_URL: env.PULUMI_BACKEND_URL!, PULUMI_CONFIG_PASSPHRASE: testPassphrase } });
      await workspace.removeStack("broken");
      await rm(join(workDir, "clients", "broken.yaml"));
    }
  }, FLEET_STEP_MS);

  it("with --isolated, each program runs in a process of its own, as `pulumi preview` does, and finds the same", async () => {
    const { code, report } = await fleetReport("preview", "--isolated", "--no-shared", "--stack", "client01");
    expect(code).toBe(0);
    expect(report.programs).toBe("in a process per stack: --isolated");
    expect(results(report)).toEqual({ client01: "no changes" });
  }, FLEET_STEP_MS);

  it("drift reports exactly the stack, the object and the field changed by hand", async () => {
    const [monitor] = await monitorsOf("client02");
    const response = await fetch(`${emulator.baseUrl}/monitors/${monitor?.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Renamed by hand" }),
    });
    expect(response.status).toBe(200);

    const { code, report } = await fleetReport("drift");
    expect(code).toBe(3);
    const drifted = report.stacks.filter((stack) => stack.result === "drifted");
    expect(drifted.map((stack) => stack.stack)).toEqual(["client02"]);
    expect(drifted[0]?.drift).toEqual([
      expect.objectContaining({ type: "Monitor", name: "client02-root", drift: "changed", fields: [{ field: "name", recorded: "client02.example.com/", actual: "Renamed by hand", declared: true }] }),
    ]);
    expect(report.stacks.filter((stack) => stack.result !== "drifted").every((stack) => stack.result === "in sync")).toBe(true);
  }, FLEET_STEP_MS);

  it("up puts the hand change back, as it reads the service first; --no-refresh leaves it; drift then finds the fleet in sync", async () => {
    const [monitor] = await monitorsOf("client02");
    const one = ["--yes", "--no-shared", "--stack", "client02"];
    expect((await fleet("up", "--no-refresh", ...one)).code).toBe(0);
    expect((await monitorsOf("client02"))[0]).toMatchObject({ id: monitor?.id, name: "Renamed by hand" });

    const { code, stdout } = await fleet("up", ...one);
    expect(code, stdout).toBe(0);
    expect((await monitorsOf("client02"))[0]).toMatchObject({ id: monitor?.id, name: "client02.example.com/" });
    expect((await fleet("drift", "--no-shared", "--stack", "client02")).code).toBe(0);
  }, FLEET_STEP_MS);

  it("destroy --yes removes every client's objects, then the shared template", async () => {
    const { code, report } = await fleetReport("destroy", "--yes");
    expect(code).toBe(0);
    expect(report.stacks.map((stack) => stack.stack)).toEqual([...CLIENTS, "agency-shared/shared"]);
    expect(new Set(Object.values(results(report)))).toEqual(new Set(["succeeded"]));
    for (const collection of ["/monitors", "/heartbeats", "/notification_channels", "/escalation-policies"]) {
      expect(await service.list(collection, { all_clients: "true" })).toEqual([]);
    }
    expect(await service.list("/client-templates")).toEqual([]);
    expect((await service.list("/clients")).every((client) => client["archived"] === true)).toBe(true);
  }, FLEET_STEP_MS);
});
