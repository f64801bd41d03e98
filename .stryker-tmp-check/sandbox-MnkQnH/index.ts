/**
 * The demo: monitoring for "Acme Shop", an online shop that a web agency looks after.
 *
 * Everything lives inside the shop's client, the agency's partition for this customer:
 *   - alerts go to the shop's Slack channel first and, if nobody reacts, to the ops team's inbox;
 *   - four monitors watch the storefront, the checkout page's content, the orders database and DNS;
 *   - a heartbeat expects the nightly backup to check in once a day;
 *   - a webhook feeds incidents to the agency's own tooling.
 *
 * `npm run demo` deploys it against a local emulator of the service and shows the result.
 * Against the real service, set `monitoring:apiUrl` and the secret `monitoring:apiKey`.
 */
// @ts-nocheck

import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
// A Slack webhook URL is a credential: it is read as a secret and stays encrypted in state. The
// emulator accepts any https URL; for a real workspace run
// `pulumi config set --secret slackWebhookUrl https://hooks.slack.com/services/...`.
const slackWebhookUrl = config.getSecret("slackWebhookUrl") ?? pulumi.secret("https://hooks.slack.com/services/T0000/B0000/demo");

// The customer. Every object below is created inside it (`clientId`), so the agency's other
// customers never see it, and the shop's own people can be given a status page of just this.
const shop = new mon.Client("acme-shop", {
  name: "Acme Shop",
  website: "https://shop.acme.example",
  contactEmail: "owner@acme.example",
});
const clientId = shop.id;

// Who is told when something breaks.
const opsEmail = new mon.NotificationChannel("ops-email", {
  name: "Ops team",
  kind: "email",
  clientId,
  config: { address: "ops@acme.example" },
});
const shopSlack = new mon.NotificationChannel("shop-slack", {
  name: "Shop alerts in Slack",
  kind: "slack",
  clientId,
  config: { channel: "#shop-alerts" },
  credentials: { webhookUrl: slackWebhookUrl },
});
const alertChannels = [shopSlack.id, opsEmail.id];

// In which order: Slack at once, quietly; after 10 minutes without acknowledgement, Slack and
// email loudly; the whole sequence once more if still nobody reacts.
const onCall = new mon.EscalationPolicy("shop-on-call", {
  name: "Shop on call",
  clientId,
  repeatCount: 1,
  steps: [
    { delayMinutes: 0, notificationChannelIds: [shopSlack.id], urgency: "low" },
    { delayMinutes: 10, notificationChannelIds: [shopSlack.id, opsEmail.id], urgency: "high" },
  ],
});

// The storefront must answer 200 from three continents, and its certificate must not expire unnoticed.
const storefront = new mon.Monitor("storefront", {
  name: "Storefront",
  url: "https://shop.acme.example/",
  expectedStatusCode: 200,
  sslExpiryAlertDays: 14,
  regions: ["us-east-1", "eu-west-1", "ap-southeast-1"],
  clientId,
  notificationChannelIds: alertChannels,
  escalationPolicyId: onCall.id,
});

// A page can answer 200 and still be broken: the checkout must show its pay button.
const checkout = new mon.Monitor("checkout-page", {
  name: "Checkout shows the pay button",
  url: "https://shop.acme.example/checkout",
  alertType: "keyword",
  keyword: "Pay now",
  intervalSeconds: 120,
  clientId,
  notificationChannelIds: alertChannels,
  escalationPolicyId: onCall.id,
});

// The orders database must accept connections, except while it restarts for its weekly
// maintenance on Sunday nights, when failures do not alert.
const ordersDatabase = new mon.Monitor("orders-db", {
  name: "Orders database",
  monitorType: "tcp",
  tcpHost: "db.acme.example",
  tcpPort: 5432,
  confirmationPeriod: 120,
  maintenanceFrom: "02:00",
  maintenanceTo: "03:00",
  maintenanceTimezone: "Europe/Berlin",
  maintenanceWeekdays: ["sun"],
  clientId,
  notificationChannelIds: [opsEmail.id],
});

// The shop's name must keep resolving.
const shopDns = new mon.Monitor("shop-dns", {
  name: "shop.acme.example resolves",
  monitorType: "dns",
  dnsQuery: "shop.acme.example",
  dnsType: "A",
  intervalSeconds: 300,
  clientId,
  notificationChannelIds: [opsEmail.id],
});

// The nightly backup calls its heartbeat's ping URL when it succeeds; a night without a call
// (24 h plus 30 minutes of grace) opens an incident.
const nightlyJobs = new mon.HeartbeatGroup("nightly-jobs", {
  name: "Nightly jobs",
  description: "Batch jobs that run once a night.",
  clientId,
});
const nightlyBackup = new mon.Heartbeat("nightly-backup", {
  name: "Nightly backup",
  expectedIntervalSeconds: 24 * 60 * 60,
  gracePeriodSeconds: 30 * 60,
  heartbeatGroupId: nightlyJobs.id,
  clientId,
});

// The agency's own tooling hears about every incident of the shop.
const incidentFeed = new mon.WebhookSubscription("incident-feed", {
  url: "https://hooks.agency.example/monitoring",
  events: ["incident.created", "incident.acknowledged", "incident.resolved"],
  description: "Incidents of Acme Shop, for the agency's ticket system.",
  clientId,
});

export { clientId };
export const monitorIds = {
  storefront: storefront.id,
  checkout: checkout.id,
  ordersDatabase: ordersDatabase.id,
  shopDns: shopDns.id,
};
export const notificationChannelIds = { opsEmail: opsEmail.id, shopSlack: shopSlack.id };
export const escalationPolicyId = onCall.id;
export const heartbeatGroupId = nightlyJobs.id;
export const heartbeatId = nightlyBackup.id;
/** Secret: whoever holds it can check in for the backup (`pulumi stack output nightlyBackupPingUrl --show-secrets`). */
export const nightlyBackupPingUrl = nightlyBackup.pingUrl;
export const webhookSubscriptionId = incidentFeed.id;
