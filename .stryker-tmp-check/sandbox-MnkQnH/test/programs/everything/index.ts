/**
 * Every resource kind and every association. Config `step` selects the edit:
 *  1. the initial setup;
 *  2. updates fields, removes inputs (each is then cleared: sent with its default, or as null),
 *     changes a replace-only field (the share link's label), detaches a channel and pauses a monitor;
 *  3. archives the client (the service refuses new share links in an archived client, so the
 *     archive comes after the replacement of step 2).
 * Secret values come from config so the tests can look for them in the state. The regions come
 * from config as a plain comma-separated string: servers name their regions differently.
 */
// @ts-nocheck

import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
const step = config.requireNumber("step");
const edited = step >= 2;
const archived = step >= 3;
const regions = config.require("regions").split(",");

const template = new mon.ClientTemplate("standard", {
  name: "Standard package",
  monitorDefaults: { intervalSeconds: 120, regions },
  heartbeatDefaults: { gracePeriodSeconds: 600 },
});

const client = new mon.Client("acme", {
  name: "Acme Corp",
  website: "https://acme.example",
  contactEmail: "ops@acme.example",
  templateId: template.id,
  archived,
  portalSettings: { enabled: true, title: edited ? "Acme status (new)" : "Acme status" },
});

const email = new mon.NotificationChannel("ops-email", {
  name: "Ops email",
  kind: "email",
  clientId: client.id,
  config: { address: "ops@acme.example" },
});

const chat = new mon.NotificationChannel("ops-chat", {
  name: "Ops chat",
  kind: "slack",
  clientId: client.id,
  config: { channel: "#ops" },
  credentials: { webhookUrl: config.requireSecret("chatWebhookUrl") },
});

const policy = new mon.EscalationPolicy("on-call", {
  name: "On call",
  clientId: client.id,
  repeatCount: 1,
  steps: [
    { delayMinutes: 0, notificationChannelIds: [chat.id] },
    { delayMinutes: 15, notificationChannelIds: [email.id, chat.id], urgency: "high" },
  ],
});

const website = new mon.Monitor("website", {
  name: edited ? "Acme website (www)" : "Acme website",
  url: "https://acme.example",
  intervalSeconds: edited ? 300 : 60,
  ...(edited ? {} : { regions, sslExpiryAlertDays: 14, httpMethod: "HEAD" as const }),
  expectedStatusCode: 200,
  requestHeaders: [{ name: "X-Monitor-Token", value: config.requireSecret("headerValue") }],
  authUsername: "monitor",
  authPassword: config.requireSecret("basicAuthPassword"),
  maintenanceFrom: "02:00",
  maintenanceTo: "03:00",
  maintenanceTimezone: "Europe/Berlin",
  maintenanceWeekdays: ["sun"],
  escalationPolicyId: policy.id,
  notificationChannelIds: edited ? [email.id] : [email.id, chat.id],
  clientId: client.id,
  paused: edited,
});

const database = new mon.Monitor("database", {
  name: "Acme database port",
  monitorType: "tcp",
  tcpHost: "db.acme.example",
  tcpPort: 5432,
  clientId: client.id,
});

const nightly = new mon.HeartbeatGroup("nightly", { name: "Nightly jobs", clientId: client.id });

const backup = new mon.Heartbeat("backup", {
  name: "Nightly backup",
  expectedIntervalSeconds: 86_400,
  ...(edited ? {} : { gracePeriodSeconds: 1_800, heartbeatGroupId: nightly.id }),
  clientId: client.id,
  paused: false,
});

const webhook = new mon.WebhookSubscription("audit", {
  url: "http://127.0.0.1:9/hooks/monitoring",
  events: ["monitor.created", "monitor.paused"],
  description: edited ? "Audit trail (all monitor changes)" : "Audit trail",
  clientId: client.id,
});

const shareLink = new mon.ClientShareLink("status-page", {
  clientId: client.id,
  label: edited ? "Status page for the board" : "Status page",
});

export const clientId = client.id;
export const templateId = template.id;
export const channelIds = [email.id, chat.id];
export const policyId = policy.id;
export const monitorIds = [website.id, database.id];
export const websiteStatus = website.status;
export const groupId = nightly.id;
export const heartbeatId = backup.id;
export const webhookId = webhook.id;
export const shareLinkId = shareLink.id;
