/**
 * examples/quickstart on the real Pulumi engine against the emulator: preview, up, an empty
 * preview, destroy, and nothing left in the service.
 */
import { describe, expect, it } from "vitest";
import { useExampleStack } from "./support.js";

describe("examples/quickstart", () => {
  const example = useExampleStack({ program: "examples/quickstart", runner: "cli-up" });
  let ids: { monitorId: string; channelId: string };

  it("previews a channel and a monitor to create", async () => {
    const preview = await example.harness.stack.preview();
    expect(preview.changeSummary.create).toBe(3); // the stack, the channel, the monitor
  });

  it("creates a monitor that emails the channel on up", async () => {
    const up = await example.harness.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(3);
    ids = { monitorId: up.outputs.monitorId?.value, channelId: up.outputs.channelId?.value };
    expect(await example.service.find(`/monitors/${ids.monitorId}`)).toMatchObject({
      url: "https://www.example.com",
      expected_status_code: 200,
      ssl_expiry_alert_days: 14,
    });
    const attached = await example.service.list(`/monitors/${ids.monitorId}/notification_channels`);
    expect(attached.map((channel) => channel.id)).toEqual([ids.channelId]);
  });

  it("previews no changes right after up", async () => {
    const preview = await example.harness.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary.same).toBe(3);
  });

  it("destroys both, leaving nothing in the service", async () => {
    const destroy = await example.harness.stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(3);
    expect(await example.service.find(`/monitors/${ids.monitorId}`)).toBeUndefined();
    expect(await example.service.find(`/notification_channels/${ids.channelId}`)).toBeUndefined();
  });
});
