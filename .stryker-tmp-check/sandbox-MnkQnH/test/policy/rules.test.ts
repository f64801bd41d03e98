/**
 * The package's rules on resources as `@pulumi/policy` hands them over, without an engine: each row
 * a resource's inputs, the rule's settings and the messages expected (none when it complies).
 * Values unknown at preview are made the way the policy server makes them (its unknown-checking
 * proxy over the engine's sentinels).
 */
// @ts-nocheck

import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  KINDS,
  type Policy,
  type PolicyResource,
  alertRouting,
  clientScope,
  inputsOf,
  minimumInterval,
  minimumRegions,
  monitorPolicy,
  monitoringPolicies,
  monitorsOf,
  resourcePolicy,
  sslExpiryAlert,
  typeOf,
} from "../../policy/index.js";
import { definitions } from "../../schema/index.js";
import { monitor as monitorDefinition } from "../../schema/resources/monitor.js";
import policyPackManifest from "../../policy/package.json";
import packageManifest from "../../package.json";

const requireHere = createRequire(__filename);
const { unknownCheckingProxy } = requireHere("@pulumi/policy") as { unknownCheckingProxy<T extends object>(props: T): T };
/** The sentinel the policy server reads for an unknown string, e.g. the id of a channel being created. */
const unknownString = (requireHere("@pulumi/policy/proxy.js") as { unknownStringValue: string }).unknownStringValue;
const unknownArray = (requireHere("@pulumi/policy/proxy.js") as { unknownArrayValue: string }).unknownArrayValue;

const CHANNEL = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const CLIENT = "7a1e2b3c-4d5e-4f60-8172-93a4b5c6d7e8";
const compliant = { url: "https://example.com", regions: ["eu-west-1", "us-east-1"], sslExpiryAlertDays: 30, notificationChannelIds: [CHANNEL] };

function resource(kind: (typeof KINDS)[number], name: string, props: Record<string, unknown>): PolicyResource {
  return { type: typeOf(kind), name, urn: `urn:pulumi:dev::p::${typeOf(kind)}::${name}`, props: unknownCheckingProxy(props) };
}

/** The messages a policy reports on `resources`, with `config` as `--policy-pack-config` would set it. */
function violations(policy: Policy, resources: PolicyResource[], config: object = {}): string[] {
  const messages: string[] = [];
  const report = (message: string) => void messages.push(message);
  const getConfig = <T extends object>() => config as T;
  if ("validateStack" in policy) policy.validateStack({ resources, getConfig }, report);
  else for (const each of resources) policy.validateResource({ ...each, getConfig }, report);
  return messages;
}

const monitorRows: Array<{ rule: Policy; case: string; props: Record<string, unknown>; config?: object; expected: string[] }> = [
  { rule: alertRouting, case: "channels", props: compliant, expected: [] },
  { rule: alertRouting, case: "an escalation policy", props: { url: "https://a", escalationPolicyId: CHANNEL }, expected: [] },
  { rule: alertRouting, case: "the id of a channel being created", props: { url: "https://a", notificationChannelIds: [unknownString] }, expected: [] },
  { rule: alertRouting, case: "channels computed as a whole", props: { url: "https://a", notificationChannelIds: unknownArray }, expected: [] },
  { rule: alertRouting, case: "the id of a policy being created", props: { url: "https://a", escalationPolicyId: unknownString }, expected: [] },
  {
    rule: alertRouting,
    case: "nothing",
    props: { url: "https://a" },
    expected: ['Monitor "web": routes its alerts nowhere: set notificationChannelIds (at least 1 channel) or escalationPolicyId'],
  },
  { rule: alertRouting, case: "no channel", props: { url: "https://a", notificationChannelIds: [] }, expected: ['Monitor "web": routes its alerts nowhere: set notificationChannelIds (at least 1 channel) or escalationPolicyId'] },
  { rule: minimumInterval, case: "the default", props: {}, expected: [] },
  { rule: minimumInterval, case: "at the minimum", props: { intervalSeconds: 60 }, expected: [] },
  { rule: minimumInterval, case: "below", props: { intervalSeconds: 30 }, expected: ['Monitor "web": intervalSeconds is 30, below the minimum of 60 s (minIntervalSeconds)'] },
  { rule: minimumInterval, case: "configured", props: { intervalSeconds: 90 }, config: { minIntervalSeconds: 120 }, expected: ['Monitor "web": intervalSeconds is 90, below the minimum of 120 s (minIntervalSeconds)'] },
  {
    rule: minimumInterval,
    case: "the default, below a configured minimum",
    props: {},
    config: { minIntervalSeconds: 300 },
    expected: [`Monitor "web": intervalSeconds is not set and the service's default of 60 s is below the minimum of 300 s (minIntervalSeconds)`],
  },
  { rule: minimumInterval, case: "unknown", props: { intervalSeconds: requireHere("@pulumi/policy/proxy.js").unknownNumberValue }, expected: [] },
  { rule: minimumRegions, case: "two", props: { regions: ["a", "b"] }, expected: [] },
  { rule: minimumRegions, case: "one", props: { regions: ["a"] }, expected: ['Monitor "web": regions names 1, below the minimum of 2 (minRegions)'] },
  { rule: minimumRegions, case: "left out", props: {}, expected: ['Monitor "web": regions is not set: name at least 2 regions (minRegions)'] },
  { rule: minimumRegions, case: "configured", props: { regions: ["a", "b"] }, config: { minRegions: 3 }, expected: ['Monitor "web": regions names 2, below the minimum of 3 (minRegions)'] },
  { rule: minimumRegions, case: "unknown", props: { regions: unknownArray }, expected: [] },
  { rule: sslExpiryAlert, case: "https with 30 days", props: compliant, expected: [] },
  { rule: sslExpiryAlert, case: "plain http", props: { url: "http://example.com" }, expected: [] },
  { rule: sslExpiryAlert, case: "a tcp monitor", props: { monitorType: "tcp", tcpHost: "db", tcpPort: 5432 }, expected: [] },
  { rule: sslExpiryAlert, case: "a URL not yet known", props: { url: unknownString }, expected: [] },
  {
    rule: sslExpiryAlert,
    case: "https without it",
    props: { url: "HTTPS://example.com" },
    expected: ['Monitor "web": sslExpiryAlertDays is not set on an https monitor: set it to at least 14 days (minDays)'],
  },
  { rule: sslExpiryAlert, case: "https, too late", props: { url: "https://a", sslExpiryAlertDays: 7 }, expected: ['Monitor "web": sslExpiryAlertDays is 7, below the minimum of 14 days (minDays)'] },
  { rule: sslExpiryAlert, case: "configured", props: { url: "https://a", sslExpiryAlertDays: 7 }, config: { minDays: 7 }, expected: [] },
];

describe("each monitor rule, on a Monitor", () => {
  it.each(monitorRows)("$rule.name: $case", ({ rule, props, config, expected }) => {
    expect(violations(rule, [resource("Monitor", "web", props)], config)).toEqual(expected);
  });
});

describe("each monitor rule, on the same monitor as an entry of a MonitorSet", () => {
  it.each(monitorRows)("$rule.name: $case", ({ rule, props, config, expected }) => {
    const exemplary = { ...compliant, intervalSeconds: 300, regions: ["a", "b", "c"] };
    const set = resource("MonitorSet", "fleet", { monitors: { exemplary, web: props } });
    expect(violations(rule, [set], config)).toEqual(expected.map((message) => message.replace('Monitor "web"', 'MonitorSet "fleet", entry "web"')));
  });
});

describe("monitorsOf", () => {
  it("gives a set entry the set's client unless it names its own", () => {
    const set = resource("MonitorSet", "fleet", { clientId: CLIENT, monitors: { a: { url: "https://a" }, b: { url: "https://b", clientId: CHANNEL } } });
    expect(monitorsOf(set).map(({ entry, inputs }) => [entry, inputs.clientId])).toEqual([["a", CLIENT], ["b", CHANNEL]]);
  });

  it("sees no monitor in a set whose map is unknown at preview, and nothing in other kinds", () => {
    expect(monitorsOf(resource("MonitorSet", "fleet", { monitors: unknownArray }))).toEqual([]);
    expect(monitorsOf(resource("Heartbeat", "backup", { expectedIntervalSeconds: 60 }))).toEqual([]);
  });
});

describe("the client scope rule", () => {
  const inClient = resource("Monitor", "web", { ...compliant, clientId: CLIENT });
  it.each([
    { case: "no object in a client", resources: [resource("Monitor", "web", compliant), resource("Heartbeat", "backup", {})], expected: [] },
    { case: "every object in a client", resources: [inClient, resource("Heartbeat", "backup", { clientId: CLIENT })], expected: [] },
    { case: "a client being created", resources: [inClient, resource("Heartbeat", "backup", { clientId: unknownString })], expected: [] },
    { case: "the client resource itself and kinds without clientId", resources: [inClient, resource("Client", "acme", { name: "Acme" })], expected: [] },
    {
      case: "a heartbeat outside",
      resources: [inClient, resource("Heartbeat", "backup", {})],
      expected: ['Heartbeat "backup": clientId is not set, while 1 object(s) of this stack carry a client (Monitor "web" does): every object of a client stack lives in a client'],
    },
    {
      case: "a set entry outside, beside one inside through the set",
      resources: [resource("MonitorSet", "fleet", { monitors: { a: { url: "https://a", clientId: CLIENT }, b: { url: "https://b" } } })],
      expected: ['MonitorSet "fleet", entry "b": clientId is not set, while 1 object(s) of this stack carry a client (MonitorSet "fleet", entry "a" does): every object of a client stack lives in a client'],
    },
  ])("$case", ({ resources, expected }) => {
    expect(violations(clientScope, resources)).toEqual(expected);
  });
});

describe("the pack", () => {
  it("has five named rules, alert routing and client scope mandatory by default", () => {
    expect(monitoringPolicies().map(({ name, enforcementLevel }) => [name, enforcementLevel])).toEqual([
      ["monitoring-alert-routing", "mandatory"],
      ["monitoring-min-interval", "advisory"],
      ["monitoring-min-regions", "advisory"],
      ["monitoring-ssl-expiry-alert", "advisory"],
      ["monitoring-client-scope", "mandatory"],
    ]);
  });

  it("never prints a secret input, whatever the rule", () => {
    const secrets = { authUsername: "probe", authPassword: "pw-7f3a9c1e-basic-auth", requestHeaders: [{ name: "x", value: "hv-52b1d0e4-header-token" }] };
    for (const field of monitorDefinition.secrets) expect(Object.keys(secrets)).toContain(field);
    const bad = { url: "https://a", intervalSeconds: 10, regions: ["a"], sslExpiryAlertDays: 1, ...secrets };
    const resources = [resource("Monitor", "web", bad), resource("MonitorSet", "fleet", { monitors: { web: bad } }), resource("Heartbeat", "b", { clientId: CLIENT })];
    const messages = monitoringPolicies().flatMap((policy) => violations(policy, resources));
    expect(messages.length).toBeGreaterThan(8);
    for (const message of messages) expect(message).not.toMatch(/pw-7f3a|hv-52b1/);
  });

  it("names every kind of the schema, and the pack's version is the package's", () => {
    expect([...KINDS].filter((kind) => kind !== "MonitorSet").sort()).toEqual(definitions.map(({ kind }) => kind).sort());
    expect(policyPackManifest.version).toBe(packageManifest.version);
  });
});

describe("an organisation's own rules", () => {
  it("checks every monitor, set entries included, with typed inputs and its own settings", () => {
    const named = monitorPolicy<{ prefix: string }>({
      name: "acme-monitor-names",
      description: "Monitor names start with the team prefix.",
      enforcementLevel: "mandatory",
      config: { prefix: { type: "string", default: "acme-" } },
      check: ({ inputs }, { prefix }) => (typeof inputs.name === "string" && inputs.name.startsWith(prefix) ? [] : [`name does not start with ${prefix}`]),
    });
    const resources = [resource("Monitor", "web", { name: "acme-web" }), resource("MonitorSet", "fleet", { monitors: { a: { name: "other" } } })];
    expect(violations(named, resources)).toEqual(['MonitorSet "fleet", entry "a": name does not start with acme-']);
    expect(violations(named, resources, { prefix: "other" })).toEqual(['Monitor "web": name does not start with other']);
  });

  it("checks a resource of one kind with its inputs", () => {
    const grace = resourcePolicy({
      kind: "Heartbeat",
      name: "acme-heartbeat-grace",
      description: "Heartbeats allow some slack.",
      check: (heartbeat) => ((heartbeat.gracePeriodSeconds ?? 300) >= 60 ? [] : [`gracePeriodSeconds is ${heartbeat.gracePeriodSeconds}, below 60`]),
    });
    const resources = [resource("Heartbeat", "backup", { gracePeriodSeconds: 10 }), resource("Monitor", "web", {})];
    expect(violations(grace, resources)).toEqual(['Heartbeat "backup": gracePeriodSeconds is 10, below 60']);
    expect(inputsOf(resources[0]!, "Heartbeat")?.gracePeriodSeconds).toBe(10);
    expect(inputsOf(resources[0]!, "Monitor")).toBeUndefined();
  });
});
