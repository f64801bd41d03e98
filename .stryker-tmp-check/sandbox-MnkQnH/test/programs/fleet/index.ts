/**
 * `resourceCount` resources (config, default 40): two notification channels, an escalation policy
 * and two heartbeat groups, then a quarter of the rest heartbeats (in the groups) and the others
 * monitors, each attached to a channel and every third one to the policy. Every object has a
 * name of its own; the `names` output lists them by API collection, so a test can count them.
 * Config `generation` (default 1) goes into every name: a new generation after a destroy creates
 * objects whose bodies differ, so no create has to step past the service's record of the last one.
 */
// @ts-nocheck

import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
const resourceCount = config.getNumber("resourceCount") ?? 40;
const generation = config.getNumber("generation") ?? 1;
const names: Record<string, string[]> = {};
/** The name given to the object (`Fleet g1 ...`), recorded under its collection. */
function named(collection: string, name: string): string {
  const full = `Fleet g${generation} ${name}`;
  (names[collection] ??= []).push(full);
  return full;
}

const channels = ["ops", "dev"].map(
  (team) =>
    new mon.NotificationChannel(`${team}-email`, {
      name: named("/notification_channels", `${team} email`),
      kind: "email",
      config: { address: `${team}@fleet.example` },
    }),
);
const policy = new mon.EscalationPolicy("fleet-on-call", {
  name: named("/escalation-policies", "on call"),
  steps: [{ delayMinutes: 0, notificationChannelIds: channels.map((channel) => channel.id) }],
});
const groups = ["nightly", "hourly"].map(
  (cadence) => new mon.HeartbeatGroup(`${cadence}-jobs`, { name: named("/heartbeat-groups", `${cadence} jobs`) }),
);

const rest = Math.max(0, resourceCount - channels.length - groups.length - 1);
const heartbeatCount = Math.floor(rest / 4);
for (let index = 0; index < heartbeatCount; index++) {
  new mon.Heartbeat(`job-${index}`, {
    name: named("/heartbeats", `job ${index}`),
    expectedIntervalSeconds: index % 2 === 0 ? 86_400 : 3_600,
    gracePeriodSeconds: 600,
    heartbeatGroupId: groups[index % groups.length]!.id,
  });
}
for (let index = 0; index < rest - heartbeatCount; index++) {
  new mon.Monitor(`site-${index}`, {
    name: named("/monitors", `site ${index}`),
    url: `https://site-${index}.fleet.example`,
    intervalSeconds: 60,
    notificationChannelIds: [channels[index % channels.length]!.id],
    ...(index % 3 === 0 ? { escalationPolicyId: policy.id } : {}),
  });
}

export { names };
