/**
 * `pulumi-monitoring verify` without an engine: the verification of a stack's objects against an
 * in-process emulator, on both profiles (a good monitor, one whose host ends in `.invalid`, a
 * declared-paused one, a TCP monitor, two channels, two webhook subscriptions of which one cannot
 * be reached), a server whose checks land seconds after it answered, the choice of what the last
 * deploy changed, the routes of test alerts, what a delivery says, and the report formats, which
 * must agree on every verdict. test/e2e/verify.test.ts runs the command on deployed stacks.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderJson, renderJunit, renderMarkdown, renderTable } from "../../cli/verify/render.js";
import { type VerifyEntry, verifyExitCode, type VerifyReport } from "../../cli/verify/report.js";
import { deliveryOutcome, planAlerts, verifyTargets } from "../../cli/verify/run.js";
import type { RecordedResource } from "../../cli/project/state.js";
import { lastDeploy, type Target, targetsOf } from "../../cli/verify/targets.js";
import type { ApiClient } from "../../provider/http/client.js";
import { type TestEmulator, useEmulatorWith } from "../support/emulator.js";
import { useReceiver } from "../support/receiver.js";
import { NOTHING_LISTENS } from "../support/nothing-listens.js";
import { providerClientOn } from "../support/provider-client.js";

const FAST = { timeoutMs: 10_000, firstPollMs: 50, maxPollMs: 200 };

/** A webhook endpoint that takes every delivery, and one where nothing listens. */
const receiver = useReceiver();
const UNREACHABLE_URL = `${NOTHING_LISTENS}/hooks`;

interface Scenario {
  targets: Target[];
  ids: Record<string, string>;
}

/** The acceptance stack's objects, made by hand, as its state would record them. */
async function scenario(emulator: TestEmulator): Promise<Scenario> {
  const id = async (path: string, body: unknown): Promise<string> => (await emulator.byHand<{ id: string }>("POST", path, body)).id;
  const ids: Record<string, string> = {
    ops: await id("/notification_channels", { name: "Ops", kind: "email", config: { address: "ops@example.com" } }),
    oncall: await id("/notification_channels", { name: "On call", kind: "email", config: { address: "oncall@example.com" } }),
    good: await id("/monitors", { name: "Good", url: "https://shop.example.com" }),
    broken: await id("/monitors", { name: "Broken", url: "https://shop.example.invalid/health" }),
    paused: await id("/monitors", { name: "Paused", url: "https://paused.example.com" }),
    database: await id("/monitors", { name: "Database", monitor_type: "tcp", tcp_host: "db.example.com", tcp_port: 5432 }),
    hooks: await id("/webhook-subscriptions", { url: receiver.url, events: ["monitor.down"] }),
    deadHooks: await id("/webhook-subscriptions", { url: UNREACHABLE_URL, events: ["monitor.down"] }),
  };
  await emulator.byHand("POST", `/monitors/${ids.good}/notification_channels/${ids.ops}`);
  await emulator.byHand("POST", `/monitors/${ids.paused}/pause`);
  const targets: Target[] = [
    { kind: "Monitor", name: "good", id: ids.good!, channelIds: [ids.ops!] },
    { kind: "Monitor", name: "broken", id: ids.broken!, channelIds: [] },
    { kind: "Monitor", name: "paused", id: ids.paused!, declaredPaused: true },
    { kind: "Monitor", name: "database", id: ids.database! },
    { kind: "NotificationChannel", name: "ops", id: ids.ops! },
    { kind: "NotificationChannel", name: "oncall", id: ids.oncall! },
    { kind: "WebhookSubscription", name: "hooks", id: ids.hooks! },
    { kind: "WebhookSubscription", name: "dead-hooks", id: ids.deadHooks! },
  ];
  return { targets, ids };
}

const verdicts = (entries: readonly VerifyEntry[]): Record<string, string> => Object.fromEntries(entries.map((entry) => [entry.name, entry.verdict]));

describe.each(["default", "alt"] as const)("verify against the emulator (%s profile)", (profile) => {
  let stack: Scenario;
  let entries: VerifyEntry[];

  const on = useEmulatorWith(providerClientOn, { profile });
  beforeAll(async () => {
    stack = await scenario(on.emulator);
    await on.emulator.admin.clearRequestLog();
    const monitors = stack.targets.filter((target) => target.kind === "Monitor");
    entries = await verifyTargets(on.api, stack.targets, monitors, { ...FAST, alerts: true });
  });

  it("passes the good and the TCP monitor, fails the .invalid one with the server's error, skips the paused one", () => {
    expect(verdicts(entries)).toEqual({ good: "passed", broken: "failed", paused: "skipped", database: "passed", ops: "passed", oncall: "passed", hooks: "passed", "dead-hooks": "failed" });
    const broken = entries.find((entry) => entry.name === "broken")!;
    expect(broken.reason).toBe("DOWN after its check: getaddrinfo ENOTFOUND shop.example.invalid");
    expect(broken.error).toBeUndefined();
    expect(broken.details).toMatchObject({ status: "DOWN", results: expect.arrayContaining([expect.objectContaining({ status: "down" })]) });
    expect(entries.find((entry) => entry.name === "paused")?.reason).toBe("declared paused: not checked, not resumed");
  });

  it("reports the unreachable subscription's failed delivery in the server's words", () => {
    const dead = entries.find((entry) => entry.name === "dead-hooks")!;
    expect(dead.reason).toMatch(/^the test delivery failed \(.*ECONNREFUSED/);
    expect(dead.details?.["delivery"]).toBeDefined();
    expect(entries.find((entry) => entry.name === "hooks")?.reason).toMatch(/^test delivered \(SUCCEEDED, HTTP 204/);
  });

  it("sends one check per active monitor and none to the paused one, which stays paused", async () => {
    const log = await on.emulator.admin.requestLog();
    const checks = log.filter((entry) => entry.method === "POST" && entry.path.endsWith("/check")).map((entry) => entry.path.split("/")[2]!.toLowerCase());
    expect(checks.sort()).toEqual([stack.ids.good, stack.ids.broken, stack.ids.database].map((id) => id!.toLowerCase()).sort());
    expect(log.filter((entry) => entry.path.toLowerCase().includes(stack.ids.paused!.toLowerCase()))).toEqual([]);
    expect(log.filter((entry) => entry.path.endsWith("/resume"))).toEqual([]);
    // A few reads per monitor: the results before and after, and one status list per status for all of them.
    const reads = log.filter((entry) => entry.method === "GET" && entry.path.endsWith("/results"));
    expect(reads.length).toBeLessThanOrEqual(3 * 3);
    expect(log.filter((entry) => entry.method === "GET" && entry.path === "/monitors")).toHaveLength(2);
  });

  it("tests each channel exactly once: ops through the test alert of the monitor it is attached to, on-call directly", async () => {
    const notifications = await on.emulator.admin.notifications();
    const byChannel = (id: string) => notifications.filter((notification) => notification.channel_id.toLowerCase() === id.toLowerCase()).map((notification) => notification.reason);
    expect(byChannel(stack.ids.ops!)).toEqual(["test_alert"]);
    expect(byChannel(stack.ids.oncall!)).toEqual(["channel_test"]);
    expect(entries.find((entry) => entry.name === "ops")?.reason).toBe("test accepted (202) through the test alert of monitor good");
  });

  it("sends no test notification without --alerts, and lists no channel", async () => {
    const before = (await on.emulator.admin.notifications()).length;
    const again = await verifyTargets(on.api, stack.targets.filter((target) => target.kind !== "NotificationChannel"), [], { ...FAST, alerts: false });
    expect(again.map((entry) => entry.kind)).not.toContain("NotificationChannel");
    expect(await on.emulator.admin.notifications()).toHaveLength(before);
  });

  it("writes a table, JSON, JUnit and a job summary that agree on every verdict, and exits 3", () => {
    const report: VerifyReport = { project: "shop", stacks: [{ stack: "prod", scope: "last deploy", entries }] };
    expect(verifyExitCode(report)).toBe(3);
    const json = JSON.parse(renderJson(report)) as { passed: number; failed: number; skipped: number; stacks: Array<{ entries: VerifyEntry[] }> };
    expect(verdicts(json.stacks[0]!.entries)).toEqual(verdicts(entries));
    expect([json.passed, json.failed, json.skipped]).toEqual([5, 2, 1]);

    const junit = renderJunit(report);
    const cases = [...junit.matchAll(/<testcase classname="prod\.(\w+)" name="([^"]+)"[^>]*>\n\s*<(failure|skipped|system-out|error)/g)].map((match) => [match[2], match[3]]);
    const asJunit = { passed: "system-out", failed: "failure", skipped: "skipped" } as const;
    expect(Object.fromEntries(cases)).toEqual(Object.fromEntries(entries.map((entry) => [entry.name, asJunit[entry.verdict]])));
    expect(junit).toContain('<testsuites name="pulumi-monitoring verify shop" tests="8" failures="2" errors="0" skipped="1">');
    expect(junit).toContain("getaddrinfo ENOTFOUND shop.example.invalid");

    const markdown = renderMarkdown(report);
    expect(markdown).toContain("## Verify `shop`: 2 failed");
    expect(markdown).toContain(`- **broken** (Monitor \`${stack.ids.broken}\`): DOWN after its check: getaddrinfo ENOTFOUND shop.example.invalid`);
    expect(markdown).toMatch(/- \*\*dead-hooks\*\* \(WebhookSubscription .*\): the test delivery failed/);
    for (const entry of entries) expect(markdown).toContain(`| ${entry.name} | ${entry.kind} | ${entry.verdict} |`);
    const table = renderTable(report);
    for (const entry of entries) expect(table).toMatch(new RegExp(`^${entry.name} +${entry.kind} +${entry.id} +${entry.verdict} `, "m"));
    expect(table).toContain("5 passed, 2 failed, 1 skipped.");
  });
});

describe("a server whose check results land seconds after it answers (--check-delay)", () => {
  const on = useEmulatorWith(providerClientOn, { checkDelayMs: 1000 });

  it("keeps showing the monitor UP until the result lands, and verify still reports the broken monitor failed", async () => {
    const { id } = await on.emulator.byHand<{ id: string }>("POST", "/monitors", { name: "Shop", url: "https://shop.example.com" });
    await on.emulator.byHand("POST", `/monitors/${id}/check`);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await on.emulator.byHand("GET", `/monitors/${id}`)).toMatchObject({ status: "UP" });
    // A deploy breaks the URL; a check accepted now lands a second later, and the monitor shows UP meanwhile.
    await on.emulator.byHand("PATCH", `/monitors/${id}`, { url: "https://shop.example.invalid" });
    await on.emulator.byHand("POST", `/monitors/${id}/check`);
    expect(await on.emulator.byHand("GET", `/monitors/${id}`)).toMatchObject({ status: "UP" });
    // verify waits for the result of its own run (the other check's result lands first), then reads the status.
    const [entry] = await verifyTargets(on.api, [{ kind: "Monitor", name: "shop", id }], [], { ...FAST, alerts: false });
    expect(entry).toMatchObject({ verdict: "failed", reason: "DOWN after its check: getaddrinfo ENOTFOUND shop.example.invalid" });
    expect(entry!.durationMs).toBeGreaterThanOrEqual(1000);
    const checkIds = new Set((entry!.details?.["results"] as Array<{ check_id: string }>).map((result) => result.check_id));
    expect([...checkIds]).toEqual([(entry!.details?.["check"] as { check_id: string }).check_id]);
  });

  it("fails a monitor whose result does not land within --timeout", async () => {
    const { id } = await on.emulator.byHand<{ id: string }>("POST", "/monitors", { name: "Slow", url: "https://slow.example.com" });
    const [entry] = await verifyTargets(on.api, [{ kind: "Monitor", name: "slow", id }], [], { ...FAST, timeoutMs: 300, alerts: false });
    expect(entry).toMatchObject({ verdict: "failed", reason: "no result of its check within the time limit (a timed-out check counts as failed)" });
    expect(entry!.error).toBeUndefined();
  });
});

describe("what the last deploy created or changed", () => {
  const at = (second: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, second)).toISOString();
  const monitor = (name: string, extra: Partial<RecordedResource> & { changedAt?: string }): RecordedResource => ({
    urn: `urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:Monitor::${name}`,
    type: "pulumi-nodejs:dynamic/monitoring:Monitor",
    id: `id-${name}`,
    inputs: { url: "https://x.example" },
    outputs: extra.changedAt === undefined ? {} : { __changedAt: extra.changedAt },
    ...extra,
  });
  const window = lastDeploy([
    { kind: "refresh", startTime: at(50), endTime: at(55) },
    { kind: "update", startTime: at(20), endTime: at(30) },
    { kind: "update", startTime: at(0), endTime: at(10) },
  ]);

  it("is the newest update of the history, a refresh after it aside, with a second of slack each side", () => {
    expect(window).toEqual({ startMs: Date.parse(at(19)), endMs: Date.parse(at(31)) });
    expect(lastDeploy([{ kind: "refresh", startTime: at(0), endTime: at(1) }])).toBeUndefined();
  });

  it.each([
    ["written by the last deploy", { changedAt: at(25), modified: at(52) }, true],
    ["written by an earlier deploy, its status refreshed since", { changedAt: at(5), modified: at(25) }, false],
    ["recorded before the stamp existed, created by the last deploy", { created: at(21), modified: at(21) }, true],
    ["recorded before the stamp existed, modified by the last deploy", { created: at(1), modified: at(29) }, true],
    ["recorded before the stamp existed, untouched since an earlier deploy", { created: at(1), modified: at(9) }, false],
  ])("a monitor %s: %s", (_case, extra, included) => {
    expect(targetsOf([monitor("web", extra)], window).map((target) => target.name)).toEqual(included ? ["web"] : []);
  });

  it("reads names, declared pause and channels, a set's monitors and the kinds verify tests; --all takes every one", () => {
    const resources: RecordedResource[] = [
      { urn: "urn:pulumi:prod::shop::pulumi:pulumi:Stack::shop-prod", type: "pulumi:pulumi:Stack" },
      monitor("paused", { inputs: { paused: true, notificationChannelIds: ["c1"], clientId: "C-1" } }),
      { urn: "urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:Heartbeat::backup", type: "pulumi-nodejs:dynamic/monitoring:Heartbeat", id: "hb" },
      { urn: "urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:WebhookSubscription::hooks", type: "pulumi-nodejs:dynamic/monitoring:WebhookSubscription", id: "wh" },
      {
        urn: "urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:MonitorSet::sites",
        type: "pulumi-nodejs:dynamic/monitoring:MonitorSet",
        id: "set",
        inputs: { monitors: { blog: { url: "https://blog.example", paused: true }, shop: { url: "https://shop.example" } } },
        outputs: { ids: { blog: "m-blog", shop: "m-shop" } },
      },
    ];
    expect(targetsOf(resources)).toEqual([
      { kind: "Monitor", name: "paused", id: "id-paused", clientId: "c-1", declaredPaused: true, channelIds: ["c1"] },
      { kind: "WebhookSubscription", name: "hooks", id: "wh" },
      { kind: "Monitor", name: "sites[blog]", id: "m-blog", declaredPaused: true },
      { kind: "Monitor", name: "sites[shop]", id: "m-shop" },
    ]);
  });
});

describe("the route of each channel's one test", () => {
  const channel = (id: string): Target => ({ kind: "NotificationChannel", name: id, id });
  const monitor = (name: string, channelIds: string[], extra: Partial<Target> = {}): Target => ({ kind: "Monitor", name, id: `m-${name}`, channelIds, ...extra });
  const route = (plan: ReturnType<typeof planAlerts>) => ({
    viaMonitor: plan.viaMonitor.map(({ monitor: via, channels }) => `${via.name}: ${channels.map((target) => target.id).join(" ")}`),
    direct: plan.direct.map((target) => target.id),
  });

  it.each([
    ["a monitor per channel", [monitor("a", ["c1"]), monitor("b", ["c2"])], { viaMonitor: ["a: c1", "b: c2"], direct: [] }],
    ["the larger disjoint set first, never a channel twice", [monitor("one", ["c1"]), monitor("both", ["c1", "c2"]), monitor("again", ["c2"])], { viaMonitor: ["both: c1 c2"], direct: [] }],
    ["not through a monitor that also reaches a channel out of scope", [monitor("wide", ["c1", "elsewhere"])], { viaMonitor: [], direct: ["c1", "c2"] }],
    ["not through a paused monitor or one with an escalation policy", [monitor("p", ["c1"], { declaredPaused: true }), monitor("e", ["c2"], { escalationPolicyId: "pol" })], { viaMonitor: [], direct: ["c1", "c2"] }],
    ["ids in any letter case", [monitor("upper", ["C1"])], { viaMonitor: ["upper: c1"], direct: ["c2"] }],
  ])("%s", (_case, routes, expected) => {
    expect(route(planAlerts([channel("c1"), channel("c2")], routes))).toEqual(expected);
  });
});

describe("what a delivery says about its outcome", () => {
  it.each([
    [{ status: "SUCCEEDED", last_response_status: 204 }, "succeeded"],
    [{ state: "delivered" }, "succeeded"],
    [{ status: "FAILED", attempts: [{ error: "timeout" }] }, "failed"],
    [{ status: "PENDING", attempt_count: 0, attempts: [] }, "pending"],
    [{ status: "PENDING", attempts: [{ response_status: null, error: "ECONNREFUSED" }] }, "failed"],
    [{ status: "retrying", last_response_status: 500 }, "failed"],
    [{ response_status: 200 }, "succeeded"],
    [{ event: "webhook.test" }, "unknown"],
  ])("%j is %s", (delivery, state) => {
    expect(deliveryOutcome(delivery).state).toBe(state);
  });
});
