import { z } from "zod";
import { defineResource } from "../define.js";
import { httpUrl, idOf, nonEmpty, serverDefault, setOf } from "../rules.js";

export const webhookSubscription = defineResource({
  kind: "WebhookSubscription",
  description:
    "Signed outbound webhooks (beta): the service POSTs the chosen events to `url`, signed with `signingSecret`. " +
    "The service reveals the signing secret only when the subscription is created; it is kept in state from then on.",
  scopes: ["webhook.write"],
  path: "/webhook-subscriptions",
  readBy: "list",
  updateMethod: "PUT",
  inputs: z.object({
    url: httpUrl.describe("The http(s) URL events are delivered to."),
    events: setOf(nonEmpty)
      .min(1, { error: "must name at least one event kind" })
      .describe('Event kinds delivered (order does not matter), or `["*"]` for all.'),
    description: z.string().optional().describe("Free text."),
    enabled: serverDefault(z.boolean().optional(), true, "Whether deliveries are made."),
    clientId: idOf("the client (agency partition) the subscription lives in; changing it replaces the subscription").optional(),
  }),
  replaceOnChanges: ["clientId"],
  secrets: [],
  writeOnly: [],
  associations: {},
  outputs: z.object({
    signingSecret: z.string().describe("Secret the service signs deliveries with (`whsec_...`). Returned by the service only at creation."),
    signingSecretLast4: z.string().describe("Last four characters of the signing secret, to tell secrets apart."),
  }),
  secretOutputs: ["signingSecret"],
  keepFromState: ["signingSecret"],
});
