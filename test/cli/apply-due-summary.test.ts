/**
 * What `apply-due` prints (cli/apply-due/run.ts): a line per stack, what it applied, that it sent
 * and wrote nothing, or what it left undone and why, then the requests sent beside the minimum.
 */
import { describe, expect, it } from "vitest";
import { renderSummary } from "../../cli/apply-due/run.js";

const URN = "urn:pulumi:acme::shop::pulumi-nodejs:dynamic/monitoring:";
const pause = { urn: `${URN}Monitor::web`, object: "web", type: "Monitor", paused: true, reason: "Black Friday freeze", done: true };
const resume = { urn: `${URN}MonitorSet::fleet`, object: "fleet[api]", type: "MonitorSet", paused: false, reason: "active", done: true };
const dropped = { urn: `${URN}Heartbeat::backup`, object: "backup", type: "Heartbeat", reason: "declared", done: true };

describe("renderSummary", () => {
  it("names what each stack applied, the stacks with nothing due, and the requests beside the minimum", () => {
    const text = renderSummary({
      stacks: [
        { stack: "acme", due: [pause, resume, dropped], result: "applied" },
        { stack: "globex", due: [], result: "nothing due" },
      ],
      requests: 2,
      minimum: 2,
    });
    expect(text).toBe(
      [
        "acme    applied: pause web ('Black Friday freeze'), resume fleet[api], drop the ended override of backup",
        "globex  nothing due (nothing sent, nothing written)",
        "",
        "2 requests (minimum 2: one call per due pause or resume); 1 of 2 stacks had nothing due",
        "",
      ].join("\n"),
    );
  });

  it.each([
    {
      result: "locked" as const,
      error: "locked (by ci@runner-7, pid 12, since 2030-11-28T20:00:00Z), and its lock stands: its run renewed its lease 3 s ago",
      due: [{ ...pause, done: false, error: "locked (by ci@runner-7, pid 12, since 2030-11-28T20:00:00Z), and its lock stands" }],
      line: "locked (by ci@runner-7, pid 12, since 2030-11-28T20:00:00Z), and its lock stands: its run renewed its lease 3 s ago; sent but not recorded yet (the next apply-due or deploy records it): pause web ('Black Friday freeze'): NOT DONE",
    },
    {
      result: "failed" as const,
      error: "403 monitor.write",
      due: [{ ...pause, done: false, error: "403 monitor.write" }, resume],
      line: "failed: pause web ('Black Friday freeze'): NOT DONE (403 monitor.write), resume fleet[api]",
    },
    { result: "failed" as const, error: "no stack named acme", due: [], line: "failed: no stack named acme" },
  ])("says what a $result stack left undone: $line", ({ result, error, due, line }) => {
    expect(renderSummary({ stacks: [{ stack: "acme", due, result, error }], requests: 0, minimum: 0 })).toContain(`acme  ${line}`);
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
