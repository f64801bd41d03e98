/**
 * An account made by hand through the API, for the import tests and the import benchmark: `count`
 * objects of every kind, spread over the account (outside any client) and two clients, wired to
 * each other (attached channels, policies with steps, heartbeats in groups), with a paused monitor
 * and heartbeat, an archived client, and secrets the service never shows (a monitor's basic auth
 * password, channels' credentials) or shows (request header values).
 */
// @ts-nocheck

import type { TestEmulator } from "../support/emulator.js";

export interface SeededAccount {
  /** Every secret written, by object id (lower case) and path in the kind's inputs (`authPassword`, `credentials.webhookUrl`). */
  secrets: Map<string, Record<string, string>>;
  /** Ids of the two clients that hold objects. */
  clients: [string, string];
}

type Body = Record<string, unknown>;

export async function seedAccount(emulator: TestEmulator, count: number): Promise<SeededAccount> {
  const post = async (path: string, body: Body = {}): Promise<Body & { id: string }> => {
    const response = await fetch(`${emulator.baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
    return (JSON.parse(text) as { data: Body & { id: string } }).data;
  };
  const put = async (path: string, body: Body): Promise<void> => {
    const response = await fetch(`${emulator.baseUrl}${path}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`PUT ${path}: ${response.status} ${await response.text()}`);
  };
  const secrets = new Map<string, Record<string, string>>();
  const remember = (id: string, path: string, value: string) => secrets.set(id.toLowerCase(), { ...secrets.get(id.toLowerCase()), [path]: value });
  const indexes = Array.from({ length: count }, (_, index) => index);
  const twoDigits = (index: number) => String(index).padStart(2, "0");

  const templates: (Body & { id: string })[] = [];
  for (const index of indexes) {
    templates.push(
      await post("/client-templates", {
        name: `Template ${twoDigits(index)}`,
        ...(index % 2 === 0 ? { monitor_defaults: { interval_seconds: 120 + index, follow_redirects: false } } : {}),
        ...(index % 3 === 0 ? { heartbeat_defaults: { grace_period_seconds: 600 } } : {}),
      }),
    );
  }
  const clients: (Body & { id: string })[] = [];
  for (const index of indexes) {
    const name = index === 0 ? "Acme" : index === 1 ? "Globex" : `Client ${twoDigits(index)}`;
    clients.push(
      await post("/clients", {
        name,
        ...(index === 0 ? { template_id: templates[0]?.id, website: "https://acme.example.com" } : {}),
        ...(index % 5 === 2 ? { contact_email: `owner${index}@example.com`, description: "A client of the agency." } : {}),
      }),
    );
  }
  const [acme, globex] = clients as [Body & { id: string }, Body & { id: string }];
  await put(`/clients/${acme.id}/portal-settings`, { enabled: true, title: "Acme status", primary_color: "#123456" });
  /** Where object `index` of every kind lives: outside any client, or in one of the two clients. */
  const clientOf = (index: number): string | undefined => (index % 4 === 1 ? acme.id : index % 4 === 2 ? globex.id : undefined);
  const inClient = (index: number): Body => {
    const clientId = clientOf(index);
    return clientId === undefined ? {} : { client_id: clientId };
  };

  for (const index of indexes) {
    const client = index % 2 === 0 ? acme : globex;
    await post(`/clients/${client.id}/share-links`, { label: `Link ${twoDigits(index)}`, ...(index % 3 === 0 ? { expires_at: "2031-01-01T00:00:00Z" } : {}) });
  }

  const channelKinds = ["email", "slack", "msteams", "sms", "pagerduty", "webhook"] as const;
  const channels: (Body & { id: string })[] = [];
  for (const index of indexes) {
    const kind = channelKinds[index % channelKinds.length] as (typeof channelKinds)[number];
    const settings: Record<(typeof channelKinds)[number], { body: Body; secret?: [string, string] }> = {
      email: { body: { config: { address: `team${index}@example.com` } } },
      slack: {
        body: { config: { channel: `#alerts-${index}` }, credentials: { webhook_url: `https://hooks.slack.example/T0/B${index}/s3cret` } },
        secret: ["credentials.webhookUrl", `https://hooks.slack.example/T0/B${index}/s3cret`],
      },
      msteams: {
        body: { credentials: { webhook_url: `https://teams.example/webhook/${index}/s3cret` } },
        secret: ["credentials.webhookUrl", `https://teams.example/webhook/${index}/s3cret`],
      },
      sms: { body: { config: { phone_number: `+1415555${String(1000 + index)}` } } },
      pagerduty: {
        body: { credentials: { integration_key: `${twoDigits(index)}${"a".repeat(30)}` } },
        secret: ["credentials.integrationKey", `${twoDigits(index)}${"a".repeat(30)}`],
      },
      webhook: { body: { config: { url: `https://hooks.example.com/alerts/${index}` } } },
    };
    const { body, secret } = settings[kind];
    // Two channels share a name, as hand-made accounts do.
    const name = index === 3 ? "Ops" : index === 4 ? "Ops" : `Channel ${twoDigits(index)}`;
    const channel = await post("/notification_channels", { name, kind, ...body, ...inClient(index) });
    if (secret !== undefined) remember(channel.id, secret[0], secret[1]);
    channels.push(channel);
  }
  /** A channel in the same place as object `index` (indexes congruent mod 4 share a place). */
  const channelFor = (index: number, offset = 0) => channels[(index + 4 * offset) % count] as Body & { id: string };

  const policies: (Body & { id: string })[] = [];
  for (const index of indexes) {
    policies.push(
      await post("/escalation-policies", {
        name: `Policy ${twoDigits(index)}`,
        ...(index % 3 === 0 ? { repeat_count: 2, description: "Escalates to the pager." } : {}),
        steps: [
          { delay_minutes: 0, notification_channel_ids: [channelFor(index).id, channelFor(index, 1).id], urgency: index % 2 === 0 ? "low" : "high" },
          ...(index % 2 === 0 ? [{ delay_minutes: 15, notification_channel_ids: [channelFor(index, 2).id] }] : []),
        ],
        ...inClient(index),
      }),
    );
  }

  const groups: (Body & { id: string })[] = [];
  for (const index of indexes) {
    groups.push(await post("/heartbeat-groups", { name: `Group ${twoDigits(index)}`, ...(index % 2 === 0 ? { description: "Nightly jobs." } : {}), ...inClient(index) }));
  }
  for (const index of indexes) {
    const heartbeat = await post("/heartbeats", {
      name: `Job ${twoDigits(index)}`,
      expected_interval_seconds: index % 2 === 0 ? 86_400 : 3_600,
      ...(index % 3 === 0 ? { grace_period_seconds: 900 } : {}),
      ...(index % 5 !== 4 ? { heartbeat_group_id: (groups[index] as Body & { id: string }).id } : {}),
      ...inClient(index),
    });
    if (index === 5) await post(`/heartbeats/${heartbeat.id}/pause`);
  }

  const monitorTypes = ["http", "tcp", "dns", "ping"] as const;
  for (const index of indexes) {
    const type = monitorTypes[Math.floor(index / 4) % monitorTypes.length] as (typeof monitorTypes)[number];
    const target: Record<(typeof monitorTypes)[number], Body> = {
      http: {
        url: `https://app${index}.example.com/health`,
        ...(index % 3 === 0 ? { expected_status_code: 200, http_method: "HEAD", follow_redirects: false } : {}),
        ...(index === 0 ? { auth_username: "probe", auth_password: "pw-0-basic-auth" } : {}),
        ...(index === 1 ? { request_headers: [{ name: "X-Api-Token", value: "hv-1-header-token" }] } : {}),
      },
      tcp: { monitor_type: "tcp", tcp_host: `db${index}.example.com`, tcp_port: 5432 },
      dns: { monitor_type: "dns", dns_query: `app${index}.example.com`, dns_type: "A" },
      ping: { monitor_type: "ping", url: `host${index}.example.com` },
    };
    const monitor = await post("/monitors", {
      // Two monitors share a name (in different places), as hand-made accounts do.
      name: index === 0 || index === 1 ? "Website" : `Monitor ${twoDigits(index)}`,
      ...target[type],
      ...(index % 2 === 0 ? { interval_seconds: 30 + index } : {}),
      ...(index % 3 === 1 ? { escalation_policy_id: (policies[index] as Body & { id: string }).id } : {}),
      ...(index % 5 === 0 ? { confirmation_period: 120, maintenance_from: "02:00", maintenance_to: "03:00", maintenance_timezone: "Europe/Berlin" } : {}),
      ...inClient(index),
    });
    if (index === 0) remember(monitor.id, "authPassword", "pw-0-basic-auth");
    if (index === 1) remember(monitor.id, "requestHeaders[0].value", "hv-1-header-token");
    if (index % 2 === 0) await post(`/monitors/${monitor.id}/notification_channels/${channelFor(index).id}`);
    if (index % 4 === 0) await post(`/monitors/${monitor.id}/notification_channels/${channelFor(index, 3).id}`);
    if (index === 7) await post(`/monitors/${monitor.id}/pause`);
  }

  for (const index of indexes) {
    await post("/webhook-subscriptions", {
      url: `https://receiver${index}.example.com/events`,
      events: index % 2 === 0 ? ["*"] : ["monitor.down", "monitor.up"],
      ...(index % 3 === 0 ? { description: `Receiver ${twoDigits(index)}`, enabled: false } : {}),
      ...inClient(index),
    });
  }

  // A client that is archived, holding a monitor made before it was archived.
  const archived = clients[count - 1] as Body & { id: string };
  await post("/monitors", { name: "Legacy site", url: "https://legacy.example.com", client_id: archived.id });
  await post(`/clients/${archived.id}/archive`);
  return { secrets, clients: [acme.id, globex.id] };
}

async function listAll(emulator: TestEmulator, path: string, query: Record<string, string> = {}): Promise<Body[]> {
  const items: Body[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, limit: "250", ...(cursor === null ? {} : { cursor }) });
    const response = await fetch(`${emulator.baseUrl}${path}?${params}`, { headers: { authorization: `Bearer ${emulator.apiKey}` } });
    const page = (await response.json()) as { data: Body[]; pagination: { next_cursor: string | null } };
    items.push(...page.data);
    cursor = page.pagination.next_cursor;
  } while (cursor !== null);
  return items;
}

/** The collections of the kinds a monitoring file holds. */
const FILE_COLLECTIONS = ["/monitors", "/heartbeats", "/heartbeat-groups", "/escalation-policies", "/notification_channels", "/webhook-subscriptions"];

/** How many objects of every kind the account holds, clients and share links included. */
export async function countObjects(emulator: TestEmulator): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const path of FILE_COLLECTIONS) counts[path] = (await listAll(emulator, path, { all_clients: "true" })).length;
  const clients = await listAll(emulator, "/clients");
  counts["/clients"] = clients.length;
  counts["/client-templates"] = (await listAll(emulator, "/client-templates")).length;
  let links = 0;
  for (const client of clients) links += (await listAll(emulator, `/clients/${String(client.id)}/share-links`)).length;
  counts["share-links"] = links;
  return counts;
}

/** How many objects of the kinds a monitoring file holds live in one place: outside any client, or in `clientId`. */
export async function countFileObjects(emulator: TestEmulator, clientId?: string): Promise<number> {
  let count = 0;
  for (const path of FILE_COLLECTIONS) count += (await listAll(emulator, path, clientId === undefined ? {} : { client_id: clientId })).length;
  return count;
}

/** Creates go to collection paths: `/monitors`, `/clients/{id}/share-links`, ... */
export const COLLECTION_PATH = /^\/(monitors|heartbeats|heartbeat-groups|escalation-policies|notification_channels|webhook-subscriptions|clients|client-templates|clients\/[^/]+\/share-links)$/i;
