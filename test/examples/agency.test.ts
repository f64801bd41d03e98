/**
 * examples/agency: the agency's shared template (examples/agency/shared) and two client stacks,
 * acme on the shared template and initech with a template of its own (each configured by its own
 * Pulumi.<client>.yaml), deploy side by side against one emulator. Each client sees only its own
 * objects; destroying one client's stack leaves the other untouched, and deploying it again makes
 * a fresh client with its whole package; destroying a client archives it, as the service cannot
 * delete clients. Destroying every client and then the shared template is `fleet destroy`'s, in
 * test/examples/teams.test.ts; the objects left here go with this file's own emulator.
 * The shared template runs as `pulumi up` runs it; the client programs run inside the test process,
 * as the fleet runs them (test/examples/agency-fleet.test.ts runs one under the CLI's language host).
 * Two clients are the two ways to get a template; globex's configuration is a third client of the
 * shared template, declared in test/components/client-monitoring.test.ts.
 */
import type { UpResult } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { createTestStack, type TestStack } from "../support/pulumi.js";
import { type ApiObject, ServiceView, connectionConfig } from "./support.js";

const CLIENTS = ["acme", "initech"] as const;
type ClientStack = (typeof CLIENTS)[number];
/** Collections of the objects ClientMonitoring creates inside a client. */
const CLIENT_COLLECTIONS = ["/monitors", "/heartbeats", "/heartbeat-groups", "/notification_channels", "/escalation-policies"];
const SLACK_WEBHOOK = "https://hooks.slack.com/services/T000/B000/acmesecret";

describe("examples/agency", () => {
  let emulator: TestEmulator;
  let service: ServiceView;
  let shared: TestStack;
  let templateId: string;
  const stacks = {} as Record<ClientStack, TestStack>;
  const deployed = {} as Record<ClientStack, UpResult>;
  const clientId = (client: ClientStack): string => deployed[client].outputs.clientId?.value;
  /** Every object of the client's collections, listed with its client_id. */
  const objectsOf = async (client: ClientStack): Promise<ApiObject[]> =>
    (await Promise.all(CLIENT_COLLECTIONS.map((collection) => service.list(collection, { client_id: clientId(client) })))).flat();

  beforeAll(async () => {
    emulator = await startTestEmulator();
    service = new ServiceView(emulator);
    shared = await createTestStack({ program: "examples/agency/shared", config: connectionConfig(emulator), runner: "cli" });
    templateId = (await shared.stack.up()).outputs.templateId?.value;
    for (const client of CLIENTS) {
      stacks[client] = await createTestStack({
        program: "examples/agency",
        stackName: client,
        files: ["Pulumi.yaml", "index.ts", `Pulumi.${client}.yaml`],
        config: {
          ...connectionConfig(emulator),
          // acme uses the shared template; initech's configuration brings its own.
          ...(client === "initech" ? {} : { "agency:templateId": { value: templateId } }),
          ...(client === "acme" ? { "agency:chatWebhookUrl": { value: SLACK_WEBHOOK, secret: true } } : {}),
        },
      });
    }
  });
  afterAll(async () => {
    // Every stack is disposed even when another one fails to, so that none is left behind; their
    // objects go with this file's emulator.
    try {
      const disposed = await Promise.allSettled([...CLIENTS.map((client) => stacks[client]?.dispose({ keepObjects: true })), shared?.dispose({ keepObjects: true })]);
      for (const result of disposed) if (result.status === "rejected") throw result.reason;
    } finally {
      await emulator?.stop();
    }
  });

  it("deploys the two clients side by side, each package from its own configuration", async () => {
    const ups = await Promise.all(CLIENTS.map((client) => stacks[client].stack.up()));
    CLIENTS.forEach((client, index) => (deployed[client] = ups[index] as UpResult));
    // The stack, the component, the client, channels, policy, monitors, heartbeat group, heartbeats, extras.
    expect(ups.map((up) => up.summary.resourceChanges?.create)).toEqual([
      2 + 1 + 3 + 1 + 3 + 1 + 2 + 1, // acme: 2 emails and Slack, 3 endpoints, 2 jobs, a share link
      2 + 1 + 2 + 1 + 1 + 1 + 1 + 1, // initech: 2 emails, 1 endpoint, 1 job, its own template
    ]);
    expect(new Set(CLIENTS.map(clientId)).size).toBe(2);
    expect(await service.find(`/clients/${clientId("acme")}`)).toMatchObject({ name: "Acme Corp", template_id: templateId, archived: false });
    expect(await service.find(`/clients/${clientId("initech")}`)).toMatchObject({ name: "Initech" });
    expect((await service.find(`/clients/${clientId("initech")}`))?.["template_id"]).not.toBe(templateId);
  });

  it("gives each client only its own objects, listed with its client_id", async () => {
    for (const client of CLIENTS) {
      const objects = await objectsOf(client);
      expect(objects.every((object) => object["client_id"] === clientId(client))).toBe(true);
      const monitors = await service.list("/monitors", { client_id: clientId(client) });
      expect(monitors.map((monitor) => monitor.id).sort()).toEqual(Object.values(deployed[client].outputs.monitorIds?.value).sort());
    }
    const ids = await Promise.all(CLIENTS.map(async (client) => (await objectsOf(client)).map((object) => object.id)));
    expect(new Set(ids.flat()).size).toBe(ids.flat().length);
    // Nothing leaked outside the clients.
    expect(await service.list("/monitors")).toEqual([]);
    expect(await service.list("/heartbeats")).toEqual([]);
  });

  it("applies each client's template and spec to its monitors and heartbeats", async () => {
    // Every endpoint's name starts with the domain, and the service lists them in no set order.
    const acmeMonitors = await service.list("/monitors", { client_id: clientId("acme"), q: "shop.acme.example.com/" });
    const acmeHome = acmeMonitors.find((monitor) => monitor["url"] === "https://shop.acme.example.com/");
    // From the shared template: regions, SSL alert days, confirmation period. From the spec: the keyword.
    expect(acmeHome).toMatchObject({
      url: "https://shop.acme.example.com/",
      regions: ["us-east-1", "eu-west-1", "ap-southeast-1"],
      ssl_expiry_alert_days: 21,
      confirmation_period: 120,
      alert_type: "keyword",
      keyword: "Add to cart",
    });
    const [initechStatus] = await service.list("/monitors", { client_id: clientId("initech") });
    expect(initechStatus).toMatchObject({ interval_seconds: 30, expected_status_code: 204, ssl_expiry_alert_days: 30 });
    const [tpsReport] = await service.list("/heartbeats", { client_id: clientId("initech") });
    expect(tpsReport).toMatchObject({ name: "tps-report", expected_interval_seconds: 604800, grace_period_seconds: 3600 });
    // Slack first and quietly, email after 15 minutes.
    const [acmePolicy] = await service.list("/escalation-policies", { client_id: clientId("acme") });
    expect((acmePolicy?.["steps"] as { delay_minutes: number; urgency: string }[]).map(({ delay_minutes, urgency }) => [delay_minutes, urgency])).toEqual([
      [0, "low"],
      [15, "high"],
    ]);
  });

  it("keeps the chat webhook and the ping URLs secret in state", async () => {
    const state = await stacks.acme.readStateFile();
    expect(state).not.toContain(SLACK_WEBHOOK);
    for (const pingUrl of Object.values(deployed.acme.outputs.heartbeatPingUrls?.value as Record<string, string>)) {
      expect(state).not.toContain(pingUrl);
    }
    expect(deployed.acme.outputs.heartbeatPingUrls?.secret).toBe(true);
  });

  it("previews no changes for acme right after up", async () => {
    // The example's program, on the client with the most to declare (the shared template's id, a
    // secret webhook, heartbeats, a share link); that a template of a client's own reads back as
    // declared is the provider's (test/provider/methods.test.ts).
    await stacks.acme.stack.preview({ expectNoChanges: true });
  });

  it("destroys initech alone: its client is archived and emptied, acme keeps everything", async () => {
    const before = await objectsOf("acme");
    await stacks.initech.stack.destroy();
    expect(await objectsOf("initech")).toEqual([]);
    expect(await service.find(`/clients/${clientId("initech")}`)).toMatchObject({ archived: true });
    expect(await objectsOf("acme")).toEqual(before);
    expect(await service.find(`/clients/${clientId("acme")}`)).toMatchObject({ archived: false });
  });

  it("deploys initech again after its destroy: a fresh, active client with its whole package", async () => {
    const first = deployed.initech;
    const archived = clientId("initech");
    const before = (await Promise.all(CLIENT_COLLECTIONS.map((collection) => service.list(collection, { client_id: archived })))).flat();
    deployed.initech = await stacks.initech.stack.up();
    expect(clientId("initech")).not.toBe(archived);
    expect(await service.find(`/clients/${clientId("initech")}`)).toMatchObject({ archived: false });
    // Everything its first deploy created, created again, under the new client.
    expect(deployed.initech.summary.resourceChanges).toEqual(first.summary.resourceChanges);
    expect((await objectsOf("initech")).length).toBeGreaterThan(0);
    expect(before).toEqual([]);
  });
});
