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
import type { z } from "zod";
import { parseFieldValue } from "../../schema/rule-messages.js";
import {
  Client,
  ClientShareLink,
  ClientTemplate,
  type ClientTemplateArgs,
  EscalationPolicy,
  Heartbeat,
  HeartbeatGroup,
  Monitor,
  type MonitorArgs,
  NotificationChannel,
} from "../generated/index.js";
import { clientMonitoringSpec } from "./client-monitoring-spec.js";
import { endpointKey, nameSegment } from "./resource-names.js";

export { nameSegment } from "./resource-names.js";

/**
 * Monitor settings of the standard package when the client has no template. With a template, the
 * template's defaults apply instead, so that the agency changes them in one place.
 */
export const STANDARD_MONITOR_SETTINGS = {
  intervalSeconds: 60,
  regions: ["us-east-1", "eu-west-1", "ap-southeast-1"],
  sslExpiryAlertDays: 14,
} as const satisfies Partial<MonitorArgs>;

/** What a client gets monitored with. Checked when the component is declared. */
export interface ClientMonitoringSpec {
  /** The client's display name. */
  name: string;
  /** The client's domain; endpoints are checked at `https://<domain><path>`. */
  domain: string;
  /** Key endpoints, one HTTP monitor each (at least one). */
  endpoints: ClientMonitoringEndpoint[];
  /** Who is alerted. */
  contacts: ClientMonitoringContacts;
  /** Scheduled jobs, one heartbeat each, filed in one heartbeat group. None when left out. */
  cronJobs?: ClientMonitoringCronJob[];
  /** The client template: `{ id }` of a shared one, or `{ create: ClientTemplateArgs }` for one of the client's own. */
  template?: { id: pulumi.Input<string> } | { create: ClientTemplateArgs };
  /** Seconds between checks of each endpoint, at least 10. */
  intervalSeconds?: number;
  /** Regions the endpoints are checked from (at least one, each once). */
  regions?: string[];
  /** Days before certificate expiry to warn. */
  sslExpiryAlertDays?: number;
  /** With a chat channel: minutes (1 to 1440) an incident stays unacknowledged in chat before email is alerted too. Default: 15. */
  escalateAfterMinutes?: number;
  /** A read-only status link for the client's own people. */
  shareLink?: ClientMonitoringShareLink;
  /** Windows during which every monitor and heartbeat of the client is paused (a maintenance of the client's). */
  pauses?: ClientMonitoringPause[];
}

/** A window during which monitoring is paused: see `pauses` of a Monitor (docs/overrides-and-maintenance.md). */
export interface ClientMonitoringPause {
  /** When it starts: an ISO 8601 instant with an offset, e.g. `2030-11-28T22:00:00Z`. */
  from: string;
  /** When it ends, after `from`. */
  to: string;
  /** Why, shown by preview and up. */
  reason: string;
}

/** A key endpoint of the client, checked by an HTTP monitor. */
export interface ClientMonitoringEndpoint {
  /** Path on the client's domain, e.g. `/api/health` (starts with `/`). */
  path: string;
  /** Display name of the endpoint's monitor; `<domain><path>` when left out. */
  name?: string;
  /** The status the endpoint must answer with. Default: 200. */
  expectedStatusCode?: number;
  /** Text the response must contain; the monitor then checks the content too. */
  keyword?: string;
  /** Windows during which this endpoint's monitor is paused, besides the client's. */
  pauses?: ClientMonitoringPause[];
}

/** Who is alerted about the client's incidents. */
export interface ClientMonitoringContacts {
  /** Addresses alerted by email (at least one, each once); the first is the client's contact. */
  emails: string[];
  /** A chat channel alerted first, before email. */
  chat?: ClientMonitoringChat;
}

/** A Slack or Microsoft Teams channel alerted through its incoming webhook. */
export interface ClientMonitoringChat {
  /** The chat service. */
  kind: "slack" | "msteams";
  /** The incoming-webhook URL. Secret: give it as a secret (e.g. `config.requireSecret(...)`). */
  webhookUrl: pulumi.Input<string>;
  /** `slack`: the channel posted to, e.g. `#acme-alerts`. */
  channel?: string;
}

/** A scheduled job of the client, watched by a heartbeat. */
export interface ClientMonitoringCronJob {
  /** The job's name, e.g. `nightly-backup`. */
  name: string;
  /** How often the job runs, in seconds (at least 30; 86400 for a nightly job). */
  intervalSeconds: number;
  /** Slack before a silent job alerts, in seconds. */
  graceSeconds?: number;
  /** Windows during which this job's heartbeat is paused, besides the client's. */
  pauses?: ClientMonitoringPause[];
}

/** A read-only status link for the client's own people. */
export interface ClientMonitoringShareLink {
  /** Name of the link. */
  label: string;
  /** When the link stops working (ISO-8601). */
  expiresAt?: string;
}

// The public interface and the schema accept the same specs: a field added to one and not the
// other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;
type SpecTypesAgree = Expect<Same<ClientMonitoringSpec, z.input<typeof clientMonitoringSpec>>>;

/** A problem of a spec: where (`endpoints.1.path`) and what. */
export interface ClientMonitoringSpecIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** A spec that breaks the rules of a {@link ClientMonitoringSpec}, with every problem on its own line. */
export class ClientMonitoringSpecError extends Error {
  constructor(name: string, issues: readonly ClientMonitoringSpecIssue[]) {
    const lines = issues.map((issue) => `  ${issue.path.length === 0 ? "(spec)" : issue.path.map(String).join(".")}: ${issue.message}`);
    super(`ClientMonitoring ${name}: the spec is invalid:\n${lines.join("\n")}`);
    this.name = "ClientMonitoringSpecError";
  }
}

/** A client and the agency's standard monitoring package inside it, from a {@link ClientMonitoringSpec}. */
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
    const parsed = parseFieldValue(clientMonitoringSpec, spec);
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
          ...pausesOf(client.pauses, endpoint.pauses),
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
            ...pausesOf(client.pauses, job.pauses),
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

/** The client's windows and an object's own, as its `pauses`; none declared when there are none. */
function pausesOf(...lists: (readonly ClientMonitoringPause[] | undefined)[]): { pauses?: ClientMonitoringPause[] } {
  const pauses = lists.flatMap((list) => list ?? []);
  return pauses.length === 0 ? {} : { pauses };
}

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
