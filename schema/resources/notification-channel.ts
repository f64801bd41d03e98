import { z } from "zod";
import { defineResource, field } from "../define.js";
import { type VariantFields, checkVariantFields, e164PhoneNumber, email, httpUrl, httpsUrl, nonEmpty, openEnum, openObject, uuid } from "../rules.js";

/** The kinds this package knows the settings of; the service may offer others (spec 2.6: not shown). */
export const CHANNEL_KINDS = ["email", "slack", "msteams", "sms", "pagerduty", "webhook"] as const;

const KEYS_ASSUMED = "the keys declared are the ones this package knows, with their rules; another key is sent as written and preview warns about it";

const config = openObject(
  {
    address: email.optional().describe("`email`: the address notified."),
    channel: nonEmpty.optional().describe("`slack`: the channel posted to, e.g. `#alerts`."),
    phoneNumber: e164PhoneNumber.optional().describe("`sms`: the number texted, in E.164 form (`+14155550100`)."),
    url: httpUrl.optional().describe("`webhook`: the http(s) URL called."),
  },
  KEYS_ASSUMED,
);

const credentials = openObject(
  {
    webhookUrl: httpsUrl.optional().describe("`slack`, `msteams`: the incoming-webhook URL."),
    integrationKey: nonEmpty.optional().describe("`pagerduty`: the Events API integration key."),
    headers: z
      .array(z.object({ name: nonEmpty.describe("Header name."), value: z.string().describe("Header value.") }).strict())
      .optional()
      .describe("`webhook`: headers sent with every call, e.g. an authorization token."),
  },
  KEYS_ASSUMED,
);

type ChannelField = `config.${keyof z.output<typeof config>}` | `credentials.${keyof z.output<typeof credentials>}`;

/**
 * Settings each channel kind is assumed to need (`required`) or accept (`optional`). The spec shows
 * none, so check enforces none of it (a server that connects Slack through its own app needs no
 * webhook URL): it warns about another kind's setting, and the importer declares a placeholder for
 * a needed secret the service does not return.
 */
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
  assumption: "the fields of notification channels are not shown (spec 2.6): names, kinds and settings are this package's",
  path: "/notification_channels",
  readBy: "get",
  updateMethod: "PUT",
  inputs: z.object({
    name: field(nonEmpty, { description: "Display name." }),
    kind: field(openEnum(CHANNEL_KINDS), {
      description: `The destination type (${CHANNEL_KINDS.map((kind) => `\`${kind}\``).join(", ")}); changing it replaces the channel.`,
      replaceOnChange: true,
      assumption: "the channel kinds are not shown; a kind this package does not know is sent as written, without checks of its settings",
    }),
    clientId: field(uuid.optional(), {
      description: "Id (UUID) of the client (agency partition) the channel lives in; changing it replaces the channel.",
      replaceOnChange: true,
    }),
    config: field(config.optional(), {
      description: "Kind-specific settings (address, channel, phone number, URL).",
      assumption: `which settings a kind needs and which keys it takes are not shown (spec 2.6): ${KEYS_ASSUMED}; a missing setting is the server's to refuse`,
    }),
    credentials: field(credentials.optional(), {
      description: "Kind-specific secrets (webhook URL, integration key, headers).",
      secret: true,
      writeOnly: true,
      assumption: `the service is assumed not to return them, so read keeps them from state (the importer turns every credential into a placeholder, returned or not); which keys a kind takes is not shown (spec 2.6): ${KEYS_ASSUMED}`,
    }),
  }),
  assumedRules(channel, issue) {
    if (channel.kind === undefined) return;
    const isSet = (field: ChannelField): boolean => {
      const [group, name] = field.split(".") as ["config" | "credentials", string];
      return (channel[group] as Record<string, unknown> | undefined)?.[name] !== undefined;
    };
    checkVariantFields(FIELDS_BY_KIND as Record<string, VariantFields<ChannelField>>, channel.kind, "channels", isSet, issue);
  },
  associations: {},
  outputs: z.object({}),
});
