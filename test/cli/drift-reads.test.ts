/**
 * What a drift check reads, without the Pulumi CLI: which lists (cli/drift/account-lists.ts: one
 * list of the account per kind for stacks in several clients, a client's own for one, the lists
 * outside any client only for stacks with objects there), how a stack's state is turned into the
 * steps a refresh would show (cli/drift/stack-refresh.ts: read by the provider's reader from those
 * lists, values the state keeps secret shown as `[secret]` on both sides), and the requests that
 * costs against the emulator for several client stacks made by the provider's own creates. The
 * same on the real engine, every finding kind included: test/e2e/fleet-drift.test.ts.
 */
import { describe, expect, it } from "vitest";
import { AccountLists, listsToRead } from "../../cli/drift/account-lists.js";
import { findingsOf } from "../../cli/drift/changes.js";
import type { RecordedResource as StateResource } from "../../cli/project/state.js";
import { blindSecrets, refreshSteps } from "../../cli/drift/stack-refresh.js";
import { managedIds, readScopes, scopesOf, unmanagedIn } from "../../cli/drift/unmanaged.js";
import { check } from "../../provider/check.js";
import { ResourceEngine } from "../../provider/engine.js";
import { type AnyResourceDefinition, client, monitor, notificationChannel } from "../../schema/index.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

type Values = Record<string, unknown>;
const TYPE = (kind: string) => `pulumi-nodejs:dynamic/monitoring:${kind}`;
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
const encrypted = { [SECRET_SIGNATURE]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };
/** No pause at play: a fixed instant, and any rule. */
const SETTINGS = { now: Date.parse("2030-01-01T12:00:00Z"), handPauses: { rule: "putBack" } } as const;

describe("the lists a check reads", () => {
  const inClient = (client: string, kind = "Monitor") => ({ type: TYPE(kind), id: `${kind}-${client}`, outputs: { clientId: client } });
  const aClient = (id: string) => ({ type: TYPE("Client"), id, outputs: {} });
  const questions = (stacks: Parameters<typeof listsToRead>[0]) => listsToRead(stacks).map(({ path, query }) => `${path}?${new URLSearchParams(query as Record<string, string>)}`);

  it("stacks in several clients: one list of the account per kind that lives in clients, the clients' list, each client's share links", () => {
    expect(questions([[aClient("c-1"), inClient("c-1")], [aClient("c-2"), inClient("c-2")]]).sort()).toEqual([
      "/clients/c-1/share-links?",
      "/clients/c-2/share-links?",
      "/clients?",
      "/escalation-policies?all_clients=true",
      "/heartbeat-groups?all_clients=true",
      "/heartbeats?all_clients=true",
      "/monitors?all_clients=true",
      "/notification_channels?all_clients=true",
      "/webhook-subscriptions?all_clients=true",
    ]);
  });

  it("a stack in one client: that client's lists, and its one client read by id", () => {
    expect(questions([[aClient("c-1"), inClient("c-1"), inClient("c-1", "NotificationChannel")]])).not.toContain("/clients?");
    expect(questions([[aClient("c-1"), inClient("c-1")]]).filter((question) => question.startsWith("/monitors"))).toEqual(["/monitors?client_id=c-1"]);
  });

  it("objects outside any client: the lists without a filter too, the clients' and the templates' included", () => {
    const outside = questions([[{ type: TYPE("Heartbeat"), id: "h-1", outputs: {} }], [inClient("c-1"), inClient("c-2")]]);
    expect(outside).toEqual(expect.arrayContaining(["/heartbeats?all_clients=true", "/heartbeats?", "/clients?", "/client-templates?"]));
  });
});

describe("values the state keeps secret", () => {
  it("are [secret] on both sides, at any depth, so the read's plaintext never reaches a step", () => {
    const recorded = { name: "Web", requestHeaders: encrypted, config: { address: "a@example.com", password: encrypted }, list: [encrypted, "x"] };
    const read = { name: "Renamed", requestHeaders: [{ name: "x-token", value: "t0ken" }], config: { address: "a@example.com", password: "hunter2" }, list: ["y", "x"] };
    expect(blindSecrets(recorded, read)).toEqual([
      { name: "Web", requestHeaders: "[secret]", config: { address: "a@example.com", password: "[secret]" }, list: ["[secret]", "x"] },
      { name: "Renamed", requestHeaders: "[secret]", config: { address: "a@example.com", password: "[secret]" }, list: ["[secret]", "x"] },
    ]);
  });
});

describe("the reads of client stacks, against the emulator", () => {
  const on = useEmulatorWith(providerClientOn);
  const create = async (definition: AnyResourceDefinition, urn: string, fields: Values): Promise<StateResource> => {
    const { inputs, failures } = check(definition, { ...fields, __urn: urn });
    expect(failures).toEqual([]);
    const { id, outs } = await new ResourceEngine(definition, () => on.api).create(inputs!);
    return { urn, type: TYPE(definition.kind), id, inputs: inputs!, outputs: outs };
  };

  it("three stacks of a client, a channel and two monitors: each kind's list once, each monitor's channels, nothing else", async () => {
    const stacks: StateResource[][] = [];
    for (const name of ["north", "south", "east"]) {
      const urn = (kind: string, resource: string) => `urn:pulumi:${name}::clients::${TYPE(kind)}::${resource}`;
      const owner = await create(client, urn("Client", "client"), { name: `Client ${name}` });
      const channel = await create(notificationChannel, urn("NotificationChannel", "email"), { clientId: owner.id, name: `${name} on call`, kind: "email", config: { address: `oncall@${name}.example.com` } });
      const sites = [];
      for (const index of [0, 1]) {
        sites.push(await create(monitor, urn("Monitor", `site-${index}`), { clientId: owner.id, name: `${name} site ${index}`, url: `https://${name}.example.com/${index}`, requestHeaders: [{ name: "x-token", value: "t0ken" }], notificationChannelIds: [channel.id] }));
      }
      // As the state records it: the headers encrypted, a secret input and an additional secret output.
      stacks.push([owner, channel, ...sites.map((site) => ({ ...site, inputs: { ...site.inputs, requestHeaders: encrypted }, outputs: { ...site.outputs, requestHeaders: encrypted }, additionalSecretOutputs: ["requestHeaders"] }))]);
    }
    await on.emulator.byHand("PATCH", `/monitors/${stacks[1]![2]!.id}`, { name: "Renamed by hand", request_headers: [{ name: "x-token", value: "changed" }] });

    await on.emulator.admin.clearRequestLog();
    const lists = new AccountLists(on.api);
    await lists.read(listsToRead(stacks), 4);
    const steps = await Promise.all(stacks.map((resources) => refreshSteps(resources, lists, SETTINGS)));
    const unmanaged = unmanagedIn(await readScopes(on.api, [...new Set(stacks.flatMap(scopesOf))], 4, lists.known), new Set(stacks.flatMap(managedIds)), { ids: [], names: [] });

    const findings = steps.map((stackSteps) => stackSteps.flatMap((step) => findingsOf(step, SETTINGS).drift));
    expect(findings[0]).toEqual([]);
    expect(findings[1]).toEqual([expect.objectContaining({ name: "site-0", fields: [{ field: "name", recorded: "south site 0", actual: "Renamed by hand", declared: true }] })]);
    expect(findings[2]).toEqual([]);
    expect(JSON.stringify(steps)).not.toContain("t0ken");
    expect(JSON.stringify(steps)).not.toContain("changed");
    expect([...unmanaged.values()].flat()).toEqual([]);

    const requests = (await on.emulator.admin.requestLog()).map(({ method, path, query }) => `${method} ${path.replace(/[0-9a-f-]{36}/g, "{id}")}?${query.replace(/(^|&)limit=250/, "")}`);
    const count = (request: string) => requests.filter((each) => each === request).length;
    // The 6 kinds that live in clients, once for all three clients; the clients' own list (three recorded).
    for (const path of ["/monitors", "/notification_channels", "/escalation-policies", "/heartbeats", "/heartbeat-groups", "/webhook-subscriptions"]) expect(count(`GET ${path}?&all_clients=true`), path).toBe(1);
    expect(count("GET /clients?")).toBe(1);
    // What the spec has no list of the account for: each client's share links, each monitor's channels.
    expect(count("GET /clients/{id}/share-links?")).toBe(3);
    expect(count("GET /monitors/{id}/notification_channels?")).toBe(6);
    expect(requests).toHaveLength(7 + 3 + 6);
  });

  it("two stacks in an account of 600 other monitors: the account's list gives way to their clients' own after 2 pages", async () => {
    await on.emulator.admin.reset();
    const others = await on.emulator.byHand<{ id: string }>("POST", "/clients", { name: "Someone else" });
    for (let index = 0; index < 600; index++) await on.emulator.byHand("POST", "/monitors", { name: `other ${index}`, url: `https://other.example/${index}`, client_id: others.id });
    const stacks: StateResource[][] = [];
    for (const name of ["north", "south"]) {
      const urn = (kind: string, resource: string) => `urn:pulumi:${name}::clients::${TYPE(kind)}::${resource}`;
      const owner = await create(client, urn("Client", "client"), { name: `Client ${name}` });
      stacks.push([owner, await create(monitor, urn("Monitor", "site"), { clientId: owner.id, name: `${name} site`, url: `https://${name}.example.com` })]);
    }
    await on.emulator.byHand("PATCH", `/monitors/${stacks[0]![1]!.id}`, { name: "Renamed by hand" });

    await on.emulator.admin.clearRequestLog();
    const lists = new AccountLists(on.api);
    await lists.read(listsToRead(stacks), 1);
    const steps = await Promise.all(stacks.map((resources) => refreshSteps(resources, lists, SETTINGS)));
    expect(steps.map((stackSteps) => stackSteps.flatMap((step) => findingsOf(step, SETTINGS).drift.map((object) => object.fields.map((field) => field.field))))).toEqual([[["name"]], []]);

    const monitorLists = (await on.emulator.admin.requestLog()).filter(({ path }) => path === "/monitors").map(({ query }) => query.replace(/(^|&)limit=250/, "").replace(/&cursor=[^&]*/, "&cursor"));
    const [north, south] = stacks.map((resources) => resources[0]!.id!.toLowerCase());
    // 2 pages of the account's 602 monitors (it had 3), then each client's own list: 4 requests, at most twice their 2.
    expect(monitorLists.sort()).toEqual(["&all_clients=true", "&all_clients=true&cursor", `&client_id=${north}`, `&client_id=${south}`].sort());
  });
});
