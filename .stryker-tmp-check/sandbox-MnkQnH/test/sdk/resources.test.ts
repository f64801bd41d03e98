/**
 * The SDK classes as a Pulumi program uses them, registered against Pulumi's mock resource
 * monitor (no engine): type tokens, the create seed, secret wrapping, output properties, and the
 * argument types (checked by the compiler through `expectTypeOf` and `@ts-expect-error`).
 */
// @ts-nocheck

import * as pulumi from "@pulumi/pulumi";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc.js";
import { getMonitor } from "@pulumi/pulumi/runtime/settings.js";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import * as mon from "../../sdk/index.js";

const CHANNEL_ID = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";

interface Registration {
  type: string;
  name: string;
  /** The inputs as the engine would receive them, secrets still marked. */
  object: Record<string, unknown>;
  additionalSecretOutputs: string[];
}
const registrations: Registration[] = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: { ...args.inputs, status: "PENDING" } }),
      call: () => ({}),
    },
    "shop",
    "dev",
  );
  // Also record what each registration sends to the engine, which the mocks do not see.
  const monitor = getMonitor() as unknown as { registerResource(request: any, callback: unknown): Promise<void> };
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (request, callback) => {
    registrations.push({
      type: request.getType(),
      name: request.getName(),
      object: request.getObject().toJavaScript(),
      additionalSecretOutputs: request.getAdditionalsecretoutputsList(),
    });
    return register(request, callback);
  };
});

const output = <T>(value: pulumi.Output<T>): Promise<T> => new Promise((resolve) => value.apply(resolve));
const registrationOf = (name: string): Registration => {
  const found = registrations.find((registration) => registration.name === name);
  expect(found, `registration of ${name}`).toBeDefined();
  return found as Registration;
};

describe("SDK classes", () => {
  it("register the kind's type token, the inputs and the URN that seeds create keys", async () => {
    const monitor = new mon.Monitor("web", { url: "https://example.com", intervalSeconds: 30, notificationChannelIds: [CHANNEL_ID] });
    expect(await output(monitor.id)).toBe("web-id");
    const registration = registrationOf("web");
    expect(registration.type).toBe("pulumi-nodejs:dynamic/monitoring:Monitor");
    expect(registration.object).toMatchObject({
      url: "https://example.com",
      intervalSeconds: 30,
      notificationChannelIds: [CHANNEL_ID],
      __urn: "urn:pulumi:dev::shop::pulumi-nodejs:dynamic/monitoring:Monitor::web",
    });
    expect(String(registration.object["__provider"]).length).toBeLessThan(3000);
  });

  it("pass the URN the engine gives them, parents included, so same-named children of two components never share a create key", async () => {
    class Shop extends pulumi.ComponentResource {
      readonly web: mon.Monitor;
      constructor(type: string, name: string) {
        super(type, name, {}, {});
        this.web = new mon.Monitor("web", { url: "https://example.com" }, { parent: this });
      }
    }
    const children = [new Shop("acme:site:Shop", "a").web, new Shop("acme:site:Storefront", "b").web];
    const engineUrns = await Promise.all(children.map((child) => output(child.urn)));
    await Promise.all(children.map((child) => output(child.id)));
    const passed = registrations.filter((registration) => registration.name === "web").map((registration) => registration.object["__urn"]);
    expect(passed).toEqual(expect.arrayContaining(engineUrns));
    expect(new Set(engineUrns).size).toBe(2);
  });

  it("have an output for every input and server field", async () => {
    const monitor = new mon.Monitor("outputs", { url: "https://example.com" });
    expect(await output(monitor.status)).toBe("PENDING");
    expect(await output(monitor.url)).toBe("https://example.com");
    expect(monitor.intervalSeconds).toBeInstanceOf(pulumi.Output);
    expect(new mon.Heartbeat("job", {}).pingUrl).toBeInstanceOf(pulumi.Output);
  });

  it("encrypt secret inputs in state and mark secret outputs", async () => {
    const channel = new mon.NotificationChannel("pd", {
      name: "pd",
      kind: "pagerduty",
      credentials: { integrationKey: "0123456789abcdef0123456789abcdef" },
    });
    await output(channel.id);
    const registration = registrationOf("pd");
    expect(registration.object["credentials"]).toMatchObject({ [specialSigKey]: specialSecretSig });
    expect(registration.additionalSecretOutputs).toEqual(["credentials"]);

    const subscription = new mon.WebhookSubscription("hooks", { url: "https://hooks.example.com", events: ["*"] });
    await output(subscription.id);
    expect(registrationOf("hooks").additionalSecretOutputs).toEqual(["signingSecret"]);
  });

  it("accept outputs of other resources at any depth", async () => {
    const channel = new mon.NotificationChannel("ops", { name: "ops", kind: "email", config: { address: "ops@example.com" } });
    const policy = new mon.EscalationPolicy("oncall", {
      name: "on-call",
      steps: [{ delayMinutes: 0, notificationChannelIds: [channel.id] }],
    });
    await output(policy.id);
    expect(registrationOf("oncall").object["steps"]).toEqual([{ delayMinutes: 0, notificationChannelIds: ["ops-id"] }]);
  });

  it("are typed from the definitions", () => {
    expectTypeOf<mon.TcpMonitorArgs["monitorType"]>().toEqualTypeOf<"tcp">();
    expectTypeOf<mon.HttpMonitorArgs["monitorType"]>().toEqualTypeOf<"http" | undefined>();
    expectTypeOf<mon.Monitor["monitorType"]>().toEqualTypeOf<pulumi.Output<"http" | "ping" | "tcp" | "dns" | undefined>>();
    expectTypeOf<mon.Monitor["status"]>().toEqualTypeOf<pulumi.Output<"PENDING" | "UP" | "DOWN" | "PAUSED" | (string & {})>>();
    expectTypeOf<mon.Monitor["intervalSeconds"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<mon.Heartbeat["pingUrl"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<mon.ClientShareLinkArgs>().toHaveProperty("clientId");
    expectTypeOf<mon.HeartbeatArgs>().toHaveProperty("adoptId");

    //  a misspelt field is a compile error
    new mon.Monitor("typo", { url: "https://example.com", intervalSecond: 30 });
    //  so is a value of the wrong type
    new mon.Monitor("wrong", { url: "https://example.com", intervalSeconds: "30" });
    //  and a missing required field
    new mon.NotificationChannel("kindless", { name: "x" });
    //  including one its monitor type requires
    new mon.Monitor("portless", { monitorType: "tcp", tcpHost: "db.example.com" });
    //  or a field of another monitor type
    new mon.Monitor("mixed", { monitorType: "http", url: "https://example.com", tcpPort: 5432 });
  });
});
