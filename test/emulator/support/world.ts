/**
 * A set of objects of every kind, made with a full-access key, for tests that call every
 * endpoint: a client made from a template, a channel, a policy, a group, a monitor that was
 * checked, a heartbeat that was pinged, an incident, a webhook subscription with a delivery, and a
 * share link.
 */
import { type TestEmulator, startTestEmulator } from "../../support/emulator.js";
import { contractClientOn, dataOf, type Api } from "./api.js";
import { startReceiver, type Receiver } from "../../support/receiver.js";
import { useStarted } from "../../support/use-started.js";

export interface World {
  api: Api;
  templateId: string;
  clientId: string;
  channelId: string;
  policyId: string;
  groupId: string;
  monitorId: string;
  heartbeatId: string;
  incidentId: string;
  subscriptionId: string;
  deliveryId: string;
  shareLinkId: string;
}

export async function buildWorld(api: Api, webhookUrl: string): Promise<World> {
  const template = dataOf(await api.post("/client-templates", { name: "Agency default", monitor_defaults: { interval_seconds: 120 } }), 201);
  const client = dataOf(await api.post("/clients", { name: "Acme", contact_email: "ops@acme.example", template_id: template.id }), 201);
  const channel = dataOf(await api.post("/notification_channels", { name: "On-call mail", kind: "email", config: { address: "oncall@example.com" } }), 201);
  const policy = dataOf(
    await api.post("/escalation-policies", { name: "Default", steps: [{ delay_minutes: 0, notification_channel_ids: [channel.id] }] }),
    201,
  );
  const group = dataOf(await api.post("/heartbeat-groups", { name: "Nightly jobs" }), 201);
  const monitor = dataOf(await api.post("/monitors", { name: "Homepage", url: "https://example.com", escalation_policy_id: policy.id }), 201);
  dataOf(await api.post(`/monitors/${monitor.id}/notification_channels/${channel.id}`), 201);
  dataOf(await api.post(`/monitors/${monitor.id}/check`), 202);
  const heartbeat = dataOf(await api.post("/heartbeats", { name: "Backup", heartbeat_group_id: group.id }), 201);
  const ping = await fetch(heartbeat.ping_url, { method: "POST" });
  if (ping.status !== 200) throw new Error(`ping failed with ${ping.status}`);
  const incident = dataOf(await api.post("/incidents", { title: "Checkout errors", monitor_id: monitor.id }), 201);
  const subscription = dataOf(await api.post("/webhook-subscriptions", { url: webhookUrl, events: ["*"] }), 201);
  const delivery = dataOf(await api.post(`/webhook-subscriptions/${subscription.id}/test`), 202);
  const shareLink = dataOf(await api.post(`/clients/${client.id}/share-links`, { label: "Status for Acme" }), 201);
  return {
    api,
    templateId: template.id,
    clientId: client.id,
    channelId: channel.id,
    policyId: policy.id,
    groupId: group.id,
    monitorId: monitor.id,
    heartbeatId: heartbeat.id,
    incidentId: incident.id,
    subscriptionId: subscription.id,
    deliveryId: delivery.id,
    shareLinkId: shareLink.id,
  };
}

/**
 * An emulator, a webhook receiver and a world built on them for the tests of the file that calls
 * this, read as `on.emulator`, `on.receiver` and `on.world`.
 */
export function useWorld(): { readonly emulator: TestEmulator; readonly receiver: Receiver; readonly world: World } {
  return useStarted(
    async () => {
      const emulator = await startTestEmulator();
      const receiver = await startReceiver();
      return { emulator, receiver, world: await buildWorld(contractClientOn(emulator), receiver.url) };
    },
    async ({ emulator, receiver }) => {
      await emulator.stop();
      await receiver.close();
    },
  );
}
