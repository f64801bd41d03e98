/**
 * What a deploy does with a change made by hand, decided by the provider on both emulator
 * profiles, through its own methods driven as the engine drives a `pulumi up` that refreshes
 * first: the read finds the hand change, the diff finds a change to make, and the update puts
 * back what the program declares (the name, `paused: false`) and keeps what it leaves out (the
 * interval). test/e2e/hand-changes.test.ts proves on the real engine, on one profile, that every
 * deploy refreshes first and that `--refresh=false` skips it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../schema/index.js";
import { check } from "../../provider/check.js";
import { diff } from "../../provider/diff.js";
import { ResourceEngine } from "../../provider/engine.js";
import type { ApiClient } from "../../provider/http/client.js";
import { profiles } from "../e2e/support.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

describe.each(profiles)("a hand change on the $profile profile", ({ profile, regions }) => {
  let engine: ResourceEngine;

  const on = useEmulatorWith(providerClientOn, { profile });
  beforeAll(async () => {
    engine = new ResourceEngine(monitor, () => on.api);
  });

  it("is found by the refresh, and the update resumes the monitor and restores its name, and keeps the interval the program leaves out", async () => {
    const declared = { name: "Web", url: "https://example.com", regions: regions.split(","), paused: false };
    const { inputs, failures } = check(monitor, { ...declared, __urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:Monitor::web" });
    expect(failures).toEqual([]);
    const { id, outs } = await engine.create(inputs);
    const held = () => on.emulator.byHand<Record<string, unknown>>("GET", `/monitors/${id}`);

    await on.emulator.byHand("POST", `/monitors/${id}/pause`);
    await on.emulator.byHand("PATCH", `/monitors/${id}`, { name: "Renamed by hand", interval_seconds: 900 });

    // Without the refresh, the recorded outputs match the program: nothing to do.
    expect(diff(monitor, outs, inputs).changes).toBe(false);
    const { props } = await engine.read(id, outs);
    expect(props).toMatchObject({ name: "Renamed by hand", paused: true, intervalSeconds: 900 });
    const planned = diff(monitor, props ?? {}, inputs);
    expect(planned).toMatchObject({ changes: true, replaces: [] });

    const { outs: repaired } = await engine.update(id, props ?? {}, inputs);
    expect(await held()).toMatchObject({ paused: false, name: "Web", interval_seconds: 900 });
    const reread = await engine.read(id, repaired);
    expect(diff(monitor, reread.props ?? {}, inputs).changes).toBe(false);
    expect(reread.props).toEqual(repaired);
    await engine.delete(id, repaired);
  });
});
