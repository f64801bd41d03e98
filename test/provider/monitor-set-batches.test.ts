/**
 * A MonitorSet's batch create when its idempotency key is replayed, through the provider's own
 * methods against the emulator, driven as the engine drives them (check, create, diff, read,
 * delete): each member of a replayed batch recovers as a single Monitor's replayed create does
 * (provider/engine.ts `completeCreate`): fetched by id and taken over while it exists, else made
 * afresh under a new key.
 * The engine's side of a set (partial failures recorded in state, the next up carrying on) is
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

const monitors = Object.fromEntries(
  Array.from({ length: 12 }, (_, index) => [`site-${index}`, { name: `Site ${index}`, url: `https://site-${index}.example.com`, intervalSeconds: 60 }]),
);

describe("a MonitorSet's batch replayed under its idempotency key", () => {
  let sets: ReturnType<typeof monitorSetProvider>;

  const on = useEmulatorWith(providerClientOn);
  beforeAll(async () => {
    sets = monitorSetProvider(new ResourceEngine(monitor, () => on.api), () => ({}));
  });

  /** The set's inputs as check hands them to create: the same set (URN) and bodies give the same batch key. */
  const declared = (name: string): Values => {
    const { inputs, failures } = checkGroup(monitorSet, { monitors, __urn: `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:MonitorSet::${name}` });
    expect(failures).toEqual([]);
    return inputs;
  };
  const requests = async () => (await on.emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path}`);
  const idsOf = (outs: Values) => outs["ids"] as Record<string, string>;
  const onServer = async () => (await on.api.listAll<{ id: string; name: string }>("/monitors")).map((item) => item.id.toLowerCase());

  it("takes over the monitors of a batch whose answer was lost, each fetched by id as a single replayed create is", async () => {
    const inputs = declared("lost-answer");
    await on.emulator.admin.clearRequestLog();
    await on.emulator.admin.injectFault({ method: "POST", path: "/monitors/batch", drop_response: true, times: 1 });
    const { id, outs } = await sets.create(inputs);
    // The lost answer, its replay under the same idempotency key, and a GET by id per monitor.
    const ids = Object.values(idsOf(outs));
    const sent = await requests();
    expect(sent.slice(0, 2)).toEqual(["POST /monitors/batch", "POST /monitors/batch"]);
    expect(sent.slice(2).sort()).toEqual(ids.map((id) => `GET /monitors/${id}`).sort());
    expect(new Set(Object.values(idsOf(outs)))).toEqual(new Set(await onServer()));
    expect(Object.keys(idsOf(outs))).toHaveLength(12);
    // The next preview, and the refresh before it, find nothing to do.
    expect((await sets.diff!(id, outs, inputs)).changes).toBe(false);
    const { props } = await sets.read!(id, outs);
    expect((await sets.diff!(id, props ?? {}, inputs)).changes).toBe(false);
    await sets.delete!(id, outs);
    expect(await onServer()).toEqual([]);
  });

  it("makes a set destroyed and declared again afresh, each member of its replayed batch found gone by id and created under a new key", async () => {
    const inputs = declared("declared-again");
    const first = await sets.create(inputs);
    await sets.delete!(first.id, first.outs);
    expect(await onServer()).toEqual([]);

    // The same monitors as the first up: the same batch, whose idempotency key the service replays.
    await on.emulator.admin.clearRequestLog();
    const again = await sets.create(inputs);
    const sent = await requests();
    expect(sent[0]).toBe("POST /monitors/batch");
    expect(sent.slice(1).filter((request) => request.startsWith("GET /monitors/"))).toHaveLength(12);
    expect(sent.slice(1).filter((request) => request === "POST /monitors")).toHaveLength(12);
    expect(sent).toHaveLength(25);
    const ids = Object.values(idsOf(again.outs));
    expect(new Set(ids)).toEqual(new Set(await onServer()));
    expect(ids).toHaveLength(12);
    expect(ids.some((id) => Object.values(idsOf(first.outs)).includes(id))).toBe(false);
    expect((await sets.diff!(again.id, again.outs, inputs)).changes).toBe(false);
    await sets.delete!(again.id, again.outs);
  });
});
