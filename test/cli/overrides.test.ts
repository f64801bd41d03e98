/**
 * What `pause`, `resume` and `overrides` decide before anything is sent: until when, why and who;
 * which object of the stack's deployed state a name means (by the whole type token: another
 * package's `Monitor` is none of ours), and what a name the stack lacks is told; the call and the
 * records each command asks for; the listing. The runs themselves (the engine, two runners, stale
 * checkouts) are test/examples/overrides.test.ts's.
 */
import { describe, expect, it } from "vitest";
import { joinedValues } from "../../cli/command/args.js";
import { UsageError } from "../../cli/command/usage.js";
import { pause, pauseChange, renderOverrides, resumeChange } from "../../cli/overrides/command.js";
import { overridesInState, withRecordedPauses } from "../../cli/overrides/records.js";
import { actorOf, pauseAsked, untilOf, VALUED_OPTIONS } from "../../cli/overrides/request.js";
import { findTarget, matchingTargets } from "../../cli/overrides/targets.js";

const NOW = Date.parse("2030-11-28T20:00:00Z");
const TOKEN = "pulumi-nodejs:dynamic/monitoring:";
const urn = (type: string, name: string) => `urn:pulumi:acme::shop::${TOKEN}${type}::${name}`;
const override = { until: "2030-11-28T22:00:00.000Z", reason: "incident 42", by: "alice", at: "2030-11-28T20:00:00.000Z" };
const exported = {
  version: 3,
  deployment: {
    resources: [
      { urn: "urn:pulumi:acme::shop::pulumi:pulumi:Stack::shop-acme", type: "pulumi:pulumi:Stack" },
      { urn: urn("Monitor", "web"), type: `${TOKEN}Monitor`, id: "w1", inputs: { paused: false }, outputs: { url: "https://shop.example", paused: true, __override: override } },
      { urn: urn("Heartbeat", "backup"), type: `${TOKEN}Heartbeat`, id: "h1", inputs: {}, outputs: { paused: false } },
      { urn: urn("NotificationChannel", "ops"), type: `${TOKEN}NotificationChannel`, id: "c1", outputs: {} },
      // Another package's kinds of the same last segment are none of ours.
      { urn: "urn:pulumi:acme::shop::acme:index:Monitor::legacy", type: "acme:index:Monitor", id: "x1", outputs: {} },
      {
        urn: urn("MonitorSet", "fleet"),
        type: `${TOKEN}MonitorSet`,
        id: "set-1",
        inputs: { monitors: { api: { url: "https://a", pauses: [{ from: "2030-11-28T19:00:00Z", to: "2030-11-28T23:00:00Z", reason: "migration" }] }, docs: { url: "https://d" } } },
        outputs: { ids: { api: "m1", docs: "m2" }, statuses: { api: "UP", docs: "UP" }, monitors: { api: { url: "https://a", paused: true }, docs: { url: "https://d", paused: false } } },
      },
    ],
  },
};
const state = { exported, now: NOW, handPauses: { rule: "putBack" as const } };

describe("until when and why", () => {
  it.each([
    { values: { for: "2h", reason: "incident 42" }, until: "2030-11-28T22:00:00.000Z" },
    { values: { for: "1h30m", reason: "incident 42" }, until: "2030-11-28T21:30:00.000Z" },
    { values: { until: "2030-11-29T01:00:00+02:00", reason: " db upgrade " }, until: "2030-11-28T23:00:00.000Z" },
  ])("$values gives an end of $until", ({ values, until }) => {
    const asked = pauseAsked(values);
    expect(untilOf(asked, NOW)).toBe(until);
    expect(asked.reason).toBe(values.reason.trim());
  });

  it.each([
    { values: { for: "-1h", reason: "x" }, says: '--for must be a positive duration such as 2h, 90m, 1d or 1h30m, got "-1h"' },
    { values: { for: "0", reason: "x" }, says: '--for must be a positive duration such as 2h, 90m, 1d or 1h30m, got "0"' },
    { values: { until: "2030-11-28T22:00:00", reason: "x" }, says: '--until must be an ISO 8601 instant with an offset (Z or ±hh:mm), such as 2030-11-28T22:00:00Z, got "2030-11-28T22:00:00"' },
    { values: { for: "2h", reason: "  " }, says: "--reason must say why (not empty)" },
    { values: { reason: "x" }, says: "say until when: either --for DURATION" },
    { values: { for: "2h", until: "2030-11-28T22:00:00Z", reason: "x" }, says: "say until when: either --for DURATION" },
  ])("refuses $values: $says", ({ values, says }) => {
    expect(() => pauseAsked(values)).toThrow(UsageError);
    expect(() => pauseAsked(values)).toThrow(says);
  });

  it("refuses an --until that is not after the deploys' now", () => {
    expect(() => untilOf(pauseAsked({ until: "2030-11-28T19:00:00Z", reason: "x" }), NOW)).toThrow("--until 2030-11-28T19:00:00Z is not in the future (now is 2030-11-28T20:00:00.000Z)");
  });

  it("takes a value that starts with a dash for the option's value, so that its own rule refuses it", () => {
    expect(joinedValues(["web", "--for", "-1h", "--reason", "x", "--stack", "acme"], VALUED_OPTIONS)).toEqual(["web", "--for=-1h", "--reason=x", "--stack", "acme"]);
  });
});

describe("who", () => {
  it.each([
    { env: { PULUMI_MONITORING_ACTOR: "alice", GITHUB_ACTOR: "gh", GITLAB_USER_LOGIN: "gl" }, by: "alice" },
    { env: { GITHUB_ACTOR: "gh", GITLAB_USER_LOGIN: "gl" }, by: "gh" },
    { env: { GITLAB_USER_LOGIN: "gl" }, by: "gl" },
  ])("reads $by first from $env", async ({ env, by }) => {
    expect(await actorOf(env, process.cwd())).toBe(by);
  });
});

describe("which object", () => {
  it.each([
    { name: "web", target: { name: "web", urn: urn("Monitor", "web"), kind: "Monitor", objectKind: "Monitor", id: "w1" } },
    { name: "backup", target: { name: "backup", urn: urn("Heartbeat", "backup"), kind: "Heartbeat", objectKind: "Heartbeat", id: "h1" } },
    { name: "fleet[docs]", target: { name: "fleet[docs]", urn: urn("MonitorSet", "fleet"), member: "docs", kind: "MonitorSet", objectKind: "Monitor", id: "m2" } },
  ])("finds $name in the deployed state, with its id", ({ name, target }) => {
    expect(findTarget(exported, "acme", name)).toMatchObject(target);
  });

  it("reads a set's member as a single monitor records it, with what the last deploy declared of it", () => {
    expect(findTarget(exported, "acme", "fleet[api]")).toMatchObject({ inputs: { pauses: [expect.objectContaining({ reason: "migration" })] }, outputs: { url: "https://a", paused: true, status: "UP" } });
  });

  it.each([
    { name: "wbe", says: 'stack acme has no monitor, heartbeat or set member named "wbe": did you mean web?' },
    { name: "docs", says: 'stack acme has no monitor, heartbeat or set member named "docs": did you mean fleet[docs]?' },
    { name: "ops", says: 'stack acme has no monitor, heartbeat or set member named "ops": its monitors and heartbeats: web, backup, fleet[api], fleet[docs]' },
  ])("refuses $name, naming the stack and the close names", ({ name, says }) => {
    expect(() => findTarget(exported, "acme", name)).toThrow(new UsageError(says));
  });

  it("matches globs over single objects and members", () => {
    expect(matchingTargets(exported, "fleet[*]").map((target) => target.name)).toEqual(["fleet[api]", "fleet[docs]"]);
    expect(matchingTargets(exported, "*").map((target) => target.name)).toEqual(["web", "backup", "fleet[api]", "fleet[docs]"]);
  });
});

describe("what each command sends and records", () => {
  it("pause: one pause call, and the override with the end from the stack's now, the reason and the author", () => {
    expect(pauseChange(state, "acme", "fleet[docs]", pauseAsked({ for: "2h", reason: "incident 42" }), "alice")).toMatchObject({
      target: { name: "fleet[docs]", id: "m2" },
      write: true,
      override: { until: "2030-11-28T22:00:00.000Z", reason: "incident 42", by: "alice", at: "2030-11-28T20:00:00.000Z" },
    });
  });

  it("resume: the record dropped and the resume call; no call where the deployed program's window keeps it paused", () => {
    const web = resumeChange(state, "acme", "web");
    expect(web).toMatchObject({ target: { name: "web" }, write: false });
    expect(web).not.toHaveProperty("override");
    const withWindow = { ...state, exported: withRecordedPauses(exported as never, [{ target: findTarget(exported, "acme", "fleet[api]"), override }]) };
    const api = resumeChange(withWindow, "acme", "fleet[api]");
    expect(api).not.toHaveProperty("write");
    expect(api).not.toHaveProperty("override");
  });

  it("resume refuses an object with no override", () => {
    expect(() => resumeChange(state, "acme", "backup")).toThrow(new UsageError("backup of stack acme has no override to end (pulumi-monitoring overrides lists them)"));
  });

  it("`pause` without a resource is bad usage, before any stack is read", async () => {
    const stderr: string[] = [];
    const io = { stdout: { write: () => true }, stderr: { write: (text: string) => stderr.push(text) }, stdin: process.stdin, signals: process, env: {} };
    expect(await pause.run(["--for", "2h", "--reason", "x", "--cwd", "/nonexistent"], io)).toBe(2);
    expect(stderr.join("")).toContain("pulumi-monitoring pause: name the resource: web, or a set's member fleet[web]");
  });
});

describe("the records in the state", () => {
  it("lists each override with who, why, until when, and whether it is active or ended", () => {
    const recorded = withRecordedPauses(exported as never, [{ target: findTarget(exported, "acme", "fleet[api]"), override: { ...override, until: "2030-11-28T19:30:00.000Z" } }]);
    expect(overridesInState(recorded, NOW)).toEqual([
      { resource: "web", type: "Monitor", ...override, state: "active" },
      { resource: "fleet", member: "api", type: "MonitorSet", ...override, until: "2030-11-28T19:30:00.000Z", state: "ended" },
    ]);
  });

  it.each([{ exported: undefined }, { exported: {} }, { exported: { deployment: { resources: "none" } } }])("lists nothing from a state without resources: $exported", ({ exported }) => {
    expect(overridesInState(exported, 0)).toEqual([]);
  });

  it("a write changes only the written object's pause state and records, a member's in the set's maps, and drops an empty map", () => {
    const paused = withRecordedPauses(exported as never, [{ target: findTarget(exported, "acme", "fleet[docs]"), held: { paused: true, status: "PAUSED", name: "ignored" }, override }]);
    const [before, after] = [exported, paused].map((one) => (one as typeof exported).deployment.resources) as [typeof exported.deployment.resources, typeof exported.deployment.resources];
    expect(after.slice(0, 5)).toEqual(before.slice(0, 5));
    expect(after[5]!.outputs).toEqual({
      ...before[5]!.outputs,
      statuses: { api: "UP", docs: "PAUSED" },
      monitors: { api: (before[5]!.outputs as { monitors: { api: object } }).monitors.api, docs: { url: "https://d", paused: true } },
      __override: { docs: override },
    });
    const resumed = withRecordedPauses(paused, [{ target: findTarget(paused, "acme", "fleet[docs]"), held: { paused: false } }]);
    expect(resumed.deployment.resources[5].outputs).not.toHaveProperty("__override");
    const single = withRecordedPauses(exported as never, [{ target: findTarget(exported, "acme", "web"), held: { paused: false, status: "UP" } }]);
    expect(single.deployment.resources[1].outputs).toEqual({ url: "https://shop.example", paused: false, status: "UP" });
  });

  it("refuses to record an object the state no longer holds", () => {
    const target = findTarget(exported, "acme", "web");
    expect(() => withRecordedPauses({ version: 3, deployment: { resources: [] } } as never, [{ target, held: { paused: true } }])).toThrow("web is no longer in the stack's state");
  });
});

describe("the listing", () => {
  it("one line per override, with its stack, state, end, author and reason", () => {
    const rows = [{ resource: "web", type: "Monitor", ...override, state: "active" as const }];
    expect(renderOverrides([{ stack: "acme", rows }])).toBe(
      ["STACK  RESOURCE  STATE   UNTIL                     BY     REASON", "acme   web       active  2030-11-28T22:00:00.000Z  alice  incident 42", ""].join("\n"),
    );
    expect(renderOverrides([{ stack: "acme", rows: [] }])).toBe("No override recorded in stack acme.\n");
  });
});
