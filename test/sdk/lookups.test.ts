/**
 * Lookups against the emulator, with the connection taken from the environment as a script or a
 * Pulumi program without stack configuration would.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiClient } from "../../provider/http/client.js";
import * as mon from "../../sdk/index.js";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";

let emulator: TestEmulator;
let api: ApiClient;
const ids: Record<string, string> = {};

beforeAll(async () => {
  emulator = await startTestEmulator();
  vi.stubEnv("MONITORING_API_URL", emulator.baseUrl);
  vi.stubEnv("MONITORING_API_KEY", emulator.apiKey);
  api = new ApiClient({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey });
  const create = async (path: string, body: Record<string, unknown>) => (await api.request<{ id: string }>("POST", path, { body })).data.id;
  ids["client"] = await create("/clients", { name: "Acme" });
  ids["channel"] = await create("/notification_channels", { name: "ops", kind: "email", config: { address: "ops@example.com" } });
  ids["policy"] = await create("/escalation-policies", { name: "on-call", steps: [{ delay_minutes: 5, notification_channel_ids: [ids["channel"]] }] });
  ids["monitor"] = await create("/monitors", { name: "web", url: "https://example.com", escalation_policy_id: ids["policy"] });
  ids["clientMonitor"] = await create("/monitors", { name: "web", url: "https://acme.example", client_id: ids["client"] });
  await create("/monitors", { name: "twin", url: "https://a.example" });
  await create("/monitors", { name: "twin", url: "https://b.example" });
  await api.request("POST", `/monitors/${ids["monitor"]}/notification_channels/${ids["channel"]}`);
});
afterAll(async () => {
  // The unit files share their processes (vitest.config.mts).
  vi.unstubAllEnvs();
  await api.close();
  await emulator.stop();
});

describe("lookups", () => {
  it("find a monitor by id, with its associations, camelCase", async () => {
    const monitor = await mon.getMonitor({ id: ids["monitor"] as string });
    expect(monitor).toMatchObject({
      id: ids["monitor"],
      name: "web",
      url: "https://example.com",
      intervalSeconds: 60,
      escalationPolicyId: ids["policy"],
      notificationChannelIds: [ids["channel"]],
      paused: false,
      status: "PENDING",
    });
  });

  it("find by name outside any client, or inside the client named", async () => {
    expect((await mon.getMonitor({ name: "web" })).id).toBe(ids["monitor"]);
    expect((await mon.getMonitor({ name: "web", clientId: ids["client"] as string })).url).toBe("https://acme.example");
    expect((await mon.getClient({ name: "Acme" })).id).toBe(ids["client"]);
    expect((await mon.getNotificationChannel({ name: "ops" })).config).toEqual({ address: "ops@example.com" });
    expect((await mon.getEscalationPolicy({ name: "on-call" })).steps).toEqual([
      { delayMinutes: 5, notificationChannelIds: [ids["channel"]], urgency: "high" },
    ]);
  });

  it.each([
    [{ name: "nothing" }, 'No Monitor named "nothing" outside any client'],
    [{ name: "twin" }, '2 Monitors are named "twin" outside any client'],
    [{ id: "5b7c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4" }, "No Monitor with id 5b7c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4"],
  ])("fail clearly for %j", async (query, message) => {
    await expect(mon.getMonitor(query)).rejects.toThrow(message);
  });
});
