/**
 * Overrides and hand pauses as the provider applies them (provider/pauses.ts), on both emulator
 * profiles, through the dispatcher as the engine drives it, the clock set by `monitoring:now`:
 * - an override run (the command line's one targeted run, PULUMI_MONITORING_OVERRIDE) sends only
 *   the pause call and records `__override` in the outputs, keeping the others as they were, so a
 *   change the program made meanwhile still shows at the next deploy; that deploy applies it and
 *   keeps the pause; the first deploy after `until` resumes the object and drops the record. The
 *   same for a set's member, whose siblings stay as they are; an override ended early (`end`)
 *   resumes it at once;
 * - a refresh that finds a pause made by hand records when it saw it (`__handPauseSeen`), and the
 *   deploys keep it paused 4 hours (`monitoring:handPauses`' default) while other changes apply;
 * - a "pauses only" run (`apply-due`, PULUMI_MONITORING_PAUSES_ONLY) sends only the pauses and
 *   resumes that are due, a single object's or a set's members', and leaves the program's other
 *   changes for the next deploy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher } from "../../provider/index.js";
import { OVERRIDE_VARIABLE } from "../../provider/overrides.js";
import { PAUSES_ONLY_VARIABLE } from "../../provider/pauses.js";
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
   * check, diff and, on a change, update), with `override` asked for by the command line: its
   * writes and its outputs.
   */
  async function deployAt(minutes: number, kind: string, name: string, args: Values, override?: Values | Values[] | "pausesOnly") {
    config["monitoring:now"] = at(minutes);
    if (override === "pausesOnly") process.env[PAUSES_ONLY_VARIABLE] = "1";
    else if (Array.isArray(override)) process.env[OVERRIDE_VARIABLE] = JSON.stringify(override.map((one) => ({ urn: urnOf(kind, name), ...one })));
    else if (override !== undefined) process.env[OVERRIDE_VARIABLE] = JSON.stringify({ urn: urnOf(kind, name), ...override });
    await emulator.admin.clearRequestLog();
    try {
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
    } finally {
      delete process.env[OVERRIDE_VARIABLE];
      delete process.env[PAUSES_ONLY_VARIABLE];
    }
    const writes = (await emulator.admin.requestLog()).filter((request) => request.method !== "GET").map(({ method, path }) => `${method} ${path.toLowerCase()}`);
    return { writes, outs: state.get(name)!.outs };
  }
  const held = (id: string) => emulator.byHand<Values>("GET", `/monitors/${id}`);
  const incident = { until: at(120), reason: "incident 42", by: "alice" };

  it("an override pauses the monitor with one write and keeps the program's other change for the next deploy, which applies it and keeps the pause, until the first deploy after its end resumes it", async () => {
    const web = { name: "Web", url: "https://shop.example", paused: false };
    await deployAt(0, "Monitor", "web", web);
    const id = state.get("web")!.id;

    const run = await deployAt(1, "Monitor", "web", { ...web, name: "Web shop" }, incident);
    expect(run.writes).toEqual([`POST /monitors/${id.toLowerCase()}/pause`]);
    expect(run.outs).toMatchObject({ name: "Web", paused: true, __override: { ...incident, at: at(1) } });

    const during = await deployAt(10, "Monitor", "web", { ...web, name: "Web shop" });
    expect(during.writes).toEqual([`PATCH /monitors/${id.toLowerCase()}`]);
    expect(await held(id)).toMatchObject({ name: "Web shop", paused: true });
    expect(during.outs).toMatchObject({ __override: { ...incident, at: at(1) } });

    const after = await deployAt(125, "Monitor", "web", { ...web, name: "Web shop" });
    expect(after.writes).toEqual([`POST /monitors/${id.toLowerCase()}/resume`]);
    expect(after.outs).not.toHaveProperty("__override");
    expect((await deployAt(130, "Monitor", "web", { ...web, name: "Web shop" })).writes).toEqual([]);
  });

  it("an override of a set's member pauses that member alone; ended early, it resumes it at once", async () => {
    const fleet = { monitors: { api: { name: "Api", url: "https://shop.example/api" }, docs: { name: "Docs", url: "https://shop.example/docs" } } };
    await deployAt(0, "MonitorSet", "fleet", fleet);
    const ids = state.get("fleet")!.outs["ids"] as Record<string, string>;

    const run = await deployAt(1, "MonitorSet", "fleet", fleet, { member: "api", ...incident });
    expect(run.writes).toEqual([`POST /monitors/${ids.api!.toLowerCase()}/pause`]);
    expect(run.outs).toMatchObject({ __override: { api: { ...incident, at: at(1) } }, monitors: { api: { paused: true }, docs: { paused: false } } });
    expect((await deployAt(10, "MonitorSet", "fleet", fleet)).writes).toEqual([]);

    const ended = await deployAt(20, "MonitorSet", "fleet", fleet, { member: "api", end: true });
    expect(ended.writes).toEqual([`POST /monitors/${ids.api!.toLowerCase()}/resume`]);
    expect(ended.outs).not.toHaveProperty("__override");
    expect((await deployAt(30, "MonitorSet", "fleet", fleet)).writes).toEqual([]);
  });

  it("overrides of several members of a set, asked together, pause them in one update, their sibling left as it is", async () => {
    const fleet = { monitors: { api: { name: "Api", url: "https://shop.example/api" }, docs: { name: "Docs", url: "https://shop.example/docs" }, shop: { name: "Shop", url: "https://shop.example/" } } };
    await deployAt(0, "MonitorSet", "fleet", fleet);
    const ids = state.get("fleet")!.outs["ids"] as Record<string, string>;

    const run = await deployAt(1, "MonitorSet", "fleet", fleet, [{ member: "api", ...incident }, { member: "docs", ...incident }]);
    expect(run.writes.sort()).toEqual([`POST /monitors/${ids.api!.toLowerCase()}/pause`, `POST /monitors/${ids.docs!.toLowerCase()}/pause`].sort());
    expect(run.outs).toMatchObject({ __override: { api: { ...incident, at: at(1) }, docs: { ...incident, at: at(1) } }, monitors: { api: { paused: true }, docs: { paused: true }, shop: { paused: false } } });
    expect(run.outs["__override"]).not.toHaveProperty("shop");
  });

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

  it("a pauses-only run sends only the pauses and resumes due, a single monitor's and a set's member's, and leaves the program's other changes to the next deploy", async () => {
    const pauses = [{ from: at(60), to: at(180), reason: "database upgrade" }];
    const shop = { name: "Shop", url: "https://shop.example/shop", pauses };
    const set = (docs: string) => ({ monitors: { api: { name: "Api", url: "https://shop.example/api", pauses }, docs: { name: docs, url: "https://shop.example/docs" } } });
    await deployAt(0, "Monitor", "shop", shop);
    await deployAt(0, "MonitorSet", "catalog", set("Docs"));
    const id = state.get("shop")!.id.toLowerCase();
    const api = (state.get("catalog")!.outs["ids"] as Record<string, string>).api!.toLowerCase();

    expect((await deployAt(30, "Monitor", "shop", { ...shop, name: "Shop v2" }, "pausesOnly")).writes).toEqual([]);
    const started = await deployAt(65, "Monitor", "shop", { ...shop, name: "Shop v2" }, "pausesOnly");
    expect(started.writes).toEqual([`POST /monitors/${id}/pause`]);
    expect(started.outs).toMatchObject({ name: "Shop", paused: true });
    const member = await deployAt(65, "MonitorSet", "catalog", set("Docs v2"), "pausesOnly");
    expect(member.writes).toEqual([`POST /monitors/${api}/pause`]);
    expect(member.outs).toMatchObject({ monitors: { api: { paused: true }, docs: { name: "Docs", paused: false } } });
    expect((await deployAt(70, "MonitorSet", "catalog", set("Docs v2"), "pausesOnly")).writes).toEqual([]);

    expect((await deployAt(185, "Monitor", "shop", { ...shop, name: "Shop v2" }, "pausesOnly")).writes).toEqual([`POST /monitors/${id}/resume`]);
    expect((await deployAt(190, "Monitor", "shop", { ...shop, name: "Shop v2" })).writes).toEqual([`PATCH /monitors/${id}`]);
  });
});
