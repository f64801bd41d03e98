/**
 * `fleet scopes` and `--check-scopes` on examples/agency (the shared template and two clients made
 * by `fleet init`), one key for the fleet in MONITORING_API_KEY and one client with a key of its
 * own in its stack's configuration: the union per command over the three stacks, each distinct key
 * checked once against the scopes of the stacks that use it (GETs only), a missing scope named
 * with its stack, and a run stopped before anything runs.
 */
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { randomBytes } from "node:crypto";
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../cli/command/exit.js";
import { SCOPES_EXIT } from "../../cli/scopes/command.js";
import { COMMANDS, type ScopesReport } from "../../cli/scopes/needs.js";
import { ALL_SCOPES } from "../../emulator/api/auth.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { fleetTestEnv, repoRoot, testPassphrase, testCli } from "../support/pulumi.js";
import { type CommandResult, runFleetHere } from "./support.js";

const SHARED = "agency-shared/shared";
const CLIENTS = ["alpha", "beta"];
const STEP_MS = 300_000;
/** beta's own key holds every scope but this one, which beta needs to create its monitors. */
const LACKING = "monitor.write";

interface FleetScopes extends ScopesReport {
  stacks: Record<string, string[]>;
  keys?: Array<{ from: string[]; stacks: string[]; neededBy: Record<string, string[]>; check: Array<{ scope: string; verdict: string }> }>;
}

describe("fleet scopes over examples/agency, one key for the fleet and one client with its own", () => {
  let emulator: TestEmulator;
  let workDir: string;
  let env: NodeJS.ProcessEnv;
  let workspace: LocalWorkspace;

  const fleet = (...args: string[]): Promise<CommandResult> => runFleetHere([...args, "--cwd", workDir], env);
  const sentMethods = async (): Promise<string[]> => {
    const log = await emulator.admin.requestLog();
    await emulator.admin.clearRequestLog();
    return log.map((entry) => entry.method);
  };

  beforeAll(async () => {
    emulator = await startTestEmulator();
    workDir = join(repoRoot, ".work", `scopes-fleet-${randomBytes(4).toString("hex")}`);
    await mkdir(join(workDir, "shared"), { recursive: true });
    await mkdir(join(workDir, "clients"));
    await mkdir(join(workDir, ".state"));
    for (const file of ["index.ts", "Pulumi.yaml", "shared/Pulumi.yaml", "shared/index.ts"]) await cp(join(repoRoot, "examples/agency", file), join(workDir, file));
    for (const client of CLIENTS) {
      await writeFile(join(workDir, "clients", `${client}.yaml`), [`name: Client ${client}`, `domain: ${client}.example.com`, "endpoints:", "  - path: /", "contacts:", `  emails: [ops@${client}.example.com]`, ""].join("\n"));
    }
    env = fleetTestEnv(workDir, emulator);
    workspace = await LocalWorkspace.create({ workDir, envVars: { PULUMI_BACKEND_URL: env.PULUMI_BACKEND_URL!, PULUMI_CONFIG_PASSPHRASE: testPassphrase }, pulumiCommand: testCli() });
    const init = await fleet("init");
    expect(init.code, init.stderr + init.stdout).toBe(0);
    const { key } = await emulator.admin.createKey(ALL_SCOPES.filter((scope) => scope !== LACKING));
    await workspace.setConfig("beta", "monitoring:apiKey", { value: key, secret: true });
  }, STEP_MS);
  afterAll(async () => {
    await emulator?.stop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("fleet scopes --json --check: per command the union over the shared stack and the clients, each stack's own set; each distinct key proven once with GETs only against its stacks' scopes, the missing scope named with its stack", async () => {
    await emulator.admin.clearRequestLog();
    const { code, stdout } = await fleet("scopes", "--json", "--check");
    expect(code, stdout).toBe(SCOPES_EXIT.missing);
    const report = JSON.parse(stdout) as FleetScopes;
    expect(Object.keys(report.stacks)).toEqual([SHARED, ...CLIENTS]);
    expect(report.all).toEqual([...new Set(Object.values(report.stacks).flat())].sort());
    for (const command of COMMANDS) expect(report.all).toEqual(expect.arrayContaining(report.commands[command]));
    expect(report.operations[LACKING]?.map((need) => need.request)).toContain("POST /monitors");
    expect(report.stacks["beta"]).toContain(LACKING);

    const keys = report.keys!.map((key) => ({ from: key.from, stacks: key.stacks, missing: key.check.filter((proof) => proof.verdict === "missing").map((proof) => proof.scope) }));
    expect(keys).toEqual([
      { from: ["MONITORING_API_KEY"], stacks: [SHARED, "alpha"], missing: [] },
      { from: ["monitoring:apiKey of stack beta"], stacks: ["beta"], missing: [LACKING] },
    ]);
    expect(report.keys![1]!.neededBy[LACKING]).toEqual(["beta"]);
    const proven = report.keys!.reduce((sum, key) => sum + key.check.length, 0);
    expect(proven).toBe(new Set([...report.stacks[SHARED]!, ...report.stacks["alpha"]!]).size + report.stacks["beta"]!.length);
    expect(await sentMethods()).toEqual(Array.from({ length: proven }, () => "GET"));
  }, STEP_MS);

  it("fleet up --check-scopes stops before any stack runs when a key lacks a scope the up needs, naming the stack", async () => {
    const { code, stderr } = await fleet("up", "--check-scopes", "--yes");
    expect(code).toBe(EXIT.failed);
    expect(stderr).toContain(`MISSING  ${LACKING}`);
    expect(stderr).toContain(`${LACKING} is needed by stack(s) beta`);
    expect(stderr).toContain("Nothing was run");
    expect(new Set(await sentMethods())).toEqual(new Set(["GET"]));
    expect((await workspace.listStacks()).map((stack) => stack.resourceCount ?? 0)).toEqual([0, 0]);
  }, STEP_MS);

  it("fleet refresh --check-scopes runs once every key holds what the refresh needs", async () => {
    const { code, stderr } = await fleet("refresh", "--check-scopes", "--stack", "alpha", "--no-shared");
    expect(code, stderr).toBe(EXIT.ok);
    expect(stderr).toMatch(/Scopes checked before refresh: 1 key\(s\) hold every scope their stacks need \(\d+ GET\(s\)\)/);
  }, STEP_MS);
});
