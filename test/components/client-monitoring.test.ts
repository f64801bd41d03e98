/**
 * ClientMonitoring as a program declares it, against Pulumi's mock resource monitor (no engine):
 * the spec is validated up front, every object is created inside the client and under the
 * component, the standard settings give way to a template, and the outputs are keyed by endpoint
 * and job. examples/agency runs it on the real engine (test/examples/agency.test.ts); its globex
 * configuration, which no engine test deploys, is declared here.
 */
import * as pulumi from "@pulumi/pulumi";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import * as mon from "../../sdk/index.js";
import { repoRoot } from "../support/pulumi.js";

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}
const registered: Registered[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: ({ type, name, inputs }) => {
        registered.push({ type, name, inputs });
        const serverFields = type.endsWith(":Heartbeat")
          ? { pingUrl: `https://ping.example/${name}` }
          : type.endsWith(":ClientShareLink")
            ? { url: `https://status.example/${name}` }
            : {};
        return { id: `${name}-id`, state: { ...inputs, ...serverFields } };
      },
      call: () => ({}),
    },
    "agency",
    "test",
  );
});

const output = <T>(value: pulumi.Output<T>): Promise<T> => new Promise((resolve) => value.apply(resolve));
const isSecret = <T>(value: pulumi.Output<T>): Promise<boolean> => (value as unknown as { isSecret: Promise<boolean> }).isSecret;
/** Resolves once every child of the component is registered. */
const declared = async (component: mon.ClientMonitoring): Promise<void> => {
  await output(pulumi.all([component.monitorIds, component.heartbeatPingUrls, component.notificationChannelIds, component.escalationPolicyId]));
};
/** A client with one endpoint on `<name>.example` and one email contact, on the template given. */
const smallClient = (name: string, path: string, email: string, template: mon.ClientMonitoringSpec["template"]): mon.ClientMonitoringSpec => ({
  name,
  domain: `${name.toLowerCase()}.example`,
  endpoints: [{ path }],
  contacts: { emails: [email] },
  template,
});
/** The resources registered under a name prefix, and their "Kind name" lines, sorted. */
const registeredUnder = (prefix: string) => {
  const resources = registered.filter((resource) => resource.name.startsWith(prefix));
  return { resources, lines: resources.map((resource) => `${resource.type.split(":").pop()} ${resource.name}`).sort() };
};
/** The inputs a resource of `kind` named `name` was registered with. */
const inputsOf = (kind: string, name: string): Record<string, unknown> | undefined =>
  registered.find((resource) => resource.type === `pulumi-nodejs:dynamic/monitoring:${kind}` && resource.name === name)?.inputs;

const acmeSpec: mon.ClientMonitoringSpec = {
  name: "Acme Corp",
  domain: "shop.acme.example",
  endpoints: [{ path: "/", keyword: "Add to cart" }, { name: "Checkout API", path: "/api/checkout", expectedStatusCode: 204 }],
  contacts: {
    emails: ["ops@acme.example", "cto@acme.example"],
    chat: { kind: "slack", webhookUrl: pulumi.secret("https://hooks.slack.com/services/T0/B0/x"), channel: "#acme" },
  },
  cronJobs: [{ name: "nightly-backup", intervalSeconds: 86400, graceSeconds: 1800 }],
  shareLink: { label: "Acme status" },
};

describe("ClientMonitoring", () => {
  it("refuses an invalid spec before declaring anything, naming every bad field", () => {
    const declare = () =>
      new mon.ClientMonitoring("broken", {
        name: "Broken",
        domain: "not a domain",
        endpoints: [{ path: "health" }, { name: "Home", path: "/" }, { name: "home", path: "/index" }],
        contacts: { emails: ["nobody"] },
        cronJobs: [{ name: "backup", intervalSeconds: 5 }],
      });
    expect(declare).toThrow(mon.ClientMonitoringSpecError);
    expect(declare).toThrow(
      [
        "ClientMonitoring broken: the spec is invalid:",
        "  domain: must be a domain name such as acme.example.com",
        "  endpoints.0.path: must start with /",
        "  contacts.emails.0: must be an email address",
        "  cronJobs.0.intervalSeconds: must be at least 30",
      ].join("\n"),
    );
    expect(() => new mon.ClientMonitoring("twice", { ...acmeSpec, endpoints: [{ name: "Home", path: "/" }, { name: "home", path: "/index" }] })).toThrow(
      "endpoints.1: has the same name as an earlier entry (home); give it its own name",
    );
    // The component itself is registered before it validates; none of its children are.
    expect(registered.filter((resource) => /^(broken|twice)./.test(resource.name))).toEqual([]);
  });

  it("creates the client and its whole package inside it, under the component", async () => {
    const acme = new mon.ClientMonitoring("acme", acmeSpec);
    await declared(acme);
    const { resources: ours, lines } = registeredUnder("acme");
    expect(lines).toEqual([
      "Client acme",
      "ClientMonitoring acme",
      "ClientShareLink acme-share-link",
      "EscalationPolicy acme-on-call",
      "Heartbeat acme-job-nightly-backup",
      "HeartbeatGroup acme-cron-jobs",
      "Monitor acme-checkout-api",
      "Monitor acme-root",
      "NotificationChannel acme-email-cto@acme.example",
      "NotificationChannel acme-email-ops@acme.example",
      "NotificationChannel acme-slack",
    ]);
    for (const resource of ours.filter(({ type }) => !/:(Client|ClientMonitoring)$/.test(type))) {
      expect(resource.inputs["clientId"], resource.name).toBe("acme-id");
    }
    expect(await output(acme.client.urn)).toContain("monitoring:agency:ClientMonitoring$pulumi-nodejs:dynamic/monitoring:Client::acme");
    expect(inputsOf("Client", "acme")).toMatchObject({ name: "Acme Corp", website: "https://shop.acme.example", contactEmail: "ops@acme.example" });
  });

  it("checks each endpoint over https with the standard settings, alerting every channel through the policy", async () => {
    const alerted = { notificationChannelIds: ["acme-slack-id", "acme-email-ops@acme.example-id", "acme-email-cto@acme.example-id"], escalationPolicyId: "acme-on-call-id" };
    expect(inputsOf("Monitor", "acme-root")).toMatchObject({
      name: "shop.acme.example/",
      url: "https://shop.acme.example/",
      expectedStatusCode: 200,
      alertType: "keyword",
      keyword: "Add to cart",
      ...mon.STANDARD_MONITOR_SETTINGS,
      ...alerted,
    });
    expect(inputsOf("Monitor", "acme-checkout-api")).toMatchObject({ name: "Checkout API", url: "https://shop.acme.example/api/checkout", expectedStatusCode: 204, ...alerted });
    expect(inputsOf("Monitor", "acme-checkout-api")).not.toHaveProperty("keyword");
    expect(inputsOf("EscalationPolicy", "acme-on-call")?.["steps"]).toEqual([
      { delayMinutes: 0, notificationChannelIds: ["acme-slack-id"], urgency: "low" },
      { delayMinutes: 15, notificationChannelIds: ["acme-email-ops@acme.example-id", "acme-email-cto@acme.example-id"] },
    ]);
    expect(inputsOf("Heartbeat", "acme-job-nightly-backup")).toMatchObject({ name: "nightly-backup", expectedIntervalSeconds: 86400, gracePeriodSeconds: 1800, heartbeatGroupId: "acme-cron-jobs-id" });
  });

  it("outputs the monitors by endpoint and the jobs' ping URLs as a secret", async () => {
    const acme = new mon.ClientMonitoring("outputs", acmeSpec);
    expect(await output(acme.clientId)).toBe("outputs-id");
    expect(await output(acme.monitorIds)).toEqual({ root: "outputs-root-id", "checkout-api": "outputs-checkout-api-id" });
    expect(await output(acme.heartbeatPingUrls)).toEqual({ "nightly-backup": "https://ping.example/outputs-job-nightly-backup" });
    expect(await isSecret(acme.heartbeatPingUrls)).toBe(true);
    expect(await output(acme.shareLinkUrl)).toBe("https://status.example/outputs-share-link");
  });

  it("leaves defaults to a shared template given by id, and emails at once without a chat channel", async () => {
    const globex = new mon.ClientMonitoring("globex", smallClient("Globex", "/", "it@globex.example", { id: "11111111-2222-4333-8444-555555555555" }));
    await declared(globex);
    expect(inputsOf("Client", "globex")?.["templateId"]).toBe("11111111-2222-4333-8444-555555555555");
    for (const field of Object.keys(mon.STANDARD_MONITOR_SETTINGS)) expect(inputsOf("Monitor", "globex-root")).not.toHaveProperty(field);
    expect(inputsOf("EscalationPolicy", "globex-on-call")?.["steps"]).toEqual([{ delayMinutes: 0, notificationChannelIds: ["globex-email-it@globex.example-id"] }]);
    expect(registered.some((resource) => resource.name === "globex-cron-jobs")).toBe(false);
  });

  it("declares examples/agency's globex from its Pulumi.globex.yaml, on the shared template", async () => {
    const settings = parse(await readFile(join(repoRoot, "examples/agency/Pulumi.globex.yaml"), "utf8")) as { config: { "agency:client": mon.ClientMonitoringSpec } };
    const globex = new mon.ClientMonitoring("example-globex", { ...settings.config["agency:client"], template: { id: "11111111-2222-4333-8444-555555555555" } });
    await declared(globex);
    // 1 email, 2 endpoints, 1 job.
    expect(registeredUnder("example-globex").lines).toEqual([
      "Client example-globex",
      "ClientMonitoring example-globex",
      "EscalationPolicy example-globex-on-call",
      "Heartbeat example-globex-job-invoice-run",
      "HeartbeatGroup example-globex-cron-jobs",
      "Monitor example-globex-customer-portal",
      "Monitor example-globex-root",
      "NotificationChannel example-globex-email-it@globex.example.com",
    ]);
    expect(inputsOf("Monitor", "example-globex-customer-portal")).toMatchObject({ url: "https://globex.example.com/portal/login", keyword: "Sign in" });
  });

  it("creates a template of the client's own from a spec", async () => {
    const initech = new mon.ClientMonitoring(
      "initech",
      smallClient("Initech", "/status", "oncall@initech.example", { create: { name: "Initech contract", monitorDefaults: { intervalSeconds: 30 } } }),
    );
    await declared(initech);
    expect(inputsOf("ClientTemplate", "initech-template")).toMatchObject({ name: "Initech contract", monitorDefaults: { intervalSeconds: 30 } });
    expect(inputsOf("Client", "initech")?.["templateId"]).toBe("initech-template-id");
  });

  it("passes the client's pause windows to every monitor and heartbeat, with each one's own after them", async () => {
    const freeze = { from: "2030-11-28T22:00:00Z", to: "2030-11-29T02:00:00Z", reason: "Black Friday freeze" };
    const upgrade = { from: "2030-12-03T06:00:00+01:00", to: "2030-12-03T07:30:00+01:00", reason: "database upgrade" };
    const umbrella = new mon.ClientMonitoring("umbrella", {
      name: "Umbrella",
      domain: "umbrella.example",
      endpoints: [{ path: "/" }, { path: "/api", pauses: [upgrade] }],
      contacts: { emails: ["oncall@umbrella.example"] },
      cronJobs: [{ name: "sync", intervalSeconds: 3600 }],
      pauses: [freeze],
    });
    await declared(umbrella);
    expect(inputsOf("Monitor", "umbrella-root")?.["pauses"]).toEqual([freeze]);
    expect(inputsOf("Monitor", "umbrella-api")?.["pauses"]).toEqual([freeze, upgrade]);
    expect(inputsOf("Heartbeat", "umbrella-job-sync")?.["pauses"]).toEqual([freeze]);
    expect(inputsOf("Monitor", "acme-root")).not.toHaveProperty("pauses");
  });

  it("refuses a window that ends before it starts, naming its path", () => {
    const declare = () =>
      new mon.ClientMonitoring("backwards", { ...acmeSpec, pauses: [{ from: "2030-11-28T22:00:00Z", to: "2030-11-28T21:00:00Z", reason: "backwards" }] });
    expect(declare).toThrow("  pauses.0.to: must be after from (2030-11-28T22:00:00Z)");
  });
});
