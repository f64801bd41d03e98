/**
 * A pause window in code, on the real engine and an emulator profile: one stack holds a
 * Monitor, a Heartbeat and a MonitorSet member that declare the window T+1h to T+3h (and a member
 * that declares none), deployed at successive instants by setting `monitoring:now` rather than
 * waiting. Each deploy writes exactly what the window asks: nothing at T, one pause per object at
 * T+1h05, nothing inside it, one resume per object at T+3h05, and nothing a week later, when the
 * window, still in the program, has long ended; then the destroy is clean. Every up and the
 * preview warn that `monitoring:now` fixes the run's instant, naming it. Bad windows (`to`
 * before `from`, a time without an offset, an empty reason) fail the preview, which sends nothing
 * (the engine stops at the first failed check: one preview each), on the default profile: the
 * provider's check refuses them before any request, whatever the server.
 * The decision itself, case by case, is test/provider/pause-plan.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportedState } from "../../cli/project/state.js";
import { deploy, type Deployment, profiles } from "./support.js";

const STEP_MS = 300_000;
const T = Date.parse("2030-11-28T20:00:00Z");
const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();
const freeze = [{ from: at(60), to: at(180), reason: "Black Friday freeze" }];

const resources = [
  { kind: "Monitor", name: "web", args: { name: "Web", url: "https://shop.example", pauses: freeze } },
  { kind: "Heartbeat", name: "backup", args: { name: "Backup", expectedIntervalSeconds: 86_400, pauses: freeze } },
  {
    kind: "MonitorSet",
    name: "fleet",
    args: { monitors: { api: { name: "Api", url: "https://shop.example/api", pauses: freeze }, docs: { name: "Docs", url: "https://shop.example/docs" } } },
  },
];

type Outputs = Record<string, { value: unknown }>;

/** The story on one emulator profile: test/e2e/pauses.test.ts and pauses-alt.test.ts, a file each so that each stays within the time limit per file. */
export function describePauseWindow({ profile }: (typeof profiles)[number], { badWindows }: { badWindows: boolean }): void {
  describe(`a pause window on the ${profile} profile`, () => {
    let deployment: Deployment;
    let ids: Record<string, string>;
    let members: Record<string, string>;

    /** An up at `minutes` after T: its summary, and the requests it sent other than reads. */
    async function upAt(minutes: number) {
      await deployment.harness.stack.setConfig("monitoring:now", { value: at(minutes) });
      await deployment.emulator.admin.clearRequestLog();
      const { summary, outputs, stdout } = await deployment.harness.stack.up();
      const writes = (await deployment.emulator.admin.requestLog()).filter((request) => request.method !== "GET").map(({ method, path }) => `${method} ${path.toLowerCase()}`);
      expect(stdout).toContain(fixedInstantWarning(minutes));
      return { changes: summary.resourceChanges ?? {}, writes: writes.sort(), outputs: outputs as Outputs, stdout };
    }
    /** What every preview and up of a stack whose `monitoring:now` is set warns, once per run. */
    const fixedInstantWarning = (minutes: number) =>
      `warning: monitoring:now of stack ${deployment.harness.stack.name} is set: this run takes ${at(minutes)} for now, not the clock, for every pause window, override and hand pause`;
    const pausedState = async () => ({
      web: (await deployment.api<{ paused: boolean }>(`/monitors/${ids.web}`)).paused,
      backup: (await deployment.api<{ paused: boolean }>(`/heartbeats/${ids.backup}`)).paused,
      api: (await deployment.api<{ paused: boolean }>(`/monitors/${members.api}`)).paused,
      docs: (await deployment.api<{ paused: boolean }>(`/monitors/${members.docs}`)).paused,
    });
    const calls = (action: "pause" | "resume") =>
      [`/monitors/${ids.web}/${action}`, `/heartbeats/${ids.backup}/${action}`, `/monitors/${members.api}/${action}`].map((path) => `POST ${path.toLowerCase()}`).sort();

    beforeAll(async () => {
      deployment = await deploy({ program: "test/programs/declared", profile, config: { resources: { value: JSON.stringify(resources) } } });
    }, STEP_MS);
    afterAll(async () => deployment?.dispose({ keepObjects: true }), STEP_MS);

    it("at T, before the window: creates every object active, with no pause call, and says when they pause and resume", async () => {
      const { writes, outputs, stdout } = await upAt(0);
      for (const subject of ['Monitor "web"', 'Heartbeat "backup"', 'MonitorSet "fleet[api]"']) {
        expect(stdout).toContain(`${subject}: pauses 21:00 UTC for 'Black Friday freeze', resumes 23:00 UTC`);
      }
      expect(stdout).not.toContain("fleet[docs]");
      ids = Object.fromEntries(Object.entries(outputs["ids"]!.value as Record<string, string>));
      const state = (await exportedState(deployment.harness.stack.workspace, deployment.harness.stack.name)).deployment.resources as { type: string; outputs: { ids?: Record<string, string> } }[];
      members = state.find((resource) => resource.type.endsWith(":MonitorSet"))!.outputs.ids!;
      expect(writes.filter((write) => /\/(pause|resume)$/.test(write))).toEqual([]);
      expect(await pausedState()).toEqual({ web: false, backup: false, api: false, docs: false });
    }, STEP_MS);

    const transition = (minutes: number, call: "pause" | "resume", paused: boolean) => async () => {
      const { writes, changes } = await upAt(minutes);
      expect(writes).toEqual(calls(call));
      expect(changes).toMatchObject({ update: 3 });
      expect(await pausedState()).toEqual({ web: paused, backup: paused, api: paused, docs: false });
    };

    it("at T+1h05: pauses each object of the window, one write each", transition(65, "pause", true), STEP_MS);

    it("at T+2h, inside the window: writes nothing, and says when they resume", async () => {
      const { writes, changes, stdout } = await upAt(120);
      expect(stdout).toContain(`Monitor "web": stays paused for 'Black Friday freeze', resumes 23:00 UTC`);
      expect(writes).toEqual([]);
      expect(changes).not.toHaveProperty("update");
    }, STEP_MS);

    it("at T+3h05: resumes each object of the window, one write each", transition(185, "resume", false), STEP_MS);

    it("a week later, the ended window still in the program: writes nothing and previews no change, the preview warning of monitoring:now as every up does", async () => {
      const { writes, changes, stdout } = await upAt(7 * 24 * 60);
      expect(stdout).not.toContain("Black Friday freeze");
      expect(writes).toEqual([]);
      expect(changes).not.toHaveProperty("update");
      const preview = await deployment.harness.stack.preview({ expectNoChanges: true });
      expect(preview.stdout).toContain(fixedInstantWarning(7 * 24 * 60));
    }, STEP_MS);

    it("then destroys cleanly", async () => {
      await deployment.harness.stack.destroy();
      expect(await deployment.listAll("/monitors")).toEqual([]);
      expect(await deployment.listAll("/heartbeats")).toEqual([]);
    }, STEP_MS);

    if (badWindows) it.each([
      {
        title: "`to` before `from`",
        resource: { kind: "Monitor", name: "web", args: { name: "Web", url: "https://shop.example", pauses: [{ from: at(60), to: at(30), reason: "backwards" }] } },
        says: `Monitor.pauses[0].to: must be after from (${at(60)}) (got "${at(30)}")`,
      },
      {
        title: "a time without an offset",
        resource: { kind: "Heartbeat", name: "backup", args: { name: "Backup", pauses: [freeze[0], { from: "2030-11-28T22:00:00", to: at(240), reason: "no offset" }] } },
        says: 'Heartbeat.pauses[1].from: must be an ISO 8601 instant with an offset (Z or ±hh:mm), such as 2030-01-31T12:00:00Z (got "2030-11-28T22:00:00")',
      },
      {
        title: "an empty reason",
        resource: { kind: "MonitorSet", name: "fleet", args: { monitors: { api: { name: "Api", url: "https://shop.example/api", pauses: [{ from: at(60), to: at(120), reason: "" }] } } } },
        says: 'MonitorSet.monitors["api"].pauses[0].reason: must not be empty (got "")',
      },
    ])("refuses $title at preview, naming the resource, the field and the rule, and writes nothing", async ({ resource, says }) => {
      await deployment.harness.stack.setConfig("resources", { value: JSON.stringify([resource]) });
      await deployment.emulator.admin.clearRequestLog();
      const failure = await deployment.harness.stack.preview().then(
        () => "the preview passed",
        (error: Error) => error.message,
      );
      expect(failure).toContain(`${resource.kind} resource '${resource.name}'`);
      expect(failure).toContain(says);
      expect(await deployment.emulator.admin.requestLog()).toEqual([]);
    }, STEP_MS);
  });
}
