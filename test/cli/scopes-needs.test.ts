/**
 * The scopes each command needs, computed from a small program and state without the engine
 * (cli/scopes/needs.ts over schema/routes.ts): which operation each command sends for what the
 * program declares and the state holds, and the scope the spec lists for it; and the union of
 * several stacks' reports, as `fleet scopes` prints it.
 */
import { describe, expect, it } from "vitest";
import { type CommandName, type ScopesReport, type StackContents, type StackResource, scopesFor, TYPE_PREFIX, unionOf } from "../../cli/scopes/needs.js";

const URL = "https://shop.example.com/";
const resource = (kind: string, name: string, values: Partial<StackResource>): StackResource => ({ urn: `urn:pulumi:test::p::${TYPE_PREFIX}${kind}::${name}`, type: `${TYPE_PREFIX}${kind}`, ...values });

const monitor = resource("Monitor", "web", { inputs: { url: URL, notificationChannelIds: ["c1"] } });
const monitorSet = resource("MonitorSet", "pages", { inputs: { monitors: { home: { url: URL } } } });
const heartbeatLeftInState = resource("Heartbeat", "backup", { id: "h1", outputs: { name: "backup", intervalSeconds: 3600 } });

/** The commands (and scope) that need a request, and those that send it but do without it. */
function needOf(report: ScopesReport, request: string): { scope: string; commands: CommandName[]; optionalIn: CommandName[] } | undefined {
  for (const [scope, needs] of Object.entries(report.operations)) {
    const need = needs.find((candidate) => candidate.request === request);
    if (need !== undefined) return { scope, commands: need.commands, optionalIn: need.optionalIn };
  }
  return undefined;
}

describe("the scopes a command needs for a stack", () => {
  it.each<{ case: string; contents: StackContents; command: CommandName; scopes: string[]; needed: Record<string, string>; optional?: Record<string, string> }>([
    {
      case: "up of a monitor to create: monitor.write to create it, monitor.delete to update and read it by id and to attach its channels, monitor.read for the attached list",
      contents: { program: [monitor], state: [] },
      command: "up",
      scopes: ["monitor.delete", "monitor.read", "monitor.write"],
      needed: {
        "POST /monitors": "monitor.write",
        "PATCH /monitors/{monitorID}": "monitor.delete",
        "GET /monitors/{monitorID}": "monitor.delete",
        "POST /monitors/{monitorID}/notification_channels/{channelID}": "monitor.delete",
        "GET /monitors/{monitorID}/notification_channels": "monitor.read",
      },
    },
    {
      case: "refresh of a monitor: a GET by id (monitor.delete); the list page it does without (monitor.write) is not needed",
      contents: { program: [monitor], state: [] },
      command: "refresh",
      scopes: ["monitor.delete", "monitor.read"],
      needed: { "GET /monitors/{monitorID}": "monitor.delete" },
      optional: { "GET /monitors": "monitor.write" },
    },
    {
      case: "up of a set: its members created in a batch, and read from the list, which a set cannot do without",
      contents: { program: [monitorSet], state: [] },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needed: { "POST /monitors/batch": "monitor.write", "GET /monitors": "monitor.write", "DELETE /monitors/{monitorID}": "monitor.delete" },
    },
    {
      case: "up of a heartbeat the program dropped: it is read, then deleted",
      contents: { program: [], state: [heartbeatLeftInState] },
      command: "up",
      scopes: ["heartbeat.write"],
      needed: { "GET /heartbeats/{heartbeatID}": "heartbeat.write", "DELETE /heartbeats/{heartbeatID}": "heartbeat.write" },
    },
    {
      case: "destroy of a set: the refresh's reads, then the members deleted one by one",
      contents: { program: [monitorSet], state: [] },
      command: "destroy",
      scopes: ["monitor.delete", "monitor.write"],
      needed: { "DELETE /monitors/{monitorID}": "monitor.delete", "GET /monitors": "monitor.write" },
    },
    {
      case: "preview under monitoring:dryRun: the service validates the monitors (monitor.write)",
      contents: { program: [monitor], state: [], dryRun: true },
      command: "preview",
      scopes: ["monitor.delete", "monitor.read", "monitor.write"],
      needed: { "POST /monitors/batch/dry-run": "monitor.write" },
    },
    {
      case: "verify of a monitor: its results read (monitor.read) and a check run (monitor.write)",
      contents: { program: [monitor], state: [] },
      command: "verify",
      scopes: ["monitor.read", "monitor.write"],
      needed: { "GET /monitors/{monitorID}/results": "monitor.read", "POST /monitors/{monitorID}/check": "monitor.write" },
    },
    {
      case: "drift of an account-wide monitor: the lists of every kind outside clients, for objects no stack manages",
      contents: { program: [monitor], state: [] },
      command: "drift",
      scopes: ["client.write", "escalation_policy.write", "heartbeat.write", "monitor.delete", "monitor.read", "monitor.write", "notification_channel.write", "webhook.write"],
      needed: { "GET /heartbeats": "heartbeat.write", "GET /webhook-subscriptions": "webhook.write" },
    },
    {
      case: "up of an empty stack: nothing",
      contents: { program: [], state: [] },
      command: "up",
      scopes: [],
      needed: {},
    },
  ])("$case", ({ contents, command, scopes, needed, optional = {} }) => {
    const report = scopesFor(contents);
    expect(report.commands[command]).toEqual(scopes);
    for (const [request, scope] of Object.entries(needed)) expect(needOf(report, request), request).toMatchObject({ scope, commands: expect.arrayContaining([command]) });
    for (const [request, scope] of Object.entries(optional)) {
      expect(needOf(report, request), request).toMatchObject({ scope, optionalIn: expect.arrayContaining([command]) });
      expect(needOf(report, request)?.commands, request).not.toContain(command);
    }
    expect(report.all).toEqual(expect.arrayContaining(report.commands[command]));
  });

  it("import reads every kind, whatever the stack holds", () => {
    expect(scopesFor({ program: [], state: [] }).commands.import).toEqual(scopesFor({ program: [monitor], state: [heartbeatLeftInState] }).commands.import);
  });
});

describe("the union of several stacks' reports (fleet scopes)", () => {
  it("needs, per command, every scope any stack needs, and merges the commands behind each operation", () => {
    const monitors = scopesFor({ program: [monitor], state: [] });
    const heartbeats = scopesFor({ program: [], state: [heartbeatLeftInState] });
    const union = unionOf([monitors, heartbeats]);
    expect(union.commands.up).toEqual(["heartbeat.write", "monitor.delete", "monitor.read", "monitor.write"]);
    expect(union.all).toEqual([...new Set([...monitors.all, ...heartbeats.all])].sort());
    // GET /monitors: only listed by drift for the heartbeat's stack, optional in the monitor's refresh.
    expect(needOf(union, "GET /monitors")).toMatchObject({ scope: "monitor.write", optionalIn: expect.arrayContaining(["refresh"]) });
    expect(needOf(union, "GET /monitors")?.commands).not.toContain("refresh");
    expect(needOf(union, "DELETE /heartbeats/{heartbeatID}")).toMatchObject({ commands: ["up", "destroy"] });
    expect(unionOf([monitors])).toEqual(monitors);
  });
});
