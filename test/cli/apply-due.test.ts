/**
 * `fleet apply-due`, the scheduled job's command, on a fleet of 20 stacks of one monitor each
 * (test/programs/pauses, whose Pulumi.yaml says `refresh: always`), deployed once at T, two of
 * them with a window from T+1h to T+3h:
 * - at T+30m nothing is due: no state file is written and the service gets no request;
 * - at T+1h05 `fleet preview` runs a windowed stack, its pause due, and skips one with nothing due
 *   (cli/fleet/affected/);
 * - at T+1h05 exactly the two windows' pauses are due: the service gets those 2 calls and
 *   nothing else (no refresh, no read: the calls' answers show the outcome), the command prints
 *   "2 requests (minimum 2", exactly those two stacks' states are written, and a change of the
 *   program made meanwhile (a name) waits for the next deploy, since the program is not run; the
 *   lock an apply-due killed mid-run left on one of them (this host, its process gone) is taken
 *   over, and said;
 * - at T+3h05 `apply-due --stack c01` (one stack) resumes its monitor with 1 request, still
 *   leaving the name to the next deploy;
 * - a call the service refuses is not applied: `apply-due --stack c02 --json` exits 1, names the
 *   refusal on the change, and writes nothing to the state; run again once the service accepts it,
 *   it applies it.
 * The commands run in this process through their own entries (test/support/commands.ts); the
 * clock is set by PULUMI_MONITORING_NOW.
 * `fleet up` deploys the two windowed stacks and one other; the other seventeen are that one's
 * deployment, each with a monitor of its own made on the service and the stack's name, written
 * into the file backend where `pulumi stack import` would write it (an up, or an init and an
 * import, per stack would only cost more CLI runs: what apply-due reads is the state).
 */
import { randomBytes } from "node:crypto";
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mapBounded } from "../../provider/concurrency.js";
import type { FleetReport } from "../../cli/report/fleet.js";
import { runHere } from "../support/commands.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { leaveKilledRunsLock, tookOverLine } from "../support/killed-run-lock.js";
import { fleetTestEnv, repoRoot, stacksInFiles } from "../support/pulumi.js";

const STACKS = Array.from({ length: 20 }, (_, index) => `c${String(index + 1).padStart(2, "0")}`);
/** The stacks with a window: the first two. */
const WINDOWED = STACKS.slice(0, 2);
/** The stack without a window that `fleet up` deploys; the others take its deployment. */
const TEMPLATE = STACKS[2]!;
const STEP_MS = 600_000;
const T = Date.parse("2030-11-28T20:00:00Z");
const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();

describe("fleet apply-due on 20 stacks", () => {
  let emulator: TestEmulator;
  let workDir: string;
  let env: NodeJS.ProcessEnv;

  /** Each stack's settings file: its window, if any, and the monitor's name when given. */
  const writeSettings = (stack: string, name?: string) => {
    const pauses = WINDOWED.includes(stack) ? [{ from: at(60), to: at(180), reason: "database upgrade" }] : [];
    const lines = ["config:", `  pauses:pauses: '${JSON.stringify(pauses)}'`, ...(name === undefined ? [] : [`  pauses:name: ${name}`])];
    return writeFile(join(workDir, `Pulumi.${stack}.yaml`), `${lines.join("\n")}\n`);
  };
  const applyDueAt = (minutes: number) => runHere(["fleet", "apply-due", "--parallel", "4", "--cwd", workDir], { ...env, PULUMI_MONITORING_NOW: at(minutes) });
  /** The file backend's folder of the project's stacks, a checkpoint file each. */
  const stacksDir = () => join(workDir, ".state/.pulumi/stacks/pauses");
  /** When each stack's state was last written, by file. */
  const stateTimes = async () => {
    const dir = stacksDir();
    const files = (await readdir(dir)).filter((file) => file.endsWith(".json"));
    return Object.fromEntries(await Promise.all(files.map(async (file) => [file, (await stat(join(dir, file))).mtimeMs] as const)));
  };

  beforeAll(async () => {
    emulator = await startTestEmulator();
    // Inside the repository, so that the program loads this package as `pulumi-monitoring`.
    workDir = join(repoRoot, ".work", `apply-due-${randomBytes(4).toString("hex")}`);
    await mkdir(join(workDir, ".state"), { recursive: true });
    for (const file of ["Pulumi.yaml", "index.ts"]) await cp(join(repoRoot, "test/programs/pauses", file), join(workDir, file));
    env = fleetTestEnv(workDir, emulator);
    const deployed = [...WINDOWED, TEMPLATE];
    await stacksInFiles(workDir, join(workDir, ".state"), deployed);
    await Promise.all(STACKS.map((stack) => writeSettings(stack)));
    const { code, stderr } = await runHere(["fleet", "up", "--yes", "--no-refresh", ...deployed.flatMap((stack) => ["--stack", stack]), "--cwd", workDir], { ...env, PULUMI_MONITORING_NOW: at(0) });
    expect(code, stderr).toBe(0);
    const template = await readFile(join(stacksDir(), `${TEMPLATE}.json`), "utf8");
    const { checkpoint } = JSON.parse(template) as { checkpoint: { stack: string; latest: { resources: Array<{ type: string; id?: string }> } } };
    const templateId = checkpoint.latest.resources.find((resource) => resource.type.endsWith(":Monitor"))!.id!;
    await mapBounded(
      STACKS.filter((stack) => !deployed.includes(stack)),
      4,
      async (stack) => {
        const { id } = await emulator.byHand<{ id: string }>("POST", "/monitors", { name: `${stack} site`, url: `https://${stack}.example.com` });
        const checkpointFile = template
          .replaceAll(`"${checkpoint.stack}"`, `"${checkpoint.stack.slice(0, -TEMPLATE.length)}${stack}"`)
          .replaceAll(`urn:pulumi:${TEMPLATE}::`, `urn:pulumi:${stack}::`)
          .replaceAll(`pauses-${TEMPLATE}`, `pauses-${stack}`)
          .replaceAll(templateId, id)
          .replaceAll(`${TEMPLATE} site`, `${stack} site`)
          .replaceAll(`https://${TEMPLATE}.example.com`, `https://${stack}.example.com`);
        await writeFile(join(stacksDir(), `${stack}.json`), checkpointFile);
      },
    );
  }, STEP_MS);
  afterAll(async () => {
    await emulator?.stop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("with nothing due, sends no request and writes no state", async () => {
    const before = await stateTimes();
    await emulator.admin.clearRequestLog();
    const { code, stdout, stderr } = await applyDueAt(30);
    expect(code, stderr).toBe(0);
    expect(await emulator.admin.requestLog()).toEqual([]);
    expect(await stateTimes()).toEqual(before);
    expect(stdout).toContain("0 requests (minimum 0: one call per due pause or resume); 20 of 20 stacks had nothing due");
  }, STEP_MS);

  it("at T+1h05, fleet preview runs the stack whose window has started, judged from its state, and skips one with nothing due", async () => {
    const { code, stdout, stderr } = await runHere(["fleet", "preview", "--no-refresh", "--json", "--stack", WINDOWED[1]!, "--stack", TEMPLATE, "--cwd", workDir], { ...env, PULUMI_MONITORING_NOW: at(65) });
    expect(code, stderr).toBe(0);
    const { stacks } = JSON.parse(stdout) as FleetReport;
    expect(stacks).toEqual([
      expect.objectContaining({ stack: WINDOWED[1], result: "changes", affected: "a pause or resume is due now (database upgrade)" }),
      expect.objectContaining({ stack: TEMPLATE, result: "skipped", note: expect.stringMatching(/^unchanged since its deploy at .*, in sync with the service, nothing due$/) }),
    ]);
  }, STEP_MS);

  it("with two windows started, sends exactly their two pauses, no read, takes over the lock a killed run left, and leaves the program's other change to the next deploy", async () => {
    await writeSettings(WINDOWED[0]!, "renamed site");
    const killedPid = await leaveKilledRunsLock(join(workDir, ".state"), "pauses", WINDOWED[1]!);
    const before = await stateTimes();
    await emulator.admin.clearRequestLog();
    const { code, stdout, stderr } = await applyDueAt(65);
    expect(code, stderr).toBe(0);

    const requests = (await emulator.admin.requestLog()).map(({ method, path }) => `${method} ${path}`);
    expect(requests).toHaveLength(2);
    for (const request of requests) expect(request).toMatch(/^POST \/monitors\/[^/]+\/pause$/);
    const paused = await Promise.all(requests.map((request) => emulator.byHand<{ name: string; paused: boolean }>("GET", request.slice(5, -"/pause".length))));
    expect(paused.map(({ name, paused }) => ({ name, paused })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(WINDOWED.map((stack) => ({ name: `${stack} site`, paused: true })));

    expect(stdout).toContain("2 requests (minimum 2: one call per due pause or resume); 18 of 20 stacks had nothing due");
    for (const stack of WINDOWED) expect(stdout).toMatch(new RegExp(`^${stack}  applied: pause site \\('database upgrade'\\)$`, "m"));
    expect(stdout).toMatch(new RegExp(`^${WINDOWED[1]}  applied: .*\n {${WINDOWED[1]!.length + 2}}${tookOverLine(killedPid).source}`, "m"));
    const after = await stateTimes();
    const written = Object.keys(after).filter((file) => after[file] !== before[file]);
    expect(written.sort()).toEqual(WINDOWED.map((stack) => `${stack}.json`));
  }, STEP_MS);

  it("on one stack, resumes its monitor once the window has ended, with one request, and reports it as JSON with --json", async () => {
    const stack = WINDOWED[0]!;
    await emulator.admin.clearRequestLog();
    const { code, stdout, stderr } = await runHere(["apply-due", "--stack", stack, "--cwd", workDir, "--json"], { ...env, PULUMI_MONITORING_NOW: at(185) });
    expect(code, stderr).toBe(0);
    const requests = (await emulator.admin.requestLog()).map(({ method, path }) => `${method} ${path}`);
    expect(requests).toEqual([expect.stringMatching(/^POST \/monitors\/[^/]+\/resume$/)]);
    expect(await emulator.byHand("GET", requests[0]!.slice(5, -"/resume".length))).toMatchObject({ name: `${stack} site`, paused: false });
    expect(JSON.parse(stdout)).toEqual({
      stacks: [{ stack, due: [{ urn: expect.stringMatching(/::site$/), object: "site", type: "Monitor", paused: false, reason: expect.any(String), done: true }], result: "applied" }],
      requests: 1,
      minimum: 1,
    });
  }, STEP_MS);

  it("a refused call is reported not done, exits 1 and writes nothing; the next run applies it", async () => {
    const stack = WINDOWED[1]!;
    const before = await stateTimes();
    await emulator.admin.injectFault({ method: "POST", path: "/monitors/*/resume", status: 403, times: 1 });
    const refused = await runHere(["apply-due", "--stack", stack, "--cwd", workDir, "--json"], { ...env, PULUMI_MONITORING_NOW: at(186) });
    expect(refused.code).toBe(1);
    const summary = JSON.parse(refused.stdout) as { stacks: Array<{ result: string; due: Array<{ done: boolean; error?: string }> }> };
    expect(summary.stacks).toEqual([expect.objectContaining({ stack, result: "failed", due: [expect.objectContaining({ object: "site", paused: false, done: false, error: expect.stringContaining("403") })] })]);
    expect(await stateTimes()).toEqual(before);

    const again = await runHere(["apply-due", "--stack", stack, "--cwd", workDir], { ...env, PULUMI_MONITORING_NOW: at(187) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${stack}  applied: resume site`);
  }, STEP_MS);
});
