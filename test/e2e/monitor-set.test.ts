/**
 * A MonitorSet through its lifecycle on the real engine, on one stack: partial failures of a
 * create and of an update, each recorded in state, and the next up that carries on without
 * duplicates (what the failure recorded read back through the provider's interface, as a
 * refresh reads it); then an edit that touches only the edited monitor together with an added and a
 * removed monitor (the up's diff, the one its preview shows), an empty preview whose refresh
 * reads one list page; a monitor replaced (its client changes) whose old object's delete fails,
 * kept recorded under a key of its own and deleted by the next up, as the engine does a single
 * Monitor's; destroy.
 *
 * The provider's own part goes through its interface, without an engine: a set's create in one
 * batch call, and the requests of a replayed batch (test/provider/monitor-set-batches.test.ts); a
 * member changed by hand found by a refresh of one list page and patched alone
 * (test/provider/monitor-set-requests.test.ts). The drift report of a set's members, the
 * refresh recording them and the next up putting them back are test/e2e/hand-changes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher } from "../../provider/index.js";
import { deploy, type Deployment } from "./support.js";

type Monitors = Record<string, Record<string, unknown>>;

const declare = (monitors: Monitors) => JSON.stringify([{ kind: "MonitorSet", name: "fleet", args: { monitors } }]);

const monitors: Monitors = Object.fromEntries(
  Array.from({ length: 12 }, (_, index) => [`site-${index}`, { name: `Site ${index}`, url: `https://site-${index}.example.com`, intervalSeconds: 60 }]),
);
const slower: Monitors = Object.fromEntries(Object.entries(monitors).map(([key, inputs]) => [key, { ...inputs, intervalSeconds: 120 }]));

interface ApiMonitor {
  id: string;
  name: string;
  interval_seconds: number;
}

describe("a MonitorSet on the real engine", () => {
  let deployment: Deployment;
  let ids: Record<string, string>;

  const recordedSetResource = async (): Promise<{ id: string; outputs: Record<string, unknown> }> => {
    const state = (await deployment.harness.stack.exportStack()).deployment.resources as { type: string; id: string; outputs: Record<string, unknown> }[];
    return state.find((resource) => resource.type.endsWith(":MonitorSet"))!;
  };
  const recordedSet = async (): Promise<Record<string, unknown>> => (await recordedSetResource()).outputs;
  const requests = async () => (await deployment.emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path}`);

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: declare(monitors) } } });
  });
  afterAll(async () => deployment?.dispose());

  // A partial failure: the provider reports the monitors written (their ids and outputs) with the
  // error, the engine records them in state, and the next up carries on from there.
  it("records the monitors created and names the ones that failed", async () => {
    const { admin } = deployment.emulator;
    // A service without batch creates, whose single creates refuse twice.
    await admin.injectFault({ method: "POST", path: "/monitors/batch", status: 404 });
    await admin.injectFault({ method: "POST", path: "/monitors", status: 403, times: 2 });

    await expect(deployment.harness.stack.up()).rejects.toThrow(/MonitorSet \\?"fleet\\?": 2 monitor\(s\) failed[\s\S]*fleet\[site-\d+\]/);
    expect(await deployment.listAll("/monitors")).toHaveLength(10);
    expect(Object.keys((await recordedSet()).ids as Record<string, string>)).toHaveLength(10);
  });

  it("creates only what is missing on the next up, with no duplicate", async () => {
    await deployment.emulator.admin.clearFaults();
    const up = await deployment.harness.stack.up();
    expect(up.summary.resourceChanges?.update).toBe(1);
    const created = await deployment.listAll<ApiMonitor>("/monitors");
    expect(created).toHaveLength(12);
    expect(new Set(created.map((monitor) => monitor.name)).size).toBe(12);
    ids = (up.outputs.setIds!.value as Record<string, Record<string, string>>).fleet!;
    expect(new Set(Object.values(ids))).toEqual(new Set(created.map((monitor) => monitor.id)));
  });

  it("records the monitors updated and names the ones that failed", async () => {
    const { admin } = deployment.emulator;
    await deployment.harness.stack.setConfig("resources", { value: declare(slower) });
    await admin.injectFault({ method: "PATCH", path: "/monitors/*", status: 403, times: 3 });

    await expect(deployment.harness.stack.up()).rejects.toThrow(
      /MonitorSet \\?"fleet\\?": 3 monitor\(s\) failed \(0 to create, 12 to update, 0 to delete[\s\S]*fleet\[site-\d+\]: [^;]*update/,
    );
    const onServer = await deployment.listAll<ApiMonitor>("/monitors");
    const updated = new Set(onServer.filter((monitor) => monitor.interval_seconds === 120).map((monitor) => monitor.id));
    expect(updated.size).toBe(9);
    const recorded = (await recordedSet()).monitors as Monitors;
    for (const [key, id] of Object.entries(ids)) {
      expect(recorded[key]?.intervalSeconds, key).toBe(updated.has(id) ? 120 : 60);
    }
  });

  it("records what the service holds: the provider reads back the outputs recorded after the failure", async () => {
    // The read a refresh makes, through the provider's interface (the engine's own refresh runs
    // before the next up, Pulumi.yaml: refresh: always): what it reads is what the failed update
    // recorded, monitor by monitor.
    const config: Record<string, string> = { "monitoring:apiUrl": deployment.emulator.baseUrl, "monitoring:apiKey": deployment.emulator.apiKey };
    await dispatcher.configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key] as string } });
    const { id, outputs } = await recordedSetResource();
    const { __provider: _serialized, ...recorded } = outputs;
    // In the project's folder, where Pulumi starts the provider: a first read takes the stack's
    // configuration now from there, which still holds the key configured here.
    const cwd = process.cwd();
    process.chdir(deployment.harness.workDir);
    const read = await dispatcher.read(id, recorded).finally(() => process.chdir(cwd));
    expect(read.id).toBe(id);
    expect(read.props).toEqual(recorded);
  });

  it("updates only the monitors that failed on the next up, with nothing lost and no duplicate", async () => {
    await deployment.emulator.admin.clearFaults();
    await deployment.emulator.admin.clearRequestLog();
    const up = await deployment.harness.stack.up();
    expect(up.summary.resourceChanges?.update).toBe(1);
    const patched = (await requests()).filter((request) => request.startsWith("PATCH"));
    expect(patched).toHaveLength(3);
    const onServer = await deployment.listAll<ApiMonitor>("/monitors");
    expect(onServer).toHaveLength(12);
    expect(onServer.every((monitor) => monitor.interval_seconds === 120)).toBe(true);
    expect(up.outputs.setIds!.value).toEqual({ fleet: ids });
  });

  describe("then an edit of one monitor, an added and a removed monitor", () => {
    const { "site-11": _removed, ...kept } = slower;
    const next: Monitors = { ...kept, "site-0": { ...slower["site-0"], intervalSeconds: 300 }, added: { name: "Added", url: "https://added.example.com" } };

    it("applies them as one update of the set, its diff showing the edit on that monitor alone: patches that monitor alone, creates the added monitor and deletes the removed one", async () => {
      await deployment.harness.stack.setConfig("resources", { value: declare(next) });
      await deployment.emulator.admin.clearRequestLog();
      // The up's diff is the one its preview shows (`pulumi up` asks before applying it).
      const up = await deployment.harness.stack.up({ diff: true });
      expect(up.summary.resourceChanges?.update).toBe(1);
      // Each member's block in the set's diff (the stack's outputs, also printed, list the ids alone).
      const member = (key: string) => up.stdout.match(new RegExp(`${key}\\s*: \\{\\n([\\s\\S]*?)\\n\\s*\\}`))?.[1];
      expect(member("site-0")).toMatch(/intervalSeconds\s*:\s*120 => 300/);
      for (const key of Object.keys(kept).filter((key) => key !== "site-0")) {
        expect(member(key), key).toMatch(/intervalSeconds\s*: 120\n/);
        expect(member(key), key).not.toContain("=>");
      }
      const now = (up.outputs.setIds!.value as Record<string, Record<string, string>>).fleet!;
      expect(Object.keys(now).sort()).toEqual(Object.keys(next).sort());
      expect(now["site-0"]).toBe(ids["site-0"]);
      expect(now["site-9"]).toBe(ids["site-9"]);
      // After the refresh's one list page: the edited monitor patched alone; a single new monitor needs no batch.
      const [refresh, ...writes] = await requests();
      expect(refresh).toBe("GET /monitors");
      expect(writes.sort()).toEqual([`PATCH /monitors/${ids["site-0"]}`, `DELETE /monitors/${ids["site-11"]}`, "POST /monitors"].sort());
      expect(await deployment.api<ApiMonitor>(`/monitors/${ids["site-0"]}`)).toMatchObject({ interval_seconds: 300 });
      const names = (await deployment.listAll<ApiMonitor>("/monitors")).map((monitor) => monitor.name);
      expect(names).toHaveLength(12);
      expect(names).toContain("Added");
      expect(names).not.toContain("Site 11");
    });

    it("then previews no changes, its only calls the reads of the refresh before it: one list page, no read per monitor", async () => {
      await deployment.emulator.admin.clearRequestLog();
      await deployment.harness.stack.preview({ expectNoChanges: true });
      expect(await requests()).toEqual(["GET /monitors"]);
    });

    it("replaces a monitor whose client changes and, when the old one's delete fails, keeps it recorded under a key of its own, and the up says so", async () => {
      const { id: clientId } = await deployment.emulator.byHand<{ id: string }>("POST", "/clients", { name: "Moved to" });
      const old = ids["site-1"]!;
      await deployment.harness.stack.setConfig("resources", { value: declare({ ...next, "site-1": { ...next["site-1"], clientId } }) });
      await deployment.emulator.admin.injectFault({ method: "DELETE", path: `/monitors/${old}`, status: 403, times: 1 });
      const leftover = `site-1 (replaced ${old})`;
      await expect(deployment.harness.stack.up()).rejects.toThrow(/the object it replaced stays recorded as fleet\[site-1 \(replaced [0-9a-f-]+\)\], which the next up deletes/);
      const recorded = (await recordedSet()).ids as Record<string, string>;
      expect(recorded[leftover]).toBe(old);
      expect(recorded["site-1"]).not.toBe(old);
      // Both on the service: the successor, and the old one the next up deletes.
      expect((await deployment.listAll<ApiMonitor>("/monitors")).filter((monitor) => monitor.name === "Site 1").map((monitor) => monitor.id).sort()).toEqual([old, recorded["site-1"]].sort());
    });

    it("then the next up deletes the old monitor, and writes nothing else", async () => {
      await deployment.emulator.admin.clearFaults();
      await deployment.emulator.admin.clearRequestLog();
      const up = await deployment.harness.stack.up();
      expect(up.summary.resourceChanges?.update).toBe(1);
      expect((await requests()).filter((request) => !request.startsWith("GET"))).toEqual([`DELETE /monitors/${ids["site-1"]}`]);
      const now = (up.outputs.setIds!.value as Record<string, Record<string, string>>).fleet!;
      expect(Object.keys(now).sort()).toEqual(Object.keys(next).sort());
      expect((await deployment.listAll<ApiMonitor>("/monitors")).map((monitor) => monitor.id)).not.toContain(ids["site-1"]);
    });

    it("destroys every monitor and leaves nothing behind", async () => {
      const destroy = await deployment.harness.stack.destroy();
      expect(destroy.summary.resourceChanges?.delete).toBe(2);
      expect(await deployment.listAll("/monitors")).toEqual([]);
    });
  });
});
