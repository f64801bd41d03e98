/**
 * `pulumi-monitoring fleet` on examples/agency, one runner on a file backend: the shared template
 * and a stack per client made by `fleet init` from a clients/ folder (then made again: unchanged),
 * deployed within one API budget, at once with a second, broken client that fails alone (the
 * programs running inside the fleet); checked for a change made by hand, which `fleet up
 * --no-refresh` leaves (finding nothing to change in the client, the shared stack skipped as
 * nothing affected it) and the next `fleet up --isolated` (its program in a process of its own,
 * as `pulumi up` runs it) puts back; then which stacks a deploy runs (cli/fleet/affected/).
 * One client beside the broken one is enough to run stacks at once; how many run at a time, how
 * stacks running at once share one budget, and several programs at once in one fleet process are
 * the scheduler's, the budget's and the in-process runner's own tests (test/cli/fleet.test.ts,
 * test/http/fleet-budget.test.ts, test/cli/fleet-rate.test.ts, test/cli/fleet-in-process.test.ts). A second runner, locks and
 * `fleet destroy` are test/examples/teams.test.ts's, on the same example; the objects here go
 * with this file's own emulator, and its state with its folder.
 * Every fleet command runs in this process through the fleet command's own entry, as built (a
 * process each would cost a Node.js start and a `pulumi version` more); the fleet as a child
 * process, as users run it, is test/examples/teams.test.ts's and lost-runner.test.ts's.
 */
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { randomBytes } from "node:crypto";
import { appendFile, cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/report/fleet.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { fleetTestEnv, repoRoot, testPassphrase, testCli } from "../support/pulumi.js";
import { type CommandResult, runFleetHere, ServiceView } from "./support.js";

/** Deployed at once with the broken client (--parallel 2). */
const CLIENTS = ["client01"];
const SHARED = "agency-shared/shared";
const BUDGET = 20;
/** Long steps: several Pulumi programs at once on two cores. */
const FLEET_STEP_MS = 400_000;

describe("fleet over examples/agency", () => {
  let emulator: TestEmulator;
  let service: ServiceView;
  let workDir: string;
  let env: NodeJS.ProcessEnv;
  let workspace: LocalWorkspace;

  /** Runs `fleet <args> --cwd <project>` and collects what it printed and its exit status. */
  const fleet = (...args: string[]): Promise<CommandResult> => runFleetHere([...args, "--cwd", workDir], env);
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
    // A second shared output the clients read (agency:templateName), which the example's clients do
    // not need: a change of the template's name changes the shared outputs, its description does not.
    await writeFile(join(workDir, "Pulumi.yaml"), (await readFile(join(workDir, "Pulumi.yaml"), "utf8")).replace("templateId: agency:templateId\n", "templateId: agency:templateId\n      templateName: agency:templateName\n"));
    await appendFile(join(workDir, "shared", "index.ts"), "export const templateName = standard.name;\n");
    for (const client of CLIENTS) await writeFile(join(workDir, "clients", `${client}.yaml`), clientSpec(client));
    env = fleetTestEnv(workDir, emulator);
    workspace = await LocalWorkspace.create({ workDir, envVars: { PULUMI_BACKEND_URL: env.PULUMI_BACKEND_URL!, PULUMI_CONFIG_PASSPHRASE: testPassphrase }, pulumiCommand: testCli() });
  });
  afterAll(async () => {
    await emulator?.stop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("init creates the shared stack and one stack per client spec file; run again, it leaves them and adds a new client's", async () => {
    const { code, stdout } = await fleet("init");
    expect(code).toBe(0);
    expect(stdout).toContain("shared stack shared");
    for (const client of CLIENTS) expect(stdout).toMatch(new RegExp(`^${client}\\s+created$`, "m"));
    expect(await readFile(join(workDir, "Pulumi.client01.yaml"), "utf8")).toContain("domain: client01.example.com");

    // A third client, whose configuration breaks a rule of the spec.
    await writeFile(join(workDir, "clients", "broken.yaml"), clientSpec("broken").replace("ops@broken.example.com", "not-an-email"));
    const again = (await fleet("init")).stdout;
    expect(again).toMatch(/^client01\s+unchanged$/m);
    expect(again).toMatch(/^broken\s+created$/m);
  }, FLEET_STEP_MS);

  it("lists the client stacks as a CI matrix", async () => {
    const { code, stdout } = await fleet("list", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ include: ["broken", ...CLIENTS].map((stack) => ({ stack })) });
  });

  it("up deploys the shared template, then the clients at once, never above the budget; the broken client fails alone, with its message", async () => {
    await workspace.selectStack("client01");
    await emulator.admin.clearRequestLog();
    const { code, report, stderr } = await fleetReport("up", "--parallel", "2", "--yes");
    expect(code, stderr).toBe(1);
    expect(report.stacks.map((stack) => [stack.stack, stack.result])).toEqual([
      [SHARED, "succeeded"],
      ["broken", "failed"],
      ...CLIENTS.map((client) => [client, "succeeded"]),
    ]);
    expect(report.stacks.find((stack) => stack.stack === "broken")?.error).toMatch(/ClientMonitoring broken: the spec is invalid: contacts\.emails\.0: must be an email address$/m);
    // Each command names its stack: the one the user had selected stays selected.
    expect((await workspace.stack())?.name).toBe("client01");
    // Read before this test's own requests join it.
    const requests = await emulator.admin.requestLog();

    const [template] = await service.list("/client-templates");
    for (const client of CLIENTS) {
      const [monitor] = await monitorsOf(client);
      expect(monitor).toMatchObject({ url: `https://${client}.example.com/` });
      expect(await service.find(`/clients/${monitor?.["client_id"]}`)).toMatchObject({ template_id: template?.id });
    }
    expect(await monitorsOf("broken")).toEqual([]);
    // The shared template's id was passed on; the per-run rate limit was not written to any stack.
    const settings = await readFile(join(workDir, "Pulumi.client01.yaml"), "utf8");
    expect(settings).toContain(`agency:templateId: ${template?.id}`);
    expect(settings).not.toContain("maxRequestsPerSecond");

    // The fleet's stacks took their turns from the one budget, and the service refused none.
    expect(report.rateLimit).toMatchObject({ budget: BUDGET, limited: 0 });
    expect(report.rateLimit?.granted).toBeGreaterThan(0);
    const perSecond = new Map<string, number>();
    for (const entry of requests) perSecond.set(entry.time.slice(0, 19), (perSecond.get(entry.time.slice(0, 19)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(BUDGET);
    expect([...perSecond.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(CLIENTS.length * 4);
    // The programs ran inside the fleet (each its own stack's: test/cli/fleet-in-process.test.ts).
    expect(report.programs).toBe("in the fleet process");

    // The broken client leaves the fleet (its settings file goes with its stack). Its state holds
    // only the stack and the component, which the service never saw: the spec is checked first.
    await workspace.removeStack("broken", { force: true });
    await rm(join(workDir, "clients", "broken.yaml"));
  }, FLEET_STEP_MS);

  it("drift reports exactly the stack, the object and the field changed by hand", async () => {
    const [monitor] = await monitorsOf("client01");
    const response = await fetch(`${emulator.baseUrl}/monitors/${monitor?.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Renamed by hand" }),
    });
    expect(response.status).toBe(200);

    const { code, report } = await fleetReport("drift");
    expect(code).toBe(3);
    expect(results(report)).toEqual({ [SHARED]: "in sync", client01: "drifted" });
    expect(report.stacks.find((stack) => stack.stack === "client01")?.drift).toEqual([
      expect.objectContaining({ type: "Monitor", name: "client01-root", drift: "changed", fields: [{ field: "name", recorded: "client01.example.com/", actual: "Renamed by hand", declared: true }] }),
    ]);
  }, FLEET_STEP_MS);

  it("up --no-refresh leaves the hand change and finds nothing else to change; up puts it back, as it reads the service first, with --isolated in a process of its own", async () => {
    const [monitor] = await monitorsOf("client01");
    // The shared stack, unchanged since its deploy and in sync with the service, is skipped.
    const kept = await fleetReport("up", "--no-refresh", "--yes", "--stack", "client01");
    expect(kept.code, kept.stderr).toBe(0);
    const unchanged = { result: "succeeded", counts: { create: 0, update: 0, delete: 0, replace: 0 } };
    expect(kept.report.stacks).toEqual([
      expect.objectContaining({ stack: SHARED, result: "skipped", note: expect.stringMatching(/^unchanged since its deploy at /) }),
      expect.objectContaining({ stack: "client01", ...unchanged }),
    ]);
    // Its program and settings are as deployed: the fleet's one read of the service found the hand change, which made it run.
    expect(kept.report.selection).toBe("affected");
    expect(kept.report.stacks[1]?.affected).toBe("its objects differ on the service: Monitor client01-root changed");
    expect((await monitorsOf("client01"))[0]).toMatchObject({ id: monitor?.id, name: "Renamed by hand" });

    const { code, report, stderr } = await fleetReport("up", "--isolated", "--yes", "--no-shared", "--stack", "client01");
    expect(code, stderr).toBe(0);
    expect(report.programs).toBe("in a process per stack: --isolated");
    expect(report.stacks).toEqual([expect.objectContaining({ stack: "client01", result: "succeeded", counts: expect.objectContaining({ update: 1 }) })]);
    expect((await monitorsOf("client01"))[0]).toMatchObject({ id: monitor?.id, name: "client01.example.com/" });
    // The state records the name put back, as a drift run would find it.
    const state = JSON.parse(await readFile(join(workDir, ".state", ".pulumi", "stacks", "agency", "client01.json"), "utf8")) as {
      checkpoint: { latest: { resources: Array<{ type: string; outputs?: Record<string, unknown> }> } };
    };
    const recorded = state.checkpoint.latest.resources.filter((resource) => resource.outputs?.["name"] !== undefined && resource.outputs["url"] !== undefined);
    expect(recorded.map((resource) => resource.outputs?.["name"])).toEqual(["client01.example.com/"]);
  }, FLEET_STEP_MS);

  describe("a deploy runs the stacks the change affects", () => {
    /** The updates the file backend recorded for client01, one history file each. */
    const updatesOf = async (stack: string) => (await readdir(join(workDir, ".state", ".pulumi", "history", "agency", stack)).catch(() => [] as string[])).filter((file) => file.endsWith(".history.json")).length;
    const client01 = (report: FleetReport) => report.stacks.find((stack) => stack.stack === "client01");

    it("skips a stack nothing affected since its last deploy, running no engine for it and writing nothing, and says why; preview chooses alike", async () => {
      const updates = await updatesOf("client01");
      await emulator.admin.clearRequestLog();
      const up = await fleetReport("up", "--yes", "--no-shared");
      expect(up.code, up.stderr).toBe(0);
      expect(up.report.selection).toBe("affected");
      expect(client01(up.report)).toMatchObject({ result: "skipped", note: expect.stringMatching(/^unchanged since its deploy at \d{4}-\d\d-\d\dT[\d:.]+Z, in sync with the service, nothing due$/) });
      expect(up.stderr).toMatch(/^client01\s+skipped: unchanged since its deploy at/m);
      expect(await updatesOf("client01")).toBe(updates);
      // The one read of the service: lists and reads, not one write.
      const requests = await emulator.admin.requestLog();
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((entry) => entry.method !== "GET")).toEqual([]);

      const preview = await fleetReport("preview", "--no-shared");
      expect(preview.code, preview.stderr).toBe(0);
      expect(client01(preview.report)).toMatchObject({ result: "skipped" });
      const table = await fleet("preview", "--no-shared");
      expect(table.stdout).toMatch(/^client01 .* skipped$/m);
      expect(table.stdout).toMatch(/^Skipped, nothing affected them since their last deploy \(--all runs them too\): 1\n {2}client01: unchanged since its deploy at /m);
    }, FLEET_STEP_MS);

    it("--all runs every stack", async () => {
      const { code, report, stderr } = await fleetReport("preview", "--all", "--no-shared");
      expect(code, stderr).toBe(0);
      expect(report.selection).toBe("all");
      expect(client01(report)).toMatchObject({ result: "no changes", affected: "--all" });
    }, FLEET_STEP_MS);

    it("runs a stack whose settings file changed", async () => {
      await writeFile(join(workDir, "clients", "client01.yaml"), clientSpec("client01").replace("path: /", "path: /status"));
      expect((await fleet("init")).stdout).toMatch(/^client01\s+updated$/m);
      const { code, report, stderr } = await fleetReport("preview", "--no-shared");
      expect(code, stderr).toBe(0);
      expect(client01(report)).toMatchObject({ result: "changes", affected: "its settings file changed" });
      // Back as deployed: skipped again.
      await writeFile(join(workDir, "clients", "client01.yaml"), clientSpec("client01"));
      await fleet("init");
      expect(client01((await fleetReport("preview", "--no-shared")).report)?.result).toBe("skipped");
    }, FLEET_STEP_MS);

    it("runs every stack when the program changed", async () => {
      const program = await readFile(join(workDir, "index.ts"), "utf8");
      await appendFile(join(workDir, "index.ts"), "// a comment is a change of the program's files\n");
      try {
        const { code, report, stderr } = await fleetReport("preview", "--no-shared");
        expect(code, stderr).toBe(0);
        expect(client01(report)).toMatchObject({ result: "no changes", affected: "its program, package.json, lockfile or pulumi-monitoring version changed" });
      } finally {
        await writeFile(join(workDir, "index.ts"), program);
      }
    }, FLEET_STEP_MS);

    it("runs the shared stack when its program changed, and a client when the shared outputs it reads changed, not when they stayed as they were", async () => {
      // Before the failed run below, which leaves client01 without a record of its deploy (a reason of its own to run).
      const program = join(workDir, "shared", "index.ts");
      const sharedRan = expect.objectContaining({
        stack: SHARED,
        result: "succeeded",
        affected: "its program, package.json, lockfile or pulumi-monitoring version changed",
        counts: { create: 0, update: 1, delete: 0, replace: 0 },
      });
      // The template's description: the shared stack's outputs stay as they were.
      await writeFile(program, (await readFile(program, "utf8")).replace('description: "What every client gets unless their contract says otherwise."', 'description: "What every client gets."'));
      const kept = await fleetReport("up", "--yes");
      expect(kept.code, kept.stderr).toBe(0);
      expect(kept.report.stacks).toEqual([sharedRan, expect.objectContaining({ stack: "client01", result: "skipped", note: expect.stringMatching(/^unchanged since its deploy at /) })]);

      // Its name, which client01 reads (agency:templateName): client01 runs, with nothing of its own to change.
      await writeFile(program, (await readFile(program, "utf8")).replace('name: "Standard care"', 'name: "Standard plan"'));
      const { code, report, stderr } = await fleetReport("up", "--yes");
      expect(code, stderr).toBe(0);
      expect(report.stacks).toEqual([
        sharedRan,
        expect.objectContaining({ stack: "client01", result: "succeeded", affected: "the shared stack's outputs it reads changed", counts: { create: 0, update: 0, delete: 0, replace: 0 } }),
      ]);
      expect((await service.list("/client-templates"))[0]).toMatchObject({ name: "Standard plan", description: "What every client gets." });
      expect(await readFile(join(workDir, "Pulumi.client01.yaml"), "utf8")).toContain("agency:templateName: Standard plan");
    }, FLEET_STEP_MS);

    it("runs a stack whose last run failed, though nothing else changed", async () => {
      // A key the service does not know: refused at once (401), where an address nothing listens
      // on is retried for seconds, by the fleet's read and by the run alike.
      const failed = await runFleetHere(["up", "--yes", "--no-shared", "--json", "--cwd", workDir], { ...env, MONITORING_API_KEY: "mk_unknown_0000000000000000" });
      expect(failed.code, failed.stderr).toBe(1);
      // The fleet's read of the service failed first, which made it run: it failed on the same key.
      expect(client01(JSON.parse(failed.stdout) as FleetReport)).toMatchObject({ result: "failed", affected: expect.stringMatching(/^its check against the service failed: /) });
      const { code, report, stderr } = await fleetReport("preview", "--no-shared");
      expect(code, stderr).toBe(0);
      expect(client01(report)).toMatchObject({ result: "no changes", affected: "no successful deploy recorded (never deployed by the fleet, or its last run failed or was interrupted)" });
    }, FLEET_STEP_MS);
  });
});
