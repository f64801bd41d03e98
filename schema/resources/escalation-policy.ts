import { z } from "zod";
import { defineResource } from "../define.js";
import { idOf, nonEmpty, serverDefault, setOf, wholeNumber } from "../rules.js";

const step = z
  .object({
    delayMinutes: wholeNumber(0, 1440).describe("Minutes after the incident opens (or after the previous step) before this step notifies, 0 to 1440."),
    notificationChannelIds: setOf(idOf("a notification channel"))
      .min(1, { error: "must name at least one channel" })
      .describe("Channels this step notifies (ids, order does not matter)."),
    urgency: z.enum(["low", "high"], { error: "must be low or high" }).default("high").describe("How loudly the step notifies."),
  })
  .strict();

export const escalationPolicy = defineResource({
  kind: "EscalationPolicy",
  description:
    "An alert plan: who is notified when a monitor fails, in which order and after which delays. Monitors " +
    "reference it with `escalationPolicyId`.",
  scopes: ["escalation_policy.write"],
  path: "/escalation-policies",
  readBy: "get",
  updateMethod: "PUT",
  inputs: z.object({
    name: nonEmpty.describe("Display name."),
    description: z.string().optional().describe("Free text."),
    clientId: idOf("the client (agency partition) the policy lives in; changing it replaces the policy").optional(),
    repeatCount: serverDefault(wholeNumber(0, 10).optional(), 0, "How many times the whole sequence repeats while the incident stays unacknowledged, 0 to 10."),
    steps: z
      .array(step)
      .min(1, { error: "must have at least one step" })
      .max(10, { error: "must have at most 10 steps" })
      .describe("Notification steps, run in this order."),
  }),
  replaceOnChanges: ["clientId"],
  secrets: [],
  writeOnly: [],
  associations: {},
  outputs: z.object({}),
  secretOutputs: [],
  keepFromState: [],
});
