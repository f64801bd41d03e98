/**
 * The demo program at the repository root (what `npm run demo` deploys) on the real Pulumi engine
 * against the emulator: preview, up, everything the issue asks of the demo in the service, an
 * empty preview, destroy, and nothing left but the archived client.
 */
import { describe, expect, it } from "vitest";
import { type ApiObject, useExampleStack } from "./support.js";

/** The stack, the client, 2 channels, the policy, 4 monitors, the heartbeat group, the heartbeat, the webhook. */
const RESOURCES = 1 + 1 + 2 + 1 + 4 + 1 + 1 + 1;

/** Collections of the objects the demo creates inside its client. */
const CLIENT_COLLECTIONS = ["/monitors", "/notification_channels", "/escalation-policies", "/heartbeat-groups", "/heartbeats", "/webhook-subscriptions"];

/** The stack outputs of index.ts. */
interface DemoOutputs {
  clientId: string;
  monitorIds: Record<"storefront" | "checkout" | "ordersDatabase" | "shopDns", string>;
  notificationChannelIds: Record<"opsEmail" | "shopSlack", string>;
  escalationPolicyId: string;
  heartbeatGroupId: string;
  heartbeatId: string;
  nightlyBackupPingUrl: string;
  webhookSubscriptionId: string;
}

describe("the demo program (Pulumi.yaml and index.ts at the root)", () => {
  const example = useExampleStack({ program: ".", files: ["Pulumi.yaml", "index.ts"], runner: "cli-up" });
  let outputs: DemoOutputs;
  let clientId: string;
  const monitor = async (name: keyof DemoOutputs["monitorIds"]): Promise<ApiObject | undefined> => example.service.find(`/monitors/${outputs.monitorIds[name]}`);

  it("previews every object of the demo to create", async () => {
    const preview = await example.harness.stack.preview();
    expect(preview.changeSummary.create).toBe(RESOURCES);
  });

  it("creates them on up and exports the ids and the heartbeat's ping URL, a secret", async () => {
    const up = await example.harness.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(RESOURCES);
    outputs = Object.fromEntries(Object.entries(up.outputs).map(([name, output]) => [name, output.value])) as DemoOutputs;
    clientId = outputs.clientId;
    expect(up.outputs["nightlyBackupPingUrl"]?.secret).toBe(true);
    const heartbeat = await example.service.find(`/heartbeats/${outputs.heartbeatId}`);
    expect(heartbeat).toMatchObject({ heartbeat_group_id: outputs.heartbeatGroupId, ping_url: outputs.nightlyBackupPingUrl });
  });

  it("puts everything inside the client", async () => {
    expect(await example.service.find(`/clients/${clientId}`)).toMatchObject({ name: "Acme Shop", archived: false });
    const counts = await Promise.all(CLIENT_COLLECTIONS.map(async (collection) => (await example.service.list(collection, { client_id: clientId })).length));
    expect(counts).toEqual([4, 2, 1, 1, 1, 1]);
  });

  it("monitors the storefront's status and certificate, the checkout's content, the database and DNS", async () => {
    expect(await monitor("storefront")).toMatchObject({ monitor_type: "http", expected_status_code: 200, ssl_expiry_alert_days: 14 });
    expect(await monitor("checkout")).toMatchObject({ monitor_type: "http", alert_type: "keyword", keyword: "Pay now" });
    expect(await monitor("ordersDatabase")).toMatchObject({
      monitor_type: "tcp",
      tcp_port: 5432,
      maintenance_from: "02:00",
      maintenance_to: "03:00",
      maintenance_timezone: "Europe/Berlin",
      maintenance_weekdays: ["sun"],
    });
    expect(await monitor("shopDns")).toMatchObject({ monitor_type: "dns", dns_query: "shop.acme.example", dns_type: "A" });
  });

  it("alerts the email and chat channels and escalates through the policy", async () => {
    const { opsEmail, shopSlack } = outputs.notificationChannelIds;
    const attached = await example.service.list(`/monitors/${outputs.monitorIds.storefront}/notification_channels`);
    expect(attached.map((channel) => channel.id).sort()).toEqual([opsEmail, shopSlack].sort());
    expect(await monitor("storefront")).toMatchObject({ escalation_policy_id: outputs.escalationPolicyId });
    expect(await example.service.find(`/notification_channels/${shopSlack}`)).toMatchObject({ kind: "slack", credentials_set: true });
    const [subscription] = await example.service.list("/webhook-subscriptions", { client_id: clientId });
    expect(subscription).toMatchObject({ id: outputs.webhookSubscriptionId, events: ["incident.created", "incident.acknowledged", "incident.resolved"] });
  });

  it("previews no changes right after up", async () => {
    const preview = await example.harness.stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary.same).toBe(RESOURCES);
  });

  it("destroys everything, leaving only the archived client", async () => {
    const destroy = await example.harness.stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(RESOURCES);
    for (const collection of CLIENT_COLLECTIONS) {
      expect(await example.service.list(collection, { client_id: clientId })).toEqual([]);
    }
    expect(await example.service.find(`/clients/${clientId}`)).toMatchObject({ archived: true });
  });
});
