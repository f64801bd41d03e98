/**
 * Declares the resources listed in the `resources` config value:
 *
 *   [{ "kind": "Monitor", "name": "web", "args": { "url": "https://example.com", "notificationChannelIds": [{ "$ref": "ops" }] } },
 *    { "kind": "NotificationChannel", "name": "ops", "args": { ... }, "options": { "import": "<id>" } }]
 *
 * `{ "$ref": "<name>" }` stands for the id of the resource declared under that name (declare it
 * first), and `{ "$secret": "<config key>" }` for a secret config value. Config `lookupMonitorId`
 * exports what `getMonitor` reads of that monitor, as `lookedUp`.
 */
// @ts-nocheck

import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

interface Declaration {
  kind: keyof typeof kinds;
  name: string;
  args: Record<string, unknown>;
  options?: { import?: string };
}

const kinds = {
  Monitor: mon.Monitor,
  Heartbeat: mon.Heartbeat,
  HeartbeatGroup: mon.HeartbeatGroup,
  EscalationPolicy: mon.EscalationPolicy,
  NotificationChannel: mon.NotificationChannel,
  WebhookSubscription: mon.WebhookSubscription,
  Client: mon.Client,
  ClientTemplate: mon.ClientTemplate,
  ClientShareLink: mon.ClientShareLink,
  MonitorSet: mon.MonitorSet,
};

const config = new pulumi.Config();
const declared: Record<string, pulumi.CustomResource> = {};

function resolve(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolve);
  if (value === null || typeof value !== "object") return value;
  const object = value as Record<string, unknown>;
  if (typeof object.$ref === "string") {
    const target = declared[object.$ref];
    if (!target) throw new Error(`"${object.$ref}" is referenced before it is declared`);
    return target.id;
  }
  if (typeof object.$secret === "string") return config.requireSecret(object.$secret);
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, resolve(item)]));
}

for (const declaration of config.requireObject<Declaration[]>("resources")) {
  const ResourceClass = kinds[declaration.kind] as unknown as new (
    name: string,
    args: unknown,
    opts?: pulumi.CustomResourceOptions,
  ) => pulumi.CustomResource;
  declared[declaration.name] = new ResourceClass(declaration.name, resolve(declaration.args), declaration.options);
}

export const ids = Object.fromEntries(Object.entries(declared).map(([name, resource]) => [name, resource.id]));

const lookupMonitorId = config.get("lookupMonitorId");
export const lookedUp = lookupMonitorId === undefined ? undefined : mon.getMonitor({ id: lookupMonitorId });

/** The monitor ids of every MonitorSet, by set name then key. */
export const setIds = Object.fromEntries(
  Object.entries(declared).flatMap(([name, resource]) => (resource instanceof mon.MonitorSet ? [[name, resource.ids]] : [])),
);
