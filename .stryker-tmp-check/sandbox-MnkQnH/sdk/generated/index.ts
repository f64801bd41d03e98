// @ts-nocheck
// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
export * from "./monitor.js";
export * from "./heartbeat.js";
export * from "./heartbeat-group.js";
export * from "./escalation-policy.js";
export * from "./notification-channel.js";
export * from "./webhook-subscription.js";
export * from "./client.js";
export * from "./client-template.js";
export * from "./client-share-link.js";
