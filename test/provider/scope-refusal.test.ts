/**
 * A 403 for a missing scope, through the provider's own operations on the emulator with a key
 * that lacks it: the message names the operation (method and path template), the scope the spec
 * lists for it, the resource being worked on and where the key came from (stack configuration or
 * the environment), never the key. It is sent once, not retried, and leaves nothing half-made: a
 * refused create makes nothing, and an object created before a later step was refused is
 * recorded (a PartialFailure with its id), so that the next up finishes it instead of losing it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkGroup } from "../../provider/check.js";
import { ResourceEngine } from "../../provider/engine.js";
import { PartialFailure } from "../../provider/failures.js";
import type { ApiClient } from "../../provider/http/client.js";
import { monitorSetProvider } from "../../provider/monitor-set.js";
import { monitor } from "../../schema/index.js";
import { monitorSet } from "../../schema/members.js";
import { ALL_SCOPES } from "../../emulator/api/auth.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

const FROM_STACK = { apiUrl: "monitoring:apiUrl of stack acme", apiKey: "monitoring:apiKey of stack acme" };
const FROM_ENV = { apiUrl: "MONITORING_API_URL", apiKey: "MONITORING_API_KEY" };
const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:${kind}::${name}`;
const URL = "https://shop.example.com/";

describe("a key without a scope the operation needs", () => {
  const on = useEmulatorWith(providerClientOn);
  let channelId: string;
  const clients: ApiClient[] = [];

  beforeAll(async () => {
    channelId = ((await on.emulator.byHand("POST", "/notification_channels", { name: "Ops", kind: "email", config: { address: "ops@example.com" } })) as { id: string }).id;
    return async () => {
      await Promise.all(clients.map((client) => client.close()));
    };
  });

  /** A client with a key holding every scope but `lacking`, from `sources`. */
  async function clientWithout(lacking: string, sources: typeof FROM_STACK): Promise<{ api: ApiClient; key: string }> {
    const { key } = await on.emulator.admin.createKey(ALL_SCOPES.filter((scope) => scope !== lacking));
    const api = providerClientOn(on.emulator, { apiKey: key, sources });
    clients.push(api);
    return { api, key };
  }
  const sent = async (): Promise<string[]> => {
    const log = await on.emulator.admin.requestLog();
    await on.emulator.admin.clearRequestLog();
    return log.map((entry) => `${entry.method} ${entry.path.replace(/^\/v1/, "")} ${entry.status}`);
  };
  const monitorsOnTheService = async (): Promise<unknown[]> => (await on.emulator.byHand("GET", "/monitors")) as unknown[];

  it.each([
    { where: "the stack's configuration", sources: FROM_STACK },
    { where: "the environment", sources: FROM_ENV },
  ])("a refused create names the operation, the scope, the resource and the key from $where; sent once, nothing made", async ({ sources }) => {
    const { api, key } = await clientWithout("monitor.write", sources);
    const engine = new ResourceEngine(monitor, () => api);
    await on.emulator.admin.clearRequestLog();
    const error = (await engine.create({ url: URL, __urn: urn("Monitor", "storefront") }).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    ))!;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain('Monitor "storefront": create failed');
    expect(error.message).toContain("does not hold the scope monitor.write, which the spec lists for POST /monitors (spec 4.2)");
    expect(error.message).toContain(`the API key from ${sources.apiKey}`);
    expect(error.message).not.toContain(key);
    expect(await sent()).toEqual(["POST /monitors 403"]);
    expect(await monitorsOnTheService()).toEqual([]);
  });

  it("a set's batch create refused: named with the set, sent once, no member made", async () => {
    const { api } = await clientWithout("monitor.write", FROM_STACK);
    const sets = monitorSetProvider(new ResourceEngine(monitor, () => api), () => ({}));
    const { inputs, failures } = checkGroup(monitorSet, { monitors: { home: { url: URL }, cart: { url: `${URL}cart` } }, __urn: urn("MonitorSet", "pages") });
    expect(failures).toEqual([]);
    await on.emulator.admin.clearRequestLog();
    const error = (await sets.create(inputs).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    ))!;
    expect(error.message).toContain('MonitorSet "pages"');
    expect(error.message).toContain("does not hold the scope monitor.write, which the spec lists for POST /monitors/batch");
    expect(error.message).toContain("the API key from monitoring:apiKey of stack acme");
    expect(await sent()).toEqual(["POST /monitors/batch 403"]);
    expect(await monitorsOnTheService()).toEqual([]);
  });

  it("a step refused after the create: the monitor made is recorded with its id for the next up, the refused attach sent once", async () => {
    const { api } = await clientWithout("monitor.delete", FROM_STACK);
    const engine = new ResourceEngine(monitor, () => api);
    await on.emulator.admin.clearRequestLog();
    const error = await engine.create({ url: URL, notificationChannelIds: [channelId], __urn: urn("Monitor", "checkout") }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(PartialFailure);
    const partial = error as PartialFailure;
    expect(partial.message).toContain('Monitor "checkout"');
    expect(partial.message).toContain("does not hold the scope monitor.delete, which the spec lists for POST /monitors/{monitorID}/notification_channels/{channelID}");
    expect(partial.message).toContain(`the object ${partial.id} was created and is kept`);
    expect(await monitorsOnTheService()).toEqual([expect.objectContaining({ id: partial.id })]);
    const requests = await sent();
    expect(requests.filter((request) => request.endsWith(" 403"))).toEqual([`POST /monitors/${partial.id}/notification_channels/${channelId} 403`]);
    await on.emulator.byHand("DELETE", `/monitors/${partial.id}`);
  });
});
