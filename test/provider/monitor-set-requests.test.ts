/**
 * A MonitorSet through the provider's own methods against the emulator, driven as the engine
 * drives them: made in one batch call (and a pause for the member declared paused); then a member
 * changed by hand, and a `pulumi up` that refreshes first: the refresh reads the members from one
 * list page (the set knows its size: no read per monitor) and finds the change, the diff finds a
 * change to make, and the update patches that member alone. After it, the next refresh finds
 * nothing. The engine's side (the refresh recording the hand change in state, the plain up
 * putting it back) is test/e2e/hand-changes.test.ts; a set's lifecycle on the engine,
 * test/e2e/monitor-set.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../schema/index.js";
import { ResourceEngine } from "../../provider/engine.js";
import { checkGroup } from "../../provider/check.js";
import { monitorSetProvider } from "../../provider/monitor-set.js";
import { monitorSet } from "../../schema/members.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

type Values = Record<string, unknown>;

const monitors = {
  storefront: { name: "Storefront", url: "https://shop.example.com", regions: ["eu-west-1", "us-east-1"] },
  checkout: { name: "Checkout", url: "https://shop.example.com/checkout", intervalSeconds: 60 },
  search: { name: "Search", url: "https://shop.example.com/search", paused: true },
};

describe("a MonitorSet's requests", () => {
  let sets: ReturnType<typeof monitorSetProvider>;

  const on = useEmulatorWith(providerClientOn);
  beforeAll(async () => {
    sets = monitorSetProvider(new ResourceEngine(monitor, () => on.api), () => ({}));
  });

  const requests = async () => (await on.emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path}`);

  it("made in one batch call; a member changed by hand is found by a refresh of one list page, and the update patches it alone", async () => {
    const { inputs, failures } = checkGroup(monitorSet, { monitors, __urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:MonitorSet::fleet" });
    expect(failures).toEqual([]);
    await on.emulator.admin.clearRequestLog();
    const { id, outs } = await sets.create(inputs);
    const ids = outs["ids"] as Record<string, string>;
    expect(await requests()).toEqual(["POST /monitors/batch", `POST /monitors/${ids.search}/pause`]);
    expect(await on.emulator.byHand("GET", `/monitors/${ids.search}`)).toMatchObject({ paused: true });
    await on.emulator.byHand("PATCH", `/monitors/${ids.storefront}`, { name: "Renamed by hand" });

    await on.emulator.admin.clearRequestLog();
    const { props } = await sets.read!(id, outs);
    expect(await requests()).toEqual(["GET /monitors"]);
    expect((props?.["monitors"] as Record<string, Values>).storefront).toMatchObject({ name: "Renamed by hand" });
    expect((await sets.diff!(id, props ?? {}, inputs)).changes).toBe(true);

    await on.emulator.admin.clearRequestLog();
    const { outs: repaired } = await sets.update!(id, props ?? {}, inputs);
    expect(await requests()).toEqual([`PATCH /monitors/${ids.storefront}`]);
    expect(await on.emulator.byHand("GET", `/monitors/${ids.storefront}`)).toMatchObject({ name: "Storefront" });
    expect(repaired["ids"]).toEqual(ids);

    await on.emulator.admin.clearRequestLog();
    const reread = await sets.read!(id, repaired);
    expect(await requests()).toEqual(["GET /monitors"]);
    expect((await sets.diff!(id, reread.props ?? {}, inputs)).changes).toBe(false);
    await sets.delete!(id, repaired);
  });

  it("keeps a replaced member's old object recorded under a key of its own when its delete fails, names it, and the next update deletes it", async () => {
    const urn = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:MonitorSet::moved";
    const first = checkGroup(monitorSet, { monitors: { web: monitors.checkout }, __urn: urn }).inputs;
    const { id, outs } = await sets.create(first);
    const old = (outs["ids"] as Record<string, string>).web!;
    const clientId = (await on.emulator.byHand<{ id: string }>("POST", "/clients", { name: "Moved to" })).id;
    const moved = checkGroup(monitorSet, { monitors: { web: monitors.checkout }, clientId, __urn: urn }).inputs;
    await on.emulator.admin.injectFault({ method: "DELETE", path: "/monitors/*", status: 403, times: 1 });
    const failure = await sets.update!(id, outs, moved).then(
      () => expect.fail("the update succeeded"),
      (error: Error & { properties: Values }) => error,
    );
    const leftover = `web (replaced ${old})`;
    expect(failure.message).toContain(`; the object it replaced stays recorded as moved[${leftover}], which the next up deletes`);
    const recorded = failure.properties["ids"] as Record<string, string>;
    expect(recorded[leftover]).toBe(old);
    expect(recorded.web).not.toBe(old);
    expect((await sets.diff!(id, failure.properties, moved)).changes).toBe(true);

    await on.emulator.admin.clearRequestLog();
    const { outs: done } = await sets.update!(id, failure.properties, moved);
    expect(await requests()).toEqual([`DELETE /monitors/${old}`]);
    expect(done["ids"]).toEqual({ web: recorded.web });
    await sets.delete!(id, done);
  });
});
