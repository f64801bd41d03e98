/**
 * Requests per operation against the fewest the spec allows (issue: every step within 1.1x of its
 * minimum, plus 2), counted in the emulator's request log, for a program of two notification
 * channels, an escalation policy and monitors attached to both channels with the policy: once as
 * single `Monitor`s, once as a `MonitorSet`, through the provider's own methods driven as the
 * engine drives them (create, the reads of a refresh, update, delete), on both profiles.
 *
 * The minimums:
 * - create: 1 POST per object, references (`escalation_policy_id`) in its body, plus 1 attach per
 *   association; a new monitor has no channels, so none is read, and nothing is read back;
 * - a no-change refresh: the list pages of each kind, plus 1 association read per monitor that
 *   declares associations (the spec has no other way to read them);
 * - an edit: 1 write per changed object, plus 1 request per association added or removed;
 * - destroy: 1 DELETE per object (a monitor's attachments go with it: an assumption, see the
 *   Monitor definition's `deletion`);
 * - a drift check: a list page of every kind in the stack's scope (which finds its objects and the
 *   ones no stack manages), its one client by id, and 1 association read per monitor that declares
 *   associations: the provider's reader, from the lists the check read (cli/drift/account-lists.ts).
 *
 * A client's stack (issue 34's fleet shape, with a policy) is refreshed as the host refreshes it:
 * its reads in flight together, in fresh engines as in a new provider process.
 */
import { describe, expect, it } from "vitest";
import { type AnyResourceDefinition, client, definitions, escalationPolicy, monitor, notificationChannel } from "../../schema/index.js";
import { monitorSet } from "../../schema/members.js";
import { check, checkGroup } from "../../provider/check.js";
import { diff } from "../../provider/diff.js";
import { ResourceEngine } from "../../provider/engine.js";
import { monitorSetProvider } from "../../provider/monitor-set.js";
import { ResourceReader } from "../../provider/reader.js";
import { AccountLists, listsToRead } from "../../cli/drift/account-lists.js";
import { refreshSteps } from "../../cli/drift/stack-refresh.js";
import { managedIds, readScopes, scopesOf, unmanagedIn } from "../../cli/drift/unmanaged.js";
import { profiles } from "../e2e/support.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

type Values = Record<string, unknown>;

/** A step's requests may exceed its minimum by 10 %, plus 2. */
const within = (sent: number, minimum: number) => expect(sent, `${sent} requests for a minimum of ${minimum}`).toBeLessThanOrEqual(Math.floor(1.1 * minimum + 2));
/** The figures of a shape, printed as the benchmark prints them. */
const print = (shape: string, steps: Record<string, [sent: number, minimum: number]>) =>
  console.log(`${shape}: ${Object.entries(steps).map(([step, [sent, minimum]]) => `${step} ${sent} (minimum ${minimum})`).join(", ")}`);

describe.each(profiles)("requests per step against the minimum ($profile profile)", ({ profile, regions }) => {
  const on = useEmulatorWith(providerClientOn, { profile });
  const engines = new Map<AnyResourceDefinition, ResourceEngine>();
  const engineOf = (definition: AnyResourceDefinition) => engines.get(definition) ?? engines.set(definition, new ResourceEngine(definition, () => on.api)).get(definition)!;

  async function counted(action: () => Promise<unknown>): Promise<number> {
    await on.emulator.admin.clearRequestLog();
    await action();
    return (await on.emulator.admin.requestLog()).length;
  }
  const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:${kind}::${name}-${profile}`;
  function checked(definition: AnyResourceDefinition, name: string, inputs: Values): Values {
    const result = check(definition, { ...inputs, __urn: urn(definition.kind, name) });
    expect(result.failures).toEqual([]);
    return result.inputs;
  }

  /** The two channels and the policy: 3 objects, 3 POSTs. */
  async function references(): Promise<{ objects: { definition: AnyResourceDefinition; id: string; outs: Values }[]; channels: string[]; policy: string; creates: number }> {
    const objects: { definition: AnyResourceDefinition; id: string; outs: Values }[] = [];
    const creates = await counted(async () => {
      for (const name of ["ops", "oncall"]) {
        const inputs = checked(notificationChannel, name, { name, kind: "email", config: { address: `${name}@example.com` } });
        objects.push({ definition: notificationChannel, ...(await engineOf(notificationChannel).create(inputs)) });
      }
      const channels = objects.map((object) => object.id);
      const inputs = checked(escalationPolicy, "plan", { name: "Plan", steps: [{ delayMinutes: 0, notificationChannelIds: channels }] });
      objects.push({ definition: escalationPolicy, ...(await engineOf(escalationPolicy).create(inputs)) });
    });
    return { objects, channels: objects.slice(0, 2).map((object) => object.id), policy: objects[2]!.id, creates };
  }
  const monitorInputs = (name: string, channels: string[], policy: string) => ({
    name,
    url: `https://example.com/${name}`,
    regions: regions.split(","),
    notificationChannelIds: channels,
    escalationPolicyId: policy,
  });
  /** The refresh reads of the channels and the policy: a page of channels (read together) and a GET (read alone, provider/list-reads.ts). */
  const readReferences = (objects: { definition: AnyResourceDefinition; id: string; outs: Values }[]) =>
    Promise.all(objects.map((object) => engineOf(object.definition).read(object.id, object.outs)));

  it("single monitors: create, no-change refresh, edit and destroy", async () => {
    const { objects, channels, policy, creates } = await references();
    const names = ["web", "api"];
    const created: { id: string; outs: Values; inputs: Values }[] = [];
    const engine = engineOf(monitor);
    const monitorCreates = await counted(async () => {
      for (const name of names) {
        const inputs = checked(monitor, name, monitorInputs(name, channels, policy));
        created.push({ ...(await engine.create(inputs)), inputs });
      }
    });
    // 3 references and 2 monitors: 5 POSTs, and 2 attaches per monitor.
    expect(creates + monitorCreates).toBe(5 + 4);
    for (const { outs, inputs } of created) expect(diff(monitor, outs, inputs).changes).toBe(false);

    let refreshed: { id?: string; props?: Values }[] = [];
    const reads = await counted(async () => {
      await readReferences(objects);
      refreshed = await Promise.all(created.map(({ id, outs }) => engine.read(id, outs)));
    });
    // A page per kind (3), plus the channels of each monitor (2).
    within(reads, 3 + 2);
    refreshed.forEach((result, index) => expect(diff(monitor, result.props!, created[index]!.inputs).changes).toBe(false));

    // Edit: each monitor renamed and detached from one channel: 1 PATCH and 1 DELETE each.
    const edits = await counted(async () => {
      for (const [index, { id, inputs }] of created.entries()) {
        const news = checked(monitor, names[index]!, { ...monitorInputs(`${names[index]} renamed`, channels.slice(0, 1), policy) });
        const { outs } = await engine.update(id, refreshed[index]!.props!, news);
        expect(diff(monitor, outs, news).changes).toBe(false);
        created[index] = { id, outs, inputs };
      }
    });
    within(edits, 2 * 2);
    const held = await on.api.listAll<Values>(`/monitors/${created[0]!.id}/notification_channels`);
    expect(held.map((channel) => String(channel["id"]).toLowerCase())).toEqual([channels[0]!.toLowerCase()]);

    const deletes = await counted(async () => {
      for (const { id, outs } of created) await engine.delete(id, outs);
      for (const object of objects.reverse()) await engineOf(object.definition).delete(object.id, object.outs);
    });
    expect(deletes).toBe(5);
    print(`2 Monitors, 2 channels, 1 policy (${profile})`, { create: [creates + monitorCreates, 9], refresh: [reads, 5], edit: [edits, 4], destroy: [deletes, 5] });
  });

  it("a client's stack (a client, a channel, a policy, 8 monitors): no-change refresh and drift", async () => {
    await on.emulator.admin.reset();
    const stack: { definition: AnyResourceDefinition; id: string; outs: Values; inputs: Values }[] = [];
    const make = async (definition: AnyResourceDefinition, name: string, fields: Values) => {
      const inputs = checked(definition, name, fields);
      stack.push({ definition, inputs, ...(await engineOf(definition).create(inputs)) });
      return stack.at(-1)!.id;
    };
    const monitors = 8;
    const creates = await counted(async () => {
      const clientId = await make(client, "acme", { name: "Acme" });
      const channel = await make(notificationChannel, "acme-email", { clientId, name: "Acme on call", kind: "email", config: { address: "oncall@acme.example.com" } });
      const policy = await make(escalationPolicy, "acme-plan", { clientId, name: "Acme plan", steps: [{ delayMinutes: 0, notificationChannelIds: [channel] }] });
      for (let index = 0; index < monitors; index++) await make(monitor, `acme-${index}`, { clientId, ...monitorInputs(`Acme site ${index}`, [channel], policy) });
    });
    // 1 POST per object, 1 attach per monitor.
    expect(creates).toBe(3 + monitors + monitors);

    /** The stack's reads as a refresh's 8 workers make them, in engines of their own (a new provider process). */
    const refresh = async () => {
      const fresh = new Map<AnyResourceDefinition, ResourceEngine>();
      const results: { id?: string; props?: Values }[] = [];
      let next = 0;
      const worker = async () => {
        for (let index = next++; index < stack.length; index = next++) {
          const { definition, id, outs } = stack[index]!;
          const engine = fresh.get(definition) ?? fresh.set(definition, new ResourceEngine(definition, () => on.api, new ResourceReader(definition, () => on.api))).get(definition)!;
          results[index] = await engine.read(id, outs);
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      return results;
    };
    // A list page per kind (client, channel, policy, monitors: a single object's GET costs the same), plus each monitor's channels.
    const refreshMinimum = 4 + monitors;
    let refreshed: { id?: string; props?: Values }[] = [];
    const reads = await counted(async () => (refreshed = await refresh()));
    within(reads, refreshMinimum);
    refreshed.forEach((result, index) => expect(diff(stack[index]!.definition, result.props!, stack[index]!.inputs).changes).toBe(false));

    // Drift, as `pulumi-monitoring drift` runs it for one client's stack: one page per kind that
    // lives in a client (7: the kinds above but clients, plus heartbeats, heartbeat groups,
    // webhooks, share links), each once, which show the stack's objects and the ones no stack
    // manages; the client by id and each monitor's channels besides.
    const recorded = stack.map(({ definition, id, outs, inputs }) => ({ urn: urn(definition.kind, String(id)), type: `pulumi-nodejs:dynamic/monitoring:${definition.kind}`, id, inputs, outputs: outs }));
    const inScope = definitions.filter((definition) => "clientId" in definition.inputs.shape && definition !== client).length;
    expect(inScope).toBe(7);
    // A monitor made by hand in the client: the check finds it in the client's list of monitors it read.
    const stray = (await on.emulator.byHand<{ id: string }>("POST", "/monitors", { name: "Stray", url: "https://stray.example", client_id: stack[0]!.id })).id;
    let unmanaged = new Map<string, unknown[]>();
    let steps: Awaited<ReturnType<typeof refreshSteps>> = [];
    const driftReads = await counted(async () => {
      const lists = new AccountLists(on.api);
      await lists.read(listsToRead([recorded]), 1);
      steps = await refreshSteps(recorded, lists, { now: Date.now(), handPauses: { rule: "putBack" } });
      unmanaged = unmanagedIn(await readScopes(on.api, scopesOf(recorded), 1, lists.known), new Set(managedIds(recorded)), { ids: [], names: [] });
    });
    // The kinds' lists, not a monitor's list of its channels.
    const lists = (await on.emulator.admin.requestLog())
      .filter((entry) => /(^|&)limit=250(&|$)/.test(entry.query) && !entry.path.startsWith("/monitors/"))
      .map((entry) => `${entry.path} ${entry.query.replace(/(^|&)limit=250/, "")}`);
    expect(lists).toHaveLength(inScope);
    expect(new Set(lists).size).toBe(inScope);
    const driftMinimum = 1 + inScope + monitors;
    expect(driftReads).toBe(driftMinimum);
    steps.forEach((step, index) => expect(diff(stack[index]!.definition, step.new!.outputs as Values, stack[index]!.inputs).changes).toBe(false));
    expect([...unmanaged.values()].flat().map((object) => (object as { id: string }).id)).toEqual([stray]);
    print(`a client's stack of ${stack.length} objects (${profile})`, { create: [creates, 3 + 2 * monitors], refresh: [reads, refreshMinimum], drift: [driftReads, driftMinimum] });
    await on.emulator.admin.reset();
  });

  it("destroy falls back to detaching first where a server refuses to delete a monitor that has attachments", async () => {
    const { objects, channels, policy } = await references();
    const engine = engineOf(monitor);
    const { id, outs } = await engine.create(checked(monitor, "refused", monitorInputs("refused", channels, policy)));
    await on.emulator.admin.injectFault({ method: "DELETE", path: `/monitors/${id}`, status: 409, times: 1 });
    await on.emulator.admin.clearRequestLog();
    await engine.delete(id, outs);
    const sent = (await on.emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path.toLowerCase()} ${entry.status}`);
    const path = `/monitors/${id.toLowerCase()}`;
    // The detaches in the order the server lists the channels.
    expect([...sent.slice(0, 2), ...sent.slice(2, 4).sort(), sent[4]]).toEqual([
      `DELETE ${path} 409`,
      `GET ${path}/notification_channels 200`,
      ...channels.map((channel) => `DELETE ${path}/notification_channels/${channel.toLowerCase()} 204`).sort(),
      `DELETE ${path} 204`,
    ]);
    for (const object of objects.reverse()) await engineOf(object.definition).delete(object.id, object.outs);
  });

  it("a MonitorSet: the same steps, its members through the same path, its creates batched and its refresh in list pages", async () => {
    const { objects, channels, policy } = await references();
    const sets = monitorSetProvider(engineOf(monitor), () => ({}));
    const keys = ["web", "api", "docs"];
    const setInputs = (rename: string, attached: string[]) =>
      checkGroup(monitorSet, { monitors: Object.fromEntries(keys.map((key) => [key, monitorInputs(`${key}${rename}`, attached, policy)])), __urn: urn("MonitorSet", "fleet") }).inputs;
    const inputs = setInputs("", channels);
    let id = "";
    let outs: Values = {};
    const creates = await counted(async () => ({ id, outs } = await sets.create!(inputs)));
    // One batch POST for 3 monitors (fewer than one per object), and 2 attaches per monitor.
    expect(creates).toBe(1 + 6);
    expect((await sets.diff!(id, outs, inputs)).changes).toBe(false);

    let props: Values = {};
    const reads = await counted(async () => {
      await readReferences(objects);
      props = (await sets.read!(id, outs)).props!;
    });
    // A page per kind (3), plus the channels of each member (3).
    within(reads, 3 + 3);
    expect((await sets.diff!(id, props, inputs)).changes).toBe(false);

    const news = setInputs(" renamed", channels.slice(0, 1));
    const edits = await counted(async () => ({ outs } = await sets.update!(id, props, news)));
    within(edits, 3 * 2);
    expect((await sets.diff!(id, outs, news)).changes).toBe(false);

    const deletes = await counted(async () => {
      await sets.delete!(id, outs);
      for (const object of objects.reverse()) await engineOf(object.definition).delete(object.id, object.outs);
    });
    expect(deletes).toBe(3 + 3);
    print(`MonitorSet of 3, 2 channels, 1 policy (${profile})`, { "create (set)": [creates, 3 + 6], refresh: [reads, 6], edit: [edits, 6], destroy: [deletes, 6] });
  });

  it("a MonitorSet of 1,000 refreshes in at most ceil(N/250) + 2 requests: its list pages, no GET by id", async () => {
    const sets = monitorSetProvider(engineOf(monitor), () => ({}));
    const monitors = Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`m${index}`, { name: `m${index}`, url: `https://example.com/${index}`, regions: regions.split(",") }]));
    const inputs = checkGroup(monitorSet, { monitors, __urn: urn("MonitorSet", "thousand") }).inputs;
    let id = "";
    let outs: Values = {};
    const creates = await counted(async () => ({ id, outs } = await sets.create!(inputs)));
    expect(creates).toBe(10);
    let props: Values = {};
    const reads = await counted(async () => (props = (await sets.read!(id, outs)).props!));
    expect(reads).toBeLessThanOrEqual(Math.ceil(1000 / 250) + 2);
    expect((await sets.diff!(id, props, inputs)).changes).toBe(false);
    console.log(`MonitorSet of 1,000 on the ${profile} profile: create ${creates} requests, refresh ${reads} (at most ${Math.ceil(1000 / 250) + 2})`);
    // Its destroy (1,000 DELETEs) is the single monitors' path, counted above: the service is emptied instead.
    await on.emulator.admin.reset();
  }, 120_000);
});
