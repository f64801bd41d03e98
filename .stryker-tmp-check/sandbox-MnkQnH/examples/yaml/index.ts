/**
 * The whole program of a team that declares its monitoring in YAML: monitoring.yaml lists the
 * channels, escalation policy, monitors, heartbeats and webhook, and one call validates the file
 * and creates a resource for every entry. Secrets stay out of the file; it reads them from the
 * environment (`${env:NAME}`) when the program runs.
 */
// @ts-nocheck

import * as mon from "pulumi-monitoring";

const declared = mon.loadMonitoringYaml("monitoring.yaml");

export const monitorIds = Object.fromEntries(Object.entries(declared.monitors).map(([name, monitor]) => [name, monitor.id]));
export const notificationChannelIds = Object.fromEntries(
  Object.entries(declared.notificationChannels).map(([name, channel]) => [name, channel.id]),
);
export const escalationPolicyIds = Object.fromEntries(Object.entries(declared.escalationPolicies).map(([name, policy]) => [name, policy.id]));
export const heartbeatIds = Object.fromEntries(Object.entries(declared.heartbeats).map(([name, heartbeat]) => [name, heartbeat.id]));
/** Secret: each job calls its URL on every run (`pulumi stack output heartbeatPingUrls --show-secrets`). */
export const heartbeatPingUrls = Object.fromEntries(Object.entries(declared.heartbeats).map(([name, heartbeat]) => [name, heartbeat.pingUrl]));
export const webhookSubscriptionIds = Object.fromEntries(
  Object.entries(declared.webhookSubscriptions).map(([name, subscription]) => [name, subscription.id]),
);
