/**
 * A MonitorSet through its lifecycle on the real engine: up in one batch call, an empty preview,
 * an edit that touches only the edited monitor together with an added and a removed monitor,
 * drift made by hand, an empty preview and refresh, destroy. Then partial failures of a create and
 * of an update, each recorded in state, and the next up that carries on without duplicates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, type Deployment } from "./support.js";

type Monitors = Record<string, Record<string, unknown>>;

const declare = (monitors: Monitors) => JSON.stringify([{ kind: "MonitorSet", name: "fleet", args: { monitors } }]);

const fleet: Monitors = {
  storefront: { name: "Storefront", url: "https://shop.example.com", regions: ["eu-west-1", "us-east-1"] },
  checkout: { name: "Checkout", url: "https://shop.example.com/checkout", intervalSeconds: 60 },
  search: { name: "Search", url: "https://shop.example.com/search", paused: true },
};

interface ApiMonitor {
  id: string;
  name: string;
  interval_seconds: number;
  paused: boolean;
}

describe("a MonitorSet on the real engine", () => {
  let deployment: Deployment;
  let ids: Record<string, string>;

  const setIds = async (): Promise<Record<string, string>> => {
    const { outputs } = await deployment.harness.stack.up();
    return (outputs.setIds!.value as Record<string, Record<string, string>>).fleet!;
  };
  const requests = async () => (await deployment.emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path}`);
  /** The requests of an up after the read of the refresh before it (Pulumi.yaml: refresh: always): one list page, a set knowing its size. */
  const afterRefresh = async (): Promise<string[]> => {
    const all = await requests();
    expect(all[0]).toBe("GET /monitors");
    return all.slice(1);
  };

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: declare(fleet) } } });
  });
  afterAll(async () => deployment?.dispose());

  it("creates every monitor with one batch call, plus the declared pause", async () => {
    const up = await deployment.harness.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(2); // the set and the stack
    ids = (up.outputs.setIds!.value as Record<string, Record<string, string>>).fleet!;
    expect(Object.keys(ids).sort()).toEqual(["checkout", "search", "storefront"]);
    expect(await requests()).toEqual(["POST /monitors/batch", `POST /monitors/${ids.search}/pause`]);
    const monitors = await deployment.listAll<ApiMonitor>("/monitors");
    expect(monitors.map((monitor) => monitor.name).sort()).toEqual(["Checkout", "Search", "Storefront"]);
    expect(monitors.find((monitor) => monitor.id === ids.search)?.paused).toBe(true);
  });

  it("previews no changes, its only calls the reads of the refresh before it: one list page, no read per monitor", async () => {
    await deployment.emulator.admin.clearRequestLog();
    await deployment.harness.stack.preview({ expectNoChanges: true });
    expect(await requests()).toEqual(["GET /monitors"]);
  });

  it("previews an edit of one monitor, an added and a removed monitor as one update of the set, the edit shown on that monitor alone", async () => {
    const { search: _removed, ...kept } = fleet;
    const next = { ...kept, checkout: { ...fleet.checkout, intervalSeconds: 120 }, status: { name: "Status page", url: "https://status.example.com" } };
    await deployment.harness.stack.setConfig("resources", { value: declare(next) });
    const preview = await deployment.harness.stack.preview({ diff: true });
    expect(preview.changeSummary.update).toBe(1);
    expect(preview.stdout).toMatch(/checkout[\s\S]*intervalSeconds\s*:\s*60 => 120/);
    expect(preview.stdout).not.toMatch(/storefront\s*:\s*\{[\s\S]*=>/);
  });

  it("applies the edit to that monitor alone, creates the added monitor and deletes the removed one", async () => {
    await deployment.emulator.admin.clearRequestLog();
    const now = await setIds();
    expect(Object.keys(now).sort()).toEqual(["checkout", "status", "storefront"]);
    expect(now.storefront).toBe(ids.storefront);
    expect(now.checkout).toBe(ids.checkout);
    // The edited monitor patched alone; a single new monitor needs no batch.
    expect((await afterRefresh()).sort()).toEqual([`PATCH /monitors/${ids.checkout}`, `DELETE /monitors/${ids.search}`, "POST /monitors"].sort());
    expect(await deployment.api<ApiMonitor>(`/monitors/${ids.checkout}`)).toMatchObject({ interval_seconds: 120 });
    const monitors = await deployment.listAll<ApiMonitor>("/monitors");
    expect(monitors.map((monitor) => monitor.name).sort()).toEqual(["Checkout", "Status page", "Storefront"]);
    ids = now;
  });

  it("shows drift made by hand on refresh", async () => {
    const response = await fetch(`${deployment.emulator.baseUrl}/monitors/${ids.storefront}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${deployment.emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Renamed by hand" }),
    });
    expect(response.ok).toBe(true);
    const refresh = await deployment.harness.stack.refresh();
    expect(refresh.summary.resourceChanges?.update).toBe(1);
    const state = (await deployment.harness.stack.exportStack()).deployment.resources as { type: string; outputs: Record<string, unknown> }[];
    const set = state.find((resource) => resource.type.endsWith(":MonitorSet"))!;
    expect((set.outputs.monitors as Monitors).storefront).toMatchObject({ name: "Renamed by hand" });
  });

  it("restores the declared monitor on the next up, patching it alone", async () => {
    await deployment.emulator.admin.clearRequestLog();
    await deployment.harness.stack.up();
    expect(await afterRefresh()).toEqual([`PATCH /monitors/${ids.storefront}`]);
    expect(await deployment.api<ApiMonitor>(`/monitors/${ids.storefront}`)).toMatchObject({ name: "Storefront" });
  });

  it("then previews and refreshes no changes", async () => {
    await deployment.harness.stack.preview({ expectNoChanges: true });
    // A set knows its size: a refresh reads its members from the list, one page for three monitors, no GET by id.
    await deployment.emulator.admin.clearRequestLog();
    await deployment.harness.stack.refresh({ expectNoChanges: true });
    expect(await requests()).toEqual(["GET /monitors"]);
  });

  it("destroys every monitor and leaves nothing behind", async () => {
    const destroy = await deployment.harness.stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(2);
    expect(await deployment.listAll("/monitors")).toEqual([]);
  });
});

/**
 * What the engine does with a set's partial failure: the provider reports the monitors written
 * (their ids and outputs) with the error, the engine records them in state, and the next up
 * carries on from there. Which requests a set sends when its batch is replayed is the provider's
 * own (test/provider/monitor-set-batches.test.ts).
 */
describe("a MonitorSet whose creates, then whose updates, partly fail", () => {
  let deployment: Deployment;
  const monitors: Monitors = Object.fromEntries(
    Array.from({ length: 12 }, (_, index) => [`site-${index}`, { name: `Site ${index}`, url: `https://site-${index}.example.com`, intervalSeconds: 60 }]),
  );
  const slower: Monitors = Object.fromEntries(Object.entries(monitors).map(([key, inputs]) => [key, { ...inputs, intervalSeconds: 120 }]));
  let ids: Record<string, string>;

  const recordedSet = async (): Promise<Record<string, unknown>> => {
    const state = (await deployment.harness.stack.exportStack()).deployment.resources as { type: string; outputs?: Record<string, unknown> }[];
    return state.find((resource) => resource.type.endsWith(":MonitorSet"))!.outputs!;
  };
  const requests = async () => (await deployment.emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path}`);

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: declare(monitors) } } });
  });
  afterAll(async () => deployment?.dispose());

  it("records the monitors created and names the ones that failed", async () => {
    const { admin } = deployment.emulator;
    // A service without batch creates, whose single creates refuse twice.
    await admin.injectFault({ method: "POST", path: "/monitors/batch", status: 404 });
    await admin.injectFault({ method: "POST", path: "/monitors", status: 403, times: 2 });

    await expect(deployment.harness.stack.up()).rejects.toThrow(/MonitorSet \\?"fleet\\?": 2 monitor\(s\) failed[\s\S]*monitors\[\\?"site-\d+\\?"\]/);
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
      /MonitorSet \\?"fleet\\?": 3 monitor\(s\) failed \(0 to create, 12 to update, 0 to delete[\s\S]*monitors\[\\?"site-\d+\\?"\]: [^;]*update/,
    );
    const onServer = await deployment.listAll<ApiMonitor>("/monitors");
    const updated = new Set(onServer.filter((monitor) => monitor.interval_seconds === 120).map((monitor) => monitor.id));
    expect(updated.size).toBe(9);
    const recorded = (await recordedSet()).monitors as Monitors;
    for (const [key, id] of Object.entries(ids)) {
      expect(recorded[key]?.intervalSeconds, key).toBe(updated.has(id) ? 120 : 60);
    }
  });

  it("records what the service holds: a refresh after the failure reads the same outputs", async () => {
    // The refresh clears only the engine's record of the failure.
    const outputs = async () => (await deployment.harness.stack.exportStack()).deployment.resources.map((resource: { outputs?: unknown }) => resource.outputs);
    const recordedOutputs = await outputs();
    await deployment.harness.stack.refresh();
    expect(await outputs()).toEqual(recordedOutputs);
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

  it("then previews and refreshes no changes", async () => {
    await deployment.harness.stack.preview({ expectNoChanges: true });
    await deployment.harness.stack.refresh({ expectNoChanges: true });
  });
});
