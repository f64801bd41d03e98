import { z } from "zod";
import { defineResource, field } from "../define.js";
import { KNOWN_URGENCIES, idOf, nonEmpty, openEnum, openObject, setOf, uuid, wholeNumber } from "../rules.js";

const STEP_KEYS_ASSUMED = "the keys of a policy step are not shown (spec 2.6): these are the ones this package knows; others are sent as written";

const step = openObject(
  {
    delayMinutes: wholeNumber(0).describe("Minutes after the incident opens (or after the previous step) before this step notifies."),
    notificationChannelIds: setOf(idOf("a notification channel"))
      .min(1, { error: "must name at least one channel" })
      .describe("Channels this step notifies (ids, order does not matter)."),
    urgency: openEnum(KNOWN_URGENCIES).default("high").describe("How loudly the step notifies (`low`, `high`)."),
  },
  STEP_KEYS_ASSUMED,
);

export const escalationPolicy = defineResource({
  kind: "EscalationPolicy",
  description:
    "An alert plan: who is notified when a monitor fails, in which order and after which delays. Monitors " +
    "reference it with `escalationPolicyId`.",
  assumption: "the fields of escalation policies are not shown (spec 2.6): names, urgencies and limits are this package's",
  path: "/escalation-policies",
  readBy: "get",
  updateMethod: "PUT",
  inputs: z.object({
    name: field(nonEmpty, { description: "Display name." }),
    description: field(z.string().optional(), { description: "Free text." }),
    clientId: field(uuid.optional(), {
      description: "Id (UUID) of the client (agency partition) the policy lives in; changing it replaces the policy.",
      replaceOnChange: true,
    }),
    repeatCount: field(wholeNumber(0).optional(), {
      description: "How many times the whole sequence repeats while the incident stays unacknowledged.",
      default: 0,
    }),
    steps: field(z.array(step).min(1, { error: "must have at least one step" }), {
      description: "Notification steps, run in this order.",
      assumption: `${STEP_KEYS_ASSUMED}, and preview warns about them`,
    }),
  }),
  associations: {},
  outputs: z.object({}),
});
