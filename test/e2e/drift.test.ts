/**
 * Drift: someone changes or deletes objects through the API. Refresh reports exactly that,
 * and the next up restores the declared state. (That a preview, which refreshes first, shows
 * such a change as an update to make is test/e2e/reconcile.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, type Deployment } from "./support.js";

const resources = [
  { kind: "NotificationChannel", name: "ops", args: { name: "Ops", kind: "email", config: { address: "ops@example.com" } } },
  {
    kind: "Monitor",
    name: "web",
    args: { name: "Web", url: "https://example.com", intervalSeconds: 60, regions: ["eu-west-1", "us-east-1"], paused: false, notificationChannelIds: [{ $ref: "ops" }] },
  },
  { kind: "Heartbeat", name: "backup", args: { name: "Backup", expectedIntervalSeconds: 86_400 } },
];

describe("drift made through the API", () => {
  let deployment: Deployment;
  let ids: Record<string, string>;

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: JSON.stringify(resources) } } });
    const up = await deployment.harness.stack.up();
    ids = up.outputs.ids!.value as Record<string, string>;
  });
  afterAll(async () => deployment?.dispose());

  const call = async (method: string, path: string, body?: unknown): Promise<void> => void (await deployment.emulator.byHand(method, path, body));

  it("refresh shows a changed field, a detached channel, a pause and a deleted object", async () => {
    await call("PATCH", `/monitors/${ids.web}`, { interval_seconds: 600, name: "Renamed by hand" });
    await call("DELETE", `/monitors/${ids.web}/notification_channels/${ids.ops}`);
    await call("POST", `/monitors/${ids.web}/pause`);
    await call("DELETE", `/heartbeats/${ids.backup}`);

    const refresh = await deployment.harness.stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1, delete: 1 });
    const state = (await deployment.harness.stack.exportStack()).deployment.resources as { type: string; outputs: Record<string, unknown> }[];
    const web = state.find((resource) => resource.type.endsWith(":Monitor"))!;
    expect(web.outputs).toMatchObject({ intervalSeconds: 600, name: "Renamed by hand", paused: true, notificationChannelIds: [] });
    expect(state.some((resource) => resource.type.endsWith(":Heartbeat"))).toBe(false);
  });

  it("up restores the declared state and recreates the deleted object", async () => {
    const up = await deployment.harness.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1, create: 1 });
    const web = await deployment.api<Record<string, unknown>>(`/monitors/${ids.web}`);
    expect(web).toMatchObject({ interval_seconds: 60, name: "Web", paused: false });
    const channels = await deployment.api<{ id: string }[]>(`/monitors/${ids.web}/notification_channels`);
    expect(channels.map((channel) => channel.id)).toEqual([ids.ops]);
    const recreated = (up.outputs.ids!.value as Record<string, string>).backup;
    expect(recreated).not.toBe(ids.backup);
    expect(await deployment.api(`/heartbeats/${recreated}`)).toMatchObject({ name: "Backup" });
  });

  it("then previews and refreshes no changes", async () => {
    await deployment.harness.stack.preview({ expectNoChanges: true });
    await deployment.harness.stack.refresh({ expectNoChanges: true });
  });
});
