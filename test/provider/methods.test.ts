/**
 * The provider's methods against the emulator, driven the way the Pulumi engine drives them:
 * check → create, then diff (preview), read → diff (refresh), update, delete. One row per kind
 * in `kinds`; association, drift, idempotency, adoption and error cases follow.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { type AnyResourceDefinition, client as clientDefinition, definitionOf, definitions, heartbeat as heartbeatDefinition, monitor as monitorDefinition, webhookSubscription as subscriptionDefinition } from "../../schema/index.js";
import { check } from "../../provider/check.js";
import { diff } from "../../provider/diff.js";
import { ResourceEngine } from "../../provider/engine.js";
import { ApiClient } from "../../provider/http/client.js";
import { providerFor } from "../../provider/index.js";
import { toSnakeCase } from "../../schema/naming.js";
import { operationsOf, scopesOf } from "../../schema/operations.js";
import { startTestEmulator, useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

type Values = Record<string, unknown>;


const on = useEmulatorWith(providerClientOn);

function engineOf(definition: AnyResourceDefinition): ResourceEngine {
  return new ResourceEngine(definition, () => on.api);
}

/** The inputs Pulumi hands to create/update: checked (with schema defaults) plus the URN the SDK passes. */
function checked(definition: AnyResourceDefinition, name: string, inputs: Values): Values {
  const result = check(definition, { ...inputs, __urn: `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:${definition.kind}::${name}` });
  expect(result.failures).toEqual([]);
  return result.inputs;
}

/** Raw API calls for setting up and inspecting objects behind the provider's back. */
const raw = {
  create: async (path: string, body: Values): Promise<Values> => (await on.api.request<Values>("POST", path, { body })).data,
  get: async (path: string): Promise<Values> => (await on.api.request<Values>("GET", path)).data,
  list: (path: string): Promise<Values[]> => on.api.listAll<Values>(path, { all_clients: true }),
  patch: async (path: string, body: Values): Promise<Values> => (await on.api.request<Values>("PATCH", path, { body })).data,
  put: async (path: string, body: Values): Promise<Values> => (await on.api.request<Values>("PUT", path, { body })).data,
  delete: async (path: string): Promise<void> => {
    await on.api.request("DELETE", path);
  },
};

/** Objects other resources refer to, made fresh for each test. */
interface Fixtures {
  channels: [string, string, string];
  policies: [string, string];
  groups: [string, string];
  clientId: string;
  templateId: string;
}

async function fixtures(): Promise<Fixtures> {
  const channel = async (name: string) => (await raw.create("/notification_channels", { name, kind: "email", config: { address: `${name}@example.com` } }))["id"] as string;
  const channels: Fixtures["channels"] = [await channel("one"), await channel("two"), await channel("three")];
  const policy = async (name: string) =>
    (await raw.create("/escalation-policies", { name, steps: [{ delay_minutes: 0, notification_channel_ids: [channels[0]] }] }))["id"] as string;
  const group = async (name: string) => (await raw.create("/heartbeat-groups", { name }))["id"] as string;
  const templateId = (await raw.create("/client-templates", { name: "standard" }))["id"] as string;
  return {
    channels,
    policies: [await policy("first"), await policy("second")],
    groups: [await group("nightly"), await group("hourly")],
    clientId: (await raw.create("/clients", { name: "Acme" }))["id"] as string,
    templateId,
  };
}

/**
 * One row per kind: inputs of a first `up`, inputs of a second `up` that updates in place (with
 * an association changed where the kind has one), and a field to change behind the provider's
 * back for the drift test (an API field name and value).
 */
interface KindCase {
  create(f: Fixtures): Values;
  update(f: Fixtures): Values;
  /** A field `create` declares, changed through the API; absent for kinds that cannot change in place. */
  drift?: { field: string; value: unknown };
}

const kinds: Record<string, KindCase> = {
  Monitor: {
    create: (f) => ({
      name: "web",
      url: "https://example.com/health",
      intervalSeconds: 30,
      regions: ["eu-west-1", "us-east-1"],
      authUsername: "probe",
      authPassword: "hunter2-secret",
      requestHeaders: [{ name: "X-Probe", value: "1" }],
      notificationChannelIds: [f.channels[0], f.channels[1]],
      escalationPolicyId: f.policies[0],
      paused: true,
    }),
    update: (f) => ({
      name: "web",
      url: "https://example.com/health",
      intervalSeconds: 60,
      regions: ["us-east-1"],
      authUsername: "probe",
      authPassword: "hunter2-secret",
      notificationChannelIds: [f.channels[2], f.channels[1]],
      escalationPolicyId: f.policies[1],
      paused: false,
    }),
    drift: { field: "intervalSeconds", value: 300 },
  },
  Heartbeat: {
    create: (f) => ({ name: "backup", expectedIntervalSeconds: 86400, heartbeatGroupId: f.groups[0], paused: true }),
    update: (f) => ({ name: "backup", expectedIntervalSeconds: 3600, gracePeriodSeconds: 60, heartbeatGroupId: f.groups[1], paused: false }),
    drift: { field: "expectedIntervalSeconds", value: 600 },
  },
  HeartbeatGroup: {
    create: () => ({ name: "jobs" }),
    update: () => ({ name: "jobs", description: "cron jobs" }),
    drift: { field: "name", value: "renamed" },
  },
  EscalationPolicy: {
    create: (f) => ({ name: "on-call", steps: [{ delayMinutes: 0, notificationChannelIds: [f.channels[0], f.channels[1]] }] }),
    update: (f) => ({
      name: "on-call",
      repeatCount: 2,
      steps: [
        { delayMinutes: 0, notificationChannelIds: [f.channels[1], f.channels[0]] },
        { delayMinutes: 15, notificationChannelIds: [f.channels[2]], urgency: "low" },
      ],
    }),
    drift: { field: "name", value: "renamed" },
  },
  NotificationChannel: {
    create: () => ({ name: "ops", kind: "slack", config: { channel: "#ops" }, credentials: { webhookUrl: "https://hooks.slack.com/services/T0/B0/s3cret" } }),
    update: () => ({ name: "ops-alerts", kind: "slack", config: { channel: "#alerts" }, credentials: { webhookUrl: "https://hooks.slack.com/services/T0/B0/n3w" } }),
    drift: { field: "name", value: "renamed" },
  },
  WebhookSubscription: {
    create: () => ({ url: "https://hooks.example.com/in", events: ["monitor.down", "monitor.up"] }),
    update: () => ({ url: "https://hooks.example.com/in", events: ["monitor.up", "monitor.down", "incident.created"], enabled: false, description: "pager bridge" }),
    drift: { field: "url", value: "https://elsewhere.example.com/in" },
  },
  Client: {
    create: (f) => ({ name: "Globex", templateId: f.templateId, portalSettings: { enabled: true, title: "Globex status" } }),
    update: (f) => ({ name: "Globex", templateId: f.templateId, contactEmail: "it@globex.example", archived: true, portalSettings: { enabled: true, primaryColor: "#112233" } }),
    drift: { field: "name", value: "renamed" },
  },
  ClientTemplate: {
    create: () => ({ name: "standard", monitorDefaults: { intervalSeconds: 120, regions: ["eu-west-1"] } }),
    update: () => ({ name: "standard", monitorDefaults: { intervalSeconds: 300 }, heartbeatDefaults: { gracePeriodSeconds: 30 } }),
    drift: { field: "name", value: "renamed" },
  },
  ClientShareLink: {
    create: (f) => ({ clientId: f.clientId, label: "wallboard" }),
    update: (f) => ({ clientId: f.clientId, label: "wallboard", expiresAt: "2031-01-01T00:00:00.000Z" }),
  },
};

/** The path of an object for raw calls (share links have no GET by id; they are found in the list). */
function itemPath(definition: AnyResourceDefinition, id: string, values: Values): string {
  return `${definition.path.replace("{clientId}", String(values["clientId"]))}/${id}`;
}

describe("every kind has a row", () => {
  it.each(definitions.map((definition) => definition.kind))("%s", (kind) => {
    expect(kinds[kind], `add ${kind} to the kinds of this file`).toBeDefined();
  });
});

describe.each(Object.entries(kinds))("%s", (kind, row) => {
  const definition = definitionOf(kind);
  const engine = engineOf(definition);
  let f: Fixtures;
  beforeEach(async () => {
    f = await fixtures();
  });

  it("creates, reads back without changes, updates, and deletes", async () => {
    const inputs = checked(definition, `${kind}-lifecycle`, row.create(f));
    const { id, outs } = await engine.create(inputs);
    expect(diff(definition, outs, inputs).changes, "preview after create").toBe(false);

    const refreshed = await engine.read(id, outs);
    expect(refreshed.id).toBe(id);
    expect(diff(definition, refreshed.props ?? {}, inputs).changes, "refresh after create").toBe(false);

    const news = checked(definition, `${kind}-lifecycle`, row.update(f));
    const planned = diff(definition, outs, news);
    expect(planned.changes).toBe(true);
    if (definition.updateMethod === "none") {
      expect(planned.replaces.length).toBeGreaterThan(0);
    } else {
      expect(planned.replaces).toEqual([]);
      const { outs: updated } = await engine.update(id, outs, news);
      expect(diff(definition, updated, news).changes, "preview after update").toBe(false);
      const reread = await engine.read(id, updated);
      expect(diff(definition, reread.props ?? {}, news).changes, "refresh after update").toBe(false);
      expect(reread.props).toEqual(updated);
    }

    await engine.delete(id, outs);
    await engine.delete(id, outs); // already gone: 404 counts as deleted
    if (definition.deletion === undefined) expect(await engine.read(id, outs)).toEqual({});
  });
});

// The scopes of a kind come from the operations its definition sends (schema/operations.ts); this holds them to what the API demands.
describe.each(Object.entries(kinds))("%s with a key holding only its declared scopes", (kind, row) => {
  const definition = definitionOf(kind);

  it("creates, reads, updates and deletes", async () => {
    const f = await fixtures();
    const { key } = await on.emulator.admin.createKey(scopesOf(operationsOf(definition)), `${kind} scopes`);
    const scopedApi = providerClientOn({ baseUrl: on.emulator.baseUrl, apiKey: key });
    try {
      const engine = new ResourceEngine(definition, () => scopedApi);
      const inputs = checked(definition, `${kind}-scoped`, row.create(f));
      const { id, outs } = await engine.create(inputs);
      const { props } = await engine.read(id, outs);
      const news = checked(definition, `${kind}-scoped`, row.update(f));
      if (definition.updateMethod !== "none") await engine.update(id, props ?? outs, news);
      await engine.delete(id, outs);
    } finally {
      await scopedApi.close();
    }
  });
});

const drifting = Object.entries(kinds).flatMap(([kind, row]) => (row.drift === undefined ? [] : [[kind, row, row.drift] as const]));

describe.each(drifting)("%s changed outside Pulumi", (kind, row, drift) => {
  const definition = definitionOf(kind);
  const engine = engineOf(definition);

  it("shows the change after a refresh, and reverts it on update", async () => {
    const f = await fixtures();
    const inputs = checked(definition, `${kind}-drift`, row.create(f));
    const { id, outs } = await engine.create(inputs);
    await changeThroughApi(definition, id, inputs, { [toSnakeCase(drift.field)]: drift.value });

    const refreshed = await engine.read(id, outs);
    expect(refreshed.props?.[drift.field]).toEqual(drift.value);
    expect(diff(definition, refreshed.props ?? {}, inputs).changes).toBe(true);

    const { outs: reverted } = await engine.update(id, refreshed.props ?? {}, inputs);
    expect(reverted[drift.field]).toEqual(inputs[drift.field]);
    expect(diff(definition, reverted, inputs).changes).toBe(false);
  });
});

const deletable = Object.entries(kinds).filter(([kind]) => definitionOf(kind).deletion === undefined);

describe.each(deletable)("%s deleted outside Pulumi", (kind, row) => {
  const definition = definitionOf(kind);
  const engine = engineOf(definition);

  it("is dropped from state on refresh", async () => {
    const inputs = checked(definition, `${kind}-gone`, row.create(await fixtures()));
    const { id, outs } = await engine.create(inputs);
    await raw.delete(itemPath(definition, id, inputs));
    expect(await engine.read(id, outs)).toEqual({});
  });
});

/** Changes fields of an object as another tool would: PATCH where offered, else PUT of the whole object. */
async function changeThroughApi(definition: AnyResourceDefinition, id: string, values: Values, change: Values): Promise<void> {
  const path = itemPath(definition, id, values);
  if (definition.updateMethod === "PATCH") {
    await raw.patch(path, change);
    return;
  }
  const current = definition.readBy === "get" ? await raw.get(path) : await findInList(definition, id, values);
  const { id: _id, created_at: _created, updated_at: _updated, ...fields } = current;
  await raw.put(path, { ...fields, ...change });
}

async function findInList(definition: AnyResourceDefinition, id: string, values: Values): Promise<Values> {
  const items = await raw.list(definition.path.replace("{clientId}", String(values["clientId"])));
  const item = items.find((candidate) => candidate["id"] === id);
  expect(item).toBeDefined();
  return item as Values;
}

describe("associations", () => {
  it("attaches and detaches a monitor's channels, sets and clears its policy, pauses and resumes it", async () => {
    const f = await fixtures();
    const engine = engineOf(monitorDefinition);
    const inputs = checked(monitorDefinition, "assoc", kinds["Monitor"]!.create(f));
    const { id, outs } = await engine.create(inputs);
    expect(await raw.get(`/monitors/${id}`)).toMatchObject({ paused: true, status: "PAUSED", escalation_policy_id: f.policies[0] });
    expect((await raw.list(`/monitors/${id}/notification_channels`)).map((channel) => channel["id"]).sort()).toEqual([f.channels[0], f.channels[1]].sort());

    // The user stops declaring all three: each is reset.
    const news = checked(monitorDefinition, "assoc", { name: "web", url: "https://example.com/health" });
    expect(diff(monitorDefinition, outs, news).changes).toBe(true);
    const { outs: updated } = await engine.update(id, outs, news);
    const object = await raw.get(`/monitors/${id}`);
    expect(object["paused"]).toBe(false);
    expect(object["escalation_policy_id"] ?? null).toBeNull();
    expect(await raw.list(`/monitors/${id}/notification_channels`)).toEqual([]);
    expect(diff(monitorDefinition, updated, news).changes).toBe(false);
  });

  it("retries association calls the service fails transiently", async () => {
    const f = await fixtures();
    await on.emulator.admin.injectFault({ method: "POST", path: "/monitors/*/pause", status: 503, times: 1 });
    await on.emulator.admin.injectFault({ method: "POST", path: "/monitors/*/notification_channels/*", status: 500, times: 1 });
    const inputs = checked(monitorDefinition, "flaky", { url: "https://example.com", paused: true, notificationChannelIds: [f.channels[0]] });
    const { outs } = await engineOf(monitorDefinition).create(inputs);
    expect(outs).toMatchObject({ paused: true, notificationChannelIds: [f.channels[0]] });
    expect((await on.emulator.admin.faults()).every((fault) => fault.fired === 1)).toBe(true);
    await on.emulator.admin.clearFaults();
  });

  it("assigns a heartbeat to a group on create and unassigns it when the group is removed", async () => {
    const f = await fixtures();
    const engine = engineOf(heartbeatDefinition);
    const inputs = checked(heartbeatDefinition, "grouped", { name: "backup", heartbeatGroupId: f.groups[0] });
    const { id, outs } = await engine.create(inputs);
    expect((await raw.get(`/heartbeats/${id}`))["heartbeat_group_id"]).toBe(f.groups[0]);
    expect(outs["pingUrl"]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ping\//);

    const news = checked(heartbeatDefinition, "grouped", { name: "backup" });
    await engine.update(id, outs, news);
    expect((await raw.get(`/heartbeats/${id}`))["heartbeat_group_id"] ?? null).toBeNull();
  });

  it("a field removed from a heartbeat inside a client made from a template takes the template's default, not the definition's", async () => {
    const template = await raw.create("/client-templates", { name: "relaxed", heartbeat_defaults: { grace_period_seconds: 900 } });
    const client = await raw.create("/clients", { name: "Relaxed Inc", template_id: template["id"] });
    const engine = engineOf(heartbeatDefinition);
    const { id, outs } = await engine.create(checked(heartbeatDefinition, "templated", { name: "nightly", gracePeriodSeconds: 60, expectedIntervalSeconds: 600, clientId: client["id"] }));
    expect(await raw.get(`/heartbeats/${id}`)).toMatchObject({ grace_period_seconds: 60, expected_interval_seconds: 600 });

    // The template sets a grace period and no interval: the one comes from the template, the other from the definition.
    await engine.update(id, outs, checked(heartbeatDefinition, "templated", { name: "nightly", clientId: client["id"] }));
    expect(await raw.get(`/heartbeats/${id}`)).toMatchObject({ grace_period_seconds: 900, expected_interval_seconds: 3600 });
  });

  it("archives a client when it is destroyed, and manages its portal settings", async () => {
    const engine = engineOf(clientDefinition);
    const inputs = checked(clientDefinition, "portal", { name: "Initech", portalSettings: { enabled: true, title: "Initech" } });
    const { id, outs } = await engine.create(inputs);
    expect(outs["portalSettings"]).toEqual({ enabled: true, title: "Initech", showIncidentHistory: true });
    expect(await raw.get(`/clients/${id}/portal-settings`)).toMatchObject({ enabled: true, title: "Initech", show_incident_history: true });

    await engine.delete(id, outs);
    expect(await raw.get(`/clients/${id}`)).toMatchObject({ archived: true });
    await engine.delete(id, outs); // archiving an archived client is not an error
  });
});

describe("values the service returns once or never", () => {
  it("keeps a monitor's write-only password from state and sends it again only when it changes", async () => {
    const engine = engineOf(monitorDefinition);
    const inputs = checked(monitorDefinition, "secret", { url: "https://example.com", authUsername: "u", authPassword: "first-password" });
    const { id, outs } = await engine.create(inputs);
    expect(await raw.get(`/monitors/${id}`)).toMatchObject({ auth_password_set: true });
    expect((await raw.get(`/monitors/${id}`))["auth_password"]).toBeUndefined();
    const refreshed = await engine.read(id, outs);
    expect(refreshed.props?.["authPassword"]).toBe("first-password");
    expect(diff(monitorDefinition, refreshed.props ?? {}, inputs).changes).toBe(false);

    await on.emulator.admin.clearRequestLog();
    const news = checked(monitorDefinition, "secret", { ...inputs, authPassword: "second-password" });
    expect(diff(monitorDefinition, refreshed.props ?? {}, news).changes).toBe(true);
    const { outs: updated } = await engine.update(id, refreshed.props ?? {}, news);
    expect(updated["authPassword"]).toBe("second-password");
    expect((await on.emulator.admin.requestLog()).filter((entry) => entry.method === "PATCH")).toHaveLength(1);
  });

  it("keeps a webhook subscription's signing secret, returned only at creation", async () => {
    const engine = engineOf(subscriptionDefinition);
    const inputs = checked(subscriptionDefinition, "signed", { url: "https://hooks.example.com/in", events: ["*"] });
    const { id, outs } = await engine.create(inputs);
    expect(outs["signingSecret"]).toMatch(/^whsec_/);
    expect(outs["signingSecretLast4"]).toBe(String(outs["signingSecret"]).slice(-4));
    const refreshed = await engine.read(id, outs);
    expect(refreshed.props?.["signingSecret"]).toBe(outs["signingSecret"]);
    const { outs: updated } = await engine.update(id, refreshed.props ?? {}, { ...inputs, description: "d" });
    expect(updated["signingSecret"]).toBe(outs["signingSecret"]);
  });

  it("keeps a share link's token, and names its client in the path only", async () => {
    const f = await fixtures();
    const definition = definitionOf("ClientShareLink");
    const engine = engineOf(definition);
    const inputs = checked(definition, "board", { clientId: f.clientId, label: "board" });
    const { id, outs } = await engine.create(inputs);
    expect(outs).toMatchObject({ clientId: f.clientId, label: "board", token: expect.stringMatching(/.{8,}/) });
    expect(String(outs["url"])).toContain(String(outs["token"]));
    expect((await engine.read(id, outs)).props).toEqual(outs);
  });
});

describe("create never makes a duplicate", () => {
  const engine = engineOf(monitorDefinition);
  const count = async (name: string) => (await raw.list("/monitors")).filter((monitor) => monitor["name"] === name).length;

  it("sends an idempotency key derived from the resource, the same for the same inputs", async () => {
    await on.emulator.admin.clearRequestLog();
    const inputs = checked(monitorDefinition, "keyed", { name: "keyed", url: "https://example.com" });
    const first = await engine.create(inputs);
    // The provider process died before Pulumi recorded the result; the next `up` creates again.
    const second = await engine.create(inputs);
    expect(second.id).toBe(first.id);
    expect(await count("keyed")).toBe(1);
    const posts = (await on.emulator.admin.requestLog()).filter((entry) => entry.method === "POST" && entry.path === "/monitors");
    expect(posts.map((entry) => [entry.idempotency_key, entry.replayed])).toEqual([
      [expect.stringMatching(/^monitor-[0-9a-f]{64}$/), false],
      [posts[0]?.idempotency_key, true],
    ]);
  });

  it("takes over a replayed create that still exists with one read, and writes nothing when it matches the inputs", async () => {
    const inputs = checked(monitorDefinition, "replayed", { name: "replayed", url: "https://example.com", regions: ["eu-west-1"] });
    const first = await engine.create(inputs);
    await on.emulator.admin.clearRequestLog();
    // The provider process died before Pulumi recorded the result; the next `up` creates again.
    const second = await engine.create(inputs);
    const requests = (await on.emulator.admin.requestLog()).map((entry) => [entry.method, entry.path, entry.status, entry.replayed]);
    expect(requests).toEqual([
      ["POST", "/monitors", 201, true],
      ["GET", `/monitors/${first.id}`, 200, false],
    ]);
    expect(second.id).toBe(first.id);
    expect(diff(monitorDefinition, second.outs, inputs).changes).toBe(false);
  });

  it("a replayed create whose object was deleted since is read once, found gone, and made afresh", async () => {
    const inputs = checked(monitorDefinition, "reborn", { name: "reborn", url: "https://example.com" });
    const first = await engine.create(inputs);
    await engine.delete(first.id, first.outs);
    await on.emulator.admin.clearRequestLog();
    const second = await engine.create(inputs);
    const requests = (await on.emulator.admin.requestLog()).map((entry) => [entry.method, entry.path, entry.status, entry.replayed]);
    expect(requests).toEqual([
      ["POST", "/monitors", 201, true],
      ["GET", `/monitors/${first.id}`, 404, false],
      ["POST", "/monitors", 201, false],
    ]);
    expect(second.id).not.toBe(first.id);
  });

  it("retries a create the service failed with the same key, making one object", async () => {
    await on.emulator.admin.injectFault({ method: "POST", path: "/monitors", status: 503, times: 2 });
    const inputs = checked(monitorDefinition, "retried", { name: "retried", url: "https://example.com" });
    await engine.create(inputs);
    expect(await count("retried")).toBe(1);
  });

  it("makes a fresh object when the key replays one deleted since (destroy, then up again)", async () => {
    const inputs = checked(monitorDefinition, "again", { name: "again", url: "https://example.com" });
    const first = await engine.create(inputs);
    await engine.delete(first.id, first.outs);
    const second = await engine.create(inputs);
    expect(second.id).not.toBe(first.id);
    await engine.delete(second.id, second.outs);
    const third = await engine.create(inputs);
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);
    expect(await count("again")).toBe(1);
    expect(diff(monitorDefinition, third.outs, inputs).changes).toBe(false);
  });

  it("records an object whose setup failed after creation, and the next update finishes it", async () => {
    const f = await fixtures();
    const missingChannel = "5b7c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4";
    const inputs = checked(monitorDefinition, "half-made", { name: "half-made", url: "https://example.com", notificationChannelIds: [f.channels[0], missingChannel] });
    inputs["__provider"] = "exports.handler = serialized;";
    const failure = await engine.create(inputs).then(
      () => undefined,
      (error: unknown) => error as { id?: string; properties?: Values; message: string },
    );
    expect(failure?.message).toMatch(/^Monitor "half-made": create failed: .*404 not_found/);
    expect(failure?.id).toEqual(expect.any(String));
    expect(failure?.properties).toMatchObject({ name: "half-made", __provider: "exports.handler = serialized;" });

    const fixed = { ...inputs, notificationChannelIds: [f.channels[0]] };
    const { outs } = await engine.update(failure?.id as string, failure?.properties ?? {}, fixed);
    expect(outs["notificationChannelIds"]).toEqual([f.channels[0]]);
    expect(await count("half-made")).toBe(1);
  });
});

// Issue cases of object identity: each `it` names the failure it proves fixed.
describe.each(Object.entries(kinds))("%s through five destroy/up cycles", (kind, row) => {
  const definition = definitionOf(kind);
  const engine = engineOf(definition);

  it("makes a fresh object each time, with at most two create POSTs per cycle", async () => {
    const f = await fixtures();
    const inputs = checked(definition, `${kind}-cycles`, row.create(f));
    const collection = definition.path.replace("{clientId}", String(inputs["clientId"]));
    const ids = new Set<string>();
    for (let cycle = 1; cycle <= 5; cycle++) {
      await on.emulator.admin.clearRequestLog();
      const { id, outs } = await engine.create(inputs);
      const posts = (await on.emulator.admin.requestLog()).filter((entry) => entry.method === "POST" && entry.path === collection);
      expect(posts.length, `create POSTs in cycle ${cycle}`).toBeLessThanOrEqual(2);
      expect(diff(definition, outs, inputs).changes, `preview after cycle ${cycle}`).toBe(false);
      ids.add(id);
      await engine.delete(id, outs);
    }
    expect(ids.size).toBe(5);
  });
});

describe("object identity", () => {
  const monitors = engineOf(monitorDefinition);
  const clients = engineOf(clientDefinition);

  it("two components' same-named children are two objects: the create key follows the URN, parents included", async () => {
    const body = { name: "web", url: "https://example.com" };
    const child = (component: string) => ({
      ...check(monitorDefinition, { ...body, __urn: `urn:pulumi:dev::proj::acme:site:${component}$pulumi-nodejs:dynamic/monitoring:Monitor::web` }).inputs,
    });
    const shop = await monitors.create(child("Shop"));
    const blog = await monitors.create(child("Blog"));
    expect(shop.id).not.toBe(blog.id);
    await monitors.delete(shop.id, shop.outs);
    expect((await monitors.read(blog.id, blog.outs)).id).toBe(blog.id);
  });

  it("a create refused with a 4xx succeeds on the next up once the cause is fixed (no replay of the refusal)", async () => {
    const { id: clientId, outs: clientOuts } = await clients.create(checked(clientDefinition, "paused-partner", { name: "Paused partner", archived: true }));
    const inputs = checked(monitorDefinition, "in-archived", { name: "in-archived", url: "https://example.com", clientId });
    await expect(monitors.create(inputs)).rejects.toThrow(/409/);
    await clients.update(clientId, clientOuts, checked(clientDefinition, "paused-partner", { name: "Paused partner", archived: false }));
    const { outs } = await monitors.create(inputs);
    expect(outs["clientId"]).toBe(clientId);
  });

  it("a Client destroyed (archived) and deployed again is a fresh, active client", async () => {
    const inputs = checked(clientDefinition, "redeployed", { name: "Redeployed" });
    const first = await clients.create(inputs);
    await clients.delete(first.id, first.outs);
    const second = await clients.create(inputs);
    expect(second.id).not.toBe(first.id);
    expect((await raw.get(`/clients/${second.id}`))["archived"]).toBe(false);
    const inside = await monitors.create(checked(monitorDefinition, "inside-redeployed", { name: "inside", url: "https://example.com", clientId: second.id }));
    expect(inside.outs["clientId"]).toBe(second.id);
  });

  it("a channel detached by hand and then removed from the program is not detached again (no 404)", async () => {
    const f = await fixtures();
    const inputs = checked(monitorDefinition, "detached", { name: "detached", url: "https://example.com", notificationChannelIds: [f.channels[0], f.channels[1]] });
    const { id, outs } = await monitors.create(inputs);
    await raw.delete(`/monitors/${id}/notification_channels/${f.channels[1]}`);
    const news = checked(monitorDefinition, "detached", { name: "detached", url: "https://example.com", notificationChannelIds: [f.channels[0]] });
    const { outs: updated } = await monitors.update(id, outs, news);
    expect(updated["notificationChannelIds"]).toEqual([f.channels[0]]);
  });

  it("a DELETE whose answer was lost, retried into a 404, counts as done (object and attachment)", async () => {
    const f = await fixtures();
    const inputs = checked(monitorDefinition, "lost-answers", { name: "lost", url: "https://example.com", notificationChannelIds: [f.channels[0]] });
    const { id, outs } = await monitors.create(inputs);
    await on.emulator.admin.injectFault({ method: "DELETE", path: `/monitors/${id}/notification_channels/*`, drop_response: true, times: 1 });
    const { outs: detached } = await monitors.update(id, outs, checked(monitorDefinition, "lost-answers", { ...inputs, notificationChannelIds: [] }));
    expect(detached["notificationChannelIds"]).toEqual([]);
    await on.emulator.admin.clearRequestLog();
    await on.emulator.admin.injectFault({ method: "DELETE", path: `/monitors/${id}`, drop_response: true, times: 1 });
    await monitors.delete(id, detached);
    const deletes = (await on.emulator.admin.requestLog()).filter((entry) => entry.method === "DELETE");
    expect(deletes.map((entry) => [entry.status, entry.fault])).toEqual([[204, "drop_response"], [404, null]]);
  });

  it("a PUT kind keeps a field changed by hand that the program does not set, through an unrelated edit", async () => {
    const subscriptions = engineOf(subscriptionDefinition);
    const inputs = checked(subscriptionDefinition, "kept", { url: "https://hooks.example.com/in", events: ["*"], description: "first" });
    const { id, outs } = await subscriptions.create(inputs);
    await changeThroughApi(subscriptionDefinition, id, inputs, { enabled: false });
    const { outs: updated } = await subscriptions.update(id, outs, { ...inputs, description: "second" });
    const [held] = (await raw.list("/webhook-subscriptions")).filter((item) => item["id"] === id);
    expect(held).toMatchObject({ description: "second", enabled: false });
    expect(updated["enabled"]).toBe(false);
  });

  it("ids the server returns in another letter case compare equal: no diff, no replacement", () => {
    const f = { clientId: "3F2B8C1E-5D4A-4E6F-9A7B-1C2D3E4F5A6B" };
    const inputs = checked(monitorDefinition, "cased", { url: "https://example.com", clientId: f.clientId.toLowerCase() });
    const outs = { ...inputs, clientId: f.clientId, __declaredInputs: ["url", "clientId"] };
    expect(diff(monitorDefinition, outs, inputs)).toMatchObject({ changes: false, replaces: [] });
  });
});

describe("on a server that ignores Idempotency-Key", () => {
  it("a create whose answer was lost leaves at most one visible duplicate, never two resources merged into one object", async () => {
    const careless = await startTestEmulator({ idempotency: false });
    const carelessApi = new ApiClient({ baseUrl: careless.baseUrl, apiKey: careless.apiKey, retryBaseDelayMs: 1, retryMaxDelayMs: 5 });
    try {
      const engine = new ResourceEngine(monitorDefinition, () => carelessApi);
      await careless.admin.injectFault({ method: "POST", path: "/monitors", drop_response: true, times: 1 });
      const lost = await engine.create(checked(monitorDefinition, "lost", { name: "lost", url: "https://example.com" }));
      const other = await engine.create(checked(monitorDefinition, "other", { name: "lost", url: "https://example.com" }));
      const held = await carelessApi.listAll<Values>("/monitors");
      expect(held).toHaveLength(3); // the lost answer's object, and one object per resource
      expect(lost.id).not.toBe(other.id);
    } finally {
      await carelessApi.close();
      await careless.stop();
    }
  });
});

describe("adoptId", () => {
  it("takes over an existing object and converges it to the inputs instead of creating one", async () => {
    const f = await fixtures();
    const existing = await raw.create("/monitors", { name: "legacy", url: "https://old.example.com", interval_seconds: 600 });
    await raw.create(`/monitors/${String(existing["id"])}/notification_channels/${f.channels[2]}`, {});
    const engine = engineOf(monitorDefinition);
    const inputs = checked(monitorDefinition, "adopted", {
      adoptId: existing["id"],
      name: "legacy",
      url: "https://new.example.com",
      notificationChannelIds: [f.channels[0]],
      paused: true,
    });
    const { id, outs } = await engine.create(inputs);
    expect(id).toBe(existing["id"]);
    expect(await raw.get(`/monitors/${id}`)).toMatchObject({ url: "https://new.example.com", interval_seconds: 600, paused: true });
    expect((await raw.list(`/monitors/${id}/notification_channels`)).map((channel) => channel["id"])).toEqual([f.channels[0]]);
    expect(diff(monitorDefinition, outs, inputs).changes).toBe(false);
  });

  it("reads an object that already matches the inputs once, and writes nothing", async () => {
    const existing = await raw.create("/monitors", { name: "matching", url: "https://example.com", interval_seconds: 600 });
    const inputs = checked(monitorDefinition, "matching", { adoptId: existing["id"], name: "matching", url: "https://example.com", intervalSeconds: 600 });
    await on.emulator.admin.clearRequestLog();
    const { outs } = await engineOf(monitorDefinition).create(inputs);
    const requests = (await on.emulator.admin.requestLog()).map((entry) => [entry.method, entry.path, entry.status]);
    expect(requests).toEqual([["GET", `/monitors/${String(existing["id"])}`, 200]]);
    expect(diff(monitorDefinition, outs, inputs).changes).toBe(false);
  });

  it("fails, naming the id, when the object does not exist", async () => {
    const missing = "5b7c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4";
    const inputs = checked(monitorDefinition, "ghost", { url: "https://x.io", adoptId: missing });
    await expect(engineOf(monitorDefinition).create(inputs)).rejects.toThrow(`Monitor "ghost": adoptId ${missing} names no existing Monitor`);
  });
});

describe("errors", () => {
  it("name the kind, resource, operation, input fields and request id, and no secret", async () => {
    const missingPolicy = "5b7c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4";
    const inputs = checked(monitorDefinition, "broken", { url: "https://x.io", authUsername: "u", authPassword: "hunter2-secret", escalationPolicyId: missingPolicy });
    const error = await engineOf(monitorDefinition).create(inputs).then(
      () => new Error("create succeeded"),
      (caught: unknown) => caught as Error,
    );
    expect(error.message).toMatch(
      /^Monitor "broken": create failed: the service rejected escalationPolicyId: no object with this id \(POST \/monitors failed with 422 validation_failed: .*\[request_id req_[0-9a-f]{24}\]\)$/,
    );
    expect(error.message).not.toContain("hunter2");
  });

  it("name the API key's missing scope", async () => {
    const key = await on.emulator.admin.createKey(["monitor.write"]);
    const limited = new ApiClient({ baseUrl: on.emulator.baseUrl, apiKey: key.key, maxRetries: 0 });
    const inputs = checked(monitorDefinition, "scoped", { url: "https://x.io" });
    const engine = new ResourceEngine(monitorDefinition, () => limited);
    // A basic create is one POST (monitor.write); reading the monitor back needs monitor.delete (spec 4.2).
    const { id, outs } = await engine.create(inputs);
    await expect(engine.read(id, { ...outs, __urn: inputs["__urn"] })).rejects.toThrow(
      /^Monitor "scoped": read [0-9a-f-]+ failed: GET \/monitors\/[0-9a-f-]+ failed with 403 forbidden: .*required_scope: monitor\.delete.*\[request_id req_/,
    );
    await limited.close();
  });
});

describe("the provider as the dynamic-provider host runs it", () => {
  it("takes the API URL and key from the stack configuration given to configure", async () => {
    const provider = providerFor("HeartbeatGroup");
    const config: Record<string, string> = { "monitoring:apiUrl": on.emulator.baseUrl, "monitoring:apiKey": on.emulator.apiKey };
    await provider.configure?.({ config: { get: (key) => config[key], require: (key) => config[key] as string } });
    const { inputs } = (await provider.check?.({}, { name: "from-config", __urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:Monitor::cfg" })) ?? {};
    const { id, outs } = await provider.create(inputs);
    expect((await provider.read?.(id, outs))?.props).toEqual(outs);
    await provider.delete?.(id, outs);
  });
});
