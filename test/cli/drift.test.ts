/**
 * The drift report without the Pulumi CLI: how a refreshed object is told (put back, kept, known,
 * deleted, paused by hand, held by an override or a window, secrets masked), where a stack's objects live and which it manages, the
 * unmanaged-object scan against the emulator (list pages only), the `drift:` settings, and the
 * three formats with their exit code.
 */
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { findingsOf, type PauseSettings } from "../../cli/drift/changes.js";
import { ScopeReads, unmanagedObjects } from "../../cli/drift/check.js";
import { renderDriftMarkdown } from "../../cli/report/markdown.js";
import { managedIds, readScopes, scopesOf, unmanagedIn } from "../../cli/drift/unmanaged.js";
import { parseProject } from "../../cli/project/project.js";
import { exitCodeOf, type FleetReport, noChanges, type StackReport } from "../../cli/report/fleet.js";
import { renderTable } from "../../cli/report/table.js";
import { resolveSettings } from "../../provider/config.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

const MONITOR_TYPE = "pulumi-nodejs:dynamic/monitoring:Monitor";
/** Deploys put a pause made by hand back (`monitoring:handPauses: putBack`), at a fixed instant. */
const PUT_BACK: PauseSettings = { now: Date.parse("2030-01-01T12:00:00Z"), handPauses: { rule: "putBack" } };
const driftOf = (metadata: StepEventMetadata) => findingsOf(metadata, PUT_BACK).drift;
const urn = (name: string, type = MONITOR_TYPE) => `urn:pulumi:acme::agency::${type}::${name}`;

/** Whether a declared input differs, which is what makes the engine's refresh step an update. */
const declaredChange = (recorded: Record<string, unknown>, actual: Record<string, unknown>): boolean =>
  ((recorded["__declaredInputs"] as string[] | undefined) ?? []).some((field) => JSON.stringify(recorded[field]) !== JSON.stringify(actual[field]));

describe("a refreshed object", () => {
  const refreshed = (recorded: Record<string, unknown>, actual: Record<string, unknown> | undefined, type = MONITOR_TYPE): StepEventMetadata => ({
    // The engine reports a change to a field the program leaves out as `same`: its diff ignores it.
    op: actual === undefined ? "delete" : declaredChange(recorded, actual) ? "update" : "same",
    urn: urn("web", type),
    type,
    provider: "",
    // The program's inputs: `paused: false` when it declares paused.
    old: { id: "m-1", inputs: ((recorded["__declaredInputs"] as string[] | undefined) ?? []).includes("paused") ? { paused: false } : {}, outputs: recorded } as never,
    ...(actual === undefined ? {} : { new: { id: "m-1", outputs: actual } as never }),
  });
  const monitor = { name: "Web", url: "https://example.com", intervalSeconds: 60, paused: false, status: "UP", __declaredInputs: ["name", "url"] };

  it.each([
    ["a declared field: put back", { name: "Renamed" }, { fields: [{ field: "name", recorded: "Web", actual: "Renamed", declared: true }] }],
    ["a field the program leaves out: kept", { intervalSeconds: 900 }, { fields: [{ field: "intervalSeconds", recorded: 60, actual: 900, declared: false }] }],
    ["a pause the program does not declare: flagged, kept", { paused: true, status: "PAUSED" }, { fields: [], paused: { managed: false, nextDeploy: "keeps" } }],
    ["a secret: masked", { requestHeaders: [{ name: "x-token", value: "t0ken" }] }, { fields: [{ field: "requestHeaders", recorded: undefined, actual: "[secret]", declared: false }] }],
  ])("%s", (_case, change, expected) => {
    expect(driftOf(refreshed(monitor, { ...monitor, ...change }))[0]).toEqual({ type: "Monitor", name: "web", urn: urn("web"), id: "m-1", drift: "changed", ...expected });
  });

  it("a pause the program declares is put back by the next deploy", () => {
    const declared = { ...monitor, __declaredInputs: ["name", "url", "paused"] };
    expect(driftOf(refreshed(declared, { ...declared, paused: true }))[0]?.paused).toEqual({ managed: true, nextDeploy: "resumes", rule: "putBack" });
  });

  it("a pause recorded by an earlier refresh stays flagged while the program does not declare paused: true", () => {
    const recordedPause = { ...monitor, paused: true };
    const unchanged = (outputs: Record<string, unknown>): StepEventMetadata => ({ ...refreshed(outputs, outputs), op: "same" });
    expect(driftOf(unchanged(recordedPause))[0]).toMatchObject({ name: "web", drift: "changed", fields: [], paused: { managed: false } });
    const declaresPaused = { ...unchanged({ ...recordedPause, __declaredInputs: ["name", "url", "paused"] }) };
    expect(driftOf({ ...declaresPaused, old: { ...declaresPaused.old!, inputs: { paused: true } } })).toEqual([]);
    expect(driftOf(unchanged(monitor))).toEqual([]);
  });

  it("a server output that moves on (a status) is no drift", () => {
    expect(driftOf(refreshed(monitor, { ...monitor, status: "DOWN" }))).toEqual([]);
  });

  it("an object gone from the service is deleted", () => {
    expect(driftOf(refreshed(monitor, undefined))).toEqual([expect.objectContaining({ name: "web", id: "m-1", drift: "deleted", fields: [] })]);
  });
});

describe("a refreshed MonitorSet, member by member", () => {
  const SET_TYPE = "pulumi-nodejs:dynamic/monitoring:MonitorSet";
  const member = (name: string, fields: Record<string, unknown> = {}) => ({ name, url: "https://acme.example", intervalSeconds: 60, paused: false, monitorType: "http", ...fields });
  const declared = ["name", "url", "paused"];
  const recorded = {
    ids: { api: "m-a", web: "m-w", docs: "m-d" },
    statuses: { api: "UP", web: "UP", docs: "UP" },
    monitors: { api: member("Api"), web: member("Web"), docs: member("Docs") },
    __declaredInputs: { api: declared, web: declared, docs: declared },
  };
  // By hand: api renamed, web paused and its interval (left out by the program) changed, docs deleted.
  const refreshed = {
    ids: { api: "m-a", web: "m-w" },
    statuses: { api: "DOWN", web: "PAUSED" },
    monitors: { api: member("Renamed by hand"), web: member("Web", { paused: true, intervalSeconds: 900 }) },
    __declaredInputs: { api: declared, web: declared },
  };
  const inputs = { monitors: { api: { paused: false }, web: { paused: false }, docs: { paused: false } } };
  const step = (op: "update" | "delete", actual?: Record<string, unknown>): StepEventMetadata => ({
    op,
    urn: urn("fleet", SET_TYPE),
    type: SET_TYPE,
    provider: "",
    old: { id: "set-1", inputs, outputs: recorded } as never,
    ...(actual === undefined ? {} : { new: { id: "set-1", outputs: actual } as never }),
  });
  const fourChanges = [
    { type: "MonitorSet", name: "fleet[api]", urn: urn("fleet", SET_TYPE), id: "m-a", drift: "changed", fields: [{ field: "name", recorded: "Api", actual: "Renamed by hand", declared: true }] },
    {
      type: "MonitorSet",
      name: "fleet[web]",
      urn: urn("fleet", SET_TYPE),
      id: "m-w",
      drift: "changed",
      fields: [{ field: "intervalSeconds", recorded: 60, actual: 900, declared: false }],
      paused: { managed: true, nextDeploy: "resumes", rule: "putBack" },
    },
    { type: "MonitorSet", name: "fleet[docs]", urn: urn("fleet", SET_TYPE), id: "m-d", drift: "deleted", fields: [] },
  ];

  it("tells each member as a single Monitor: put back, kept, paused, deleted; ids and statuses are no drift", () => {
    expect(driftOf(step("update", refreshed))).toEqual(fourChanges);
  });

  it("a set deleted as a whole has every member deleted; a set as recorded has no drift", () => {
    expect(driftOf(step("delete")).map((object) => [object.name, object.drift])).toEqual([
      ["fleet[api]", "deleted"],
      ["fleet[web]", "deleted"],
      ["fleet[docs]", "deleted"],
    ]);
    expect(driftOf(step("update", { ...recorded, statuses: { api: "DOWN", web: "DOWN", docs: "PENDING" } }))).toEqual([]);
  });

  it("is reported in the same sections and words as single monitors, with no whole-map field", () => {
    const report: FleetReport = {
      verb: "drift",
      project: "agency",
      parallel: 1,
      interrupted: false,
      stacks: [{ stack: "acme", role: "client", result: "drifted", counts: noChanges(), durationMs: 4200, drift: driftOf(step("update", refreshed)), unmanaged: [] }],
    };
    const table = renderTable(report);
    expect(table).toMatch(/^acme +1 +1 +0 +1 +1 +0 +0 +4\.2s +drifted$/m);
    expect(table).toContain("  acme: MonitorSet fleet[web] (id m-w): paused by hand, not seen by a deploy yet: the next deploy resumes it (monitoring:handPauses putBack)");
    expect(table).toContain('  acme: MonitorSet fleet[api]: name "Api" -> "Renamed by hand"');
    expect(table).toContain("  acme: MonitorSet fleet[web]: intervalSeconds 60 -> 900");
    expect(table).toContain("  acme: MonitorSet fleet[docs] (id m-d)");
    const markdown = renderDriftMarkdown(report);
    expect(markdown).toContain("| acme | MonitorSet | fleet[web] | `intervalSeconds` | `60` | `900` |");
    for (const text of [table, markdown, JSON.stringify(report)]) expect(text).not.toMatch(/\b(ids|statuses|monitors)\b/);
  });
});

describe("where a stack's objects live and which it manages", () => {
  const resources = [
    { type: "pulumi:pulumi:Stack", id: "" },
    { type: "pulumi-nodejs:dynamic/monitoring:Client", id: "C-1", outputs: { name: "Acme" } },
    { type: MONITOR_TYPE, id: "M-1", outputs: { clientId: "C-1" } },
    { type: "pulumi-nodejs:dynamic/monitoring:MonitorSet", id: "set-1", outputs: { clientId: "c-2", ids: { a: "M-2", b: "M-3" } } },
    { type: "pulumi-nodejs:dynamic/monitoring:ClientTemplate", id: "T-1", outputs: {} },
  ];

  it("its scopes are the clients its objects live in (a client object is its own) and outside any client", () => {
    expect(scopesOf(resources)).toEqual(["account", "c-1", "c-2"]);
  });

  it("its managed ids include a monitor set's monitors, in lower case", () => {
    expect(managedIds(resources)).toEqual(["c-1", "m-1", "set-1", "m-2", "m-3", "t-1"]);
  });
});

describe("the drift section of Pulumi.yaml", () => {
  it("names other projects' stacks that count as managing, and ids and names to ignore", () => {
    const project = parseProject("/p/agency", "name: agency\nruntime: nodejs\ndrift:\n  managedBy:\n    - dir: ../billing\n      stacks: [prod]\n  ignore:\n    ids: [abc]\n    names: ['legacy-*']\n");
    expect(project.drift).toEqual({ managedBy: [{ dir: "/p/billing", stacks: ["prod"] }], ignore: { ids: ["abc"], names: ["legacy-*"] } });
    expect(parseProject("/p", "name: p\nruntime: nodejs\n").drift).toEqual({ managedBy: [], ignore: { ids: [], names: [] } });
    expect(() => parseProject("/p", "name: p\nruntime: nodejs\ndrift:\n  ignore:\n    idz: []\n")).toThrow("drift.ignore");
  });
});

describe("unmanaged objects, read from the emulator", () => {
  const ids: Record<string, string> = {};
  const on = useEmulatorWith(providerClientOn);
  const create = async (path: string, body: Record<string, unknown>): Promise<string> => (await on.emulator.byHand<{ id: string }>("POST", path, body)).id;

  beforeAll(async () => {
    ids.acme = await create("/clients", { name: "Acme" });
    ids.globex = await create("/clients", { name: "Globex" });
    ids.managed = await create("/monitors", { name: "Managed", url: "https://acme.example", client_id: ids.acme });
    ids.stray = await create("/monitors", { name: "Stray", url: "https://stray.example", interval_seconds: 300, client_id: ids.acme });
    ids.legacy = await create("/monitors", { name: "legacy-probe", url: "https://legacy.example", client_id: ids.acme });
    ids.elsewhere = await create("/monitors", { name: "Globex site", url: "https://globex.example", client_id: ids.globex });
    ids.outside = await create("/heartbeats", { name: "Nightly backup" });
  });

  it("are the objects of the stack's scopes no stack manages, with the declaration that adopts each, in list pages read 4 at once", async () => {
    await on.emulator.admin.clearRequestLog();
    const managed = new Set([ids.acme, ids.globex, ids.managed].map((id) => id!.toLowerCase()));
    const found = unmanagedIn(await readScopes(on.api, [ids.acme!.toLowerCase(), "account"], 4), managed, { ids: [], names: ["legacy-*"] });
    expect(found.get(ids.acme!.toLowerCase())).toEqual([
      {
        kind: "Monitor",
        name: "Stray",
        id: ids.stray,
        clientId: ids.acme,
        adopt: `new mon.Monitor("stray", {\n  adoptId: "${ids.stray}",\n  name: "Stray",\n  url: "https://stray.example",\n  intervalSeconds: 300,\n  regions: ["eu-west-1", "us-east-1"],\n  clientId: "${ids.acme}",\n})`,
      },
    ]);
    expect(found.get("account")).toEqual([expect.objectContaining({ kind: "Heartbeat", name: "Nightly backup", id: ids.outside })]);
    // One list call per kind and scope, 250 at a time; never a GET of one object.
    const requests = await on.emulator.admin.requestLog();
    expect(requests.every((request) => request.method === "GET" && /(^|&)limit=250(&|$)/.test(request.query))).toBe(true);
    expect(requests.length).toBeLessThanOrEqual(2 * 9);
  });

  it("of a fleet are read stack by stack, as each stack's refresh ends, each scope once however many stacks live in it", async () => {
    const settings = resolveSettings((key) => ({ apiUrl: on.emulator.baseUrl, apiKey: on.emulator.apiKey })[key], {});
    const reads = new ScopeReads(4, { settingsOf: async () => settings });
    const workspace = { workDir: "/fleet" } as LocalWorkspace;
    const project = parseProject("/fleet", "name: fleet\nruntime: nodejs\n");
    const stackOf = (label: string, monitorId: string) => ({
      label,
      name: label,
      workspace,
      project,
      resources: [{ type: MONITOR_TYPE, id: monitorId, outputs: { clientId: ids.acme } }],
    });
    const [first, second] = [stackOf("acme-a", ids.managed!), stackOf("acme-b", ids.legacy!)];
    try {
      await on.emulator.admin.clearRequestLog();
      // The first stack's refresh is done: its scope's lists are read at once, while the others run.
      reads.start(first);
      await reads.listingsOf(first);
      const listsOfScope = (await on.emulator.admin.requestLog()).length;
      expect(listsOfScope).toBeGreaterThan(0);
      reads.start(second);
      const found = await unmanagedObjects([first, second], [], { ids: [], names: [] }, 4, reads);
      // The second stack lives in the same client: nothing more was read for it, nor for the check.
      expect((await on.emulator.admin.requestLog()).length).toBe(listsOfScope);
      // Each stack's report: what neither manages (the other's monitor counts as managed).
      for (const label of ["acme-a", "acme-b"]) expect(found.get(label)).toEqual([expect.objectContaining({ name: "Stray", id: ids.stray })]);
    } finally {
      await reads.close();
    }
  });

  it("leave out what `drift.ignore` names by id", async () => {
    const managed = new Set([ids.acme, ids.globex, ids.managed].map((id) => id!.toLowerCase()));
    const found = unmanagedIn(await readScopes(on.api, [ids.acme!.toLowerCase()]), managed, { ids: [ids.stray!.toUpperCase(), ids.legacy!], names: [] });
    expect(found.get(ids.acme!.toLowerCase())).toEqual([]);
  });
});

describe("the drift report", () => {
  const stack = (fields: Partial<StackReport>): StackReport => ({ stack: "acme", role: "client", result: "drifted", counts: noChanges(), durationMs: 4200, ...fields });
  const monitor = { type: "Monitor", urn: "u", id: "m-1" };
  const fiveChanges: FleetReport = {
    verb: "drift",
    project: "agency",
    parallel: 1,
    interrupted: false,
    stacks: [
      stack({
        drift: [
          { ...monitor, name: "web", drift: "changed", fields: [{ field: "name", recorded: "Web", actual: "Renamed | by hand", declared: true }, { field: "intervalSeconds", recorded: 60, actual: 900, declared: false }] },
          { ...monitor, name: "api", drift: "changed", fields: [], paused: { managed: false, nextDeploy: "keeps" } },
          { ...monitor, name: "docs", drift: "changed", fields: [], paused: { managed: true, nextDeploy: "keeps", rule: "4h", seen: "2030-01-01T11:00:00.000Z", until: "2030-01-01T15:00:00.000Z" } },
          { type: "Heartbeat", urn: "u", id: "h-1", name: "backup", drift: "deleted", fields: [] },
        ],
        known: [{ ...monitor, name: "shop", field: "timeoutSeconds", recorded: 30, actual: 10, keptBy: { operation: "deploy", at: "2030-01-01T06:00:00.000Z" } }],
        overrides: [
          { ...monitor, id: "m-2", name: "checkout", cause: "override", reason: "incident 42", by: "alice", until: "2030-01-01T14:00:00.000Z", nextDeploy: "keeps" },
          { ...monitor, id: "m-3", name: "search", cause: "window", reason: "Black Friday freeze", until: "2030-01-02T02:00:00.000Z", nextDeploy: "keeps" },
        ],
        unmanaged: [{ kind: "Monitor", name: "Stray", id: "m-9", clientId: "c-1", adopt: 'new mon.Monitor("stray", {\n  adoptId: "m-9",\n})' }],
      }),
      stack({ stack: "globex", result: "in sync", drift: [], unmanaged: [] }),
    ],
  };

  it("is a table of stacks by finding, then each finding under what the next deploy does", () => {
    expect(renderTable(fiveChanges)).toBe(
      [
        "stack   put back  kept  known  deleted  paused  overrides  unmanaged  duration  result",
        "------  --------  ----  -----  -------  ------  ---------  ---------  --------  -------",
        "acme           1     1      1        1       2          2          1      4.2s  drifted",
        "globex         0     0      0        0       0          0          0      4.2s  in sync",
        "",
        "Paused by hand. No checks and no alerts while paused.",
        "  acme: Monitor api (id m-1): paused by hand; the program leaves `paused` out, so the next deploy keeps it (declare `paused: false` to resume it on every deploy)",
        "  acme: Monitor docs (id m-1): paused by hand, seen at 2030-01-01 11:00 UTC: the next deploy keeps it until 2030-01-01 15:00 UTC (monitoring:handPauses 4h)",
        "",
        "Declared fields changed by hand. The next deploy puts them back.",
        '  acme: Monitor web: name "Web" -> "Renamed | by hand"',
        "",
        "Fields the program leaves out, changed by hand. The next deploy keeps them: declare a field to manage it.",
        "  acme: Monitor web: intervalSeconds 60 -> 900",
        "",
        "Known: fields the program leaves out, kept by a deploy. Not drift: every deploy keeps them; a new change by hand is drift again. Declare a field to manage it.",
        "  acme: Monitor shop: timeoutSeconds 30 -> 10, kept by the deploy of 2030-01-01 06:00 UTC",
        "",
        "Deleted by hand. The next deploy creates them again.",
        "  acme: Heartbeat backup (id h-1)",
        "",
        "Overrides and windows. Pauses recorded in the state or declared in the program: not drift.",
        "  acme: Monitor checkout (id m-2): override by alice for 'incident 42' until 2030-01-01 14:00 UTC: the next deploy keeps it",
        "  acme: Monitor search (id m-3): paused for 'Black Friday freeze' until 2030-01-02 02:00 UTC: the next deploy keeps it",
        "",
        "Unmanaged objects. In the stack's scope and managed by no stack: adopt one by declaring it with its adoptId, or leave it out with `drift.ignore` in Pulumi.yaml.",
        '  acme: Monitor "Stray" (id m-9, in client c-1)',
        '      new mon.Monitor("stray", {',
        '        adoptId: "m-9",',
        "      })",
        "",
      ].join("\n"),
    );
  });

  it("is markdown for a CI job, table cells escaped, in the table's sentences", () => {
    expect(renderDriftMarkdown(fiveChanges)).toBe(
      [
        "## Drift in `agency`: 1 of 2 stacks drifted",
        "",
        "| stack | put back | kept | known | deleted | paused | overrides | unmanaged | result |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        "| acme | 1 | 1 | 1 | 1 | 2 | 2 | 1 | drifted |",
        "| globex | 0 | 0 | 0 | 0 | 0 | 0 | 0 | in sync |",
        "",
        "### Paused by hand",
        "",
        "No checks and no alerts while paused.",
        "",
        "| stack | kind | name | id | next deploy |",
        "| --- | --- | --- | --- | --- |",
        "| acme | Monitor | api | `m-1` | paused by hand; the program leaves `paused` out, so the next deploy keeps it (declare `paused: false` to resume it on every deploy) |",
        "| acme | Monitor | docs | `m-1` | paused by hand, seen at 2030-01-01 11:00 UTC: the next deploy keeps it until 2030-01-01 15:00 UTC (monitoring:handPauses 4h) |",
        "",
        "### Declared fields changed by hand",
        "",
        "The next deploy puts them back.",
        "",
        "| stack | kind | name | field | recorded | now |",
        "| --- | --- | --- | --- | --- | --- |",
        '| acme | Monitor | web | `name` | `"Web"` | `"Renamed \\| by hand"` |',
        "",
        "### Fields the program leaves out, changed by hand",
        "",
        "The next deploy keeps them: declare a field to manage it.",
        "",
        "| stack | kind | name | field | recorded | now |",
        "| --- | --- | --- | --- | --- | --- |",
        "| acme | Monitor | web | `intervalSeconds` | `60` | `900` |",
        "",
        "### Known: fields the program leaves out, kept by a deploy",
        "",
        "Not drift: every deploy keeps them; a new change by hand is drift again. Declare a field to manage it.",
        "",
        "| stack | kind | name | field | recorded | now | since |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        "| acme | Monitor | shop | `timeoutSeconds` | `30` | `10` | kept by the deploy of 2030-01-01 06:00 UTC |",
        "",
        "### Deleted by hand",
        "",
        "The next deploy creates them again.",
        "",
        "| stack | kind | name | id |",
        "| --- | --- | --- | --- |",
        "| acme | Heartbeat | backup | `h-1` |",
        "",
        "### Overrides and windows",
        "",
        "Pauses recorded in the state or declared in the program: not drift.",
        "",
        "| stack | kind | name | id | pause |",
        "| --- | --- | --- | --- | --- |",
        "| acme | Monitor | checkout | `m-2` | override by alice for 'incident 42' until 2030-01-01 14:00 UTC: the next deploy keeps it |",
        "| acme | Monitor | search | `m-3` | paused for 'Black Friday freeze' until 2030-01-02 02:00 UTC: the next deploy keeps it |",
        "",
        "### Unmanaged objects",
        "",
        "In the stack's scope and managed by no stack: adopt one by declaring it with its adoptId, or leave it out with `drift.ignore` in Pulumi.yaml.",
        "",
        "| stack | kind | name | id | client |",
        "| --- | --- | --- | --- | --- |",
        "| acme | Monitor | Stray | `m-9` | `c-1` |",
        "",
        "```ts",
        'new mon.Monitor("stray", {',
        '  adoptId: "m-9",',
        "})",
        "```",
        "",
      ].join("\n"),
    );
  });

  it("as JSON, is the report itself: each finding names its stack, kind, name and field, and what the next deploy does", () => {
    const json = JSON.parse(JSON.stringify(fiveChanges)) as FleetReport;
    expect(json.stacks[0]?.drift?.[0]?.fields[1]).toEqual({ field: "intervalSeconds", recorded: 60, actual: 900, declared: false });
    expect(json.stacks[0]?.drift?.[2]?.paused).toEqual({ managed: true, nextDeploy: "keeps", rule: "4h", seen: "2030-01-01T11:00:00.000Z", until: "2030-01-01T15:00:00.000Z" });
    expect(json.stacks[0]?.known?.[0]).toMatchObject({ name: "shop", field: "timeoutSeconds", keptBy: { operation: "deploy" } });
    expect(json.stacks[0]?.overrides?.map((hold) => [hold.cause, hold.nextDeploy])).toEqual([["override", "keeps"], ["window", "keeps"]]);
    expect(json.stacks[0]?.unmanaged?.[0]).toMatchObject({ kind: "Monitor", name: "Stray", id: "m-9" });
  });

  it.each([
    ["a hand pause of the 4h rule not seen by a deploy yet", { managed: true, nextDeploy: "keeps", rule: "4h" }, "paused by hand, not seen by a deploy yet: the next deploy keeps it, for 4h from its refresh (monitoring:handPauses 4h)"],
    ["a hand pause past its 4h", { managed: true, nextDeploy: "resumes", rule: "4h", seen: "2030-01-01T06:00:00Z", until: "2030-01-01T10:00:00Z" }, "paused by hand, seen at 2030-01-01 06:00 UTC: the next deploy resumes it (monitoring:handPauses 4h)"],
    ["a hand pause under keep", { managed: true, nextDeploy: "keeps", rule: "keep", seen: "2030-01-01T06:00:00Z" }, "paused by hand, seen at 2030-01-01 06:00 UTC: the next deploy keeps it (monitoring:handPauses keep)"],
    ["a hand pause under putBack", { managed: true, nextDeploy: "resumes", rule: "putBack" }, "paused by hand, not seen by a deploy yet: the next deploy resumes it (monitoring:handPauses putBack)"],
  ] as const)("says what the next deploy does: %s", (_case, paused, sentence) => {
    const report = { ...fiveChanges, stacks: [stack({ drift: [{ ...monitor, name: "web", drift: "changed", fields: [], paused }] })] };
    expect(renderTable(report)).toContain(`  acme: Monitor web (id m-1): ${sentence}\n`);
    expect(renderDriftMarkdown(report)).toContain(`| acme | Monitor | web | \`m-1\` | ${sentence} |`);
  });

  it.each([
    ["an override that has ended", { cause: "ended override", by: "alice", nextDeploy: "resumes" }, "override by alice for 'why' ended 2030-01-01 14:00 UTC: the next deploy resumes it"],
    ["an ended override resumed already", { cause: "ended override", by: "alice", nextDeploy: "leaves" }, "override by alice for 'why' ended 2030-01-01 14:00 UTC: it is active again: the next deploy drops the record"],
    ["a window not applied yet", { cause: "window", nextDeploy: "pauses" }, "paused for 'why' until 2030-01-01 14:00 UTC: the next deploy pauses it"],
  ] as const)("says what the next deploy does: %s", (_case, hold, sentence) => {
    const report = { ...fiveChanges, stacks: [stack({ result: "in sync", overrides: [{ ...monitor, name: "web", reason: "why", until: "2030-01-01T14:00:00Z", ...hold }] })] };
    expect(renderTable(report)).toContain(`  acme: Monitor web (id m-1): ${sentence}\n`);
    expect(renderDriftMarkdown(report)).toContain(`| acme | Monitor | web | \`m-1\` | ${sentence} |`);
  });

  it.each([
    ["a refresh", { operation: "refresh", at: "2030-01-01T06:00:00Z" }, "recorded by the refresh of 2030-01-01 06:00 UTC, kept by every deploy"],
    ["no history", undefined, "kept by a deploy"],
  ] as const)("dates a known field by the stack's last operation: %s", (_case, keptBy, sentence) => {
    const known = { ...monitor, name: "web", field: "intervalSeconds", recorded: 60, actual: 900, ...(keptBy === undefined ? {} : { keptBy }) };
    expect(renderTable({ ...fiveChanges, stacks: [stack({ result: "in sync", known: [known] })] })).toContain(`  acme: Monitor web: intervalSeconds 60 -> 900, ${sentence}\n`);
  });

  it("exits 3 when anything drifted or is unmanaged, 0 when every stack is in sync, known fields and overrides included", () => {
    expect(exitCodeOf(fiveChanges)).toBe(3);
    expect(exitCodeOf({ ...fiveChanges, stacks: [fiveChanges.stacks[1]!] })).toBe(0);
    const held = stack({ result: "in sync", known: fiveChanges.stacks[0]!.known!, overrides: fiveChanges.stacks[0]!.overrides! });
    expect(exitCodeOf({ ...fiveChanges, stacks: [held] })).toBe(0);
  });

  it("says in markdown when everything is in sync", () => {
    expect(renderDriftMarkdown({ ...fiveChanges, stacks: [fiveChanges.stacks[1]!] })).toMatch(/^## Drift in `agency`: in sync\n/);
  });
});
