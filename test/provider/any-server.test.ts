/**
 * Channel settings the spec does not show are the server's to judge (docs/any-server.md): a
 * server that refuses a Slack channel's `config` key this package does not know, or a channel
 * kind it does not know (the emulator's default profile), answers with an error the provider
 * words as the resource and the input, through the provider as the dynamic-provider host runs it
 * (`dispatcher`), and nothing is created. A server that accepts them, and the preview's warnings
 * on the real engine: test/e2e/any-server.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatcher } from "../../provider/index.js";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";

const channels = [
  { name: "team-chat", args: { name: "Team chat", kind: "slack", config: { channel: "#ops", threadMode: "replies" } } },
  { name: "carrier", args: { name: "Carrier", kind: "pigeon", config: { loft: "north" } } },
];

describe("a server that refuses channel kinds and keys this package does not know (default profile)", () => {
  let emulator: TestEmulator;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    const config: Record<string, string> = { "monitoring:apiUrl": emulator.baseUrl, "monitoring:apiKey": emulator.apiKey };
    await dispatcher.configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key] as string } });
  });
  afterAll(() => emulator.stop());

  it("answers with an error that names the resource and the field, and nothing is created", async () => {
    const failures: string[] = [];
    for (const { name, args } of channels) {
      const { inputs, failures: refused } = await dispatcher.check({}, { ...args, __urn: `urn:pulumi:dev::declared::pulumi-nodejs:dynamic/monitoring:NotificationChannel::${name}` });
      // Preview lets them through: the server judges.
      expect(refused ?? []).toEqual([]);
      failures.push(await dispatcher.create(inputs!).then(() => "created", (error: Error) => error.message));
    }
    expect(failures[0]).toMatch(/^NotificationChannel "team-chat": create failed: the service rejected config\.threadMode: is not a known field/);
    expect(failures[1]).toMatch(/^NotificationChannel "carrier": create failed: the service rejected kind: must be one of/);
    expect(await emulator.byHand("GET", "/notification_channels?all_clients=true")).toEqual([]);
  });
});
