/**
 * The scopes each command needs, computed from a small program and state without the engine
 * (cli/scopes/needs.ts over schema/routes.ts): exactly which requests each command sends for what
 * the program declares and the state holds, which of them it cannot do without, the scope the spec
 * lists for each and what the report says each does; how the report is ordered; and the union of
 * several stacks' reports, as `fleet scopes` prints it.
 */
import { describe, expect, it } from "vitest";
import { COMMANDS, type CommandName, type ScopesReport, type StackContents, type StackResource, scopesFor, unionOf } from "../../cli/scopes/needs.js";
import { typeTokenOf } from "../../schema/type-token.js";

const URL = "https://shop.example.com/";
const WINDOW = { from: "2030-01-01T00:00:00Z", to: "2030-01-01T02:00:00Z", reason: "database upgrade" };
const OVERRIDE = { until: "2030-01-01T02:00:00Z", reason: "incident 42", by: "ops", at: "2030-01-01T00:00:00Z" };

const resource = (kind: string, name: string, values: Partial<StackResource> = {}): StackResource => ({ urn: `urn:pulumi:test::p::${typeTokenOf(kind)}::${name}`, type: typeTokenOf(kind), ...values });

// The program's resources (inputs only, as a preview declares them) and the state's (id, inputs and outputs).
const monitor = resource("Monitor", "web", { inputs: { url: URL, notificationChannelIds: ["c1"] } });
const monitorSet = resource("MonitorSet", "pages", { inputs: { monitors: { home: { url: URL } } } });
const heartbeatLeftInState = resource("Heartbeat", "backup", { id: "h1", inputs: { name: "backup" }, outputs: { name: "backup", intervalSeconds: 3600, paused: false } });
const heartbeat = resource("Heartbeat", "backup", { inputs: { name: "backup" } });
/** Declares windows but no `paused`: the provider manages its pause state all the same. */
const windowsOnly = resource("Monitor", "maintained", { inputs: { url: URL, pauses: [WINDOW] } });
const windowsOnlyInState = { ...windowsOnly, id: "m1", outputs: { url: URL, paused: false, __declaredInputs: ["url"] } };
/** Declares neither `paused` nor `pauses`; the service reports it resumed. */
const plainMonitorInState = resource("Monitor", "plain", { id: "m2", inputs: { url: URL }, outputs: { url: URL, paused: false, __declaredInputs: ["url"] } });
/** Declares neither, and an operator paused it (`pulumi-monitoring pause`): the deploy after the override's end resumes it. */
const overriddenHeartbeat = { ...heartbeatLeftInState, outputs: { ...heartbeatLeftInState.outputs, paused: true, __override: OVERRIDE } };
const channel = resource("NotificationChannel", "ops", { id: "c1", inputs: { name: "Ops", kind: "email" }, outputs: { name: "Ops", kind: "email" } });
const otherChannel = resource("NotificationChannel", "pager", { id: "c2", inputs: { name: "Pager", kind: "sms" }, outputs: { name: "Pager", kind: "sms" } });
const attachedMonitorInState = resource("Monitor", "web", { id: "m3", inputs: { url: URL, notificationChannelIds: ["c1"] }, outputs: { url: URL, notificationChannelIds: ["c1"] } });
const pausedMonitorInState = resource("Monitor", "archive", { id: "m4", inputs: { url: URL, paused: true }, outputs: { url: URL, paused: true } });
const subscription = resource("WebhookSubscription", "hooks", { id: "s1", inputs: { url: URL }, outputs: { url: URL } });
const client = resource("Client", "acme", { inputs: { name: "Acme", portalSettings: { title: "Acme status" } } });
const clientMonitor = resource("Monitor", "acme-web", { inputs: { url: URL, clientId: "0b5e5a1c-2f4e-4b8e-9a43-1d6a8c7e1f00" } });
const template = resource("ClientTemplate", "standard", { inputs: { name: "Standard" } });

/** A set in the program and the state; `outputs` what the state records of it. */
const setWith = (inputs: Record<string, unknown>, outputs: Record<string, unknown>) => ({
  program: resource("MonitorSet", "pages", { inputs }),
  state: resource("MonitorSet", "pages", { id: "set", inputs, outputs }),
});
const overriddenSecond = setWith(
  { monitors: { api: { url: URL }, home: { url: URL } } },
  { monitors: { api: { url: URL }, home: { url: URL } }, ids: { api: "m5", home: "m6" }, __override: { home: OVERRIDE } },
);
const overriddenOnly = setWith({ monitors: { home: { url: URL } } }, { ids: { home: "m6" }, __override: { home: OVERRIDE } });
const membersWithWindows = setWith({ monitors: { home: { url: URL, pauses: [WINDOW] } } }, { ids: { home: "m6" } });
/** Its members are unknown at preview (made from another resource's outputs): what the state records of each stands for them. */
const unknownMembers = setWith({}, { ids: { home: "m6" }, __declaredInputs: { home: ["url", "notificationChannelIds"] } });

/** Resources of other packages: another dynamic provider's `Monitor`, and the stack itself. */
const foreign: StackResource[] = [
  { urn: "urn:pulumi:test::p::pulumi-nodejs:dynamic/othertools:Monitor::web", type: "pulumi-nodejs:dynamic/othertools:Monitor", id: "x1", inputs: { url: URL, paused: true }, outputs: { url: URL } },
  { urn: "urn:pulumi:test::p::pulumi:pulumi:Stack::p-test", type: "pulumi:pulumi:Stack", inputs: {}, outputs: {} },
];

/** What the report says `command` sends: the requests it fails without, and those it sends but does without, each sorted. */
function sentBy(report: ScopesReport, command: CommandName): { needs: string[]; without: string[] } {
  const needs = Object.values(report.operations).flat();
  return {
    needs: needs.filter((need) => need.commands.includes(command)).map((need) => need.request).sort(),
    without: needs.filter((need) => need.optionalIn.includes(command)).map((need) => need.request).sort(),
  };
}

/** The report's entry for a request, with its scope. */
function needOf(report: ScopesReport, request: string) {
  for (const [scope, needs] of Object.entries(report.operations)) {
    const need = needs.find((candidate) => candidate.request === request);
    if (need !== undefined) return { scope, ...need };
  }
  return undefined;
}

const MONITOR_REFRESH = ["GET /monitors/{monitorID}", "GET /monitors/{monitorID}/notification_channels"];
const MONITOR_WRITES = ["DELETE /monitors/{monitorID}", "PATCH /monitors/{monitorID}", "POST /monitors"];
const MONITOR_ATTACHMENTS = ["DELETE /monitors/{monitorID}/notification_channels/{channelID}", "POST /monitors/{monitorID}/notification_channels/{channelID}"];
const MONITOR_PAUSES = ["POST /monitors/{monitorID}/pause", "POST /monitors/{monitorID}/resume"];
const MONITOR_CHECK = ["GET /monitors", "GET /monitors/{monitorID}/results", "POST /monitors/{monitorID}/check"];
/** The lists a drift check reads for objects no stack manages in the account (every kind outside clients). */
const ACCOUNT_LISTS = ["GET /clients", "GET /escalation-policies", "GET /heartbeat-groups", "GET /heartbeats", "GET /monitors", "GET /notification_channels", "GET /webhook-subscriptions"];
/** ... and in a client: the kinds that take a client, and those under a client's path (not the clients, nor the templates). */
const CLIENT_LISTS = [
  "GET /clients/{clientID}/share-links",
  "GET /escalation-policies",
  "GET /heartbeat-groups",
  "GET /heartbeats",
  "GET /monitors",
  "GET /notification_channels",
  "GET /webhook-subscriptions",
];
const ALL = ["client.write", "escalation_policy.write", "heartbeat.write", "monitor.delete", "monitor.read", "monitor.write", "notification_channel.write", "webhook.write"] as const;

const sorted = (...lists: ReadonlyArray<readonly string[]>) => [...new Set(lists.flat())].sort();

describe("the requests each command sends for a stack, and the scopes it needs for them", () => {
  it.each<{ case: string; contents: StackContents; command: CommandName; scopes: string[]; needs: string[]; without?: string[] }>([
    {
      case: "preview of a monitor to create: the refresh reads it by id and its attached channels; the list page it does without",
      contents: { program: [monitor], state: [] },
      command: "preview",
      scopes: ["monitor.delete", "monitor.read"],
      needs: MONITOR_REFRESH,
      without: ["GET /monitors"],
    },
    {
      case: "up of a monitor to create: monitor.write to create it, monitor.delete to update, replace and read it by id and to attach its channels, monitor.read for the attached list",
      contents: { program: [monitor], state: [] },
      command: "up",
      scopes: ["monitor.delete", "monitor.read", "monitor.write"],
      needs: sorted(MONITOR_REFRESH, MONITOR_WRITES, MONITOR_ATTACHMENTS),
      without: ["GET /monitors"],
    },
    {
      case: "refresh of a monitor: a GET by id (monitor.delete); the list page it does without (monitor.write) is not needed",
      contents: { program: [monitor], state: [] },
      command: "refresh",
      scopes: ["monitor.delete", "monitor.read"],
      needs: MONITOR_REFRESH,
      without: ["GET /monitors"],
    },
    {
      case: "destroy of a monitor: the refresh's reads, then its delete",
      contents: { program: [monitor], state: [] },
      command: "destroy",
      scopes: ["monitor.delete", "monitor.read"],
      needs: sorted(MONITOR_REFRESH, ["DELETE /monitors/{monitorID}"]),
      without: ["GET /monitors"],
    },
    {
      case: "drift of an account-wide monitor: the refresh's reads and the lists of every kind outside clients, for objects no stack manages (the monitors' list then needed)",
      contents: { program: [monitor], state: [] },
      command: "drift",
      scopes: ["client.write", "escalation_policy.write", "heartbeat.write", "monitor.delete", "monitor.read", "monitor.write", "notification_channel.write", "webhook.write"],
      needs: sorted(MONITOR_REFRESH, ACCOUNT_LISTS),
    },
    {
      case: "drift of a monitor in a client: the lists of the kinds that live in clients",
      contents: { program: [clientMonitor], state: [] },
      command: "drift",
      scopes: ["client.write", "escalation_policy.write", "heartbeat.write", "monitor.delete", "monitor.write", "notification_channel.write", "webhook.write"],
      needs: sorted(["GET /monitors/{monitorID}"], CLIENT_LISTS),
    },
    {
      case: "drift of a client: its reads, and the lists of the kinds that live in clients",
      contents: { program: [client], state: [] },
      command: "drift",
      scopes: ["client.write", "escalation_policy.write", "heartbeat.write", "monitor.write", "notification_channel.write", "webhook.write"],
      needs: sorted(["GET /clients/{clientID}", "GET /clients/{clientID}/portal-settings"], CLIENT_LISTS),
      without: ["GET /clients"],
    },
    {
      case: "drift of a set in a client whose members are unknown at preview: the set's own client stands for theirs",
      contents: { program: [resource("MonitorSet", "pages", { inputs: { clientId: "0b5e5a1c-2f4e-4b8e-9a43-1d6a8c7e1f00" } })], state: [] },
      command: "drift",
      scopes: ["client.write", "escalation_policy.write", "heartbeat.write", "monitor.delete", "monitor.write", "notification_channel.write", "webhook.write"],
      needs: sorted(["GET /monitors/{monitorID}"], CLIENT_LISTS),
    },
    {
      case: "up of a client: its create, update and archive (its delete), and its portal settings read and written",
      contents: { program: [client], state: [] },
      command: "up",
      scopes: ["client.write"],
      needs: ["GET /clients/{clientID}", "GET /clients/{clientID}/portal-settings", "POST /clients", "POST /clients/{clientID}/archive", "PUT /clients/{clientID}", "PUT /clients/{clientID}/portal-settings"],
      without: ["GET /clients"],
    },
    {
      case: "up of a set: its members created in a batch, and read from the list, which a set cannot do without",
      contents: { program: [monitorSet], state: [] },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needs: sorted(["GET /monitors", "GET /monitors/{monitorID}", "POST /monitors/batch"], MONITOR_WRITES),
    },
    {
      case: "up of a set whose members are unknown at preview and none recorded: a set of monitors all the same",
      contents: { program: [resource("MonitorSet", "pages", { inputs: {} })], state: [] },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needs: sorted(["GET /monitors", "GET /monitors/{monitorID}", "POST /monitors/batch"], MONITOR_WRITES),
    },
    {
      case: "refresh of a set whose members are unknown at preview: what the state records each declares (attached channels) is read",
      contents: { program: [unknownMembers.program], state: [unknownMembers.state] },
      command: "refresh",
      scopes: ["monitor.delete", "monitor.read", "monitor.write"],
      needs: ["GET /monitors", ...MONITOR_REFRESH],
    },
    {
      case: "destroy of a set: the refresh's reads, then the members deleted one by one",
      contents: { program: [monitorSet], state: [] },
      command: "destroy",
      scopes: ["monitor.delete", "monitor.write"],
      needs: ["DELETE /monitors/{monitorID}", "GET /monitors", "GET /monitors/{monitorID}"],
    },
    {
      case: "refresh of a monitor and a set: the monitors' list is needed, so it is no longer one the refresh does without",
      contents: { program: [monitor, monitorSet], state: [] },
      command: "refresh",
      scopes: ["monitor.delete", "monitor.read", "monitor.write"],
      needs: ["GET /monitors", ...MONITOR_REFRESH],
    },
    {
      case: "up of a heartbeat the program dropped: it is read, then deleted, and nothing else",
      contents: { program: [], state: [heartbeatLeftInState] },
      command: "up",
      scopes: ["heartbeat.write"],
      needs: ["DELETE /heartbeats/{heartbeatID}", "GET /heartbeats/{heartbeatID}"],
      without: ["GET /heartbeats"],
    },
    {
      case: "up of a monitor that declares pause windows and no `paused`: the pause and resume calls the windows make",
      contents: { program: [windowsOnly], state: [windowsOnlyInState] },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needs: sorted(["GET /monitors/{monitorID}"], MONITOR_WRITES, MONITOR_PAUSES),
      without: ["GET /monitors"],
    },
    {
      case: "up of a monitor that declares neither `paused` nor windows: its pause state is not managed, whatever the service reports",
      contents: { program: [resource("Monitor", "plain", { inputs: { url: URL } })], state: [plainMonitorInState] },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needs: sorted(["GET /monitors/{monitorID}"], MONITOR_WRITES),
      without: ["GET /monitors"],
    },
    {
      case: "up of a monitor that declares `paused`: the pause and resume calls",
      contents: { program: [resource("Monitor", "plain", { inputs: { url: URL, paused: true } })], state: [plainMonitorInState] },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needs: sorted(["GET /monitors/{monitorID}"], MONITOR_WRITES, MONITOR_PAUSES),
      without: ["GET /monitors"],
    },
    {
      case: "up of a heartbeat an operator paused: the deploy after the override's end resumes it",
      contents: { program: [heartbeat], state: [overriddenHeartbeat] },
      command: "up",
      scopes: ["heartbeat.write"],
      needs: ["DELETE /heartbeats/{heartbeatID}", "GET /heartbeats/{heartbeatID}", "PATCH /heartbeats/{heartbeatID}", "POST /heartbeats", "POST /heartbeats/{heartbeatID}/pause", "POST /heartbeats/{heartbeatID}/resume"],
      without: ["GET /heartbeats"],
    },
    {
      case: "up of a heartbeat no operator paused: no pause call",
      contents: { program: [heartbeat], state: [heartbeatLeftInState] },
      command: "up",
      scopes: ["heartbeat.write"],
      needs: ["DELETE /heartbeats/{heartbeatID}", "GET /heartbeats/{heartbeatID}", "PATCH /heartbeats/{heartbeatID}", "POST /heartbeats"],
      without: ["GET /heartbeats"],
    },
    {
      case: "up of a set whose second member an operator paused: the pause calls of its monitors",
      contents: { program: [overriddenSecond.program], state: [overriddenSecond.state] },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needs: sorted(["GET /monitors", "GET /monitors/{monitorID}", "POST /monitors/batch"], MONITOR_WRITES, MONITOR_PAUSES),
    },
    {
      case: "up of a set whose only member an operator paused: the pause calls of its monitors",
      contents: { program: [overriddenOnly.program], state: [overriddenOnly.state] },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needs: sorted(["GET /monitors", "GET /monitors/{monitorID}", "POST /monitors/batch"], MONITOR_WRITES, MONITOR_PAUSES),
    },
    {
      case: "up of a set whose member declares pause windows: the pause calls of its monitors",
      contents: { program: [membersWithWindows.program], state: [membersWithWindows.state] },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needs: sorted(["GET /monitors", "GET /monitors/{monitorID}", "POST /monitors/batch"], MONITOR_WRITES, MONITOR_PAUSES),
    },
    {
      case: "preview under monitoring:dryRun: the service validates the monitors (monitor.write)",
      contents: { program: [monitor], state: [], dryRun: true },
      command: "preview",
      scopes: ["monitor.delete", "monitor.read", "monitor.write"],
      needs: sorted(["POST /monitors/batch/dry-run"], MONITOR_REFRESH),
      without: ["GET /monitors"],
    },
    {
      case: "up under monitoring:dryRun: each monitor asked about before it is written",
      contents: { program: [monitorSet], state: [], dryRun: true },
      command: "up",
      scopes: ["monitor.delete", "monitor.write"],
      needs: sorted(["GET /monitors", "GET /monitors/{monitorID}", "POST /monitors/batch", "POST /monitors/batch/dry-run"], MONITOR_WRITES),
    },
    {
      case: "drift under monitoring:dryRun: its preview asks the service too",
      contents: { program: [clientMonitor], state: [], dryRun: true },
      command: "drift",
      scopes: ["client.write", "escalation_policy.write", "heartbeat.write", "monitor.delete", "monitor.write", "notification_channel.write", "webhook.write"],
      needs: sorted(["GET /monitors/{monitorID}", "POST /monitors/batch/dry-run"], CLIENT_LISTS),
    },
    {
      case: "preview under monitoring:dryRun of a program without monitors: nothing to ask about",
      contents: { program: [heartbeat], state: [], dryRun: true },
      command: "preview",
      scopes: ["heartbeat.write"],
      needs: ["GET /heartbeats/{heartbeatID}"],
      without: ["GET /heartbeats"],
    },
    {
      case: "preview under monitoring:dryRun of a monitor the program dropped: nothing to ask about",
      contents: { program: [], state: [plainMonitorInState], dryRun: true },
      command: "preview",
      scopes: ["monitor.delete"],
      needs: ["GET /monitors/{monitorID}"],
      without: ["GET /monitors"],
    },
    {
      case: "verify of a monitor to create: its results read (monitor.read), a check run (monitor.write), the statuses listed",
      contents: { program: [monitor], state: [] },
      command: "verify",
      scopes: ["monitor.read", "monitor.write"],
      needs: MONITOR_CHECK,
    },
    {
      case: "verify of a monitor the program declares paused: nothing is checked",
      contents: { program: [], state: [pausedMonitorInState] },
      command: "verify",
      scopes: [],
      needs: [],
    },
    {
      case: "verify of a paused monitor and one that is not: the second is checked",
      contents: { program: [], state: [pausedMonitorInState, plainMonitorInState] },
      command: "verify",
      scopes: ["monitor.read", "monitor.write"],
      needs: MONITOR_CHECK,
    },
    {
      case: "verify of a webhook subscription: its deliveries read (webhook.read), a test delivery (webhook.write)",
      contents: { program: [], state: [subscription] },
      command: "verify",
      scopes: ["webhook.read", "webhook.write"],
      needs: ["GET /webhook-subscriptions/{subscriptionID}/deliveries", "POST /webhook-subscriptions/{subscriptionID}/test"],
    },
    {
      case: "verify of channels: nothing without --alerts",
      contents: { program: [], state: [channel, otherChannel] },
      command: "verify",
      scopes: [],
      needs: [],
    },
    {
      case: "verify --alerts of a channel attached to a monitor, and one that is not: a test alert through the monitor, a test of the other channel",
      contents: { program: [], state: [attachedMonitorInState, channel, otherChannel] },
      command: "verify --alerts",
      scopes: ["monitor.read", "monitor.write", "notification_channel.write"],
      needs: sorted(MONITOR_CHECK, ["POST /monitors/{monitorID}/test-alert", "POST /notification_channels/{channelID}/test"]),
    },
    {
      case: "verify --alerts of the channel a monitor attaches: the test alert goes through the monitor alone",
      contents: { program: [], state: [attachedMonitorInState, channel] },
      command: "verify --alerts",
      scopes: ["monitor.read", "monitor.write"],
      needs: sorted(MONITOR_CHECK, ["POST /monitors/{monitorID}/test-alert"]),
    },
    {
      case: "verify --alerts of a channel no monitor attaches: the channel tested directly",
      contents: { program: [], state: [otherChannel] },
      command: "verify --alerts",
      scopes: ["notification_channel.write"],
      needs: ["POST /notification_channels/{channelID}/test"],
    },
    {
      case: "pause of a stack's monitor, heartbeat and set member: each one's pause call, and the object read back by id",
      contents: { program: [], state: [plainMonitorInState, heartbeatLeftInState, overriddenOnly.state, channel] },
      command: "pause",
      scopes: ["heartbeat.write", "monitor.delete", "monitor.write"],
      needs: ["GET /heartbeats/{heartbeatID}", "GET /monitors/{monitorID}", "POST /heartbeats/{heartbeatID}/pause", "POST /monitors/{monitorID}/pause"],
    },
    {
      case: "resume of a stack's monitor and heartbeat: each one's resume call, and the object read back by id",
      contents: { program: [], state: [plainMonitorInState, heartbeatLeftInState, channel] },
      command: "resume",
      scopes: ["heartbeat.write", "monitor.delete", "monitor.write"],
      needs: ["GET /heartbeats/{heartbeatID}", "GET /monitors/{monitorID}", "POST /heartbeats/{heartbeatID}/resume", "POST /monitors/{monitorID}/resume"],
    },
    {
      case: "apply-due of a stack whose monitor has pause windows only: its pause and resume calls, and the monitor read back by id",
      contents: { program: [windowsOnly], state: [windowsOnlyInState] },
      command: "apply-due",
      scopes: ["monitor.delete", "monitor.write"],
      needs: ["GET /monitors/{monitorID}", ...MONITOR_PAUSES],
    },
    {
      case: "apply-due of a set member in the state: the monitors' pause and resume calls",
      contents: { program: [], state: [membersWithWindows.state] },
      command: "apply-due",
      scopes: ["monitor.delete", "monitor.write"],
      needs: ["GET /monitors/{monitorID}", ...MONITOR_PAUSES],
    },
    {
      case: "pause of a monitor the program declares but the state lacks: it is no target yet",
      contents: { program: [windowsOnly], state: [] },
      command: "pause",
      scopes: [],
      needs: [],
    },
    {
      case: "apply-due of a stack of channels: nothing to pause",
      contents: { program: [], state: [channel, subscription] },
      command: "apply-due",
      scopes: [],
      needs: [],
    },
    {
      case: "up of an empty stack: nothing",
      contents: { program: [], state: [] },
      command: "up",
      scopes: [],
      needs: [],
    },
  ])("$case", ({ contents, command, scopes, needs, without = [] }) => {
    const report = scopesFor(contents);
    expect(sentBy(report, command)).toEqual({ needs, without });
    expect(report.commands[command]).toEqual(scopes);
    expect(report.commands[command]).toEqual(sorted(needs.map((request) => needOf(report, request)!.scope)));
  });

  it("import reads every kind, whatever the stack holds", () => {
    const report = scopesFor({ program: [], state: [] });
    expect(report.commands.import).toEqual([...ALL]);
    expect(report.commands.import).toEqual(scopesFor({ program: [monitor], state: [heartbeatLeftInState] }).commands.import);
    expect(sentBy(report, "import").needs).toEqual(
      sorted(ACCOUNT_LISTS, [
        "GET /clients/{clientID}",
        "GET /clients/{clientID}/portal-settings",
        "GET /clients/{clientID}/share-links",
        "GET /escalation-policies/{policyID}",
        "GET /heartbeat-groups/{groupID}",
        "GET /heartbeats/{heartbeatID}",
        "GET /monitors/{monitorID}",
        "GET /monitors/{monitorID}/notification_channels",
        "GET /notification_channels/{channelID}",
      ]),
    );
    expect(report.unscoped).toEqual(["GET /client-templates", "GET /client-templates/{templateID}"]);
  });

  it("resources of other packages, a dynamic provider's `Monitor` among them, add nothing", () => {
    expect(scopesFor({ program: foreign, state: foreign, dryRun: true })).toEqual(scopesFor({ program: [], state: [] }));
  });
});

// Reports are computed inside each test, never while the tests are collected: mutation testing
// switches a change of the code on only while the tests that cover it run.
describe("the report", () => {
  const stack: StackContents = { program: [monitor, monitorSet, template, client], state: [heartbeatLeftInState, subscription, channel, otherChannel] };

  it("says what each request does, each kind and deed once, in the order the commands first send them", () => {
    const report = scopesFor(stack);
    expect(needOf(report, "GET /monitors")?.does).toEqual(["Monitor list", "Monitor statuses listed"]);
    expect(needOf(report, "GET /monitors/{monitorID}")?.does).toEqual(["Monitor read"]);
    expect(needOf(report, "POST /monitors/batch")?.does).toEqual(["MonitorSet create in batch"]);
    expect(needOf(report, "POST /monitors/{monitorID}/notification_channels/{channelID}")?.does).toEqual(["Monitor attach (notificationChannelIds)"]);
    expect(needOf(report, "GET /monitors/{monitorID}/results")?.does).toEqual(["Monitor results read"]);
    expect(needOf(report, "POST /monitors/{monitorID}/check")?.does).toEqual(["Monitor check"]);
    expect(needOf(report, "GET /webhook-subscriptions")?.does).toEqual(["WebhookSubscription read", "WebhookSubscription list"]);
    expect(needOf(report, "GET /webhook-subscriptions/{subscriptionID}/deliveries")?.does).toEqual(["WebhookSubscription deliveries read"]);
    expect(needOf(report, "POST /webhook-subscriptions/{subscriptionID}/test")?.does).toEqual(["WebhookSubscription test delivery"]);
    expect(needOf(report, "POST /monitors/{monitorID}/test-alert")?.does).toEqual(["Monitor test alert"]);
    expect(needOf(report, "POST /notification_channels/{channelID}/test")?.does).toEqual(["NotificationChannel test"]);
    expect(needOf(report, "POST /clients/{clientID}/archive")?.does).toEqual(["Client delete"]);
    expect(needOf(report, "PUT /clients/{clientID}/portal-settings")?.does).toEqual(["Client write document (portalSettings)"]);
  });

  it("names each command once per request, in the order of the commands, and a command it needs a request in never among those that do without it", () => {
    const report = scopesFor(stack);
    expect(needOf(report, "GET /monitors")).toMatchObject({ commands: ["preview", "up", "refresh", "destroy", "drift", "verify", "verify --alerts", "import"], optionalIn: [] });
    expect(needOf(report, "GET /heartbeats")).toMatchObject({ commands: ["drift", "import"], optionalIn: ["preview", "up", "refresh", "destroy"] });
    expect(needOf(report, "POST /monitors/{monitorID}/test-alert")).toMatchObject({ commands: ["verify --alerts"], optionalIn: [] });
    expect(needOf(report, "POST /notification_channels/{channelID}/test")).toMatchObject({ commands: ["verify --alerts"], optionalIn: [] });
  });

  it("lists the scopes in order, each one's requests in order, and the requests without a scope in order", () => {
    const report = scopesFor(stack);
    expect(Object.keys(report.operations)).toEqual(sorted(Object.keys(report.operations)));
    for (const needs of Object.values(report.operations)) expect(needs.map((need) => need.request)).toEqual([...needs.map((need) => need.request)].sort((a, b) => a.localeCompare(b)));
    expect(report.all).toEqual(sorted(...COMMANDS.map((command) => report.commands[command])));
    expect(report.all).toEqual([...ALL, "webhook.read"].sort());
    expect(report.unscoped).toEqual(["DELETE /client-templates/{templateID}", "GET /client-templates", "GET /client-templates/{templateID}", "POST /client-templates", "PUT /client-templates/{templateID}"]);
  });
});

describe("the union of several stacks' reports (fleet scopes)", () => {
  const stacks = {
    monitors: { program: [monitor], state: [] },
    heartbeats: { program: [], state: [heartbeatLeftInState] },
    sets: { program: [monitorSet], state: [] },
    hooks: { program: [], state: [subscription] },
    templates: { program: [template], state: [] },
  } satisfies Record<string, StackContents>;

  it("needs, per command, every scope any stack needs, and merges the commands behind each operation", () => {
    const [monitors, heartbeats] = [stacks.monitors, stacks.heartbeats].map(scopesFor) as [ScopesReport, ScopesReport];
    const union = unionOf([monitors, heartbeats]);
    expect(union.commands.up).toEqual(["heartbeat.write", "monitor.delete", "monitor.read", "monitor.write"]);
    expect(union.all).toEqual(sorted(monitors.all, heartbeats.all));
    // GET /monitors: listed by drift for both stacks, and by the monitor's verify; the monitor's refresh does without it.
    expect(needOf(union, "GET /monitors")).toMatchObject({ scope: "monitor.write", commands: ["drift", "verify", "verify --alerts", "import"], optionalIn: ["preview", "up", "refresh", "destroy"] });
    expect(needOf(union, "DELETE /heartbeats/{heartbeatID}")).toMatchObject({ commands: ["up", "destroy"] });
    expect(unionOf([monitors])).toEqual(monitors);
  });

  it("gathers what each request does, and a command one stack needs a request in leaves those that do without it", () => {
    const union = unionOf([stacks.heartbeats, stacks.monitors, stacks.sets].map(scopesFor));
    expect(needOf(union, "GET /monitors")).toMatchObject({
      does: ["Monitor list", "Monitor statuses listed"],
      commands: ["preview", "up", "refresh", "destroy", "drift", "verify", "verify --alerts", "import"],
      optionalIn: [],
    });
    expect(needOf(unionOf([stacks.heartbeats, stacks.hooks].map(scopesFor)), "GET /webhook-subscriptions")?.does).toEqual(["WebhookSubscription list", "WebhookSubscription read"]);
  });

  it.each([
    ["monitors, heartbeats, subscriptions, templates", [stacks.monitors, stacks.heartbeats, stacks.hooks, stacks.templates]],
    ["templates, subscriptions, heartbeats, monitors", [stacks.templates, stacks.hooks, stacks.heartbeats, stacks.monitors]],
  ])("is the same in any order of the stacks, in order: %s", (_order, contents) => {
    const reports = contents.map(scopesFor);
    const union = unionOf(reports);
    for (const command of COMMANDS) expect(union.commands[command]).toEqual(sorted(...reports.map((report) => report.commands[command])));
    expect(union.commands.up).toEqual(["heartbeat.write", "monitor.delete", "monitor.read", "monitor.write", "webhook.write"]);
    expect(union.all).toEqual([...ALL, "webhook.read"].sort());
    expect(Object.keys(union.operations)).toEqual(sorted(Object.keys(union.operations)));
    for (const needs of Object.values(union.operations)) expect(needs.map((need) => need.request)).toEqual([...needs.map((need) => need.request)].sort((a, b) => a.localeCompare(b)));
    expect(union.unscoped).toEqual(["DELETE /client-templates/{templateID}", "GET /client-templates", "GET /client-templates/{templateID}", "POST /client-templates", "PUT /client-templates/{templateID}"]);
    expect(sentBy(union, "up")).toEqual({ needs: sorted(...reports.map((report) => sentBy(report, "up").needs)), without: ["GET /heartbeats", "GET /monitors"] });
  });
});
