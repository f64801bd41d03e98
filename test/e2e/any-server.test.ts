/**
 * Channel settings the spec does not show are the server's to judge (docs/any-server.md): a Slack
 * channel without credentials and with a `config` key this package does not know, and a channel of
 * a kind it does not know, pass preview with no API request and a warning naming the resource and
 * the key. A server that accepts them (the emulator's alt profile) stores the bodies as written; a
 * server that refuses them (the default profile) answers with an error the provider words as the
 * resource and the input: that answer is the provider's, proven through its own interface
 * (test/provider/any-server.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, type Deployment } from "./support.js";

const resources = [
  { kind: "NotificationChannel", name: "team-chat", args: { name: "Team chat", kind: "slack", config: { channel: "#ops", threadMode: "replies" } } },
  { kind: "NotificationChannel", name: "carrier", args: { name: "Carrier", kind: "pigeon", config: { loft: "north" } } },
];

describe("a server that accepts channel kinds and keys this package does not know (alt profile)", () => {
  let deployment: Deployment;
  beforeAll(async () => {
    deployment = await deploy({ profile: "alt", program: "test/programs/declared", config: { resources: { value: JSON.stringify(resources) } } });
  });
  // The objects go away with the emulator: no destroy.
  afterAll(async () => deployment?.dispose({ keepObjects: true }));

  it("previews them with no API request, warning about the unknown key by resource and key", async () => {
    await deployment.emulator.admin.clearRequestLog();
    const preview = await deployment.harness.stack.preview();
    expect(preview.changeSummary).toMatchObject({ create: 3 });
    expect(await deployment.emulator.admin.requestLog()).toEqual([]);
    // A warning of the engine, on the resource's row (a line the provider printed would show as info, without "warning:").
    expect(preview.stdout).toMatch(/warning: NotificationChannel "team-chat": config\.threadMode is not a key this package knows/);
    expect(preview.stdout).toMatch(/warning: NotificationChannel "carrier": config\.loft is not a key this package knows/);
  });

  it("creates them with the bodies as written", async () => {
    await deployment.emulator.admin.clearRequestLog();
    await deployment.harness.stack.up();
    const creates = (await deployment.emulator.admin.requestLog()).filter(({ method, path }) => method === "POST" && path === "/notification_channels");
    expect(creates).toHaveLength(2);
    const channels = await deployment.listAll<Record<string, unknown>>("/notification_channels");
    expect(channels).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "Team chat", kind: "slack", config: { channel: "#ops", threadMode: "replies" }, credentials_set: false }),
        expect.objectContaining({ name: "Carrier", kind: "pigeon", config: { loft: "north" } }),
      ]),
    );
    await deployment.harness.stack.preview({ expectNoChanges: true });
  });
});
