/**
 * Agency mode in one resource: `ClientMonitoring` creates a client and the agency's standard
 * monitoring package inside it from a typed spec (the client's domain, key endpoints, contacts and
 * cron jobs), so that one stack per client stays a few lines of configuration.
 *
 *   new mon.ClientMonitoring("acme", {
 *     name: "Acme Corp",
 *     domain: "acme.example.com",
 *     endpoints: [{ path: "/" }, { path: "/api/health", keyword: "ok" }],
 *     contacts: { emails: ["ops@acme.example.com"] },
 *     cronJobs: [{ name: "nightly-backup", intervalSeconds: 86400 }],
 *     template: { id: standardTemplateId },
 *   });
 *
 * The spec is validated when the component is declared, so a mistake in a stack's configuration
 * fails the preview with the path of the bad field rather than halfway through a deployment.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { heartbeat, monitor } from "../../schema/index.js";
import { email, isoDateTime, nonEmpty, region, setOf, wholeNumber } from "../../schema/rules.js";
// The package root re-exports this module; the classes are only read when a component is
// constructed, after both modules have finished loading, so the import cycle is harmless.
import { Client, ClientShareLink, ClientTemplate, EscalationPolicy, Heartbeat, HeartbeatGroup, Monitor, NotificationChannel } from "../index.js";
import type { ClientTemplateArgs, MonitorArgs } from "../index.js";

/**
 * Monitor settings of the standard package when the client has no template. With a template, the
 * template's defaults apply instead, so that the agency changes them in one place.
 */
export const STANDARD_MONITOR_SETTINGS = {
  intervalSeconds: 60,
  regions: ["us-east-1", "eu-west-1", "ap-southeast-1"],
  sslExpiryAlertDays: 14,
} as const satisfies Partial<MonitorArgs>;

/** A Pulumi resource name part from free text: `/api/health` becomes `api-health`, `/` becomes `root`. */
export function nameSegment(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "root";
}

/** How an endpoint is named among the component's monitors and in their resource names. */
const endpointKey = (endpoint: { name?: string | undefined; path: string }): string => nameSegment(endpoint.name ?? endpoint.path);

const endpointSpec = z
  .object({
    path: z.string().startsWith("/", { error: "must start with /" }).describe("Path on the client's domain, e.g. `/api/health`."),
    name: nonEmpty.optional().describe("Display name of the endpoint's monitor; `<domain><path>` when left out."),
    expectedStatusCode: monitor.inputs.shape.expectedStatusCode.unwrap().default(200).describe("The status the endpoint must answer with."),
    keyword: nonEmpty.optional().describe("Text the response must contain; the monitor then checks the content too."),
  })
  .strict();

const contactsSpec = z
  .object({
    emails: setOf(email).min(1, { error: "must name at least one address" }).describe("Addresses alerted by email; the first is the client's contact."),
    chat: z
      .object({
        kind: z.enum(["slack", "msteams"], { error: "must be slack or msteams" }).describe("The chat service."),
        webhookUrl: z
          .custom<pulumi.Input<string>>((value) => value !== undefined && value !== null, { error: "is required" })
          .describe("The incoming-webhook URL. Secret: give it as a secret (e.g. `config.requireSecret(...)`)."),
        channel: z.string().optional().describe("`slack`: the channel posted to, e.g. `#acme-alerts`."),
      })
      .strict()
      .optional()
      .describe("A chat channel alerted first, before email."),
  })
  .strict();

const cronJobSpec = z
  .object({
    name: nonEmpty.describe("The job's name, e.g. `nightly-backup`."),
    intervalSeconds: wholeNumber(30).describe("How often the job runs, in seconds (86400 for a nightly job)."),
    graceSeconds: heartbeat.inputs.shape.gracePeriodSeconds.describe("Slack before a silent job alerts, in seconds."),
  })
  .strict();

const templateChoice = z.union([
  z.object({ id: z.custom<pulumi.Input<string>>((value) => value !== undefined && value !== null, { error: "is required" }) }).strict(),
  z.object({ create: z.custom<ClientTemplateArgs>((value) => typeof value === "object" && value !== null) }).strict(),
]);

/** What a client gets monitored with. Validated when the component is declared. */
export const clientMonitoringSpec = z
  .object({
    name: nonEmpty.describe("The client's display name."),
    domain: z
      .string()
      .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i, { error: "must be a domain name such as acme.example.com" })
      .describe("The client's domain; endpoints are checked at `https://<domain><path>`."),
    endpoints: z.array(endpointSpec).min(1, { error: "must list at least one endpoint" }).describe("Key endpoints, one HTTP monitor each."),
    contacts: contactsSpec,
    cronJobs: z.array(cronJobSpec).default([]).describe("Scheduled jobs, one heartbeat each, filed in one heartbeat group."),
    template: templateChoice
      .optional()
      .describe("The client template: `{ id }` of a shared one, or `{ create: ClientTemplateArgs }` for one of the client's own."),
    intervalSeconds: wholeNumber(10).optional().describe("Seconds between checks of each endpoint, at least 10."),
    regions: setOf(region).min(1, { error: "must name at least one region" }).optional().describe("Regions the endpoints are checked from."),
    sslExpiryAlertDays: wholeNumber(1).optional().describe("Days before certificate expiry to warn."),
    escalateAfterMinutes: wholeNumber(1, 1440)
      .default(15)
      .describe("With a chat channel: minutes an incident stays unacknowledged in chat before email is alerted too."),
    shareLink: z
      .object({ label: nonEmpty.describe("Name of the link."), expiresAt: isoDateTime.optional().describe("When the link stops working.") })
      .strict()
      .optional()
      .describe("A read-only status link for the client's own people."),
  })
  .strict()
  .superRefine((spec, context) => {
    // Endpoints and jobs become resources named after them, so two may not share a name.
    const reportDuplicates = (list: "endpoints" | "cronJobs", keys: string[]) => {
      keys.forEach((key, index) => {
        if (keys.indexOf(key) !== index) {
          context.addIssue({ code: "custom", path: [list, index], message: `has the same name as an earlier entry (${key}); give it its own name` });
        }
      });
    };
    reportDuplicates("endpoints", spec.endpoints.map(endpointKey));
    reportDuplicates("cronJobs", spec.cronJobs.map((job) => nameSegment(job.name)));
  });

export type ClientMonitoringSpec = z.input<typeof clientMonitoringSpec>;

/** A spec that does not pass {@link clientMonitoringSpec}, with every problem on its own line. */
export class ClientMonitoringSpecError extends Error {
  constructor(name: string, issues: readonly z.core.$ZodIssue[]) {
    const lines = issues.map((issue) => `  ${issue.path.length === 0 ? "(spec)" : issue.path.map(String).join(".")}: ${issue.message}`);
    super(`ClientMonitoring ${name}: the spec is invalid:\n${lines.join("\n")}`);
    this.name = "ClientMonitoringSpecError";
  }
}


export class ClientMonitoring extends pulumi.ComponentResource {
  readonly client: Client;
  readonly clientId: pulumi.Output<string>;
  /** The endpoints' monitors, by endpoint key (the name segment of the endpoint's `name` or `path`). */
  readonly monitors: Record<string, Monitor>;
  readonly monitorIds: pulumi.Output<Record<string, string>>;
  /** The cron jobs' heartbeats, by job name. */
  readonly heartbeats: Record<string, Heartbeat>;
  /** The URL each job calls when it runs, by job name. Secret. */
  readonly heartbeatPingUrls: pulumi.Output<Record<string, string>>;
  readonly escalationPolicyId: pulumi.Output<string>;
  readonly notificationChannelIds: pulumi.Output<string[]>;
  /** The read-only status link, when the spec asks for one. Secret: it carries the link's token. */
  readonly shareLinkUrl: pulumi.Output<string | undefined>;

  constructor(name: string, spec: ClientMonitoringSpec, opts: pulumi.ComponentResourceOptions = {}) {
    super("monitoring:agency:ClientMonitoring", name, {}, opts);
    const parsed = clientMonitoringSpec.safeParse(spec);
    if (!parsed.success) throw new ClientMonitoringSpecError(name, parsed.error.issues);
    const client = parsed.data;
    const child = { parent: this };

    const templateId =
      client.template === undefined
        ? undefined
        : "id" in client.template
          ? client.template.id
          : new ClientTemplate(`${name}-template`, client.template.create, child).id;
    this.client = new Client(
      name,
      {
        name: client.name,
        website: `https://${client.domain}`,
        contactEmail: client.contacts.emails[0] as string,
        ...(templateId === undefined ? {} : { templateId }),
      },
      child,
    );
    const clientId = this.client.id;
    this.clientId = clientId;

    const emailChannels = client.contacts.emails.map(
      (address) => new NotificationChannel(`${name}-email-${address}`, { name: address, kind: "email", clientId, config: { address } }, child),
    );
    const chat = client.contacts.chat;
    const chatChannel =
      chat === undefined
        ? undefined
        : new NotificationChannel(
            `${name}-${chat.kind}`,
            {
              name: `${client.name} ${chat.kind === "slack" ? "Slack" : "Teams"}`,
              kind: chat.kind,
              clientId,
              ...(chat.channel === undefined ? {} : { config: { channel: chat.channel } }),
              credentials: { webhookUrl: chat.webhookUrl },
            },
            child,
          );
    const channelIds = [...(chatChannel === undefined ? [] : [chatChannel.id]), ...emailChannels.map((channel) => channel.id)];
    const emailIds = emailChannels.map((channel) => channel.id);
    // Chat first and quietly; email, loudly, once nobody has acknowledged in chat.
    const steps =
      chatChannel === undefined
        ? [{ delayMinutes: 0, notificationChannelIds: emailIds }]
        : [
            { delayMinutes: 0, notificationChannelIds: [chatChannel.id], urgency: "low" as const },
            { delayMinutes: client.escalateAfterMinutes, notificationChannelIds: emailIds },
          ];
    const policy = new EscalationPolicy(`${name}-on-call`, { name: `${client.name} on call`, clientId, steps }, child);

    const standard: Partial<typeof STANDARD_MONITOR_SETTINGS> = templateId === undefined ? STANDARD_MONITOR_SETTINGS : {};
    const intervalSeconds = client.intervalSeconds ?? standard.intervalSeconds;
    const regions = client.regions ?? standard.regions;
    const sslExpiryAlertDays = client.sslExpiryAlertDays ?? standard.sslExpiryAlertDays;
    this.monitors = {};
    for (const endpoint of client.endpoints) {
      const key = endpointKey(endpoint);
      this.monitors[key] = new Monitor(
        `${name}-${key}`,
        {
          name: endpoint.name ?? `${client.domain}${endpoint.path}`,
          url: `https://${client.domain}${endpoint.path}`,
          expectedStatusCode: endpoint.expectedStatusCode,
          ...(endpoint.keyword === undefined ? {} : { alertType: "keyword" as const, keyword: endpoint.keyword }),
          ...(intervalSeconds === undefined ? {} : { intervalSeconds }),
          ...(regions === undefined ? {} : { regions: [...regions] }),
          ...(sslExpiryAlertDays === undefined ? {} : { sslExpiryAlertDays }),
          clientId,
          notificationChannelIds: channelIds,
          escalationPolicyId: policy.id,
        },
        child,
      );
    }

    this.heartbeats = {};
    if (client.cronJobs.length > 0) {
      const group = new HeartbeatGroup(`${name}-cron-jobs`, { name: "Cron jobs", description: `Scheduled jobs of ${client.name}.`, clientId }, child);
      for (const job of client.cronJobs) {
        this.heartbeats[job.name] = new Heartbeat(
          `${name}-job-${nameSegment(job.name)}`,
          {
            name: job.name,
            expectedIntervalSeconds: job.intervalSeconds,
            ...(job.graceSeconds === undefined ? {} : { gracePeriodSeconds: job.graceSeconds }),
            heartbeatGroupId: group.id,
            clientId,
          },
          child,
        );
      }
    }

    const shareLink =
      client.shareLink === undefined ? undefined : new ClientShareLink(`${name}-share-link`, { clientId, ...client.shareLink }, child);

    this.monitorIds = pulumi.all(mapValues(this.monitors, (resource) => resource.id));
    this.heartbeatPingUrls = pulumi.secret(pulumi.all(mapValues(this.heartbeats, (resource) => resource.pingUrl)));
    this.escalationPolicyId = policy.id;
    this.notificationChannelIds = pulumi.all(channelIds);
    this.shareLinkUrl = shareLink === undefined ? pulumi.output(undefined) : shareLink.url;
    this.registerOutputs({
      clientId: this.clientId,
      monitorIds: this.monitorIds,
      heartbeatPingUrls: this.heartbeatPingUrls,
      escalationPolicyId: this.escalationPolicyId,
      notificationChannelIds: this.notificationChannelIds,
      shareLinkUrl: this.shareLinkUrl,
    });
  }
}

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
