/**
 * An override by command, on the real engine with two runners, each with its own checkout and
 * PULUMI_HOME, on one state backend (docs/overrides-and-maintenance.md): runner A pauses `web` for
 * 2h (`pause`); runner B lists it (`overrides`), deploys at +10 min (`fleet up`, the clock advanced
 * through PULUMI_MONITORING_NOW rather than waited for): the override is kept, no write to it,
 * while a changed field of the other monitor is applied; B's deploy at +2h05 resumes `web` (1
 * write). On the file backend, runner A's pause first meets the lock a pause killed mid-run left
 * (this host, its process gone) and takes it over, as a fleet run would. Then the same across
 * stacks (`fleet pause|overrides|resume`), the fleet's pause meeting such a lock too. Bad input (a name the stack
 * lacks, `--for -1h`) is refused with what is wrong, and nothing is sent or written: once, on one
 * of the files, since the command refuses it before any request, whatever the server.
 */
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { cp, mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OverrideRow } from "../../cli/overrides/records.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { leaveKilledRunsLock, tookOverLine } from "../support/killed-run-lock.js";
import { startTestPostgres, type TestPostgres } from "../support/postgres.js";
import { repoRoot, testCli } from "../support/pulumi.js";
import { type CommandResult, runHere, runnerEnvironment } from "./support.js";
import { exportedState } from "../../cli/project/state.js";

const STEP_MS = 400_000;
const STACK = "acme";
const T = Date.parse("2030-11-28T20:00:00Z");
const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();
const declared = (apiName: string) =>
  JSON.stringify([
    { kind: "Monitor", name: "web", args: { name: "Web", url: "https://shop.example" } },
    { kind: "Monitor", name: "api", args: { name: apiName, url: "https://shop.example/api" } },
  ]);

/**
 * The scenario on the emulator's `profile`, with the state in PostgreSQL (the libpq environment)
 * or in a file backend both checkouts point at; `acrossStacks`: the fleet verbs too.
 */
export function describeOverrideByCommand({ profile, backend, acrossStacks, badInput }: { profile: "default" | "alt"; backend: "postgres" | "file"; acrossStacks: boolean; badInput: boolean }): void {
  describe(`an override by command, two runners on one ${backend === "postgres" ? "PostgreSQL" : "file"} backend, ${profile} profile`, () => {
    const base = join(repoRoot, ".work", `overrides-${profile}-${process.pid}`);
    let postgres: TestPostgres | undefined;
    let emulator: TestEmulator;
    const runners = { a: join(base, "runner-a"), b: join(base, "runner-b") };
    type Runner = keyof typeof runners;
    let ids: Record<string, string>;

    const envOf = (runner: Runner, minutes: number): Record<string, string> => ({
      ...runnerEnvironment(base, runner, postgres === undefined ? { PULUMI_BACKEND_URL: `file://${join(base, ".state")}` } : { PULUMI_BACKEND_URL: postgres.backendUrl, ...postgres.env }, emulator),
      PULUMI_MONITORING_NOW: at(minutes),
      PULUMI_MONITORING_ACTOR: `alice-${runner}`,
    });
    /** `pulumi-monitoring <args>` on runner's checkout at T + minutes, and the writes it sent. */
    async function run(runner: Runner, minutes: number, args: string[]): Promise<CommandResult & { writes: string[] }> {
      await emulator.admin.clearRequestLog();
      const result = await runHere([...args, "--cwd", runners[runner]], envOf(runner, minutes));
      const writes = (await emulator.admin.requestLog()).filter((request) => request.method !== "GET").map(({ method, path }) => `${method} ${path}`);
      return { ...result, writes: writes.sort() };
    }
    const workspace = async (runner: Runner) => LocalWorkspace.create({ workDir: runners[runner], envVars: envOf(runner, 0), pulumiCommand: testCli() });
    const paused = async (name: string) => (await emulator.byHand<{ paused: boolean }>("GET", `/monitors/${ids[name]}`)).paused;
    const listed = async (runner: Runner, minutes: number, args: string[]) => {
      const { code, stdout, stderr } = await run(runner, minutes, [...args, "--json"]);
      expect(code, stderr).toBe(0);
      return JSON.parse(stdout) as { overrides?: OverrideRow[]; stacks?: Array<{ stack: string; overrides: OverrideRow[] }> };
    };

    beforeAll(async () => {
      [postgres, emulator] = await Promise.all([backend === "postgres" ? startTestPostgres() : undefined, startTestEmulator({ profile })]);
      await mkdir(join(base, ".state"), { recursive: true });
      for (const dir of Object.values(runners)) {
        await mkdir(dir, { recursive: true });
        for (const file of ["Pulumi.yaml", "index.ts"]) await cp(join(repoRoot, "test/programs/declared", file), join(dir, file));
      }
      const stackA = await LocalWorkspace.createStack({ stackName: STACK, workDir: runners.a }, { envVars: envOf("a", 0), pulumiCommand: testCli() });
      await stackA.setConfig("resources", { value: declared("Api") });
      // Runner B checks out the same stack settings (its encryption salt with them).
      await cp(join(runners.a, `Pulumi.${STACK}.yaml`), join(runners.b, `Pulumi.${STACK}.yaml`));
      const { code, stderr } = await run("a", 0, ["fleet", "up", "--yes"]);
      expect(code, stderr).toBe(0);
      const state = (await exportedState(await workspace("a"), STACK)).deployment.resources as Array<{ urn: string; id?: string }>;
      ids = Object.fromEntries(state.filter((resource) => resource.id !== undefined).map((resource) => [resource.urn.slice(resource.urn.lastIndexOf("::") + 2), resource.id as string]));
    }, STEP_MS);
    afterAll(async () => {
      await Promise.all([postgres?.stop(), emulator?.stop(), rm(base, { recursive: true, force: true })]);
    });

    if (badInput) it.each([
      { input: ["pause", "wbe", "--for", "2h", "--reason", "incident 42"], says: `stack ${STACK} has no monitor, heartbeat or set member named "wbe": did you mean web?` },
      { input: ["pause", "web", "--for", "-1h", "--reason", "incident 42"], says: `--for must be a positive duration such as 2h, 90m, 1d or 1h30m, got "-1h"` },
    ])("refuses `$input.0 $input.1 $input.2 $input.3` naming what is wrong, and writes nothing", async ({ input, says }) => {
      const before = JSON.stringify((await exportedState(await workspace("a"), STACK)).deployment.resources);
      await emulator.admin.clearRequestLog();
      const { code, stderr } = await run("a", 1, [...input, "--stack", STACK]);
      expect({ code, stderr }).toMatchObject({ code: 2, stderr: expect.stringContaining(says) });
      expect(await emulator.admin.requestLog()).toEqual([]);
      expect(JSON.stringify((await exportedState(await workspace("a"), STACK)).deployment.resources)).toBe(before);
    }, STEP_MS);

    it(`runner A's \`pause web --for 2h\` ${backend === "file" ? "takes over the lock a killed pause left, " : ""}sends the one pause call and records the override`, async () => {
      const killedPid = backend === "file" ? await leaveKilledRunsLock(join(base, ".state"), "declared", STACK) : undefined;
      const { code, stdout, stderr, writes } = await run("a", 1, ["pause", "web", "--for", "2h", "--reason", "incident 42", "--stack", STACK]);
      expect(code, stderr).toBe(0);
      if (killedPid !== undefined) expect(stdout).toMatch(tookOverLine(killedPid));
      expect(stdout).toContain(`Paused Monitor web in stack ${STACK} until ${at(121)} for 'incident 42', by alice-a`);
      expect(writes).toEqual([`POST /monitors/${ids.web}/pause`]);
      expect(await paused("web")).toBe(true);
    }, STEP_MS);

    it("runner B lists it from the state alone: who, why, until when, active", async () => {
      const { overrides } = await listed("b", 5, ["overrides", "--stack", STACK]);
      expect(overrides).toEqual([expect.objectContaining({ resource: "web", by: "alice-a", reason: "incident 42", until: at(121), state: "active" })]);
      expect(await emulator.admin.requestLog()).toEqual([]);
    }, STEP_MS);

    it("runner B's `fleet up` at +10 min keeps it paused (no write to it) and applies the other monitor's change", async () => {
      await (await workspace("b")).setConfig(STACK, "resources", { value: declared("Api v2") });
      const { code, stdout, stderr, writes } = await run("b", 10, ["fleet", "up", "--yes"]);
      expect(code, stderr).toBe(0);
      expect(writes).toEqual([`PATCH /monitors/${ids.api}`]);
      // The backend keeps the record of each stack's last fleet deploy (cli/fleet/affected/), which tells what changed since.
      expect(stdout).toContain(`Run, as the change affects them:\n  ${STACK}: its settings file changed\n`);
      expect(await paused("web")).toBe(true);
    }, STEP_MS);

    it("runner B's `fleet up` at +2h05, after the end, resumes it with one write and drops the record", async () => {
      const { code, stdout, stderr, writes } = await run("b", 125, ["fleet", "up", "--yes"]);
      expect(code, stderr).toBe(0);
      expect(writes).toEqual([`POST /monitors/${ids.web}/resume`]);
      // Nothing but time changed since the deploy at +10: the resume due is what made the stack run.
      expect(stdout).toContain(`Run, as the change affects them:\n  ${STACK}: a pause or resume is due now (`);
      expect(await paused("web")).toBe(false);
      expect((await listed("b", 126, ["overrides", "--stack", STACK])).overrides).toEqual([]);
    }, STEP_MS);

    // The fleet verbs once, on one of the files (a file backend).
    /** The updates the file backend recorded for the stack, one history file each: the fleet verbs run none. */
    const updatesRecorded = async () => (await readdir(join(base, ".state", ".pulumi", "history"), { recursive: true })).filter((file) => file.includes(`${STACK}-`) && file.endsWith(".history.json")).length;
    if (acrossStacks) it("`fleet pause`, `fleet overrides` and `fleet resume` do the same across the stacks the globs select, one state write per stack for all the objects matched and no engine run, `fleet pause` taking over the lock a killed run left", async () => {
      const before = await updatesRecorded();
      const killedPid = await leaveKilledRunsLock(join(base, ".state"), "declared", STACK);
      const pause = await run("b", 130, ["fleet", "pause", "--stack", "ac*", "--resource", "*", "--until", at(240), "--reason", "maintenance"]);
      expect(pause.code, pause.stderr).toBe(0);
      expect(pause.stdout).toMatch(new RegExp(`${STACK}: ${tookOverLine(killedPid).source}`));
      for (const name of ["web", "api"]) expect(pause.stdout).toContain(`${STACK}: Paused Monitor ${name} in stack ${STACK} until ${at(240)} for 'maintenance', by alice-b`);
      expect(pause.writes).toEqual([`POST /monitors/${ids.api}/pause`, `POST /monitors/${ids.web}/pause`].sort());
      expect(await updatesRecorded()).toBe(before);
      // Counted by the fleet's token server, every attempt: the two writes and nothing else.
      expect(pause.stdout).toContain("\n2 requests (minimum 2: one call per object)\n");
      expect((await listed("a", 131, ["fleet", "overrides", "--resource", "w*"])).stacks).toEqual([{ stack: STACK, overrides: [expect.objectContaining({ resource: "web", state: "active", by: "alice-b" })] }]);
      const resume = await run("a", 135, ["fleet", "resume", "--stack", STACK, "--resource", "*"]);
      expect(resume.code, resume.stderr).toBe(0);
      expect(resume.writes).toEqual([`POST /monitors/${ids.api}/resume`, `POST /monitors/${ids.web}/resume`].sort());
      expect(await updatesRecorded()).toBe(before);
      expect(resume.stdout).toContain("\n2 requests (minimum 2: one call per object)\n");
      expect([await paused("web"), await paused("api")]).toEqual([false, false]);
    }, STEP_MS);
  });
}
