/**
 * Every operation of spec section 4, with its scope and success status, and how to make one
 * successful call of it against a {@link World}. Calls that consume their target (deletes,
 * archive) create a fresh one first.
 */
// @ts-nocheck

import { dataOf } from "./api.js";
import type { World } from "./world.js";

export interface Call {
  params: Record<string, string>;
  body?: unknown;
}

export interface Endpoint {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The spec's path, e.g. `/monitors/{monitorID}`. */
  path: string;
  /** `null` where the spec lists no scope: any valid key may call it. */
  scope: string | null;
  status: 200 | 201 | 202 | 204;
  /** What `data` holds: one object, a paginated list, an array of results (batch), or nothing (204). */
  shape: "object" | "list" | "array" | "none";
  prepare(world: World): Promise<Call>;
}

const fixed = (params: (world: World) => Record<string, string>, body?: (world: World) => unknown) =>
  async (world: World): Promise<Call> => ({ params: params(world), body: body?.(world) });

const none = fixed(() => ({}));
const monitor = (world: World) => ({ monitorID: world.monitorId });
const heartbeat = (world: World) => ({ heartbeatID: world.heartbeatId });
const client = (world: World) => ({ clientID: world.clientId });

async function freshMonitor(world: World): Promise<string> {
  return dataOf(await world.api.post("/monitors", { name: "Disposable", url: "https://disposable.example.com" }), 201).id;
}
async function freshChannel(world: World): Promise<string> {
  return dataOf(await world.api.post("/notification_channels", { name: "Disposable", kind: "sms", config: { phone_number: "+14155550100" } }), 201).id;
}
async function freshClient(world: World): Promise<string> {
  return dataOf(await world.api.post("/clients", { name: "Disposable client" }), 201).id;
}

export const ENDPOINTS: Endpoint[] = [
  // 4.2 Monitors
  { method: "GET", path: "/monitors", scope: "monitor.write", status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/monitors", scope: "monitor.write", status: 201, shape: "object", prepare: fixed(() => ({}), () => ({ name: "API", url: "https://api.example.com" })) },
  { method: "POST", path: "/monitors/batch", scope: "monitor.write", status: 201, shape: "array", prepare: fixed(() => ({}), () => ({ monitors: [{ name: "A", url: "https://a.example.com" }, { name: "B", monitor_type: "tcp", tcp_host: "db.example.com", tcp_port: 5432 }] })) },
  { method: "POST", path: "/monitors/batch/dry-run", scope: "monitor.write", status: 201, shape: "object", prepare: fixed(() => ({}), () => ({ monitors: [{ name: "C", url: "https://c.example.com" }] })) },
  { method: "GET", path: "/monitors/{monitorID}", scope: "monitor.delete", status: 200, shape: "object", prepare: fixed(monitor) },
  { method: "PUT", path: "/monitors/{monitorID}", scope: "monitor.delete", status: 200, shape: "object", prepare: fixed(monitor, (world) => ({ name: "Homepage", url: "https://example.com", escalation_policy_id: world.policyId })) },
  { method: "PATCH", path: "/monitors/{monitorID}", scope: "monitor.delete", status: 200, shape: "object", prepare: fixed(monitor, () => ({ interval_seconds: 30 })) },
  { method: "DELETE", path: "/monitors/{monitorID}", scope: "monitor.delete", status: 204, shape: "none", prepare: async (world) => ({ params: { monitorID: await freshMonitor(world) } }) },
  { method: "GET", path: "/monitors/{monitorID}/availability", scope: "monitor.read", status: 200, shape: "object", prepare: fixed(monitor) },
  { method: "GET", path: "/monitors/{monitorID}/certificates", scope: "monitor.read", status: 200, shape: "list", prepare: fixed(monitor) },
  { method: "POST", path: "/monitors/{monitorID}/check", scope: "monitor.write", status: 202, shape: "object", prepare: fixed(monitor) },
  { method: "PUT", path: "/monitors/{monitorID}/escalation-policy", scope: "monitor.delete", status: 200, shape: "object", prepare: fixed(monitor, (world) => ({ escalation_policy_id: world.policyId })) },
  { method: "DELETE", path: "/monitors/{monitorID}/escalation-policy", scope: "monitor.delete", status: 204, shape: "none", prepare: async (world) => {
    const id = await freshMonitor(world);
    dataOf(await world.api.put(`/monitors/${id}/escalation-policy`, { escalation_policy_id: world.policyId }), 200);
    return { params: { monitorID: id } };
  } },
  { method: "GET", path: "/monitors/{monitorID}/incidents", scope: "monitor.read", status: 200, shape: "list", prepare: fixed(monitor) },
  { method: "GET", path: "/monitors/{monitorID}/notification_channels", scope: "monitor.read", status: 200, shape: "list", prepare: fixed(monitor) },
  { method: "POST", path: "/monitors/{monitorID}/notification_channels/{channelID}", scope: "monitor.delete", status: 201, shape: "object", prepare: fixed((world) => ({ monitorID: world.monitorId, channelID: world.channelId })) },
  { method: "DELETE", path: "/monitors/{monitorID}/notification_channels/{channelID}", scope: "monitor.delete", status: 204, shape: "none", prepare: async (world) => {
    const channelId = await freshChannel(world);
    dataOf(await world.api.post(`/monitors/${world.monitorId}/notification_channels/${channelId}`), 201);
    return { params: { monitorID: world.monitorId, channelID: channelId } };
  } },
  { method: "POST", path: "/monitors/{monitorID}/pause", scope: "monitor.write", status: 201, shape: "object", prepare: async (world) => ({ params: { monitorID: await freshMonitor(world) } }) },
  { method: "GET", path: "/monitors/{monitorID}/regions", scope: "monitor.read", status: 200, shape: "list", prepare: fixed(monitor) },
  { method: "GET", path: "/monitors/{monitorID}/response_times", scope: "monitor.read", status: 200, shape: "object", prepare: fixed(monitor) },
  { method: "GET", path: "/monitors/{monitorID}/results", scope: "monitor.read", status: 200, shape: "list", prepare: fixed(monitor) },
  { method: "POST", path: "/monitors/{monitorID}/resume", scope: "monitor.write", status: 201, shape: "object", prepare: async (world) => {
    const id = await freshMonitor(world);
    dataOf(await world.api.post(`/monitors/${id}/pause`), 201);
    return { params: { monitorID: id } };
  } },
  { method: "POST", path: "/monitors/{monitorID}/test-alert", scope: "monitor.write", status: 202, shape: "object", prepare: fixed(monitor) },

  // 4.3 Heartbeats
  { method: "GET", path: "/heartbeats", scope: "heartbeat.write", status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/heartbeats", scope: "heartbeat.write", status: 201, shape: "object", prepare: fixed(() => ({}), () => ({ name: "Cron", expected_interval_seconds: 600 })) },
  { method: "GET", path: "/heartbeats/{heartbeatID}", scope: "heartbeat.write", status: 200, shape: "object", prepare: fixed(heartbeat) },
  { method: "PUT", path: "/heartbeats/{heartbeatID}", scope: "heartbeat.write", status: 200, shape: "object", prepare: fixed(heartbeat, (world) => ({ name: "Backup", heartbeat_group_id: world.groupId })) },
  { method: "PATCH", path: "/heartbeats/{heartbeatID}", scope: "heartbeat.write", status: 200, shape: "object", prepare: fixed(heartbeat, () => ({ grace_period_seconds: 120 })) },
  { method: "DELETE", path: "/heartbeats/{heartbeatID}", scope: "heartbeat.write", status: 204, shape: "none", prepare: async (world) => ({
    params: { heartbeatID: dataOf(await world.api.post("/heartbeats", { name: "Disposable" }), 201).id },
  }) },
  { method: "GET", path: "/heartbeats/{heartbeatID}/availability", scope: "heartbeat.read", status: 200, shape: "object", prepare: fixed(heartbeat) },
  { method: "POST", path: "/heartbeats/{heartbeatID}/pause", scope: "heartbeat.write", status: 201, shape: "object", prepare: fixed(heartbeat) },
  { method: "PUT", path: "/heartbeats/{heartbeatID}/pause", scope: "heartbeat.write", status: 200, shape: "object", prepare: fixed(heartbeat) },
  { method: "GET", path: "/heartbeats/{heartbeatID}/pings", scope: "heartbeat.read", status: 200, shape: "list", prepare: fixed(heartbeat) },
  { method: "POST", path: "/heartbeats/{heartbeatID}/resume", scope: "heartbeat.write", status: 201, shape: "object", prepare: fixed(heartbeat) },
  { method: "PUT", path: "/heartbeats/{heartbeatID}/resume", scope: "heartbeat.write", status: 200, shape: "object", prepare: fixed(heartbeat) },

  // 4.4 Heartbeat groups
  { method: "GET", path: "/heartbeat-groups", scope: "heartbeat.write", status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/heartbeat-groups", scope: "heartbeat.write", status: 201, shape: "object", prepare: fixed(() => ({}), () => ({ name: "Weekly jobs" })) },
  { method: "POST", path: "/heartbeat-groups/assign", scope: "heartbeat.write", status: 201, shape: "object", prepare: fixed(() => ({}), (world) => ({ heartbeat_id: world.heartbeatId, heartbeat_group_id: world.groupId })) },
  { method: "GET", path: "/heartbeat-groups/{groupID}", scope: "heartbeat.write", status: 200, shape: "object", prepare: fixed((world) => ({ groupID: world.groupId })) },
  { method: "PUT", path: "/heartbeat-groups/{groupID}", scope: "heartbeat.write", status: 200, shape: "object", prepare: fixed((world) => ({ groupID: world.groupId }), () => ({ name: "Nightly jobs", description: "02:00 UTC" })) },
  { method: "DELETE", path: "/heartbeat-groups/{groupID}", scope: "heartbeat.write", status: 204, shape: "none", prepare: async (world) => ({
    params: { groupID: dataOf(await world.api.post("/heartbeat-groups", { name: "Disposable" }), 201).id },
  }) },

  // 4.5 Incidents
  { method: "GET", path: "/incidents", scope: "incident.write", status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/incidents", scope: "incident.write", status: 201, shape: "object", prepare: fixed(() => ({}), () => ({ title: "Slow checkout", severity: "minor" })) },
  { method: "GET", path: "/incidents/{incidentID}", scope: "incident.read", status: 200, shape: "object", prepare: fixed((world) => ({ incidentID: world.incidentId })) },
  { method: "POST", path: "/incidents/{incidentID}/acknowledge", scope: "incident.write", status: 201, shape: "object", prepare: fixed((world) => ({ incidentID: world.incidentId }), () => ({ acknowledged_by: "alice@example.com" })) },
  { method: "PUT", path: "/incidents/{incidentID}/acknowledge", scope: "incident.write", status: 200, shape: "object", prepare: fixed((world) => ({ incidentID: world.incidentId })) },
  { method: "GET", path: "/incidents/{incidentID}/ai", scope: null, status: 200, shape: "object", prepare: fixed((world) => ({ incidentID: world.incidentId })) },

  // 4.6 Escalation policies
  { method: "GET", path: "/escalation-policies", scope: "escalation_policy.write", status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/escalation-policies", scope: "escalation_policy.write", status: 201, shape: "object", prepare: fixed(() => ({}), (world) => ({ name: "Night", steps: [{ delay_minutes: 5, notification_channel_ids: [world.channelId], urgency: "low" }] })) },
  { method: "GET", path: "/escalation-policies/{policyID}", scope: "escalation_policy.write", status: 200, shape: "object", prepare: fixed((world) => ({ policyID: world.policyId })) },
  { method: "PUT", path: "/escalation-policies/{policyID}", scope: "escalation_policy.write", status: 200, shape: "object", prepare: fixed((world) => ({ policyID: world.policyId }), (world) => ({ name: "Default", repeat_count: 2, steps: [{ delay_minutes: 0, notification_channel_ids: [world.channelId] }] })) },
  { method: "DELETE", path: "/escalation-policies/{policyID}", scope: "escalation_policy.write", status: 204, shape: "none", prepare: async (world) => ({
    params: { policyID: dataOf(await world.api.post("/escalation-policies", { name: "Disposable", steps: [{ delay_minutes: 0, notification_channel_ids: [world.channelId] }] }), 201).id },
  }) },
  { method: "POST", path: "/escalation-policies/{policyID}/test", scope: "escalation_policy.write", status: 202, shape: "object", prepare: fixed((world) => ({ policyID: world.policyId })) },

  // 4.7 Notification channels
  { method: "GET", path: "/notification_channels", scope: "notification_channel.write", status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/notification_channels", scope: "notification_channel.write", status: 201, shape: "object", prepare: fixed(() => ({}), () => ({ name: "Pager", kind: "pagerduty", credentials: { integration_key: "0123456789abcdef0123456789abcdef" } })) },
  { method: "GET", path: "/notification_channels/{channelID}", scope: "notification_channel.write", status: 200, shape: "object", prepare: fixed((world) => ({ channelID: world.channelId })) },
  { method: "PUT", path: "/notification_channels/{channelID}", scope: "notification_channel.write", status: 200, shape: "object", prepare: fixed((world) => ({ channelID: world.channelId }), () => ({ name: "On-call mail", kind: "email", config: { address: "pager@example.com" } })) },
  { method: "DELETE", path: "/notification_channels/{channelID}", scope: "notification_channel.write", status: 204, shape: "none", prepare: async (world) => ({ params: { channelID: await freshChannel(world) } }) },
  { method: "POST", path: "/notification_channels/{channelID}/test", scope: "notification_channel.write", status: 202, shape: "object", prepare: fixed((world) => ({ channelID: world.channelId })) },

  // 4.8 Webhook subscriptions
  { method: "GET", path: "/webhook-subscriptions", scope: "webhook.write", status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/webhook-subscriptions", scope: "webhook.write", status: 201, shape: "object", prepare: fixed(() => ({}), () => ({ url: "https://hooks.example.com/in", events: ["monitor.created"], enabled: false })) },
  { method: "PUT", path: "/webhook-subscriptions/{subscriptionID}", scope: "webhook.write", status: 200, shape: "object", prepare: async (world) => ({
    params: { subscriptionID: world.subscriptionId },
    body: { url: (await world.api.get("/webhook-subscriptions")).body.data.find((item: { id: string }) => item.id === world.subscriptionId).url, events: ["*"], description: "all events" },
  }) },
  { method: "DELETE", path: "/webhook-subscriptions/{subscriptionID}", scope: "webhook.write", status: 204, shape: "none", prepare: async (world) => ({
    params: { subscriptionID: dataOf(await world.api.post("/webhook-subscriptions", { url: "https://hooks.example.com/gone", events: ["*"], enabled: false }), 201).id },
  }) },
  { method: "GET", path: "/webhook-subscriptions/{subscriptionID}/deliveries", scope: "webhook.read", status: 200, shape: "list", prepare: fixed((world) => ({ subscriptionID: world.subscriptionId })) },
  { method: "POST", path: "/webhook-subscriptions/{subscriptionID}/redeliver/{deliveryID}", scope: "webhook.write", status: 202, shape: "object", prepare: fixed((world) => ({ subscriptionID: world.subscriptionId, deliveryID: world.deliveryId })) },
  { method: "POST", path: "/webhook-subscriptions/{subscriptionID}/test", scope: "webhook.write", status: 202, shape: "object", prepare: fixed((world) => ({ subscriptionID: world.subscriptionId })) },

  // 4.9 Clients
  { method: "GET", path: "/clients", scope: "client.write", status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/clients", scope: "client.write", status: 201, shape: "object", prepare: fixed(() => ({}), () => ({ name: "Globex", website: "https://globex.example.com" })) },
  { method: "GET", path: "/clients/{clientID}", scope: "client.write", status: 200, shape: "object", prepare: fixed(client) },
  { method: "PUT", path: "/clients/{clientID}", scope: "client.write", status: 200, shape: "object", prepare: fixed(client, (world) => ({ name: "Acme", contact_email: "ops@acme.example", template_id: world.templateId })) },
  { method: "POST", path: "/clients/{clientID}/archive", scope: "client.write", status: 201, shape: "object", prepare: async (world) => ({ params: { clientID: await freshClient(world) } }) },
  { method: "POST", path: "/clients/{clientID}/unarchive", scope: "client.write", status: 201, shape: "object", prepare: async (world) => {
    const id = await freshClient(world);
    dataOf(await world.api.post(`/clients/${id}/archive`), 201);
    return { params: { clientID: id } };
  } },
  { method: "GET", path: "/clients/{clientID}/portal-settings", scope: "client.write", status: 200, shape: "object", prepare: fixed(client) },
  { method: "PUT", path: "/clients/{clientID}/portal-settings", scope: "client.write", status: 200, shape: "object", prepare: fixed(client, () => ({ enabled: true, title: "Acme status", primary_color: "#112233" })) },
  { method: "GET", path: "/clients/{clientID}/share-links", scope: "client.write", status: 200, shape: "list", prepare: fixed(client) },
  { method: "POST", path: "/clients/{clientID}/share-links", scope: "client.write", status: 201, shape: "object", prepare: fixed(client, () => ({ label: "Board", expires_at: "2099-01-01T00:00:00Z" })) },
  { method: "DELETE", path: "/clients/{clientID}/share-links/{linkID}", scope: "client.write", status: 204, shape: "none", prepare: async (world) => ({
    params: { clientID: world.clientId, linkID: dataOf(await world.api.post(`/clients/${world.clientId}/share-links`, { label: "Disposable" }), 201).id },
  }) },
  { method: "GET", path: "/clients/{clientID}/teams", scope: "client.read", status: 200, shape: "list", prepare: fixed(client) },

  // 4.10 Client templates and advisor
  { method: "GET", path: "/client-templates", scope: null, status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/client-templates", scope: null, status: 201, shape: "object", prepare: fixed(() => ({}), () => ({ name: "Small business", heartbeat_defaults: { grace_period_seconds: 600 } })) },
  { method: "GET", path: "/client-templates/{templateID}", scope: null, status: 200, shape: "object", prepare: fixed((world) => ({ templateID: world.templateId })) },
  { method: "PUT", path: "/client-templates/{templateID}", scope: null, status: 200, shape: "object", prepare: fixed((world) => ({ templateID: world.templateId }), () => ({ name: "Agency default", monitor_defaults: { interval_seconds: 120, regions: ["eu-west-1", "eu-central-1"] } })) },
  { method: "DELETE", path: "/client-templates/{templateID}", scope: null, status: 204, shape: "none", prepare: async (world) => ({
    params: { templateID: dataOf(await world.api.post("/client-templates", { name: "Disposable" }), 201).id },
  }) },
  { method: "GET", path: "/advisor", scope: null, status: 200, shape: "list", prepare: none },
  { method: "POST", path: "/advisor/apply", scope: null, status: 201, shape: "object", prepare: async (world) => {
    const single = dataOf(await world.api.post("/monitors", { name: "One region", url: "https://one.example.com", regions: ["us-east-1"] }), 201);
    return { params: {}, body: { recommendation_ids: [`single_region:${single.id}`] } };
  } },
];

/** The concrete path of a call: `{name}` placeholders filled from `params`. */
export function pathOf(endpoint: Endpoint, call: Call): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = call.params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${endpoint.path}`);
    return value;
  });
}
