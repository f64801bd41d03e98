/**
 * Fault injection through the admin API: statuses (429 with Retry-After, 500, 503), latency and
 * dropped connections, for the next N matching requests or a fraction of them; the request log
 * counts faulted requests too.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { useEmulatorWith } from "../support/emulator.js";
import { contractClientOn } from "./support/api.js";


const on = useEmulatorWith(contractClientOn);


beforeEach(() => on.emulator.admin.reset());

describe("injected statuses", () => {
  test("429 carries Retry-After and the rate_limited envelope", async () => {
    await on.emulator.admin.injectFault({ status: 429, retry_after_seconds: 7, times: 1 });
    const limited = await on.api.get("/monitors");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(limited.body.error).toMatchObject({ code: "rate_limited", request_id: expect.any(String), details: { retry_after_seconds: 7 } });
    expect((await on.api.get("/monitors")).status).toBe(200);
  });

  test("429 without a given delay still says when to retry", async () => {
    await on.emulator.admin.injectFault({ status: 429, times: 1 });
    expect((await on.api.get("/monitors")).headers.get("retry-after")).toBe("1");
  });

  test.each([
    [500, "internal_error"],
    [503, "unavailable"],
  ])("%i answers with the %s envelope", async (status, code) => {
    await on.emulator.admin.injectFault({ status, times: 1 });
    const answer = await on.api.get("/monitors");
    expect(answer.status).toBe(status);
    expect(answer.body.error.code).toBe(code);
  });

  test("a fault fires only for the next N matching requests", async () => {
    await on.emulator.admin.injectFault({ method: "POST", path: "/monitors", status: 503, times: 2 });
    expect((await on.api.get("/monitors")).status).toBe(200);
    expect((await on.api.post("/monitors", { url: "https://a.example.com" })).status).toBe(503);
    expect((await on.api.post("/monitors", { url: "https://a.example.com" })).status).toBe(503);
    expect((await on.api.post("/monitors", { url: "https://a.example.com" })).status).toBe(201);
    expect(await on.emulator.admin.faults()).toEqual([]);
  });

  test("a fault with `after` lets that many matching requests through first", async () => {
    await on.emulator.admin.injectFault({ method: "POST", path: "/monitors", status: 503, after: 2, times: 1 });
    expect((await on.api.get("/monitors")).status).toBe(200);
    expect((await on.api.post("/monitors", { url: "https://a.example.com" })).status).toBe(201);
    expect((await on.api.post("/monitors", { url: "https://b.example.com" })).status).toBe(201);
    expect((await on.api.post("/monitors", { url: "https://c.example.com" })).status).toBe(503);
    expect((await on.api.post("/monitors", { url: "https://c.example.com" })).status).toBe(201);
    expect(await on.emulator.admin.faults()).toEqual([]);
  });

  test("paths match as globs or, starting with ^, as regular expressions", async () => {
    const monitor = (await on.api.post("/monitors", { url: "https://g.example.com" })).body.data;
    await on.emulator.admin.injectFault({ path: "/monitors/*/pause", status: 500 });
    await on.emulator.admin.injectFault({ path: "^/heartbeats(/.*)?$", status: 503 });
    expect((await on.api.post(`/monitors/${monitor.id}/pause`)).status).toBe(500);
    expect((await on.api.post(`/monitors/${monitor.id}/resume`)).status).toBe(201);
    expect((await on.api.get("/heartbeats")).status).toBe(503);
    expect((await on.api.get("/heartbeat-groups")).status).toBe(200);
    await on.emulator.admin.clearFaults();
    expect((await on.api.post(`/monitors/${monitor.id}/pause`)).status).toBe(201);
  });

  test("probability faults a share of the requests", async () => {
    await on.emulator.admin.injectFault({ path: "/incidents", status: 500, probability: 0.5 });
    await on.emulator.admin.injectFault({ path: "/heartbeats", status: 500, probability: 0 });
    const statuses = [];
    for (let index = 0; index < 200; index++) statuses.push((await on.api.get("/incidents")).status);
    const faulted = statuses.filter((status) => status === 500).length;
    expect(faulted).toBeGreaterThan(50);
    expect(faulted).toBeLessThan(150);
    expect(statuses.every((status) => status === 200 || status === 500)).toBe(true);
    for (let index = 0; index < 20; index++) expect((await on.api.get("/heartbeats")).status).toBe(200);
  });
});

describe("latency and dropped connections", () => {
  test("latency delays the answer, which is otherwise normal", async () => {
    await on.emulator.admin.injectFault({ path: "/monitors", method: "GET", latency_ms: 300, times: 1 });
    const started = performance.now();
    const answer = await on.api.get("/monitors");
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    expect(answer.status).toBe(200);
  });

  test("a dropped connection ends without a response", async () => {
    await on.emulator.admin.injectFault({ path: "/monitors", drop_connection: true, times: 1 });
    await expect(on.api.get("/monitors")).rejects.toThrow();
    expect((await on.api.get("/monitors")).status).toBe(200);
  });

  test("latency combines with a status", async () => {
    await on.emulator.admin.injectFault({ latency_ms: 200, status: 503, times: 1 });
    const started = performance.now();
    expect((await on.api.get("/monitors")).status).toBe(503);
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  test("until_cleared holds the requests it fired for until the faults are cleared, then processes them, a fault of `times` used up included", async () => {
    await on.emulator.admin.injectFault({ method: "POST", path: "/monitors", latency_ms: 60_000, until_cleared: true, times: 1 });
    await on.emulator.admin.injectFault({ method: "GET", path: "/monitors", latency_ms: 60_000, until_cleared: true });
    let answered = false;
    const held = Promise.all([on.api.post("/monitors", { url: "https://held.example.com" }), on.api.get("/monitors")]).finally(() => (answered = true));
    // Both held: the POST's fault, used up, has left the table; the GET's counts its request.
    const firedFor = async () => (await on.emulator.admin.faults()).map((fault) => [fault.method, fault.fired]);
    for (let tries = 0; JSON.stringify(await firedFor()) !== JSON.stringify([["GET", 1]]); tries++) {
      if (tries > 500) throw new Error(`the requests never reached the faults: ${JSON.stringify(await firedFor())}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(answered).toBe(false);
    const cleared = performance.now();
    await on.emulator.admin.clearFaults();
    const [created, listed] = await held;
    expect(performance.now() - cleared).toBeLessThan(5_000);
    expect(created.status).toBe(201);
    expect(listed.status).toBe(200);
    expect((await on.emulator.admin.requestLog()).map((entry) => [entry.method, entry.status, entry.fault])).toEqual(
      expect.arrayContaining([
        ["POST", 201, "latency"],
        ["GET", 200, "latency"],
      ]),
    );
  });

  test("until_cleared without latency_ms, or not a boolean, is refused", async () => {
    for (const fault of [{ until_cleared: true, status: 503 }, { latency_ms: 100, until_cleared: "yes" }]) {
      const refused = await fetch(`${on.emulator.adminUrl}/faults`, { method: "POST", body: JSON.stringify(fault) });
      expect(refused.status, JSON.stringify(fault)).toBe(422);
      expect(JSON.stringify(await refused.json())).toContain("until_cleared");
    }
  });
});

describe("the request log", () => {
  test("records every request under /v1, faulted ones included, without the key", async () => {
    await on.emulator.admin.injectFault({ path: "/incidents", status: 429, times: 1 });
    await on.emulator.admin.injectFault({ path: "/clients", drop_connection: true, times: 1 });
    await on.api.get("/incidents");
    await on.api.get("/clients").catch(() => undefined);
    await on.api.post("/monitors", { url: "https://logged.example.com" }, { headers: { "idempotency-key": "log-me" } });
    await on.api.get("/monitors?limit=5");
    await fetch(`${on.emulator.adminUrl}/faults`);

    const log = await on.emulator.admin.requestLog();
    expect(log.map((entry) => [entry.method, entry.path, entry.query, entry.status, entry.fault])).toEqual([
      ["GET", "/incidents", "", 429, "status"],
      ["GET", "/clients", "", null, "drop_connection"],
      ["POST", "/monitors", "", 201, null],
      ["GET", "/monitors", "limit=5", 200, null],
    ]);
    expect(log[2]).toMatchObject({ idempotency_key: "log-me", time: expect.any(String), request_id: expect.stringMatching(/^req_/) });
    expect(JSON.stringify(log)).not.toContain(on.emulator.apiKey);
    expect(log[0]!.key_prefix).toBe(`${on.emulator.apiKey.slice(0, 13)}…`);

    await on.emulator.admin.clearRequestLog();
    expect(await on.emulator.admin.requestLog()).toEqual([]);
  });

  test("the admin API refuses a fault without an effect, and is itself never faulted", async () => {
    const invalid = await fetch(`${on.emulator.adminUrl}/faults`, { method: "POST", body: JSON.stringify({ path: "/monitors" }) });
    expect(invalid.status).toBe(422);
    await on.emulator.admin.injectFault({ path: "**", status: 500 });
    expect(await on.emulator.admin.faults()).toHaveLength(1);
    expect((await on.api.get("/monitors")).status).toBe(500);
  });
});
