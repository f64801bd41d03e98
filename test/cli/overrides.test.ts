/**
 * What `pause`, `resume` and `overrides` check before anything runs: until when, why and who;
 * which object of the stack's state a name means, and what a name the stack lacks is told; the
 * listing. The runs themselves (the engine, two runners) are test/examples/overrides.test.ts's.
 */
import { describe, expect, it } from "vitest";
import { joinedValues } from "../../cli/command/args.js";
import { UsageError } from "../../cli/command/usage.js";
import { pause, pauseRequest, renderOverrides, resumeRequest } from "../../cli/overrides/command.js";
import { actorOf, pauseAsked, untilOf, VALUED_OPTIONS } from "../../cli/overrides/request.js";
import { findTarget, matchingTargets } from "../../cli/overrides/targets.js";

const NOW = Date.parse("2030-11-28T20:00:00Z");
const urn = (type: string, name: string) => `urn:pulumi:acme::shop::pulumi-nodejs:dynamic:Resource$pulumi-monitoring:index:${type}::${name}`;
const override = { until: "2030-11-28T22:00:00.000Z", reason: "incident 42", by: "alice", at: "2030-11-28T20:00:00.000Z" };
const exported = {
  deployment: {
    resources: [
      { urn: "urn:pulumi:acme::shop::pulumi:pulumi:Stack::shop-acme", type: "pulumi:pulumi:Stack" },
      { urn: urn("Monitor", "web"), type: "pulumi-monitoring:index:Monitor", outputs: { url: "https://shop.example", __override: override } },
      { urn: urn("Heartbeat", "backup"), type: "pulumi-monitoring:index:Heartbeat", outputs: {} },
      { urn: urn("NotificationChannel", "ops"), type: "pulumi-monitoring:index:NotificationChannel", outputs: {} },
      { urn: urn("MonitorSet", "fleet"), type: "pulumi-monitoring:index:MonitorSet", outputs: { ids: { api: "m1", docs: "m2" }, monitors: { api: { url: "https://a" }, docs: { url: "https://d" } } } },
    ],
  },
};
const state = { exported, now: NOW };

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
    { name: "web", target: { name: "web", urn: urn("Monitor", "web"), kind: "Monitor" } },
    { name: "backup", target: { name: "backup", urn: urn("Heartbeat", "backup"), kind: "Heartbeat" } },
    { name: "fleet[docs]", target: { name: "fleet[docs]", urn: urn("MonitorSet", "fleet"), member: "docs", kind: "MonitorSet" } },
  ])("finds $name in the state", ({ name, target }) => {
    expect(findTarget(exported, "acme", name)).toEqual(target);
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

describe("the requests", () => {
  it("pause: the object's urn and member, the end from the stack's now, the reason and the author", () => {
    expect(pauseRequest(state, "acme", "fleet[api]", pauseAsked({ for: "2h", reason: "incident 42" }), "alice").request).toEqual({
      urn: urn("MonitorSet", "fleet"),
      member: "api",
      until: "2030-11-28T22:00:00.000Z",
      reason: "incident 42",
      by: "alice",
    });
  });

  it("resume: ends a recorded override, and refuses an object with none", () => {
    expect(resumeRequest(state, "acme", "web").request).toEqual({ urn: urn("Monitor", "web"), end: true });
    expect(() => resumeRequest(state, "acme", "backup")).toThrow(new UsageError("backup of stack acme has no override to end (pulumi-monitoring overrides lists them)"));
  });

  it("`pause` without a resource is bad usage, before any stack is read", async () => {
    const stderr: string[] = [];
    const io = { stdout: { write: () => true }, stderr: { write: (text: string) => stderr.push(text) }, stdin: process.stdin, signals: process, env: {} };
    expect(await pause.run(["--for", "2h", "--reason", "x", "--cwd", "/nonexistent"], io)).toBe(2);
    expect(stderr.join("")).toContain("pulumi-monitoring pause: name the resource: web, or a set's member fleet[web]");
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
