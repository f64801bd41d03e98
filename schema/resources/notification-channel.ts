import { z } from "zod";
import { defineResource } from "../define.js";
import { type VariantFields, checkVariantFields, e164PhoneNumber, email, httpsUrl, idOf, nonEmpty } from "../rules.js";

export const CHANNEL_KINDS = ["email", "slack", "msteams", "sms", "pagerduty", "webhook"] as const;

const config = z
  .object({
    address: email.optional().describe("`email`: the address notified."),
    channel: z
      .string()
      .regex(/^#\S+$/, { error: "must be a Slack channel such as #alerts" })
      .optional()
      .describe("`slack`: the channel posted to, e.g. `#alerts`."),
    phoneNumber: e164PhoneNumber.optional().describe("`sms`: the number texted, in E.164 form (`+14155550100`)."),
    url: httpsUrl.optional().describe("`webhook`: the https URL called."),
  })
  .strict();

const credentials = z
  .object({
    webhookUrl: httpsUrl.optional().describe("`slack`, `msteams`: the incoming-webhook URL."),
    integrationKey: z
      .string()
      .length(32, { error: "must be 32 characters" })
      .optional()
      .describe("`pagerduty`: the Events API integration key (32 characters)."),
    headers: z
      .array(z.object({ name: nonEmpty.describe("Header name."), value: z.string().describe("Header value.") }).strict())
      .optional()
      .describe("`webhook`: headers sent with every call, e.g. an authorization token."),
  })
  .strict();

type ChannelField = `config.${keyof z.output<typeof config>}` | `credentials.${keyof z.output<typeof credentials>}`;

/** Settings each channel kind needs (`required`) or accepts (`optional`); others' settings are errors. */
const FIELDS_BY_KIND: Record<(typeof CHANNEL_KINDS)[number], VariantFields<ChannelField>> = {
  email: { required: ["config.address"], optional: [] },
  slack: { required: ["credentials.webhookUrl"], optional: ["config.channel"] },
  msteams: { required: ["credentials.webhookUrl"], optional: [] },
  sms: { required: ["config.phoneNumber"], optional: [] },
  pagerduty: { required: ["credentials.integrationKey"], optional: [] },
  webhook: { required: ["config.url"], optional: ["credentials.headers"] },
};

export const notificationChannel = defineResource({
  kind: "NotificationChannel",
  description:
    "A destination for alerts: an email address, a Slack or Microsoft Teams webhook, a phone number for SMS, " +
    "a PagerDuty service or an https webhook. Attach it to monitors or name it in escalation policy steps.",
  scopes: ["notification_channel.write"],
  path: "/notification_channels",
  readBy: "get",
  updateMethod: "PUT",
  inputs: z.object({
    name: nonEmpty.describe("Display name."),
    kind: z
      .enum(CHANNEL_KINDS, { error: `must be one of ${CHANNEL_KINDS.join(", ")}` })
      .describe("The destination type; changing it replaces the channel."),
    clientId: idOf("the client (agency partition) the channel lives in; changing it replaces the channel").optional(),
    config: config.optional().describe("Kind-specific settings the service returns (address, channel, phone number, URL)."),
    credentials: credentials
      .optional()
      .describe("Kind-specific secrets (webhook URL, integration key, headers). Secret and write-only: the service never returns them."),
  }),
  refine(channel, issue) {
    if (channel.kind === undefined) return;
    const isSet = (field: ChannelField): boolean => {
      const [group, name] = field.split(".") as ["config" | "credentials", string];
      return (channel[group] as Record<string, unknown> | undefined)?.[name] !== undefined;
    };
    checkVariantFields(FIELDS_BY_KIND, channel.kind, "channels", isSet, issue);
  },
  replaceOnChanges: ["kind", "clientId"],
  secrets: ["credentials"],
  writeOnly: ["credentials"],
  associations: {},
  outputs: z.object({}),
  secretOutputs: [],
  keepFromState: [],
});
