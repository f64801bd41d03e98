/**
 * What the drift report finds on the emulator's alt profile (another server's choices where the
 * spec is silent: upper-case ids, `null` for fields not set, extra fields, newest first), built
 * from the provider's own reads as a refresh makes them and handed to the report's own
 * classification (`findingsOf`, the steps of a refresh) and its search for unmanaged objects
 * (`readScopes`, `unmanagedIn`): a client stack deployed, then five changes made by hand through the API (a
 * declared field, a field the program leaves out, a pause, a deletion, a monitor created inside
 * the client), and the same to the members of a MonitorSet (`api` renamed, `web` paused with its
 * interval changed, `docs` deleted). Each is found, as the report tells it, a set's member as a
 * single monitor; the deploys keep the pauses made by hand for 4 hours after the refresh saw them
 * (`monitoring:handPauses`' default; `monitoring:now` advances the clock), as drift says they will,
 * and put back the other declared fields at once; after they resumed the pauses, and with the
 * hand-made monitor ignored, nothing drifted: the left-out intervals that the deploys kept are
 * known, single and member alike, until they are changed by hand again.
 *
 * The commands as users run them, their wording and exit status, on the real engine:
 * test/e2e/hand-changes.test.ts (default profile).
 */
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import { byObject, type Findings, findingsOf } from "../../cli/drift/changes.js";
import { deployInstant, handPauses } from "../../provider/config.js";
import { managedIds, readScopes, scopesOf, unmanagedIn } from "../../cli/drift/unmanaged.js";
import { dispatcher } from "../../provider/index.js";
import type { ApiClient } from "../../provider/http/client.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";
import { setMembersChangedByHand } from "../e2e/support.js";

type Values = Record<string, unknown>;

const TYPE = "pulumi-nodejs:dynamic/monitoring:";
const urnOf = (kind: string, name: string) => `urn:pulumi:drift::declared::${TYPE}${kind}::${name}`;

const resources = [
  { kind: "Client", name: "acme", args: () => ({ name: "Acme" }) },
  { kind: "Monitor", name: "web", args: (ids: Record<string, string>) => ({ name: "Web", url: "https://acme.example", paused: false, clientId: ids.acme }) },
  { kind: "Heartbeat", name: "backup", args: (ids: Record<string, string>) => ({ name: "Backup", expectedIntervalSeconds: 86_400, clientId: ids.acme }) },
  {
    kind: "MonitorSet",
    name: "fleet",
    args: (ids: Record<string, string>) => ({
      clientId: ids.acme,
      monitors: {
        api: { name: "Api", url: "https://acme.example/api", paused: false },
        web: { name: "Web", url: "https://acme.example", paused: false },
        docs: { name: "Docs", url: "https://acme.example/docs" },
      },
    }),
  },
];

describe("drift on the alt profile", () => {
  /** The stack's state: each resource's kind, id, inputs and outputs, in the order of creation. */
  const state = new Map<string, { kind: string; id: string; inputs: Values; outs: Values }>();
  const ids = () => Object.fromEntries([...state].map(([name, resource]) => [name, resource.id]));
  /** The monitor ids of the set, by key, as recorded. */
  const members = () => state.get("fleet")!.outs["ids"] as Record<string, string>;
  let stray: string;
  /** The stack's configuration; `monitoring:now` is the instant each step takes for now. */
  const config: Record<string, string> = {};
  const start = Date.parse("2030-03-01T09:00:00Z");
  const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();

  const on = useEmulatorWith(providerClientOn, { profile: "alt" });
  beforeAll(async () => {
    Object.assign(config, { "monitoring:apiUrl": on.emulator.baseUrl, "monitoring:apiKey": on.emulator.apiKey, "monitoring:now": at(0) });
    await dispatcher.configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key] as string } });
    for (const { kind, name, args } of resources) {
      const { inputs } = await dispatcher.check({}, { ...args(ids()), __urn: urnOf(kind, name) });
      const { id, outs } = await dispatcher.create(inputs!);
      state.set(name, { kind, id, inputs: inputs!, outs: outs ?? {} });
    }
    const { web, backup, acme } = ids();
    await on.emulator.byHand("PATCH", `/monitors/${web}`, { name: "Renamed by hand", interval_seconds: 900 });
    await on.emulator.byHand("POST", `/monitors/${web}/pause`);
    await on.emulator.byHand("DELETE", `/heartbeats/${backup}`);
    stray = (await on.emulator.byHand<{ id: string }>("POST", "/monitors", { name: "Stray", url: "https://stray.example", client_id: acme })).id;
    const set = members();
    await on.emulator.byHand("PATCH", `/monitors/${set.api}`, { name: "Api renamed by hand" });
    await on.emulator.byHand("POST", `/monitors/${set.web}/pause`);
    await on.emulator.byHand("PATCH", `/monitors/${set.web}`, { interval_seconds: 900 });
    await on.emulator.byHand("DELETE", `/monitors/${set.docs}`);
  });

  /** A refresh: each resource read, its step as the engine reports it (a delete when the object is gone), and the report's drift of the steps. */
  async function refresh(): Promise<Findings["drift"]> {
    return (await refreshFindings()).drift;
  }
  /** What drift finds in a refresh, judged with the stack's settings as its provider reads them. */
  async function refreshFindings(): Promise<Findings> {
    const setting = (key: string) => config[`monitoring:${key}`];
    const settings = { now: deployInstant(setting, {}), handPauses: handPauses(setting) };
    const found: Findings = { drift: [], known: [], holds: [] };
    for (const [name, recorded] of state) {
      const { id, props } = await dispatcher.read(recorded.id, recorded.outs);
      const gone = id === undefined || id === "";
      const metadata = {
        op: gone ? "delete" : "same",
        urn: urnOf(recorded.kind, name),
        type: `${TYPE}${recorded.kind}`,
        provider: "",
        old: { id: recorded.id, inputs: recorded.inputs, outputs: recorded.outs },
        new: gone ? undefined : { id, outputs: props },
      } as unknown as StepEventMetadata;
      const { drift, known, holds } = findingsOf(metadata, settings);
      found.drift.push(...drift);
      found.known.push(...known);
      found.holds.push(...holds);
      if (gone) state.delete(name);
      else state.set(name, { ...recorded, outs: props ?? {} });
    }
    return { drift: found.drift.sort(byObject), known: found.known.sort(byObject), holds: found.holds };
  }
  const unmanaged = async (ignored: string[] = []) => {
    const recorded = [...state.values()].map(({ kind, id, outs }) => ({ type: `${TYPE}${kind}`, id, outputs: outs }));
    const found = unmanagedIn(await readScopes(on.api, scopesOf(recorded)), new Set(managedIds(recorded)), { ids: ignored, names: [] });
    return [...found.values()].flat();
  };

  it("finds each change made by hand, and the monitor made by hand inside the client", async () => {
    const { web, backup, acme } = ids();
    const set = members();
    expect(await refresh()).toEqual([
      expect.objectContaining({ type: "Heartbeat", name: "backup", id: backup, drift: "deleted" }),
      expect.objectContaining({
        type: "Monitor",
        name: "web",
        id: web,
        drift: "changed",
        // Seen first by this refresh: the next deploy's refresh starts the 4 hours.
        paused: { managed: true, nextDeploy: "keeps", rule: "4h" },
        fields: [
          { field: "intervalSeconds", recorded: 60, actual: 900, declared: false },
          { field: "name", recorded: "Web", actual: "Renamed by hand", declared: true },
        ],
      }),
      ...setMembersChangedByHand(set, { managed: true, nextDeploy: "keeps", rule: "4h" }),
    ]);
    const found = await unmanaged();
    expect(found).toEqual([expect.objectContaining({ kind: "Monitor", name: "Stray", adopt: expect.stringContaining(`adoptId: "${stray}"`) })]);
    expect(found[0]!.id.toLowerCase()).toBe(stray.toLowerCase());
    expect(found[0]!.clientId?.toLowerCase()).toBe(String(acme).toLowerCase());
  });

  /** A deploy after the refresh: the deleted heartbeat made again, the monitors' declared fields put back. */
  async function deployAll(): Promise<void> {
    for (const { kind, name, args } of resources) {
      const { inputs } = await dispatcher.check(state.get(name)?.inputs ?? {}, { ...args(ids()), __urn: urnOf(kind, name) });
      const recorded = state.get(name);
      if (recorded === undefined) {
        const { id, outs } = await dispatcher.create(inputs!);
        state.set(name, { kind, id, inputs: inputs!, outs: outs ?? {} });
      } else if ((await dispatcher.diff(recorded.id, recorded.outs, inputs!)).changes) {
        const { outs } = await dispatcher.update(recorded.id, recorded.outs, inputs!);
        state.set(name, { ...recorded, inputs: inputs!, outs: outs ?? {} });
      }
    }
  }

  it("keeps the hand pauses for 4 hours after the refresh saw them (monitoring:handPauses by default), as drift says, while it puts back the other declared fields, then resumes them", async () => {
    config["monitoring:now"] = at(60);
    await deployAll();
    const set = members();
    const held = (id: string | undefined) => on.emulator.byHand<Values>("GET", `/monitors/${id}`);
    expect(await held(ids().web)).toMatchObject({ name: "Web", paused: true, interval_seconds: 900 });
    expect(await held(set.api)).toMatchObject({ name: "Api", paused: false });
    expect(await held(set.web)).toMatchObject({ name: "Web", paused: true, interval_seconds: 900 });
    expect(await held(set.docs)).toMatchObject({ name: "Docs" });
    // Drift between the deploys: what the next deploy will do, by the same plan at the same instant.
    const pauses = (await refresh()).map((entry) => [entry.name, entry.paused]);
    const keptUntil = { managed: true, nextDeploy: "keeps", rule: "4h", seen: at(0), until: at(4 * 60) };
    expect(pauses).toEqual([["web", keptUntil], ["fleet[web]", keptUntil]]);
    config["monitoring:now"] = at(4 * 60 + 5);
    const due = (await refreshFindings()).drift.map((entry) => entry.paused?.nextDeploy);
    expect(due).toEqual(["resumes", "resumes"]);
    await deployAll();
    expect(await held(ids().web)).toMatchObject({ paused: false });
    expect(await held(set.web)).toMatchObject({ paused: false });
  });

  it("finds no drift after the deploys put back what the program declares, the kept intervals known, with the hand-made monitor ignored", async () => {
    // A refresh recorded 900 before the deploys: the value set by hand that every deploy keeps.
    const found = await refreshFindings();
    expect(found.drift).toEqual([]);
    expect(found.known.map(({ type, name, field, recorded, actual }) => [type, name, field, recorded, actual])).toEqual([
      ["Monitor", "web", "intervalSeconds", 60, 900],
      ["MonitorSet", "fleet[web]", "intervalSeconds", 60, 900],
    ]);
    expect(await unmanaged([stray])).toEqual([]);
  });

  it("a second change by hand of a known field is drift again", async () => {
    await on.emulator.byHand("PATCH", `/monitors/${members().web}`, { interval_seconds: 300 });
    const found = await refreshFindings();
    expect(found.drift).toEqual([expect.objectContaining({ name: "fleet[web]", fields: [{ field: "intervalSeconds", recorded: 60, actual: 300, declared: false }] })]);
    expect(found.known.map(({ name }) => name)).toEqual(["web"]);
  });
});
