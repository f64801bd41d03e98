/**
 * Overrides and hand pauses as deploys keep them (provider/pauses.ts), on both emulator profiles,
 * through the dispatcher as the engine drives it, the clock set by `monitoring:now`. An override is
 * recorded by the command line (cli/overrides/: the pause call, then `__override` in the state); here
 * the state and the service are set as it leaves them:
 * - while the override holds, deploys keep the object paused and apply the program's other changes;
 *   the first deploy after `until` resumes it and drops the record. The same for a set's member,
 *   whose siblings stay as they are;
 * - a record lives no longer than its end: the first deploy after it drops it whatever the service
 *   holds (found active, there is nothing to undo), so that a pause made by hand later is judged as
 *   the program declares, under each `monitoring:handPauses` rule;
 * - a refresh that finds a pause made by hand records when it saw it (`__handPauseSeen`), and the
 *   deploys keep it paused 4 hours (`monitoring:handPauses`' default) while other changes apply.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher } from "../../provider/index.js";
import { profiles } from "../e2e/support.js";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";

type Values = Record<string, unknown>;

const TYPE = "pulumi-nodejs:dynamic/monitoring:";
const urnOf = (kind: string, name: string) => `urn:pulumi:prod::shop::${TYPE}${kind}::${name}`;
const T = Date.parse("2030-11-28T20:00:00Z");
const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();

describe.each(profiles)("overrides and hand pauses on the $profile profile", ({ profile }) => {
  let emulator: TestEmulator;
  const config: Record<string, string> = {};
  /** Each resource's inputs and outputs as the engine records them, by name. */
  const state = new Map<string, { id: string; outs: Values }>();

  beforeAll(async () => {
    emulator = await startTestEmulator({ profile });
    Object.assign(config, { "monitoring:apiUrl": emulator.baseUrl, "monitoring:apiKey": emulator.apiKey });
    await dispatcher.configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key] as string } });
  });
  afterAll(async () => {
    for (const { id, outs } of state.values()) await dispatcher.delete(id, outs);
    await emulator.stop();
  });

  /**
   * A deploy of one resource at `minutes` after T, as the engine runs it (a refresh first, then
   * check, diff and, on a change, update): its writes and its outputs.
   */
  async function deployAt(minutes: number, kind: string, name: string, args: Values) {
    config["monitoring:now"] = at(minutes);
    await emulator.admin.clearRequestLog();
    const { inputs } = await dispatcher.check({}, { ...args, __urn: urnOf(kind, name) });
    const recorded = state.get(name);
    if (recorded === undefined) {
      const { id, outs } = await dispatcher.create(inputs!);
      state.set(name, { id, outs: outs ?? {} });
    } else {
      const { props } = await dispatcher.read(recorded.id, recorded.outs);
      if ((await dispatcher.diff(recorded.id, props!, inputs!)).changes) {
        const { outs } = await dispatcher.update(recorded.id, props!, inputs!);
        state.set(name, { ...recorded, outs: outs ?? {} });
      } else {
        state.set(name, { ...recorded, outs: props! });
      }
    }
    const writes = (await emulator.admin.requestLog()).filter((request) => request.method !== "GET").map(({ method, path }) => `${method} ${path.toLowerCase()}`);
    return { writes, outs: state.get(name)!.outs };
  }
  /** What `pause <name>` leaves at `minutes`: the object paused on the service, the override in the state (a set's member by key). */
  async function pausedByCommand(name: string, minutes: number, until: number, member?: string) {
    const recorded = state.get(name)!;
    const record = { until: at(until), reason: "incident 42", by: "alice", at: at(minutes) };
    if (member === undefined) {
      await emulator.byHand("POST", `/monitors/${recorded.id}/pause`);
      recorded.outs = { ...recorded.outs, paused: true, __override: record };
    } else {
      const ids = recorded.outs["ids"] as Record<string, string>;
      await emulator.byHand("POST", `/monitors/${ids[member]}/pause`);
      const monitors = recorded.outs["monitors"] as Record<string, Values>;
      recorded.outs = { ...recorded.outs, monitors: { ...monitors, [member]: { ...monitors[member], paused: true } }, __override: { [member]: record } };
    }
    return record;
  }
  const held = (id: string) => emulator.byHand<Values>("GET", `/monitors/${id}`);
  const incident = { until: at(120), reason: "incident 42", by: "alice" };

  it("deploys keep an override's pause while they apply the program's other change, until the first deploy after its end resumes it and drops the record", async () => {
    const web = { name: "Web", url: "https://shop.example", paused: false };
    await deployAt(0, "Monitor", "web", web);
    const id = state.get("web")!.id;
    const record = await pausedByCommand("web", 1, 120);

    const during = await deployAt(10, "Monitor", "web", { ...web, name: "Web shop" });
    expect(during.writes).toEqual([`PATCH /monitors/${id.toLowerCase()}`]);
    expect(await held(id)).toMatchObject({ name: "Web shop", paused: true });
    expect(during.outs).toMatchObject({ __override: record });

    const after = await deployAt(125, "Monitor", "web", { ...web, name: "Web shop" });
    expect(after.writes).toEqual([`POST /monitors/${id.toLowerCase()}/resume`]);
    expect(after.outs).not.toHaveProperty("__override");
    expect((await deployAt(130, "Monitor", "web", { ...web, name: "Web shop" })).writes).toEqual([]);
  });

  it("a set's member keeps its override's pause alone, its sibling as it is, until the first deploy after the end", async () => {
    const fleet = { monitors: { api: { name: "Api", url: "https://shop.example/api" }, docs: { name: "Docs", url: "https://shop.example/docs" } } };
    await deployAt(0, "MonitorSet", "fleet", fleet);
    const ids = state.get("fleet")!.outs["ids"] as Record<string, string>;
    const record = await pausedByCommand("fleet", 1, 120, "api");

    const during = await deployAt(10, "MonitorSet", "fleet", fleet);
    expect(during.writes).toEqual([]);
    expect(during.outs).toMatchObject({ __override: { api: record }, monitors: { api: { paused: true }, docs: { paused: false } } });
    const after = await deployAt(125, "MonitorSet", "fleet", fleet);
    expect(after.writes).toEqual([`POST /monitors/${ids.api!.toLowerCase()}/resume`]);
    expect(after.outs).not.toHaveProperty("__override");
  });

  it.each([
    { declared: "nothing", args: {}, handPauses: undefined, later: [] },
    { declared: "paused: false", args: { paused: false }, handPauses: "putBack", later: ["resume"] },
    { declared: "paused: false", args: { paused: false }, handPauses: "keep", later: [] },
    { declared: "paused: false", args: { paused: false }, handPauses: "4h", later: [] },
  ])(
    "an override resumed by hand before its end is dropped by the first deploy after it; a later pause by hand then gets what the program declares ($declared, handPauses $handPauses): $later",
    async ({ args, handPauses, later }) => {
      const name = `api-${handPauses ?? "unmanaged"}`;
      if (handPauses === undefined) delete config["monitoring:handPauses"];
      else config["monitoring:handPauses"] = handPauses;
      const api = { name: "Api", url: "https://shop.example/api", ...args };
      await deployAt(0, "Monitor", name, api);
      const id = state.get(name)!.id;
      await pausedByCommand(name, 1, 2);
      await emulator.byHand("POST", `/monitors/${id}/resume`);

      const after = await deployAt(5, "Monitor", name, api);
      expect(after.writes).toEqual([]);
      expect(after.outs).not.toHaveProperty("__override");

      await emulator.byHand("POST", `/monitors/${id}/pause`);
      const next = await deployAt(60, "Monitor", name, api);
      expect(next.writes).toEqual(later.map((call) => `POST /monitors/${id.toLowerCase()}/${call}`));
      delete config["monitoring:handPauses"];
    },
  );

  it("a pause made by hand is recorded by the refresh that sees it and kept 4 hours while other changes apply, then resumed", async () => {
    const job = { name: "Job", url: "https://shop.example/job", paused: false };
    await deployAt(0, "Monitor", "job", job);
    const id = state.get("job")!.id;
    await emulator.byHand("POST", `/monitors/${id}/pause`);

    const seen = await deployAt(10, "Monitor", "job", { ...job, name: "Nightly job" });
    expect(seen.writes).toEqual([`PATCH /monitors/${id.toLowerCase()}`]);
    expect(seen.outs).toMatchObject({ paused: true, __handPauseSeen: at(10) });
    expect((await deployAt(4 * 60 + 5, "Monitor", "job", { ...job, name: "Nightly job" })).writes).toEqual([]);
    const after = await deployAt(4 * 60 + 15, "Monitor", "job", { ...job, name: "Nightly job" });
    expect(after.writes).toEqual([`POST /monitors/${id.toLowerCase()}/resume`]);
    expect(after.outs).not.toHaveProperty("__handPauseSeen");
  });
});
