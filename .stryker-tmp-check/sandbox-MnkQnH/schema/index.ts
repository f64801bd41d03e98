/**
 * Every resource kind, in one registry. Adding a kind means adding its definition file and one
 * entry here; the provider, the SDK classes and the generated schemas pick it up from this list.
 * Published as `pulumi-monitoring/schema`, apart from the package root, whose types stay free of zod.
 */
// @ts-nocheck

import type { AnyResourceDefinition } from "./define.js";
import { clientShareLink } from "./resources/client-share-link.js";
import { clientTemplate } from "./resources/client-template.js";
import { client } from "./resources/client.js";
import { escalationPolicy } from "./resources/escalation-policy.js";
import { heartbeatGroup } from "./resources/heartbeat-group.js";
import { heartbeat } from "./resources/heartbeat.js";
import { monitor } from "./resources/monitor.js";
import { notificationChannel } from "./resources/notification-channel.js";
import { webhookSubscription } from "./resources/webhook-subscription.js";

export { apiNamesOf, defineResource, factsOf, field, providerInputs } from "./define.js";
export type { AnyResourceDefinition, Association, Deletion, FieldFacts, FieldName, ResourceDefinition, Variants } from "./define.js";
export { knownValuesOf } from "./rules.js";
export {
  client,
  clientShareLink,
  clientTemplate,
  escalationPolicy,
  heartbeat,
  heartbeatGroup,
  monitor,
  notificationChannel,
  webhookSubscription,
};

/** Every kind, in the order the docs list them. */
export const definitions: readonly AnyResourceDefinition[] = [
  monitor,
  heartbeat,
  heartbeatGroup,
  escalationPolicy,
  notificationChannel,
  webhookSubscription,
  client,
  clientTemplate,
  clientShareLink,
];

export function definitionOf(kind: string): AnyResourceDefinition {
  const definition = definitions.find((candidate) => candidate.kind === kind);
  if (definition === undefined) {
    throw new Error(`unknown resource kind "${kind}"; known kinds: ${definitions.map(({ kind }) => kind).join(", ")}`);
  }
  return definition;
}
