/**
 * Every resource kind and association of test/programs/everything on the emulator's alt profile
 * (another server's choices where the spec is silent: upper-case ids, `null` for fields not set,
 * newest first, its own region names), through the provider as the dynamic-provider host runs it
 * (`dispatcher`: check, diff, create, read, update, delete), driven step by step as the engine
 * drives the program through ProgramTest's lifecycle: preview, up, an empty preview and refresh,
 * edits (updates, removed inputs, a replacement, a detach, a pause), the archive, an empty preview
 * and refresh, destroy, and nothing left behind.
 *
 * The same program on the real engine is test/e2e/lifecycle.test.ts, on the default profile: the
 * engine's part (ordering, outputs, secrets, the summary) is the same whatever the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/check.js";
import { dispatcher } from "../../provider/index.js";
import { collections, profiles, secrets } from "../e2e/support.js";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";

type Values = Record<string, unknown>;

const { profile, regions: regionList } = profiles.find((entry) => entry.profile === "alt")!;
const regions = regionList.split(",");

/** One resource of the program: its kind, its name, and its inputs from the ids of those declared before it. */
interface Declaration {
  kind: string;
  name: string;
  args: (ids: Record<string, string>) => Values;
}

/** test/programs/everything at `step` (1: setup, 2: edits, 3: the client archived), in its order of declaration. */
function program(step: number): Declaration[] {
  const edited = step >= 2;
  return [
    {
      kind: "ClientTemplate",
      name: "standard",
      args: () => ({ name: "Standard package", monitorDefaults: { intervalSeconds: 120, regions }, heartbeatDefaults: { gracePeriodSeconds: 600 } }),
    },
    {
      kind: "Client",
      name: "acme",
      args: (ids) => ({
        name: "Acme Corp",
        website: "https://acme.example",
        contactEmail: "ops@acme.example",
        templateId: ids.standard,
        archived: step >= 3,
        portalSettings: { enabled: true, title: edited ? "Acme status (new)" : "Acme status" },
      }),
    },
    { kind: "NotificationChannel", name: "ops-email", args: (ids) => ({ name: "Ops email", kind: "email", clientId: ids.acme, config: { address: "ops@acme.example" } }) },
    {
      kind: "NotificationChannel",
      name: "ops-chat",
      args: (ids) => ({ name: "Ops chat", kind: "slack", clientId: ids.acme, config: { channel: "#ops" }, credentials: { webhookUrl: secrets.chatWebhookUrl } }),
    },
    {
      kind: "EscalationPolicy",
      name: "on-call",
      args: (ids) => ({
        name: "On call",
        clientId: ids.acme,
        repeatCount: 1,
        steps: [
          { delayMinutes: 0, notificationChannelIds: [ids["ops-chat"]] },
          { delayMinutes: 15, notificationChannelIds: [ids["ops-email"], ids["ops-chat"]], urgency: "high" },
        ],
      }),
    },
    {
      kind: "Monitor",
      name: "website",
      args: (ids) => ({
        name: edited ? "Acme website (www)" : "Acme website",
        url: "https://acme.example",
        intervalSeconds: edited ? 300 : 60,
        ...(edited ? {} : { regions, sslExpiryAlertDays: 14, httpMethod: "HEAD" }),
        expectedStatusCode: 200,
        requestHeaders: [{ name: "X-Monitor-Token", value: secrets.headerValue }],
        authUsername: "monitor",
        authPassword: secrets.basicAuthPassword,
        maintenanceFrom: "02:00",
        maintenanceTo: "03:00",
        maintenanceTimezone: "Europe/Berlin",
        maintenanceWeekdays: ["sun"],
        escalationPolicyId: ids["on-call"],
        notificationChannelIds: edited ? [ids["ops-email"]] : [ids["ops-email"], ids["ops-chat"]],
        clientId: ids.acme,
        paused: edited,
      }),
    },
    { kind: "Monitor", name: "database", args: (ids) => ({ name: "Acme database port", monitorType: "tcp", tcpHost: "db.acme.example", tcpPort: 5432, clientId: ids.acme }) },
    { kind: "HeartbeatGroup", name: "nightly", args: (ids) => ({ name: "Nightly jobs", clientId: ids.acme }) },
    {
      kind: "Heartbeat",
      name: "backup",
      args: (ids) => ({
        name: "Nightly backup",
        expectedIntervalSeconds: 86_400,
        ...(edited ? {} : { gracePeriodSeconds: 1_800, heartbeatGroupId: ids.nightly }),
        clientId: ids.acme,
        paused: false,
      }),
    },
    {
      kind: "WebhookSubscription",
      name: "audit",
      args: (ids) => ({
        url: "http://127.0.0.1:9/hooks/monitoring",
        events: ["monitor.created", "monitor.paused"],
        description: edited ? "Audit trail (all monitor changes)" : "Audit trail",
        clientId: ids.acme,
      }),
    },
    { kind: "ClientShareLink", name: "status-page", args: (ids) => ({ clientId: ids.acme, label: edited ? "Status page for the board" : "Status page" }) },
  ];
}

/** What the engine records of a resource: its id, its checked inputs, its outputs. */
interface Recorded {
  kind: string;
  id: string;
  inputs: Values;
  outs: Values;
}

describe(`every kind and association through the provider's interface (${profile} profile)`, () => {
  let emulator: TestEmulator;
  /** The stack's state, by resource name, in the order of creation. */
  const state = new Map<string, Recorded>();
  const ids = () => Object.fromEntries([...state].map(([name, resource]) => [name, resource.id]));
  const same = (id: unknown) => String(id).toLowerCase();

  beforeAll(async () => {
    emulator = await startTestEmulator({ profile });
    const config: Record<string, string> = { "monitoring:apiUrl": emulator.baseUrl, "monitoring:apiKey": emulator.apiKey };
    await dispatcher.configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key] as string } });
  });
  afterAll(() => emulator.stop());

  async function checked(declaration: Declaration, known: Record<string, string> = ids()): Promise<Values> {
    const news = { ...declaration.args(known), __urn: `urn:pulumi:dev::everything::pulumi-nodejs:dynamic/monitoring:${declaration.kind}::${declaration.name}` };
    const { inputs, failures } = await dispatcher.check(state.get(declaration.name)?.inputs ?? {}, news);
    expect(failures ?? [], declaration.name).toEqual([]);
    return inputs!;
  }
  const api = <T = Values>(path: string) => emulator.byHand<T>("GET", path);
  const writes = async () => (await emulator.admin.requestLog()).filter((entry) => entry.method !== "GET");

  /** A deploy of the program at `step`: check and diff each resource, then create, update or replace what changed. */
  async function up(step: number): Promise<{ create: number; update: number; replace: number }> {
    const counts = { create: 0, update: 0, replace: 0 };
    for (const declaration of program(step)) {
      const inputs = await checked(declaration);
      const recorded = state.get(declaration.name);
      if (recorded === undefined) {
        const { id, outs } = await dispatcher.create(inputs);
        state.set(declaration.name, { kind: declaration.kind, id, inputs, outs: outs ?? {} });
        counts.create++;
        continue;
      }
      const planned = await dispatcher.diff(recorded.id, recorded.outs, inputs);
      if (!planned.changes) continue;
      if ((planned.replaces ?? []).length > 0) {
        // Create before delete, Pulumi's default for a replacement.
        const { id, outs } = await dispatcher.create(inputs);
        await dispatcher.delete(recorded.id, recorded.outs);
        state.set(declaration.name, { kind: declaration.kind, id, inputs, outs: outs ?? {} });
        counts.replace++;
      } else {
        const { outs } = await dispatcher.update(recorded.id, recorded.outs, inputs);
        state.set(declaration.name, { ...recorded, inputs, outs: outs ?? {} });
        counts.update++;
      }
    }
    return counts;
  }

  /** A refresh, then a preview: each resource read back, and its diff against the program empty. */
  async function expectNoChanges(step: number): Promise<void> {
    await emulator.admin.clearRequestLog();
    for (const declaration of program(step)) {
      const recorded = state.get(declaration.name)!;
      const { id, props } = await dispatcher.read(recorded.id, recorded.outs);
      expect(same(id), declaration.name).toBe(same(recorded.id));
      const planned = await dispatcher.diff(recorded.id, props ?? {}, await checked(declaration));
      expect(planned.changes, `${declaration.name} after a refresh`).toBe(false);
      state.set(declaration.name, { ...recorded, outs: props ?? {} });
    }
    expect(await writes()).toEqual([]);
  }

  it("previews every resource with no API call", async () => {
    // Before the first up, no id is known yet: the engine passes its unknown value.
    const unknownIds = new Proxy({}, { get: () => UNKNOWN }) as Record<string, string>;
    await emulator.admin.clearRequestLog();
    for (const declaration of program(1)) await checked(declaration, unknownIds);
    expect(await emulator.admin.requestLog()).toEqual([]);
  });

  it("creates everything and applies the associations", async () => {
    expect(await up(1)).toEqual({ create: 11, update: 0, replace: 0 });
    const monitors = await api<{ name: string }[]>("/monitors?all_clients=true");
    expect(monitors.map((monitor) => monitor.name).sort()).toEqual(["Acme database port", "Acme website"]);
    const { website, acme, nightly, backup } = ids();
    const attached = await api<{ id: string }[]>(`/monitors/${website}/notification_channels`);
    expect(attached.map((channel) => same(channel.id)).sort()).toEqual([ids()["ops-email"], ids()["ops-chat"]].map(same).sort());
    const held = await api<Values>(`/monitors/${website}`);
    expect(same(held.escalation_policy_id)).toBe(same(ids()["on-call"]));
    expect(same(held.client_id)).toBe(same(acme));
    expect(same((await api<Values>(`/heartbeats/${backup}`)).heartbeat_group_id)).toBe(same(nightly));
    expect(await api(`/clients/${acme}/portal-settings`)).toMatchObject({ enabled: true, title: "Acme status" });
  });

  it("then refreshes and previews no changes, reading only", async () => {
    await expectNoChanges(1);
  });

  it("applies the edits: updates, removed inputs, a replacement, a detach and a pause", async () => {
    // The share link's label cannot change in place; the client's portal title, the website, the heartbeat, the webhook's description can.
    expect(await up(2)).toEqual({ create: 0, update: 4, replace: 1 });
    const { website, backup, acme } = ids();
    const held = await api<Values>(`/monitors/${website}`);
    expect(held).toMatchObject({ name: "Acme website (www)", interval_seconds: 300, status: "PAUSED" });
    // Removed inputs: a field with a default gets it back, one without is cleared.
    expect(held.http_method).toBe("GET");
    expect(held.ssl_expiry_alert_days ?? null).toBeNull();
    expect((held.regions as string[]).length).toBeGreaterThan(0);
    const heartbeat = await api<Values>(`/heartbeats/${backup}`);
    expect(heartbeat.heartbeat_group_id ?? null).toBeNull();
    expect(heartbeat.grace_period_seconds).not.toBe(1_800);
    const attached = await api<{ id: string }[]>(`/monitors/${website}/notification_channels`);
    expect(attached.map((channel) => same(channel.id))).toEqual([same(ids()["ops-email"])]);
    const links = await api<{ label: string }[]>(`/clients/${acme}/share-links`);
    expect(links.map((link) => link.label)).toEqual(["Status page for the board"]);
  });

  it("archives the client, then refreshes and previews no changes", async () => {
    expect(await up(3)).toEqual({ create: 0, update: 1, replace: 0 });
    expect(await api(`/clients/${ids().acme}`)).toMatchObject({ archived: true });
    await expectNoChanges(3);
  });

  it("destroys everything, dependents first, and leaves nothing behind", async () => {
    const { acme } = ids();
    for (const [name, recorded] of [...state].reverse()) {
      await dispatcher.delete(recorded.id, recorded.outs);
      state.delete(name);
    }
    for (const collection of collections) {
      expect(await api(`${collection}?all_clients=true`), collection).toEqual([]);
    }
    expect(await api(`/clients/${acme}/share-links`)).toEqual([]);
    // The API cannot delete a client: destroying one archives it.
    expect(await api(`/clients/${acme}`)).toMatchObject({ archived: true });
  });
});
