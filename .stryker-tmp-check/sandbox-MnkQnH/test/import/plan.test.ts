/**
 * How an import turns the objects of an account into declarations: names, references, secrets,
 * defaults, and the same text for the same account whatever order the API listed it in.
 */
// @ts-nocheck

import { describe, expect, it } from "vitest";
import { type AnyResourceDefinition, client, clientTemplate, escalationPolicy, monitor, notificationChannel } from "../../schema/index.js";
import { parseMonitoringYaml } from "../../sdk/yaml-parse.js";
import { NameRegistry, slugOf } from "../../cli/import/names.js";
import { type Declaration, Placeholder, Reference, planImport } from "../../cli/import/plan.js";
import type { AccountContents, AccountObject } from "../../cli/import/read.js";
import { dependencyOrder } from "../../cli/import/references.js";
import { renderTypeScript, renderYaml } from "../../cli/import/render.js";

const ids = {
  template: "00000000-0000-4000-8000-000000000001",
  client: "00000000-0000-4000-8000-000000000002",
  email: "00000000-0000-4000-8000-000000000003",
  slack: "00000000-0000-4000-8000-000000000004",
  policy: "00000000-0000-4000-8000-000000000005",
  web: "00000000-0000-4000-8000-000000000006",
  web2: "00000000-0000-4000-8000-000000000007",
  db: "00000000-0000-4000-8000-000000000008",
  elsewhere: "00000000-0000-4000-8000-0000000000ff",
};

function object(definition: AnyResourceDefinition, id: string, inputs: Record<string, unknown>): AccountObject {
  return { definition, id, inputs };
}

const account: AccountContents = {
  objects: [
    object(monitor, ids.web, {
      name: "Website",
      monitorType: "http",
      url: "https://example.com",
      intervalSeconds: 60,
      httpMethod: "GET",
      followRedirects: true,
      requestTimeoutS: 45,
      regions: ["us-east-1", "eu-west-1"],
      authUsername: "probe",
      requestHeaders: [{ name: "X-Token", value: "t0ken" }],
      escalationPolicyId: ids.policy,
      notificationChannelIds: [ids.slack, ids.email],
      paused: false,
    }),
    object(monitor, ids.web2, { name: "Website", url: "https://acme.example.com", intervalSeconds: 60, clientId: ids.client, notificationChannelIds: [] }),
    object(monitor, ids.db, { name: "DB", monitorType: "tcp", tcpHost: "db", tcpPort: 5432, followRedirects: false, paused: true, escalationPolicyId: ids.elsewhere }),
    object(escalationPolicy, ids.policy, {
      name: "On call",
      repeatCount: 0,
      steps: [
        { delayMinutes: 0, notificationChannelIds: [ids.email], urgency: "high" },
        { delayMinutes: 10, notificationChannelIds: [ids.slack], urgency: "low" },
      ],
    }),
    object(notificationChannel, ids.email, { name: "Ops", kind: "email", config: { address: "ops@example.com" } }),
    object(notificationChannel, ids.slack, { name: "Ops", kind: "slack", config: { channel: "#ops" } }),
    object(client, ids.client, {
      name: "Acme",
      templateId: ids.template,
      archived: false,
      portalSettings: { enabled: false, showIncidentHistory: true },
    }),
    object(clientTemplate, ids.template, { name: "Standard", monitorDefaults: { intervalSeconds: 300 } }),
  ],
  clients: [],
};
account.clients = account.objects.filter(({ definition }) => definition === client);

const plan = planImport(account);
const declared = (id: string): Declaration => plan.declarations.find((declaration) => declaration.id === id) as Declaration;

describe("names", () => {
  it("are slugs of the objects' names", () => {
    expect(slugOf("Checkout API (EU)")).toBe("checkout-api-eu");
    expect(slugOf("  Café Ünïcode  ")).toBe("cafe-unicode");
    expect(slugOf("!!!")).toBe("");
  });

  it("are unique: a name taken gets the client, then the kind, then a number", () => {
    const names = new NameRegistry();
    expect(names.take("web", ["web-acme", "web-monitor"], "monitor")).toEqual({ name: "web", variable: "web" });
    expect(names.take("web", ["web-acme", "web-monitor"], "monitor")).toEqual({ name: "web-acme", variable: "webAcme" });
    expect(names.take("web", ["web-acme", "web-monitor"], "monitor")).toEqual({ name: "web-monitor", variable: "webMonitor" });
    expect(names.take("web", ["web-acme", "web-monitor"], "monitor")).toEqual({ name: "web-2", variable: "web2" });
    expect(names.take("web", [], "monitor")).toEqual({ name: "web-3", variable: "web3" });
  });

  it("make valid, unreserved variables, distinct even where slugs differ only by a dash", () => {
    const names = new NameRegistry();
    expect(names.take("default", [], "monitor").variable).toBe("monitorDefault");
    expect(names.take("2fa-login", [], "monitor").variable).toBe("monitor2faLogin");
    expect(names.take("", [], "monitor")).toEqual({ name: "monitor", variable: "monitor" });
    expect(names.take("a-1", [], "monitor").variable).toBe("a1");
    expect(names.take("a1", [], "monitor")).toEqual({ name: "a1-2", variable: "a12" });
  });

  it("stay plain for the object outside any client when one inside a client shares it, whatever their ids", () => {
    const acme = object(client, ids.client, { name: "Acme" });
    const shared = planImport({
      objects: [
        object(monitor, "00000000-0000-4000-8000-0000000000a1", { name: "Shop", url: "https://acme.example.com", clientId: ids.client }),
        object(monitor, "00000000-0000-4000-8000-0000000000a2", { name: "Shop", url: "https://example.com" }),
      ],
      clients: [acme],
    });
    expect(shared.declarations.map(({ id, name }) => [id.slice(-2), name])).toEqual([
      ["a1", "shop-acme"],
      ["a2", "shop"],
    ]);
  });

  it("of the account follow kind order, then name, then id", () => {
    expect(plan.declarations.map(({ definition, name }) => `${definition.kind}:${name}`)).toEqual([
      "ClientTemplate:standard",
      "Client:acme",
      "NotificationChannel:ops",
      "NotificationChannel:ops-notification-channel",
      "EscalationPolicy:on-call",
      "Monitor:db",
      "Monitor:website",
      "Monitor:website-acme",
    ]);
  });
});

describe("kinds", () => {
  it("come after the kinds they reference", () => {
    const order = dependencyOrder().map(({ kind }) => kind);
    expect(order.indexOf("ClientTemplate")).toBeLessThan(order.indexOf("Client"));
    expect(order.indexOf("NotificationChannel")).toBeLessThan(order.indexOf("EscalationPolicy"));
    expect(order.indexOf("EscalationPolicy")).toBeLessThan(order.indexOf("Monitor"));
    expect(order.indexOf("HeartbeatGroup")).toBeLessThan(order.indexOf("Heartbeat"));
    expect(order.indexOf("Client")).toBeLessThan(order.indexOf("ClientShareLink"));
  });
});

describe("declarations", () => {
  it("adopt each object by its id", () => {
    for (const declaration of plan.declarations) expect(declaration.inputs.adoptId).toBe(declaration.id);
  });

  it("leave out the service's defaults, and associations in their undeclared state", () => {
    const web = declared(ids.web).inputs;
    expect(web).not.toHaveProperty("monitorType");
    expect(web).not.toHaveProperty("intervalSeconds");
    expect(web).not.toHaveProperty("httpMethod");
    expect(web).not.toHaveProperty("followRedirects");
    expect(web).not.toHaveProperty("paused");
    expect(web.requestTimeoutS).toBe(45);
    expect(declared(ids.db).inputs.paused).toBe(true);
    expect(declared(ids.policy).inputs).not.toHaveProperty("repeatCount");
    expect(declared(ids.client).inputs).not.toHaveProperty("archived");
    expect(declared(ids.client).inputs).not.toHaveProperty("portalSettings");
  });

  it("leave out nested values the provider's check fills in, and keep the others", () => {
    const steps = declared(ids.policy).inputs.steps as Record<string, unknown>[];
    expect(steps[0]).not.toHaveProperty("urgency");
    expect(steps[1]).toMatchObject({ urgency: "low" });
  });

  it("keep every value of objects in a client made from a template, whose defaults may differ", () => {
    const inClient = declared(ids.web2).inputs;
    expect(inClient.intervalSeconds).toBe(60);
    expect(inClient).not.toHaveProperty("notificationChannelIds");
  });

  it("leave out, with a note, values the definition's rules refuse", () => {
    expect(declared(ids.db).inputs).not.toHaveProperty("followRedirects");
    expect(plan.notes).toEqual([expect.stringMatching(/^Monitor db: left out followRedirects \(applies only to http monitors/)]);
  });

  it("reference other imported objects, and keep the ids of objects left out of the import", () => {
    const web = declared(ids.web).inputs;
    expect(web.escalationPolicyId).toEqual(new Reference(declared(ids.policy)));
    expect((web.notificationChannelIds as Reference[]).map(({ target }) => target.id)).toEqual([ids.email, ids.slack]);
    expect(declared(ids.web2).inputs.clientId).toEqual(new Reference(declared(ids.client)));
    expect(declared(ids.client).inputs.templateId).toEqual(new Reference(declared(ids.template)));
    expect(declared(ids.db).inputs.escalationPolicyId).toBe(ids.elsewhere);
  });

  it("read secrets from placeholders: write-only ones where the object has them, returned ones to keep them out of source", () => {
    expect(plan.placeholders.map(({ key, path, origin }) => ({ key, path, origin }))).toEqual([
      { key: "opsNotificationChannelCredentialsWebhookUrl", path: "credentials.webhookUrl", origin: "write-only" },
      { key: "websiteRequestHeaders0Value", path: "requestHeaders[0].value", origin: "returned" },
      { key: "websiteAuthPassword", path: "authPassword", origin: "write-only" },
    ]);
    expect(declared(ids.email).inputs).not.toHaveProperty("credentials");
    const header = (declared(ids.web).inputs.requestHeaders as Record<string, unknown>[])[0];
    expect(header?.name).toBe("X-Token");
    expect(header?.value).toBeInstanceOf(Placeholder);
    expect((plan.placeholders[2] as Placeholder).environmentVariable).toBe("WEBSITE_AUTH_PASSWORD");
  });
});

describe("credentials a server returns (the definition assumes none do)", () => {
  const returned: AccountContents = {
    objects: [
      object(notificationChannel, ids.slack, { name: "Chat", kind: "slack", credentials: { webhookUrl: "https://hooks.example/T0/s3cret" } }),
      object(notificationChannel, ids.email, {
        name: "Hook",
        kind: "webhook",
        config: { url: "https://in.example.com" },
        credentials: { headers: [{ name: "Authorization", value: "Bearer s3cret-2" }] },
      }),
      object(notificationChannel, ids.db, { name: "Loft", kind: "pigeon", config: { loft: "north" }, credentials: { ringCode: "s3cret-3" } }),
    ],
    clients: [],
  };
  const returnedPlan = planImport(returned);

  it("become placeholders, every string of them, whatever the kind; only header names stay in source", () => {
    expect(returnedPlan.placeholders.map(({ key, path, origin }) => ({ key, path, origin }))).toEqual([
      { key: "chatCredentialsWebhookUrl", path: "credentials.webhookUrl", origin: "returned" },
      { key: "hookCredentialsHeaders0Value", path: "credentials.headers[0].value", origin: "returned" },
      { key: "loftCredentialsRingCode", path: "credentials.ringCode", origin: "returned" },
    ]);
    for (const text of [renderTypeScript(returnedPlan, { scopeText: "test" }), renderYaml(returnedPlan, { scopeText: "test" })]) {
      expect(text).not.toMatch(/s3cret/);
      expect(text).toContain("Authorization");
    }
    expect(renderYaml(returnedPlan, { scopeText: "test" })).toContain("ringCode: ${env:LOFT_CREDENTIALS_RING_CODE}");
    expect(renderTypeScript(returnedPlan, { scopeText: "test" })).toContain('ringCode: config.requireSecret("loftCredentialsRingCode")');
  });

  it("keep unknown setting keys as the server wrote them", () => {
    expect(returnedPlan.declarations.find(({ name }) => name === "loft")?.inputs["config"]).toEqual({ loft: "north" });
    expect(returnedPlan.notes).toEqual([]);
  });
});

describe("the generated text", () => {
  it("is the same for the same account, whatever order the API listed it in", () => {
    const shuffled: AccountContents = { objects: [...account.objects].reverse(), clients: account.clients };
    const context = { scopeText: "test" };
    expect(renderTypeScript(planImport(shuffled), context)).toBe(renderTypeScript(plan, context));
    expect(renderYaml(planImport(shuffled), context)).toBe(renderYaml(plan, context));
  });

  it("as TypeScript, names references by variable and secrets by config key", () => {
    const text = renderTypeScript(plan, { scopeText: "test" });
    expect(text).toContain('export const website = new mon.Monitor("website", {');
    expect(text).toContain("escalationPolicyId: onCall.id,");
    expect(text).toContain("notificationChannelIds: [ops.id, opsNotificationChannel.id],");
    expect(text).toContain('authPassword: config.requireSecret("websiteAuthPassword"),');
    expect(text).not.toContain("t0ken");
  });

  it("as a monitoring file, is one the loader accepts once the secrets are in the environment", () => {
    const fileKinds = new Set(["Monitor", "NotificationChannel", "EscalationPolicy"]);
    const outsideClients: AccountContents = {
      objects: account.objects.filter(({ definition, inputs }) => fileKinds.has(definition.kind) && inputs.clientId === undefined && inputs.escalationPolicyId !== ids.elsewhere),
      clients: [],
    };
    const filePlan = planImport(outsideClients);
    const text = renderYaml(filePlan, { scopeText: "test" });
    expect(text).toContain("notificationChannels: [ops, ops-notification-channel]");
    expect(text).toContain("authPassword: ${env:WEBSITE_AUTH_PASSWORD}");
    const env = Object.fromEntries(filePlan.placeholders.map((placeholder) => [placeholder.environmentVariable, "https://hooks.example.com/secret"]));
    const { declarations } = parseMonitoringYaml(text, "monitoring.yaml", { env });
    expect(declarations.map(({ section, name }) => `${section}.${name}`).sort()).toEqual([
      "escalationPolicies.on-call",
      "monitors.website",
      "notificationChannels.ops",
      "notificationChannels.ops-notification-channel",
    ]);
  });
});
