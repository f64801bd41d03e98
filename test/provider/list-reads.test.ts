/**
 * What a refresh costs: the provider's read path driven the way the dynamic provider host drives
 * it during `pulumi refresh` (and the refresh that `options: refresh: always` puts before every
 * `up`): one `read` per resource, as many at once as the engine has workers (`--parallel`, 4 per
 * core by default), against the emulator, counting the requests in its log. The benchmark
 * (`npm run bench:provider`) measures the same on the real Pulumi CLI.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { monitor } from "../../schema/index.js";
import { check } from "../../provider/check.js";
import { diff } from "../../provider/diff.js";
import { ResourceEngine } from "../../provider/engine.js";
import { profiles } from "../e2e/support.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

type Values = Record<string, unknown>;

describe.each(profiles)("refresh reads on the $profile profile", ({ profile, regions }) => {

  const on = useEmulatorWith(providerClientOn, { profile });
  beforeEach(async () => {
    await on.emulator.admin.reset();
  });

  /** A basic monitor's checked inputs, as `new Monitor(name, ...)` hands them to create. */
  function basicInputs(name: string, extra: Values = {}): Values {
    const result = check(monitor, {
      name,
      url: `https://example.com/${name}`,
      intervalSeconds: 60,
      regions: regions.split(","),
      ...extra,
      __urn: `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:Monitor::${name}`,
    });
    expect(result.failures).toEqual([]);
    return result.inputs;
  }

  /**
   * `count` monitors made through the batch endpoint (100 a request), each with the outputs a
   * `Monitor` resource records for it: the state a refresh starts from.
   */
  async function deployed(engine: ResourceEngine, prefix: string, count: number, extra: Values = {}): Promise<{ id: string; state: Values; inputs: Values }[]> {
    const made: { id: string; state: Values; inputs: Values }[] = [];
    for (let start = 0; start < count; start += 100) {
      const inputs = Array.from({ length: Math.min(100, count - start) }, (_, index) => basicInputs(`${prefix}-${start + index}`, extra));
      const bodies = inputs.map(({ __urn, ...fields }) => ({
        name: fields["name"],
        url: fields["url"],
        interval_seconds: fields["intervalSeconds"],
        regions: fields["regions"],
        ...(fields["httpMethod"] === undefined ? {} : { http_method: fields["httpMethod"], request_body: fields["requestBody"] }),
        ...(fields["clientId"] === undefined ? {} : { client_id: fields["clientId"] }),
      }));
      const { data } = await on.api.request<Values[]>("POST", "/monitors/batch", { body: { monitors: bodies }, expectedStatus: 201 });
      for (const [index, created] of data.entries()) {
        const id = created["id"] as string;
        made.push({ id, state: (await engine.completeCreate(created, false, inputs[index] as Values)).outs, inputs: inputs[index] as Values });
      }
    }
    return made;
  }

  /** Reads every resource as the host does: `parallel` calls in flight, each taking the next resource when it ends. */
  async function refresh(engine: ResourceEngine, resources: readonly { id: string; state: Values }[], parallel: number): Promise<{ id?: string; props?: Values }[]> {
    const results: { id?: string; props?: Values }[] = new Array(resources.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < resources.length) {
        const index = next++;
        const resource = resources[index] as { id: string; state: Values };
        results[index] = await engine.read(resource.id, resource.state);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
    return results;
  }

  async function requestsDuring(action: () => Promise<unknown>): Promise<{ method: string; path: string; query: string }[]> {
    await on.emulator.admin.clearRequestLog();
    await action();
    return on.emulator.admin.requestLog();
  }

  it.each([1, 8, 64])("refreshes 1,000 monitors in their 4 list pages (plus a GET when the first read comes alone), at most 20 requests listed in another order, with %i reads at once, and sees a hand change", async (parallel) => {
    const engine = new ResourceEngine(monitor, () => on.api);
    const monitors = await deployed(engine, "basic", 1000);
    const paused = monitors[617] as { id: string; inputs: Values };
    await on.api.request("POST", `/monitors/${paused.id}/pause`, { idempotencyKey: "auto" });

    let results: { id?: string; props?: Values }[] = [];
    const requests = await requestsDuring(async () => (results = await refresh(new ResourceEngine(monitor, () => on.api), monitors, parallel)));

    expect(requests.filter((request) => request.query.includes("limit=250")).length).toBeGreaterThanOrEqual(4);
    // Listed oldest first (default profile), as the state holds them, the pages answer every read;
    // newest first (alt), reads go by id while few are waiting for a later page.
    if (profile === "alt") expect(requests.length).toBeLessThanOrEqual(20);
    else expect(requests).toHaveLength(parallel === 1 ? 5 : 4);
    expect(results.map((result) => result.id)).toEqual(monitors.map((resource) => resource.id));
    const drifted = results.flatMap((result, index) => (diff(monitor, result.props ?? {}, (monitors[index] as { inputs: Values }).inputs).changes ? [index] : []));
    // Paused by hand: the program leaves `paused` out, so the read shows it and nothing else differs.
    expect(drifted).toEqual([]);
    expect(results[617]?.props?.["paused"]).toBe(true);
    expect(results.filter((result) => result.props?.["paused"] === true)).toHaveLength(1);
  }, 120_000);

  it("reads one object with one GET, and a few in a large account with a page plus a GET each: at most 1.25 requests a read, plus one", async () => {
    const setup = new ResourceEngine(monitor, () => on.api);
    await deployed(setup, "someone-else", 1000);
    const one = await deployed(setup, "alone", 1);
    const few = await deployed(setup, "ours", 3);
    const more = await deployed(setup, "more-of-ours", 12);

    const oneRequests = await requestsDuring(() => refresh(new ResourceEngine(monitor, () => on.api), one, 8));
    expect(oneRequests.map((request) => `${request.method} ${request.path.toLowerCase()}${request.query}`)).toEqual([`GET /monitors/${one[0]!.id.toLowerCase()}`]);

    // Read together, the three look in the first page; listed oldest first (the default profile),
    // the 1,000 others fill it and each is read by id; newest first (alt), it shows them.
    const fewRequests = await requestsDuring(() => refresh(new ResourceEngine(monitor, () => on.api), few, 8));
    expect(fewRequests.filter((request) => request.query.includes("limit=250"))).toHaveLength(1);
    const gets = fewRequests.filter((request) => !request.query.includes("limit")).map((request) => request.path.toLowerCase());
    expect(gets.sort()).toEqual(profile === "alt" ? [] : few.map(({ id }) => `/monitors/${id.toLowerCase()}`).sort());

    const moreRequests = await requestsDuring(() => refresh(new ResourceEngine(monitor, () => on.api), more, 8));
    expect(moreRequests.length).toBeLessThanOrEqual(Math.floor(1.25 * more.length) + 1);
  }, 120_000);

  it.each([
    [8, "read at once", 1],
    [1, "read one after another", 2],
  ])("reads 8 monitors of one client in a page, plus a GET when the first read comes alone (%i at once: %s)", async (parallel, _how, expected) => {
    const setup = new ResourceEngine(monitor, () => on.api);
    await deployed(setup, "someone-else", 300);
    const client = await on.api.request<Values>("POST", "/clients", { body: { name: "Acme" }, expectedStatus: 201 });
    const ours = await deployed(setup, "acme", 8, { clientId: client.data["id"] });

    const requests = await requestsDuring(() => refresh(new ResourceEngine(monitor, () => on.api), ours, parallel));
    expect(requests).toHaveLength(expected);
    expect(requests.filter((request) => request.query.includes("limit=250") && request.query.includes("client_id="))).toHaveLength(1);
  }, 60_000);

  it("reads by id a monitor whose list item lacks a field its state records", async () => {
    const engine = new ResourceEngine(monitor, () => on.api);
    const withBody = await deployed(engine, "posting", 30, { httpMethod: "POST", requestBody: '{"probe":true}' });

    let results: { id?: string; props?: Values }[] = [];
    const requests = await requestsDuring(async () => (results = await refresh(new ResourceEngine(monitor, () => on.api), withBody, 8)));

    expect(results.every((result) => result.props?.["requestBody"] === '{"probe":true}')).toBe(true);
    const gets = requests.filter((request) => !request.query.includes("limit"));
    // The alt profile leaves request_body out of list items (emulator/README.md): every read falls back to its GET.
    if (profile === "alt") expect(gets).toHaveLength(withBody.length);
    // Read together, the 30 are answered from the first page.
    else expect(gets).toHaveLength(0);
    expect(requests.length).toBeLessThanOrEqual(Math.floor(1.25 * withBody.length) + 1);
  }, 60_000);
});
