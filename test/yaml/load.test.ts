/**
 * loadMonitoringYaml in a Pulumi program, against Pulumi's mock resource monitor (no engine):
 * one resource per entry, references wired to the referenced resources' ids, the options applied,
 * and nothing declared when the file is invalid.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mon from "../../sdk/index.js";
import { MonitoringYamlError, loadMonitoringYaml } from "../../sdk/yaml.js";

const EXAMPLE = join(__dirname, "../../examples/yaml/monitoring.yaml");
const CLIENT_ID = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const EXAMPLE_ENVIRONMENT = {
  CHECKOUT_SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T0/B0/x",
  CHECKOUT_PAGERDUTY_KEY: "0123456789abcdef0123456789abcdef",
  CHECKOUT_API_PASSWORD: "s3cret",
};

beforeAll(async () => {
  Object.assign(process.env, EXAMPLE_ENVIRONMENT);
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: () => ({}),
    },
    "shop",
    "dev",
  );
});

/** The folder of the files the tests write, removed after them. */
const directory = mkdtempSync(join(tmpdir(), "monitoring-yaml-"));
let written = 0;

afterAll(() => {
  for (const variable of Object.keys(EXAMPLE_ENVIRONMENT)) delete process.env[variable];
  rmSync(directory, { recursive: true, force: true });
});

/** The path of a new `monitoring.yaml`-like file holding `text` (its name is part of the messages). */
function yamlFile(text: string): string {
  written += 1;
  const path = join(directory, `${written}`, "monitoring.yaml");
  mkdirSync(dirname(path));
  writeFileSync(path, text);
  return path;
}

const output = <T>(value: pulumi.Output<T>): Promise<T> => new Promise((resolve) => value.apply(resolve));

/** Resource options that count the resources constructed with them (transformations run in the constructor). */
function counting(): { constructed: () => number; resourceOptions: pulumi.CustomResourceOptions } {
  let count = 0;
  const transformation: pulumi.ResourceTransformation = () => {
    count += 1;
    return undefined;
  };
  return { constructed: () => count, resourceOptions: { transformations: [transformation] } };
}

describe("loadMonitoringYaml", () => {
  it("declares every entry of the example file as a resource of its kind, by section and name", async () => {
    const declared = loadMonitoringYaml(EXAMPLE);
    expect(Object.keys(declared.monitors)).toEqual(["storefront", "checkout-api", "payments-db", "shop-dns"]);
    expect(Object.keys(declared.notificationChannels)).toEqual(["ops-email", "checkout-slack", "on-call-pager"]);
    expect(declared.monitors["storefront"]).toBeInstanceOf(mon.Monitor);
    expect(declared.heartbeats["order-export"]).toBeInstanceOf(mon.Heartbeat);
    expect(declared.heartbeatGroups["nightly-jobs"]).toBeInstanceOf(mon.HeartbeatGroup);
    expect(declared.escalationPolicies["checkout-on-call"]).toBeInstanceOf(mon.EscalationPolicy);
    expect(declared.notificationChannels["ops-email"]).toBeInstanceOf(mon.NotificationChannel);
    expect(declared.webhookSubscriptions["incident-feed"]).toBeInstanceOf(mon.WebhookSubscription);
    expect(await output(declared.monitors["storefront"]!.escalationPolicyId)).toBe("checkout-on-call-id");
    expect(await output(declared.notificationChannels["on-call-pager"]!.name)).toBe("Checkout on-call");
  });

  it("prefixes resource names, not display names, and creates every entry in the client with the resource options", async () => {
    const { constructed, resourceOptions } = counting();
    const declared = loadMonitoringYaml(EXAMPLE, { namePrefix: "acme-", clientId: CLIENT_ID, resourceOptions });
    expect(constructed()).toBe(12);
    const monitor = declared.monitors["payments-db"]!;
    expect(await output(monitor.urn)).toMatch(/::acme-payments-db$/);
    expect(await output(monitor.name)).toBe("payments-db");
    expect(await output(monitor.notificationChannelIds)).toEqual(["acme-ops-email-id"]);
    expect(await output(monitor.clientId)).toBe(CLIENT_ID);
    const policy = declared.escalationPolicies["checkout-on-call"]!;
    expect(await output(policy.steps)).toEqual([
      { delayMinutes: 0, notificationChannelIds: ["acme-checkout-slack-id", "acme-ops-email-id"], urgency: "low" },
      { delayMinutes: 10, notificationChannelIds: ["acme-on-call-pager-id"] },
    ]);
    expect(await output(declared.heartbeats["database-backup"]!.heartbeatGroupId)).toBe("acme-nightly-jobs-id");
    expect(await output(declared.webhookSubscriptions["incident-feed"]!.clientId)).toBe(CLIENT_ID);
  });

  it("declares a monitor set as one MonitorSet, its monitors named after their keys and wired by name", async () => {
    const path = yamlFile(
      `notificationChannels:
  ops-email: { kind: email, config: { address: ops@example.com } }
monitorSets:
  fleet:
    monitors:
      storefront: { url: https://shop.example.com, notificationChannels: [ops-email] }
      checkout: { name: Checkout, url: https://shop.example.com/checkout, intervalSeconds: 30 }
`,
    );
    const { constructed, resourceOptions } = counting();
    const declared = loadMonitoringYaml(path, { namePrefix: "acme-", clientId: CLIENT_ID, resourceOptions });
    expect(constructed()).toBe(2);
    expect(declared.monitors).toEqual({});
    const set = declared.monitorSets["fleet"]!;
    expect(set).toBeInstanceOf(mon.MonitorSet);
    expect(await output(set.urn)).toMatch(/MonitorSet::acme-fleet$/);
    expect(await output(set.clientId)).toBe(CLIENT_ID);
    expect(await output(set.monitors)).toEqual({
      storefront: { name: "storefront", url: "https://shop.example.com", notificationChannelIds: ["acme-ops-email-id"] },
      checkout: { name: "Checkout", url: "https://shop.example.com/checkout", intervalSeconds: 30 },
    });
  });

  it("declares nothing when the file is invalid, and names the file in every message", () => {
    const path = yamlFile("monitors:\n  api: { url: https://api.example.com, intervalSeconds: 5 }\n");
    const { constructed, resourceOptions } = counting();
    expect(() => loadMonitoringYaml(path, { resourceOptions })).toThrow(MonitoringYamlError);
    expect(() => loadMonitoringYaml(path)).toThrow(`${path}:2:57: monitors.api.intervalSeconds: must be at least 10`);
    expect(constructed()).toBe(0);
  });

  it("is exported from the package root", () => {
    expect(mon.loadMonitoringYaml).toBe(loadMonitoringYaml);
  });
});
