/**
 * No secret lands in state, in `pulumi stack export` or in the engine's output in plaintext:
 * not the API key, a basic-auth password, a header value, a channel credential or a webhook
 * signing secret.
 *
 * The same stack's first `up` measures what a deployment costs per monitor, with limits, so that
 * growth fails here and not in a user's ten-thousand-monitor stack: the requests of a basic
 * `Monitor`'s create, and the state bytes of a `MonitorSet` per monitor. The provider text and a
 * basic monitor's state are measured where they take their final form, in the installed package
 * (test/e2e/package.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import type { RequestLogEntry } from "../../emulator/index.js";
import { deploy, secrets, type Deployment } from "./support.js";
import { testPassphrase } from "../support/pulumi.js";

/** The inputs of the provider benchmark's monitors (scripts/bench-provider.ts). */
const basic = (index: number) => ({ name: `bench ${index}`, url: `https://example.com/${index}`, intervalSeconds: 60, regions: ["eu-west-1", "us-east-1"] });
const SET_SIZE = 20;
/** Per monitor of a set of 20: its inputs and outputs, nothing else. */
const SET_STATE_PER_MONITOR_LIMIT = 700;

const resources = [
  {
    kind: "NotificationChannel",
    name: "chat",
    args: { name: "Chat", kind: "slack", config: { channel: "#ops" }, credentials: { webhookUrl: { $secret: "chatWebhookUrl" } } },
  },
  {
    kind: "Monitor",
    name: "web",
    args: {
      url: "https://example.com",
      authUsername: "monitor",
      authPassword: { $secret: "basicAuthPassword" },
      requestHeaders: [{ name: "X-Token", value: { $secret: "headerValue" } }],
      notificationChannelIds: [{ $ref: "chat" }],
    },
  },
  { kind: "WebhookSubscription", name: "audit", args: { url: "http://127.0.0.1:9/hook", events: ["monitor.created"] } },
  { kind: "Monitor", name: "single", args: basic(0) },
  { kind: "MonitorSet", name: "fleet", args: { monitors: Object.fromEntries(Array.from({ length: SET_SIZE }, (_, index) => [`m${index}`, basic(index)])) } },
];

interface StateResource {
  urn: string;
  type: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

let deployment: Deployment;
const engineOutput: string[] = [];
let signingSecret: string;
let lookedUpHeaders: unknown;
/** The requests of the first up, and the state it left. */
let requestsOfUp: RequestLogEntry[];
let stateOfUp: StateResource[];
/** The state and the outputs as the CLI shows them, secrets opened, after the last up. */
let exportedByCli: { deployment: { resources: unknown[] } };
let outputsByCli: { masked: Record<string, unknown>; shown: Record<string, unknown> };

beforeAll(async () => {
  deployment = await deploy({
    program: "test/programs/declared",
    config: {
      resources: { value: JSON.stringify(resources) },
      basicAuthPassword: { value: secrets.basicAuthPassword, secret: true },
      headerValue: { value: secrets.headerValue, secret: true },
      chatWebhookUrl: { value: secrets.chatWebhookUrl, secret: true },
    },
  });
  await deployment.emulator.admin.clearRequestLog();
  const { outputs } = await deployment.harness.stack.up({ onOutput: (line) => engineOutput.push(line), onError: (line) => engineOutput.push(line) });
  requestsOfUp = await deployment.emulator.admin.requestLog();
  stateOfUp = (await deployment.harness.stack.exportStack()).deployment.resources as StateResource[];
  await deployment.harness.stack.refresh({ onOutput: (line) => engineOutput.push(line) });
  // A program that looks the monitor up and exports what it read: its secret fields stay secret.
  await deployment.harness.stack.setConfig("lookupMonitorId", { value: (outputs.ids!.value as Record<string, string>)["web"] as string });
  const withLookup = await deployment.harness.stack.up({ onOutput: (line) => engineOutput.push(line) });
  lookedUpHeaders = withLookup.outputs.lookedUp?.value?.requestHeaders;
  // The signing secret exists only in state (the service returns it once): read it decrypted.
  exportedByCli = JSON.parse(pulumiStack("export", "--show-secrets"));
  outputsByCli = { masked: JSON.parse(pulumiStack("output", "--json")), shown: JSON.parse(pulumiStack("output", "--json", "--show-secrets")) };
  const decrypted = exportedByCli.deployment.resources as { type: string; outputs: Record<string, unknown> }[];
  const sentinel = decrypted.find((resource) => resource.type.endsWith(":WebhookSubscription"))!.outputs.signingSecret as { plaintext: string };
  signingSecret = JSON.parse(sentinel.plaintext) as string;
});
// The objects go away with the emulator: every output looked at is of the ups and the refresh, no destroy.
afterAll(async () => deployment?.dispose({ keepObjects: true }));

/** `pulumi stack <command>` as a user runs it (the Automation API's exportStack shows secrets). */
function pulumiStack(command: "export" | "output", ...flags: string[]): string {
  return execFileSync("pulumi", ["stack", command, "--stack", deployment.harness.stack.name, ...flags], {
    cwd: deployment.harness.workDir,
    env: { ...process.env, PULUMI_BACKEND_URL: `file://${deployment.harness.backendDir}`, PULUMI_CONFIG_PASSPHRASE: testPassphrase },
    encoding: "utf8",
  });
}

describe("secrets in state", () => {
  const plaintexts = () => ({
    "the API key": deployment.emulator.apiKey,
    "a basic-auth password": secrets.basicAuthPassword,
    "a header value": secrets.headerValue,
    "a channel credential": secrets.chatWebhookUrl,
    "a webhook signing secret": signingSecret,
  });

  it("has a signing secret to look for", () => {
    expect(signingSecret).toMatch(/^whsec_/);
  });

  it("exports a lookup's secret fields, which the program read in plaintext", () => {
    expect(lookedUpHeaders).toEqual([{ name: "X-Token", value: secrets.headerValue }]);
  });

  it("keeps every secret out of the raw state file", async () => {
    const state = await deployment.harness.readStateFile();
    for (const [what, value] of Object.entries(plaintexts())) expect(state.includes(value), what).toBe(false);
  });

  it("keeps every secret out of pulumi stack export", async () => {
    const exported = pulumiStack("export");
    for (const [what, value] of Object.entries(plaintexts())) expect(exported.includes(value), what).toBe(false);
  });

  it("keeps every secret out of the engine's output", () => {
    const output = engineOutput.join("");
    for (const [what, value] of Object.entries(plaintexts())) expect(output.includes(value), what).toBe(false);
  });

  it("stores no API key in the serialized provider, encrypted or not", async () => {
    const state = JSON.parse(await deployment.harness.readStateFile());
    const providers = (state.checkpoint.latest.resources as { outputs?: Record<string, unknown> }[])
      .map((resource) => resource.outputs?.["__provider"])
      .filter((provider): provider is string => typeof provider === "string");
    expect(providers.length).toBe(resources.length);
    for (const provider of providers) {
      expect(provider).not.toMatch(/pls_test_|apiKey|MONITORING_API_KEY/);
      expect(provider.length).toBeLessThan(4_096);
    }
  });
});

describe("the tests' own reading of a state (test/support/state-file.ts)", () => {
  it("gives the state as pulumi stack export --show-secrets does", async () => {
    expect(await deployment.harness.stack.exportStack()).toEqual(exportedByCli);
  });

  it("gives the outputs as pulumi stack output --show-secrets does, secret where the CLI masks them", async () => {
    expect(JSON.stringify(outputsByCli.masked), "an output holds a secret").toContain("[secret]");
    const expected = Object.fromEntries(Object.entries(outputsByCli.shown).map(([name, value]) => [name, { value, secret: outputsByCli.masked[name] === "[secret]" }]));
    expect(await deployment.harness.stack.outputs()).toEqual(expected);
  });
});

describe("state per monitor", () => {
  const named = (name: string) => stateOfUp.find((resource) => resource.urn.endsWith(`::${name}`))!;

  it("creates a basic monitor with one request, the create's answer giving its outputs", () => {
    // One POST per single Monitor of the program (web and single), the set's members going in batches.
    expect(requestsOfUp.filter((entry) => entry.method === "POST" && entry.path === "/monitors")).toHaveLength(2);
    expect(requestsOfUp.filter((entry) => entry.path.startsWith(`/monitors/${named("single").id}`))).toEqual([]);
  });

  it("keeps a MonitorSet's state per monitor under the limit", () => {
    const bytes = Buffer.byteLength(JSON.stringify(named("fleet")));
    console.log(`MonitorSet of ${SET_SIZE}: ${bytes} B, ${Math.round(bytes / SET_SIZE)} B per monitor`);
    expect(bytes / SET_SIZE).toBeLessThanOrEqual(SET_STATE_PER_MONITOR_LIMIT);
  });
});
