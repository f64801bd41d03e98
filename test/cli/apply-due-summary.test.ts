/**
 * What `apply-due` prints (cli/apply-due/run.ts): a line per stack, what it applied, that it ran
 * nothing, or why it could not, then the requests sent beside the minimum.
 */
import { describe, expect, it } from "vitest";
import { renderSummary } from "../../cli/apply-due/run.js";

const URN = "urn:pulumi:acme::shop::pulumi-nodejs:dynamic/monitoring:";
const pause = { urn: `${URN}Monitor::web`, resource: "web", type: "Monitor", paused: true, reason: "Black Friday freeze" };
const resume = { urn: `${URN}MonitorSet::fleet`, resource: "fleet", member: "api", type: "MonitorSet", paused: false, reason: "active" };

describe("renderSummary", () => {
  it("names what each stack applied, the stacks with nothing due, and the requests beside the minimum", () => {
    const text = renderSummary({
      stacks: [
        { stack: "acme", due: [pause, resume], result: "applied" },
        { stack: "globex", due: [], result: "nothing due" },
      ],
      requests: 2,
      minimum: 2,
    });
    expect(text).toBe(
      [
        "acme    applied: pause web ('Black Friday freeze'), resume fleet[api]",
        "globex  nothing due (no Pulumi operation)",
        "",
        "2 requests (minimum 2: one write per due change); 1 of 2 stacks had nothing due",
        "",
      ].join("\n"),
    );
  });

  it.each([
    {
      result: "locked" as const,
      error: "locked (by ci@runner-7, pid 12, since 2030-11-28T20:00:00Z), and its lock stands: its run renewed its lease 3 s ago",
      line: "locked (by ci@runner-7, pid 12, since 2030-11-28T20:00:00Z), and its lock stands: its run renewed its lease 3 s ago; not applied: pause web ('Black Friday freeze')",
    },
    { result: "failed" as const, error: "no stack named acme", line: "failed (no stack named acme); not applied: pause web ('Black Friday freeze')" },
  ])("says what a $result stack left undone", ({ result, error, line }) => {
    expect(renderSummary({ stacks: [{ stack: "acme", due: [pause], result, error }], requests: 0, minimum: 0 })).toContain(`acme  ${line}\n`);
  });

  it("names the lock of a run that died, taken over before the stack's run, under the stack's line", () => {
    const holder = { user: "ci", host: "runner-7", pid: 4242, since: "2030-11-28T20:00:00Z" };
    const text = renderSummary({ stacks: [{ stack: "acme", due: [pause], result: "applied", takenOver: [{ holder, why: "its process (pid 4242) no longer exists on this host (runner-7)" }] }], requests: 1, minimum: 1 });
    expect(text.split("\n").slice(0, 2)).toEqual([
      "acme  applied: pause web ('Black Friday freeze')",
      "      took over the lock of ci@runner-7 (pid 4242, since 2030-11-28T20:00:00Z): its process (pid 4242) no longer exists on this host (runner-7)",
    ]);
  });
});
