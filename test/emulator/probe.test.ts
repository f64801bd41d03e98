/**
 * `--probe` (emulator/README.md "Checks and their views"): `POST /monitors/{id}/check` reaches the
 * monitor's target for real, and its results land when the probe ends. The targets are servers
 * this test starts on 127.0.0.1; nothing leaves the machine. Webhook test deliveries are real,
 * signed POSTs in this mode too. Without `--probe` the simulation stays (lifecycle.test.ts).
 */
import { createHmac } from "node:crypto";
import { once } from "node:events";
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createTcpServer, type AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { useEmulatorWith } from "../support/emulator.js";
import { contractClientOn, dataOf, type Json } from "./support/api.js";
import { eventually, startReceiver } from "../support/receiver.js";


const on = useEmulatorWith(contractClientOn, { probe: true });


interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A target that answers `/health` as told and records what it was sent. */
async function startTarget(answer: { status?: number; body?: string; delayMs?: number } = {}): Promise<{ url: string; seen: Seen[]; stop(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createHttpServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    seen.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
    if (request.url === "/moved") {
      response.writeHead(302, { location: "/health" }).end();
      return;
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    response.writeHead(answer.status ?? 200, { "content-type": "text/plain" }).end(answer.body ?? "status: ok");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Starts a check and waits for the results of that check: one per region of the monitor. */
async function check(monitorId: string): Promise<Json[]> {
  const accepted = dataOf(await on.api.post(`/monitors/${monitorId}/check`), 202);
  return eventually(
    async () => (dataOf(await on.api.get(`/monitors/${monitorId}/results?limit=250`), 200) as Json[]).filter((result) => result.check_id === accepted.check_id),
    (results) => results.length > 0,
  );
}

async function status(monitorId: string): Promise<string> {
  return dataOf(await on.api.get(`/monitors/${monitorId}`), 200).status;
}

async function statusFilter(monitorId: string, filter: "UP" | "DOWN"): Promise<boolean> {
  return (dataOf(await on.api.get(`/monitors?status=${filter}&limit=250`), 200) as Json[]).some((monitor) => monitor.id === monitorId);
}

const createMonitor = async (body: Record<string, unknown>) => dataOf(await on.api.post("/monitors", { regions: ["us-east-1", "eu-west-1"], ...body }), 201).id as string;

describe("http", () => {
  test("a monitor of a running server is UP, with the request it declares; DOWN once the server is stopped", async () => {
    const target = await startTarget();
    const id = await createMonitor({
      name: "health",
      url: `${target.url}/health`,
      http_method: "POST",
      request_headers: [{ name: "X-Probe", value: "yes" }],
      request_body: '{"ping":true}',
      auth_username: "probe",
      auth_password: "s3cret",
      expected_status_code: 200,
      alert_type: "keyword",
      keyword: "ok",
      request_timeout_s: 5,
    });
    expect(await status(id)).toBe("PENDING");

    const up = await check(id);
    expect(up.map((result) => [result.region, result.status, result.status_code, result.error])).toEqual(
      expect.arrayContaining([
        ["us-east-1", "up", 200, null],
        ["eu-west-1", "up", 200, null],
      ]),
    );
    expect(up.every((result) => typeof result.response_time_ms === "number")).toBe(true);
    expect(target.seen).toHaveLength(1);
    expect(target.seen[0]).toMatchObject({ method: "POST", path: "/health", body: '{"ping":true}' });
    expect(target.seen[0]!.headers["x-probe"]).toBe("yes");
    expect(target.seen[0]!.headers["authorization"]).toBe(`Basic ${Buffer.from("probe:s3cret").toString("base64")}`);
    expect(await status(id)).toBe("UP");
    expect(await statusFilter(id, "UP")).toBe(true);

    await target.stop();
    const down = await check(id);
    expect(down).toHaveLength(2);
    for (const result of down) {
      expect(result).toMatchObject({ status: "down", response_time_ms: null, status_code: null });
      expect(result.error).toMatch(/ECONNREFUSED/);
    }
    expect(await status(id)).toBe("DOWN");
    expect(await statusFilter(id, "DOWN")).toBe(true);
  });

  test.each([
    { case: "another status than expected_status_code", answer: { status: 503 }, monitor: { expected_status_code: 200 }, error: /HTTP 503, expected 200/, statusCode: 503 },
    { case: "no expected status and a 5xx", answer: { status: 500 }, monitor: {}, error: /HTTP 500, expected 2xx or 3xx/, statusCode: 500 },
    { case: "the keyword missing", answer: { body: "all good" }, monitor: { alert_type: "keyword", keyword: "ok" }, error: /keyword "ok" not found/, statusCode: 200 },
    { case: "an absent keyword present", answer: { body: "error: db down" }, monitor: { alert_type: "keyword_absence", keyword: "error" }, error: /keyword "error" found/, statusCode: 200 },
    { case: "no answer within request_timeout_s", answer: { delayMs: 3000 }, monitor: { request_timeout_s: 1 }, error: /^timeout$/, statusCode: null },
  ])("fails on $case", async ({ answer, monitor, error, statusCode }) => {
    const target = await startTarget(answer);
    try {
      const id = await createMonitor({ url: `${target.url}/health`, ...monitor });
      const results = await check(id);
      for (const result of results) {
        expect(result.status).toBe("down");
        expect(result.error).toMatch(error);
        expect(result.status_code).toBe(statusCode);
      }
      expect(await status(id)).toBe("DOWN");
    } finally {
      await target.stop();
    }
  });

  test("follows a redirect unless follow_redirects is false", async () => {
    const target = await startTarget();
    try {
      const following = await createMonitor({ url: `${target.url}/moved`, expected_status_code: 200 });
      expect((await check(following))[0]).toMatchObject({ status: "up", status_code: 200 });
      const stopping = await createMonitor({ url: `${target.url}/moved`, follow_redirects: false, expected_status_code: 302 });
      expect((await check(stopping))[0]).toMatchObject({ status: "up", status_code: 302 });
      expect(target.seen.map((request) => request.path)).toEqual(["/moved", "/health", "/moved"]);
    } finally {
      await target.stop();
    }
  });
});

describe("tcp and dns", () => {
  test("a tcp monitor is UP while the port accepts connections, DOWN once it is closed", async () => {
    const server = createTcpServer((socket) => socket.end());
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const port = (server.address() as AddressInfo).port;
    const id = await createMonitor({ monitor_type: "tcp", tcp_host: "127.0.0.1", tcp_port: port, request_timeout_s: 5 });
    expect((await check(id)).map((result) => result.status)).toEqual(["up", "up"]);
    expect(await status(id)).toBe("UP");

    await new Promise<void>((resolve) => server.close(() => resolve()));
    const down = await check(id);
    expect(down.map((result) => result.status)).toEqual(["down", "down"]);
    expect(down[0].error).toMatch(/ECONNREFUSED/);
    expect(await status(id)).toBe("DOWN");
  });

  test("a dns monitor resolves through the system's resolver (localhost from /etc/hosts); a .invalid name fails at once", async () => {
    const local = await createMonitor({ monitor_type: "dns", dns_query: "localhost", dns_type: "A", dns_expected: "127.0.0.1" });
    expect((await check(local))[0]).toMatchObject({ status: "up", error: null });
    const wrong = await createMonitor({ monitor_type: "dns", dns_query: "localhost", dns_type: "A", dns_expected: "10.9.9.9" });
    expect((await check(wrong))[0]).toMatchObject({ status: "down", error: expect.stringMatching(/expected 10\.9\.9\.9/) });
    const invalid = await createMonitor({ monitor_type: "dns", dns_query: "nowhere.invalid" });
    expect((await check(invalid))[0]).toMatchObject({ status: "down", error: "getaddrinfo ENOTFOUND nowhere.invalid" });
  });
});

describe("webhook test deliveries", () => {
  test("are POSTed for real to the subscription's URL, signed with its secret", async () => {
    const receiver = await startReceiver();
    try {
      const subscription = dataOf(await on.api.post("/webhook-subscriptions", { url: receiver.url, events: ["monitor.down"] }), 201);
      const delivery = dataOf(await on.api.post(`/webhook-subscriptions/${subscription.id}/test`), 202);
      const [request] = await receiver.waitFor(1);
      const timestamp = request!.headers["x-monitoring-timestamp"] as string;
      const expected = `v1=${createHmac("sha256", subscription.signing_secret as string).update(`${timestamp}.${request!.body}`).digest("hex")}`;
      expect(request!.headers["x-monitoring-signature"]).toBe(expected);
      expect(request!.headers["x-monitoring-event-type"]).toBe("webhook.test");
      expect(request!.headers["x-monitoring-delivery-id"]).toBe(delivery.id);
      const deliveries = await eventually(
        async () => dataOf(await on.api.get(`/webhook-subscriptions/${subscription.id}/deliveries`), 200) as Json[],
        (items) => items[0]?.status === "SUCCEEDED",
      );
      expect(deliveries[0]).toMatchObject({ id: delivery.id, last_response_status: 204, attempt_count: 1 });
    } finally {
      await receiver.close();
    }
  });
});
