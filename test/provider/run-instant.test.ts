/**
 * One instant per run (provider/run-instant.ts): the provider process reads the clock once, at
 * the first call that needs it, so that every decision of a preview or an up is made at the same
 * instant, and diff and update never disagree at a window's boundary; an instant the settings fix
 * (`monitoring:now`, `PULUMI_MONITORING_NOW`) is that instant, and the run says so once, naming it
 * and the setting. The engine shows that warning in preview and up alike: test/e2e/pause-window-scenario.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stackConfigKeyName } from "../../provider/config.js";
import { RunInstant } from "../../provider/run-instant.js";
import { withPauses } from "../../provider/pauses.js";

type Values = Record<string, unknown>;

const T = Date.parse("2030-11-28T20:00:00Z");
const URN = "urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:Monitor::web";

/** A clock that moves a minute each time it is read, as a run's clock moves between its calls. */
function movingClock(start: number) {
  const clock = vi.fn(() => start + (clock.mock.calls.length - 1) * 60_000);
  return clock;
}

const noSettings = { config: () => () => undefined, keyName: () => stackConfigKeyName("prod"), env: {} };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a run's instant", () => {
  it("is the clock read once, at the first call that needs it, however the clock moves after", () => {
    const clock = movingClock(T);
    const instant = new RunInstant({ ...noSettings, clock });
    expect(clock).not.toHaveBeenCalled();
    expect([instant.now(), instant.now(), instant.now()]).toEqual([T, T, T]);
    expect(clock).toHaveBeenCalledTimes(1);
  });

  it.each([
    { title: "monitoring:now", config: "2030-11-28T22:05:00+01:00", env: {}, instant: "2030-11-28T21:05:00.000Z" },
    { title: "PULUMI_MONITORING_NOW", config: undefined, env: { PULUMI_MONITORING_NOW: "2030-11-28T22:05:00Z" }, instant: "2030-11-28T22:05:00.000Z" },
  ])("is the instant $title fixes, and the clock is never read", ({ config, env, instant }) => {
    const clock = movingClock(T);
    const run = new RunInstant({ ...noSettings, config: () => () => config, env, clock });
    expect(new Date(run.now()).toISOString()).toBe(instant);
    expect(new Date(run.now()).toISOString()).toBe(instant);
    expect(clock).not.toHaveBeenCalled();
  });

  it("refuses a fixed instant without an offset, naming the setting", () => {
    const run = new RunInstant({ ...noSettings, config: () => () => "2030-11-28T22:05:00" });
    expect(() => run.now()).toThrow('monitoring:now of stack prod must be an ISO 8601 instant with an offset (Z or ±hh:mm), such as 2030-01-31T12:00:00Z, got "2030-11-28T22:05:00"');
  });
});

describe("the notice of a fixed instant", () => {
  it.each([
    { title: "the stack's monitoring:now", config: "2030-11-28T22:05:00Z", env: { PULUMI_MONITORING_NOW: "2031-01-01T00:00:00Z" }, source: "monitoring:now of stack prod" },
    { title: "PULUMI_MONITORING_NOW", config: undefined, env: { PULUMI_MONITORING_NOW: "2030-11-28T23:05:00+01:00" }, source: "PULUMI_MONITORING_NOW" },
  ])("names the instant and $title, once per run", ({ config, env, source }) => {
    const run = new RunInstant({ ...noSettings, config: () => () => config, env });
    expect(run.notice()).toBe(
      `${source} is set: this run takes 2030-11-28T22:05:00.000Z for now, not the clock, for every pause window, override and hand pause; unset it for deploys at the real time`,
    );
    expect(run.notice()).toBeUndefined();
  });

  it("is not given when the run takes the clock", () => {
    expect(new RunInstant(noSettings).notice()).toBeUndefined();
  });
});

describe("diff and update of one run", () => {
  it("decide at the same instant when the clock crosses a window's start between them", async () => {
    // The diff runs a millisecond before the window, the update a minute later, inside it.
    const clock = movingClock(T - 1);
    const run = new RunInstant({ ...noSettings, clock });
    const seen: { diff?: Values; update?: Values } = {};
    const monitor: pulumi.dynamic.ResourceProvider = {
      check: async (_olds, news) => ({ inputs: news }),
      diff: async (_id, olds, news) => {
        seen.diff = news;
        return { changes: news["url"] !== olds["url"] || news["paused"] !== olds["paused"] };
      },
      create: async (inputs) => ({ id: "m1", outs: inputs }),
      read: async (id, props) => ({ id, props }),
      update: async (_id, _olds, news) => {
        seen.update = news;
        return { outs: news };
      },
      delete: async () => {},
    };
    const provider = withPauses("Monitor", monitor, () => ({ now: run.now(), handPauses: { rule: "putBack" }, overrides: [], pausesOnly: false }));
    vi.spyOn(console, "error").mockImplementation(() => {});
    const window = { from: new Date(T).toISOString(), to: new Date(T + 3_600_000).toISOString(), reason: "database upgrade" };
    const olds = { url: "https://shop.example", paused: false };
    const news = { __urn: URN, url: "https://shop.example/health", pauses: [window] };

    expect(await provider.diff!("m1", olds, news)).toEqual({ changes: true });
    await provider.update!("m1", olds, news);

    expect(seen.diff).toMatchObject({ paused: false });
    expect(seen.update).toMatchObject({ paused: false });
    expect(clock).toHaveBeenCalledTimes(1);
  });
});

describe("the provider process", () => {
  it("warns on the row of the first resource it checks that monitoring:now fixes the run's instant, and only there", async () => {
    // A process of its own, as the host starts one per run: the module loaded afresh.
    vi.resetModules();
    const { dispatcher } = await import("../../provider/index.js");
    const config: Record<string, string> = { "monitoring:now": "2030-11-28T22:05:00Z" };
    await dispatcher.configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key] as string } });
    // Outside a provider plugin, a warning goes to standard error.
    const warnings = vi.spyOn(console, "error").mockImplementation(() => {});
    const channel = (name: string) => ({ __urn: `urn:pulumi:prod::shop::pulumi-nodejs:dynamic/monitoring:NotificationChannel::${name}`, name, kind: "email", config: { address: "ops@example.com" } });

    await dispatcher.check({}, channel("ops"));
    await dispatcher.check({}, channel("oncall"));

    expect(warnings.mock.calls.map(([line]) => line)).toEqual([
      "pulumi-monitoring (no engine to warn through): monitoring:now of stack prod is set: this run takes 2030-11-28T22:05:00.000Z for now, not the clock, for every pause window, override and hand pause; unset it for deploys at the real time",
    ]);
  });
});
