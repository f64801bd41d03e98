/**
 * Preview asks the service (`monitoring:dryRun`, provider/dry-run.ts): the verdicts read from
 * either answer a server may give, the batcher's requests (at most 100 monitors each, each caller
 * its own verdicts), and check as the dynamic provider host calls it, against the emulator's two
 * profiles (the default refuses a batch with a 422 naming `monitors[i].field`; alt answers 201 with
 * a verdict per monitor), counting requests in the emulator's log.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { DRY_RUN_PATH, DryRunBatcher, verdictsOfAnswer, verdictsOfRefusal } from "../../provider/dry-run.js";
import { ApiError } from "../../provider/errors.js";
import { ApiClient } from "../../provider/http/client.js";
import { providerFor } from "../../provider/index.js";
import { profiles } from "../e2e/support.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

const refusal = (details: Record<string, unknown>) =>
  new ApiError({ status: 422, code: "validation_failed", reason: "Invalid request", details, requestId: "req_1", method: "POST", path: DRY_RUN_PATH, attempts: 1 });

describe("the verdicts of an answer", () => {
  it.each([
    {
      case: "a refusal naming items and fields",
      verdicts: verdictsOfRefusal(3, refusal({ "monitors[1].regions[0]": "must be an offered region", "monitors[1].interval_seconds": "must be at least 10", "monitors[2]": "must be a monitor object" })),
      expected: [
        { fields: {}, requestId: "req_1" },
        { fields: { "regions[0]": "must be an offered region", interval_seconds: "must be at least 10" }, requestId: "req_1" },
        { fields: {}, message: "must be a monitor object", requestId: "req_1" },
      ],
    },
    {
      case: "a refusal naming no item: every monitor, with the server's message",
      verdicts: verdictsOfRefusal(2, refusal({ monitors: "must be an array of 1 to 50 monitor objects" })),
      expected: [
        { fields: {}, message: expect.stringContaining("must be an array of 1 to 50"), requestId: "req_1" },
        { fields: {}, message: expect.stringContaining("must be an array of 1 to 50"), requestId: "req_1" },
      ],
    },
    {
      case: "201 with the monitors as they would be (the default profile): all pass",
      verdicts: verdictsOfAnswer(2, { valid: true, count: 2, monitors: [{ id: null, name: "a" }, { id: null, name: "b" }] }),
      expected: [{ fields: {} }, { fields: {} }],
    },
    {
      case: "201 with a verdict per monitor (the alt profile)",
      verdicts: verdictsOfAnswer(2, { valid: false, results: [{ index: 0, valid: true }, { index: 1, valid: false, errors: { "regions[0]": "must be an offered region" } }] }),
      expected: [{ fields: {} }, { fields: { "regions[0]": "must be an offered region" } }],
    },
    {
      case: "201 with a list of results, errors as a list, out of order",
      verdicts: verdictsOfAnswer(2, [{ index: 1, valid: false, errors: [{ field: "url", message: "unreachable host" }] }, { index: 0, valid: true }]),
      expected: [{ fields: {} }, { fields: { url: "unreachable host" } }],
    },
    {
      case: "201 whose invalid result names no field: shown as the server gives it",
      verdicts: verdictsOfAnswer(1, { results: [{ valid: false, reason: "quota exceeded" }] }),
      expected: [{ fields: {}, message: '{"reason":"quota exceeded"}' }],
    },
    {
      case: "201 saying not valid, its errors naming items: those items",
      verdicts: verdictsOfAnswer(2, { valid: false, errors: { "monitors[1].name": "taken" } }),
      expected: [{ fields: {} }, { fields: { name: "taken" } }],
    },
    {
      case: "201 saying not valid, naming no item: every monitor",
      verdicts: verdictsOfAnswer(2, { valid: false, errors: { name: "taken" } }),
      expected: [{ fields: { name: "taken" } }, { fields: { name: "taken" } }],
    },
    { case: "201 with nothing to read: all pass", verdicts: verdictsOfAnswer(1, { accepted: true }), expected: [{ fields: {} }] },
  ])("$case", ({ verdicts, expected }) => {
    expect(verdicts).toEqual(expected);
  });
});

describe.each(profiles)("the $profile profile", ({ profile, regions }) => {
  const [region] = regions.split(",") as [string];

  const on = useEmulatorWith(providerClientOn, { profile });
  beforeEach(async () => {
    await on.emulator.admin.reset();
  });

  const requests = async () => (await on.emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path}`);
  const body = (name: string, monitorRegion = region) => ({ name, url: `https://example.com/${name}`, regions: [monitorRegion] });

  describe("the batcher", () => {
    it("sends what arrives together in requests of at most 100 and hands each caller its own verdicts", async () => {
      const batcher = new DryRunBatcher(() => on.api);
      const set = Array.from({ length: 250 }, (_, index) => body(`set-${index}`, index === 57 ? "mars-1" : region));
      const [single, another, ofSet] = await Promise.all([batcher.verdicts([body("web")]), batcher.verdicts([body("bad", "mars-1")]), batcher.verdicts(set)]);

      expect(single).toEqual([expect.objectContaining({ fields: {} })]);
      expect(another).toEqual([expect.objectContaining({ fields: { "regions[0]": expect.stringMatching(/offered region/) } })]);
      expect(ofSet).toHaveLength(250);
      expect(ofSet.flatMap((verdict, index) => (Object.keys(verdict.fields).length > 0 ? [index] : []))).toEqual([57]);
      expect(await requests()).toEqual(Array(3).fill(`POST ${DRY_RUN_PATH}`));
      expect(await on.emulator.byHand("GET", "/monitors")).toEqual([]);
    });

    it("fails its callers when it cannot ask: no client, a fault that outlasts the retries; a key without the scope is every monitor's refusal", async () => {
      await expect(new DryRunBatcher(() => { throw new Error("No API key for the monitoring service"); }).verdicts([body("a")])).rejects.toThrow("No API key");

      await on.emulator.admin.injectFault({ method: "POST", path: DRY_RUN_PATH, status: 503, times: 1 });
      const once = new ApiClient({ baseUrl: on.emulator.baseUrl, apiKey: on.emulator.apiKey, maxRetries: 0 });
      await expect(new DryRunBatcher(() => once).verdicts([body("a"), body("b")])).rejects.toThrow(/POST \/monitors\/batch\/dry-run failed with 503/);
      await once.close();

      const key = await on.emulator.admin.createKey(["monitor.read"]);
      const limited = new ApiClient({ baseUrl: on.emulator.baseUrl, apiKey: key.key, maxRetries: 0 });
      const verdicts = await new DryRunBatcher(() => limited).verdicts([body("a"), body("b")]);
      expect(verdicts).toEqual(Array(2).fill(expect.objectContaining({ fields: {}, message: expect.stringMatching(/403 .*required_scope: monitor\.write/) })));
      await limited.close();
    });

    it("sends one request for calls within its window, and another for a call after it", async () => {
      const batcher = new DryRunBatcher(() => on.api, { windowMs: 20 });
      await Promise.all([batcher.verdicts([body("a")]), new Promise((resolve) => setTimeout(resolve, 5)).then(() => batcher.verdicts([body("b")]))]);
      expect(await requests()).toHaveLength(1);
      await batcher.verdicts([body("c")]);
      expect(await requests()).toHaveLength(2);
    });
  });

  describe("check, as the dynamic provider host calls it", () => {
    const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:${kind}::${name}`;

    async function configure(dryRun: boolean): Promise<void> {
      const config: Record<string, string> = { "monitoring:apiUrl": on.emulator.baseUrl, "monitoring:apiKey": on.emulator.apiKey, ...(dryRun ? { "monitoring:dryRun": "true" } : {}) };
      await providerFor("Monitor").configure?.({ config: { get: (key) => config[key], require: (key) => config[key] as string } });
    }
    // The provider's module state outlives this file in a shared worker: leave it unconfigured.
    afterAll(() => providerFor("Monitor").configure?.({ config: { get: () => undefined, require: () => "" } }));

    it("refuses a monitor the service refuses, naming the resource and the field; sends nothing for an unchanged one", async () => {
      await configure(true);
      const monitor = providerFor("Monitor");
      const news = { url: "https://example.com", regions: [region, "mars-1"], __urn: urn("Monitor", "far") };
      const refused = await monitor.check!({}, news);
      expect(refused.failures).toEqual([
        { property: "regions[1]", reason: expect.stringMatching(/^Monitor\.regions\[1\]: must be an offered region \(.*\); refused by the service's dry run, POST \/monitors\/batch\/dry-run \[request_id req_\w+\]$/) },
      ]);
      expect(await requests()).toEqual([`POST ${DRY_RUN_PATH}`]);

      const good = { ...news, regions: [region] };
      const { inputs, failures } = await monitor.check!({}, good);
      expect(failures ?? []).toEqual([]);
      await on.emulator.admin.clearRequestLog();
      expect((await monitor.check!(inputs, good)).failures ?? []).toEqual([]);
      expect(await requests(), "an unchanged monitor is not sent").toEqual([]);
      expect((await monitor.check!(inputs, { ...good, name: "renamed" })).failures ?? []).toEqual([]);
      expect(await requests(), "a changed one is").toEqual([`POST ${DRY_RUN_PATH}`]);
      expect(await on.emulator.byHand("GET", "/monitors")).toEqual([]);
    });

    it("sends a MonitorSet's new and changed monitors 100 a request, and names the refused one", async () => {
      await configure(true);
      const set = providerFor("MonitorSet");
      const monitors = Object.fromEntries(Array.from({ length: 250 }, (_, index) => [`m-${index}`, { url: `https://example.com/${index}`, regions: [region] }]));
      const { inputs, failures } = await set.check!({}, { monitors, __urn: urn("MonitorSet", "fleet") });
      expect(failures ?? []).toEqual([]);
      expect(await requests()).toEqual(Array(3).fill(`POST ${DRY_RUN_PATH}`));

      await on.emulator.admin.clearRequestLog();
      const changed = { ...monitors, "m-57": { url: "https://example.com/57", regions: ["mars-1"] }, "m-new": { url: "https://example.com/new" } };
      const refused = await set.check!(inputs, { monitors: changed, __urn: urn("MonitorSet", "fleet") });
      expect(refused.failures).toEqual([{ property: 'monitors["m-57"].regions[0]', reason: expect.stringMatching(/^MonitorSet\.monitors\["m-57"\]\.regions\[0\]: must be an offered region/) }]);
      expect(await requests(), "2 monitors changed: one request").toEqual([`POST ${DRY_RUN_PATH}`]);
    });

    it("makes no request without monitoring:dryRun", async () => {
      await configure(false);
      const refusedByServerOnly = await providerFor("Monitor").check!({}, { url: "https://example.com", regions: ["mars-1"], __urn: urn("Monitor", "far") });
      expect(refusedByServerOnly.failures ?? []).toEqual([]);
      expect(await requests()).toEqual([]);
    });
  });
});
