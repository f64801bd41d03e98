/**
 * `pulumi-monitoring`: uptime monitors, heartbeats, alert routing and webhooks as Pulumi resources.
 *
 *   import * as mon from "pulumi-monitoring";
 *   const ops = new mon.NotificationChannel("ops", { name: "ops", kind: "email", config: { address: "ops@example.com" } });
 *   new mon.Monitor("web", { url: "https://example.com", notificationChannelIds: [ops.id] });
 *
 * Connection: `pulumi config set monitoring:apiUrl …` and `pulumi config set --secret monitoring:apiKey …`
 * (or MONITORING_API_URL / MONITORING_API_KEY).
 */
import {
  client,
  clientShareLink,
  clientTemplate,
  escalationPolicy,
  heartbeat,
  heartbeatGroup,
  monitor,
  notificationChannel,
  webhookSubscription,
} from "../schema/index.js";
import { type ResourceArgs, resourceClass } from "./resources.js";

export { definitions, definitionOf } from "../schema/index.js";
export type { AnyResourceDefinition, ResourceDefinition } from "../schema/index.js";
export type { DeepInput, ResourceArgs, ResourceClass, ResourceOutputs } from "./resources.js";
export * from "./lookups.js";

export const Monitor = resourceClass(monitor);
export type Monitor = InstanceType<typeof Monitor>;
export type MonitorArgs = ResourceArgs<typeof monitor>;

export const Heartbeat = resourceClass(heartbeat);
export type Heartbeat = InstanceType<typeof Heartbeat>;
export type HeartbeatArgs = ResourceArgs<typeof heartbeat>;

export const HeartbeatGroup = resourceClass(heartbeatGroup);
export type HeartbeatGroup = InstanceType<typeof HeartbeatGroup>;
export type HeartbeatGroupArgs = ResourceArgs<typeof heartbeatGroup>;

export const EscalationPolicy = resourceClass(escalationPolicy);
export type EscalationPolicy = InstanceType<typeof EscalationPolicy>;
export type EscalationPolicyArgs = ResourceArgs<typeof escalationPolicy>;

export const NotificationChannel = resourceClass(notificationChannel);
export type NotificationChannel = InstanceType<typeof NotificationChannel>;
export type NotificationChannelArgs = ResourceArgs<typeof notificationChannel>;

export const WebhookSubscription = resourceClass(webhookSubscription);
export type WebhookSubscription = InstanceType<typeof WebhookSubscription>;
export type WebhookSubscriptionArgs = ResourceArgs<typeof webhookSubscription>;

/** Destroying a Client archives it: the service has no way to delete clients. */
export const Client = resourceClass(client);
export type Client = InstanceType<typeof Client>;
export type ClientArgs = ResourceArgs<typeof client>;

export const ClientTemplate = resourceClass(clientTemplate);
export type ClientTemplate = InstanceType<typeof ClientTemplate>;
export type ClientTemplateArgs = ResourceArgs<typeof clientTemplate>;

export const ClientShareLink = resourceClass(clientShareLink);
export type ClientShareLink = InstanceType<typeof ClientShareLink>;
export type ClientShareLinkArgs = ResourceArgs<typeof clientShareLink>;

/** Many monitors as one resource, for fleets of hundreds or thousands. */
export * from "./monitor-set.js";

/** Monitoring files: monitors, heartbeats, alert routing and webhooks declared in YAML. */
export * from "./yaml.js";

/** Agency mode: a client and its standard monitoring package from a typed spec. */
export * from "./components/client-monitoring.js";
