/**
 * One rate budget for a whole fleet: three client stacks deployed at once with
 * `fleet up --max-rps 5`, against an emulator that refuses a key's sixth request of any second
 * (`--rate-limit 5`, 429 with Retry-After). Every request the service saw was granted by the
 * fleet's token server, no second held more than the budget, the service refused none, and the
 * stacks used the budget together (a split of 5 per second between three stacks, less the
 * reserve for timing, sent at most 3 in a second). The fleet runs as a child process, as users run it.
 */
import { randomBytes } from "node:crypto";
import { cp, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/report/fleet.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { fleetTestEnv, repoRoot, stacksInFiles } from "../support/pulumi.js";
import { runFleetCli } from "../examples/support.js";

const BUDGET = 5;
const STACKS = ["north", "south", "east"];
const STEP_MS = 300_000;

describe("a fleet under one rate budget", () => {
  let emulator: TestEmulator;
  let workDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    emulator = await startTestEmulator({ rateLimit: BUDGET });
    // Inside the repository, so that the program loads this package as `pulumi-monitoring`.
    workDir = join(repoRoot, ".work", `fleet-rate-${randomBytes(4).toString("hex")}`);
    await mkdir(join(workDir, ".state"), { recursive: true });
    for (const file of ["Pulumi.yaml", "index.ts"]) await cp(join(repoRoot, "test/programs/clients", file), join(workDir, file));
    env = fleetTestEnv(workDir, emulator);
    await stacksInFiles(workDir, join(workDir, ".state"), STACKS, () => ({ "clients:monitorCount": { value: "3" } }));
  }, STEP_MS);
  afterAll(async () => {
    await emulator?.stop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("never exceeds --max-rps in any second across its stacks, so the service's limit refuses nothing", async () => {
    const { code, stdout, stderr } = await runFleetCli(["up", "--yes", "--json", "--parallel", "3", "--max-rps", String(BUDGET), "--cwd", workDir], env);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as FleetReport;
    expect(report.stacks.map((stack) => stack.result)).toEqual(STACKS.map(() => "succeeded"));

    const requests = await emulator.admin.requestLog();
    expect(requests.filter((request) => request.status === 429)).toEqual([]);
    // Every request the service saw went out on a grant of the fleet's one budget.
    expect(report.rateLimit).toMatchObject({ budget: BUDGET, granted: requests.length, limited: 0 });
    // Three stacks of a client, a channel and three attached monitors: 5 creates and 3 attachments
    // each, the spec's minimum (a new stack has nothing to refresh, a create's answer is not read again).
    expect(requests.length).toBe(STACKS.length * 8);

    const perSecond = new Map<string, number>();
    for (const { time } of requests) perSecond.set(time.slice(0, 19), (perSecond.get(time.slice(0, 19)) ?? 0) + 1);
    const busiest = Math.max(...perSecond.values());
    expect(busiest).toBeLessThanOrEqual(BUDGET);
    expect(busiest).toBeGreaterThanOrEqual(BUDGET - 1);
  }, STEP_MS);
});
