/**
 * Taking over objects that already exist. The `import` resource option does not work for
 * dynamic resources (pulumi/pulumi#3550, #16175), so every kind takes an `adoptId`: create reads
 * that object and converges it to the declared inputs instead of making a new one.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, type Deployment } from "./support.js";

describe("adopting objects created outside Pulumi", () => {
  let deployment: Deployment;
  let existing: { channel: string; monitor: string };

  async function create(path: string, body: unknown): Promise<string> {
    const response = await fetch(`${deployment.emulator.baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${deployment.emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return ((await response.json()) as { data: { id: string } }).data.id;
  }

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: "[]" } } });
    existing = {
      channel: await create("/notification_channels", { name: "Ops (hand-made)", kind: "email", config: { address: "ops@example.com" } }),
      monitor: await create("/monitors", { name: "Website (hand-made)", url: "https://example.com", interval_seconds: 300 }),
    };
  });
  afterAll(async () => deployment?.dispose());

  it("takes them over and converges them to the declared inputs", async () => {
    const resources = [
      { kind: "NotificationChannel", name: "ops", args: { adoptId: existing.channel, name: "Ops", kind: "email", config: { address: "ops@example.com" } } },
      {
        kind: "Monitor",
        name: "web",
        args: { adoptId: existing.monitor, name: "Website", url: "https://example.com", intervalSeconds: 60, notificationChannelIds: [{ $ref: "ops" }] },
      },
    ];
    await deployment.harness.stack.setConfig("resources", { value: JSON.stringify(resources) });
    const up = await deployment.harness.stack.up();
    expect(up.outputs.ids!.value).toEqual({ ops: existing.channel, web: existing.monitor });
    expect(await deployment.listAll("/monitors")).toHaveLength(1);
    expect(await deployment.listAll("/notification_channels")).toHaveLength(1);
    expect(await deployment.api(`/monitors/${existing.monitor}`)).toMatchObject({ name: "Website", interval_seconds: 60 });
    const channels = await deployment.api<{ id: string }[]>(`/monitors/${existing.monitor}/notification_channels`);
    expect(channels.map((channel) => channel.id)).toEqual([existing.channel]);
  });

  it("then previews and refreshes no changes", async () => {
    await deployment.harness.stack.preview({ expectNoChanges: true });
    await deployment.harness.stack.refresh({ expectNoChanges: true });
  });

  it("still refuses the import resource option, as Pulumi does for every dynamic resource in this version", async () => {
    const resources = [
      { kind: "NotificationChannel", name: "imported", args: { name: "Other", kind: "email", config: { address: "x@example.com" } }, options: { import: existing.channel } },
    ];
    await deployment.harness.stack.setConfig("resources", { value: JSON.stringify(resources) });
    // If this starts to pass, Pulumi has fixed pulumi/pulumi#3550: support `import` then.
    await expect(deployment.harness.stack.preview()).rejects.toThrow(/toJavaScript|import/);
  });
});
