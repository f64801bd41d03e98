import { z } from "zod";
import { defineResource, field } from "../define.js";
import { httpUrl, nonEmpty, setOf, uuid } from "../rules.js";

export const webhookSubscription = defineResource({
  kind: "WebhookSubscription",
  description:
    "Signed outbound webhooks (beta): the service POSTs the chosen events to `url`, signed with `signingSecret`. " +
    "The service reveals the signing secret only when the subscription is created; it is kept in state from then on.",
  assumption: "the fields of webhook subscriptions and the event kinds are not shown (spec 2.6, 6): names and rules are this package's",
  path: "/webhook-subscriptions",
  readBy: "list",
  updateMethod: "PUT",
  inputs: z.object({
    url: field(httpUrl, { description: "The http(s) URL events are delivered to." }),
    events: field(setOf(nonEmpty).min(1, { error: "must name at least one event kind" }), {
      description: 'Event kinds delivered (order does not matter), or `["*"]` for all.',
    }),
    description: field(z.string().optional(), { description: "Free text." }),
    enabled: field(z.boolean().optional(), { description: "Whether deliveries are made.", default: true }),
    clientId: field(uuid.optional(), {
      description: "Id (UUID) of the client (agency partition) the subscription lives in; changing it replaces the subscription.",
      replaceOnChange: true,
    }),
  }),
  associations: {},
  outputs: z.object({
    signingSecret: field(z.string(), {
      description: "Secret the service signs deliveries with (`whsec_...`). Returned by the service only at creation.",
      apiName: ["signing_secret", "secret"],
      assumption: "the field's name is not shown; servers are known to call it `signing_secret` or `secret`",
      secret: true,
      returnedOnce: true,
    }),
    signingSecretLast4: field(z.string(), {
      description: "Last four characters of the signing secret, to tell secrets apart.",
      apiName: ["signing_secret_last4", "secret_last4"],
    }),
  }),
});
