/**
 * examples/quickstart on the real Pulumi engine against the emulator: preview, up, an empty
 * preview, destroy, and nothing left in the service.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { createTestStack, type TestStack } from "../support/pulumi.js";
import { ServiceView, connectionConfig } from "./support.js";

describe("examples/quickstart", () => {
  let emulator: TestEmulator;
  let service: ServiceView;
  let harness: TestStack;
  let ids: { monitorId: string; channelId: string };

  beforeAll(async () => {
    emulator = await startTestEmulator();
    service = new ServiceView(emulator);
    harness = await createTestStack({ program: "examples/quickstart", config: connectionConfig(emulator), runner: "cli" });
  });
  afterAll(async () => {
    await harness?.dispose();
    await emulator?.stop();
  });

  it("previews a channel and a monitor to create", async () => {
    const preview = await harness.stack.preview();
    expect(preview.changeSummary.create).toBe(3); // the stack, the channel, the monitor
  });

  it("creates a monitor that emails the channel on up", async () => {
    const up = await harness.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(3);
    ids = { monitorId: up.outputs.monitorId?.value, channelId: up.outputs.channelId?.value };
    expect(await service.find(`/monitors/${ids.monitorId}`)).toMatchObject({
      url: "https://www.example.com",
      expected_status_code: 200,
      ssl_expiry_alert_days: 14,
    });
    const attached = await service.list(`/monitors/${ids.monitorId}/notification_channels`);
    expect(attached.map((channel) => channel.id)).toEqual([ids.channelId]);
  });

  it("previews no changes right after up", async () => {
    const preview = await harness.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary.same).toBe(3);
  });

  it("destroys both, leaving nothing in the service", async () => {
    const destroy = await harness.stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(3);
    expect(await service.find(`/monitors/${ids.monitorId}`)).toBeUndefined();
    expect(await service.find(`/notification_channels/${ids.channelId}`)).toBeUndefined();
  });
});
