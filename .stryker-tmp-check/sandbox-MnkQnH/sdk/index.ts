/**
 * `pulumi-monitoring`: uptime monitors, heartbeats, alert routing and webhooks as Pulumi resources.
 *
 *   import * as mon from "pulumi-monitoring";
 *   const ops = new mon.NotificationChannel("ops", { name: "ops", kind: "email", config: { address: "ops@example.com" } });
 *   new mon.Monitor("web", { url: "https://example.com", notificationChannelIds: [ops.id] });
 *
 * Connection: `pulumi config set monitoring:apiUrl …` and `pulumi config set --secret monitoring:apiKey …`
 * (or MONITORING_API_URL / MONITORING_API_KEY).
 *
 * The public types of this entry point are plain TypeScript generated from the definitions
 * (sdk/generated); the definitions themselves and the schema helpers are in `pulumi-monitoring/schema`.
 */
// @ts-nocheck


/** The resource classes, their argument types and the lookups (`getMonitor`, ...). */
export * from "./generated/index.js";
export type { LookupQuery } from "./lookups.js";

/** Many monitors as one resource, for fleets of hundreds or thousands. */
export * from "./monitor-set.js";

/** Monitoring files: monitors, heartbeats, alert routing and webhooks declared in YAML. */
export * from "./yaml.js";

/** Agency mode: a client and its standard monitoring package from a typed spec. */
export * from "./components/client-monitoring.js";
