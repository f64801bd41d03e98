/**
 * The `alt` profile (README, "Profiles"): wherever the spec is silent it makes the other
 * reasonable choice than the default profile, so a client that works against both relies on the
 * spec only. Also the `idempotency: false` option, a server that ignores `Idempotency-Key`.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestEmulator, type TestEmulator, useEmulatorWith } from "../support/emulator.js";
import { createHmac } from "node:crypto";
import { contractClientOn, apiClient, dataOf, type Answer, type Api, type Json } from "./support/api.js";
import { startReceiver } from "../support/receiver.js";


const on = useEmulatorWith(contractClientOn, { profile: "alt" });


const UPPER_UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const MISSING_ID = "6f1c1a34-0c55-4b8e-9a3e-5a0d8c1f2b7e";

function expectError(answer: Answer, status: number, code: string): Json {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body.error).toMatchObject({ code, message: expect.any(String), request_id: expect.any(String) });
  return answer.body.error;
}

describe("regions", () => {
  test("a monitor that names none checks from us-east and eu-west", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://regions.example.com" }), 201);
    expect(monitor.regions).toEqual(["us-east", "eu-west"]);
  });

  test("every offered region is accepted, and the admin API lists them", async () => {
    const offered = ["us-east", "us-west", "eu-west", "eu-central", "ap-south", "ap-east"];
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://everywhere.example.com", regions: offered }), 201);
    expect(monitor.regions).toEqual(offered);
    const info = (await (await fetch(on.emulator.adminUrl)).json()) as Json;
    expect(info.data).toMatchObject({ profile: "alt", regions: offered });
  });

  test("the default profile's region names are refused, by the index of the bad entry", async () => {
    const error = expectError(await on.api.post("/monitors", { url: "https://r.example.com", regions: ["us-east", "us-east-1"] }), 422, "invalid_request");
    expect(error.details).toEqual({ "regions[1]": expect.stringMatching(/^must be an offered region \(us-east, /) });
    const notAList = expectError(await on.api.post("/monitors", { url: "https://r.example.com", regions: "us-east" }), 422, "invalid_request");
    expect(Object.keys(notAList.details)).toEqual(["regions"]);
    expectError(await on.api.get("/monitors?region=eu-west-1"), 400, "bad_request");
  });
});

describe("lists", () => {
  let names: string[];

  beforeAll(async () => {
    names = ["order-a", "order-b", "order-c"];
    for (const name of names) dataOf(await on.api.post("/heartbeat-groups", { name }), 201);
  });

  test("are newest first unless the request names a sort", async () => {
    const newestFirst = dataOf(await on.api.get("/heartbeat-groups?q=order-"), 200) as Json[];
    expect(newestFirst.map((group) => group.name)).toEqual(["order-c", "order-b", "order-a"]);
    const oldestFirst = dataOf(await on.api.get("/heartbeat-groups?q=order-&sort=created_at"), 200) as Json[];
    expect(oldestFirst.map((group) => group.name)).toEqual(names);
  });

  test("cursors have their own format, page through everything, and other formats are refused", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer = await on.api.get(`/heartbeat-groups?q=order-&limit=1${cursor === null ? "" : `&cursor=${cursor}`}`);
      expect(answer.status).toBe(200);
      seen.push(...(answer.body.data as Json[]).map((group) => group.name));
      cursor = answer.body.pagination.next_cursor;
      if (cursor !== null) expect(cursor).toMatch(/^c2_[0-9a-f]+$/);
    } while (cursor !== null);
    expect(seen).toEqual(["order-c", "order-b", "order-a"]);

    const defaultFormat = Buffer.from(JSON.stringify({ sort: "-created_at", after: 1 })).toString("base64url");
    const error = expectError(await on.api.get(`/heartbeat-groups?cursor=${defaultFormat}`), 400, "bad_request");
    expect(error.details).toEqual({ cursor: "not a cursor returned by this API" });
  });
});

describe("objects", () => {
  test("show every known field, unset ones as null and defaults as set, plus account_id, etag and links", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { name: "Nulls", url: "https://nulls.example.com", auth_password: "s3cret" }), 201);
    expect(monitor).toMatchObject({
      name: "Nulls",
      monitor_type: "http",
      interval_seconds: 60,
      request_timeout_s: 30,
      http_method: "GET",
      follow_redirects: true,
      keyword: null,
      tcp_host: null,
      dns_query: null,
      maintenance_weekdays: null,
      escalation_policy_id: null,
      client_id: null,
      auth_password_set: true,
      account_id: expect.stringMatching(UPPER_UUID),
      etag: expect.any(String),
      links: { self: `${on.emulator.baseUrl}/monitors/${monitor.id}` },
    });
    expect(monitor).not.toHaveProperty("auth_password");

    const heartbeat = dataOf(await on.api.post("/heartbeats", {}), 201);
    expect(heartbeat).toMatchObject({ name: null, heartbeat_group_id: null, expected_interval_seconds: 3600, grace_period_seconds: 300 });
    const channel = dataOf(await on.api.post("/notification_channels", { name: "Mail", kind: "email", config: { address: "a@example.com" } }), 201);
    expect(channel).toMatchObject({ client_id: null, credentials_set: false, account_id: monitor.account_id });
    expect(channel).not.toHaveProperty("credentials");
    const client = dataOf(await on.api.post("/clients", { name: "Extra" }), 201);
    expect(client).toMatchObject({ description: null, website: null, template_id: null, account_id: monitor.account_id, etag: expect.any(String) });
  });

  test("the etag changes with the object", async () => {
    const group = dataOf(await on.api.post("/heartbeat-groups", { name: "Tagged" }), 201);
    const renamed = dataOf(await on.api.put(`/heartbeat-groups/${group.id}`, { name: "Retagged" }), 200);
    expect(renamed.etag).not.toBe(group.etag);
    expect(dataOf(await on.api.get(`/heartbeat-groups/${group.id}`), 200).etag).toBe(renamed.etag);
  });
});

describe("error codes", () => {
  test("each condition has its own code, in the spec's envelope", async () => {
    const invalid = expectError(
      await on.api.post("/escalation-policies", { name: "Bad", steps: [{ delay_minutes: 2000, notification_channel_ids: [MISSING_ID] }] }),
      422,
      "invalid_request",
    );
    expect(invalid.details).toEqual({
      "steps[0].delay_minutes": "must be at most 1440",
      "steps[0].notification_channel_ids[0]": "no object with this id",
    });
    const missing = expectError(await on.api.get(`/monitors/${MISSING_ID}`), 404, "resource_not_found");
    expect(missing.details).toEqual({ id: MISSING_ID.toUpperCase() });

    const group = dataOf(await on.api.post("/heartbeat-groups", { name: "Busy" }), 201);
    dataOf(await on.api.post("/heartbeats", { heartbeat_group_id: group.id }), 201);
    expectError(await on.api.delete(`/heartbeat-groups/${group.id}`), 409, "state_conflict");

    expectError(await on.api.get("/monitors", { key: "pls_test_unknownunknownunknown" }), 401, "authentication_required");
    const reader = await on.emulator.admin.createKey(["incident.read"]);
    expect(expectError(await on.api.withKey(reader.key).get("/monitors"), 403, "insufficient_scope").details).toEqual({ required_scope: "monitor.write" });

    await on.emulator.admin.injectFault({ path: "/incidents", status: 429, times: 1 });
    expectError(await on.api.get("/incidents"), 429, "too_many_requests");
    await on.emulator.admin.injectFault({ path: "/incidents", status: 503, times: 1 });
    expectError(await on.api.get("/incidents"), 503, "service_unavailable");
  });
});

describe("null", () => {
  test.each([
    ["/monitors", "monitor_type"],
    ["/monitors", "interval_seconds"],
    ["/monitors", "http_method"],
    ["/monitors", "follow_redirects"],
    ["/monitors", "request_timeout_s"],
    ["/heartbeats", "expected_interval_seconds"],
    ["/heartbeats", "grace_period_seconds"],
  ])("is refused on %s for %s, which has a fixed server default", async (path, field) => {
    const created = dataOf(await on.api.post(path, { name: `Null ${field}`, url: "https://null.example.com" }), 201);
    for (const answer of [await on.api.post(path, { url: "https://null.example.com", [field]: null }), await on.api.patch(`${path}/${created.id}`, { [field]: null })]) {
      expect(Object.keys(expectError(answer, 422, "invalid_request").details)).toEqual([field]);
    }
  });

  test("is refused for a webhook's enabled, a policy's repeat_count and required fields", async () => {
    const subscription = dataOf(await on.api.post("/webhook-subscriptions", { url: "https://hooks.example.com", events: ["*"] }), 201);
    const refused = await on.api.put(`/webhook-subscriptions/${subscription.id}`, { url: "https://hooks.example.com", events: ["*"], enabled: null });
    expect(expectError(refused, 422, "invalid_request").details).toEqual({ enabled: expect.stringMatching(/^cannot be null/) });

    const channel = dataOf(await on.api.post("/notification_channels", { name: "Pager", kind: "email", config: { address: "p@example.com" } }), 201);
    const steps = [{ delay_minutes: 0, notification_channel_ids: [channel.id] }];
    const policy = dataOf(await on.api.post("/escalation-policies", { name: "Repeat", steps }), 201);
    expect(policy.repeat_count).toBe(0);
    const noRepeat = await on.api.put(`/escalation-policies/${policy.id}`, { name: "Repeat", steps, repeat_count: null });
    expect(expectError(noRepeat, 422, "invalid_request").details).toEqual({ repeat_count: expect.any(String) });
    const noName = await on.api.put(`/escalation-policies/${policy.id}`, { name: null, steps });
    expect(expectError(noName, 422, "invalid_request").details).toEqual({ name: "is required" });
  });

  test("clears other optional fields: regions return to the default, references are detached", async () => {
    const channel = dataOf(await on.api.post("/notification_channels", { name: "Ops", kind: "email", config: { address: "o@example.com" } }), 201);
    const policy = dataOf(await on.api.post("/escalation-policies", { name: "Clearable", steps: [{ delay_minutes: 0, notification_channel_ids: [channel.id] }] }), 201);
    const monitor = dataOf(
      await on.api.post("/monitors", { url: "https://clear.example.com", keyword: "ok", alert_type: "keyword", regions: ["ap-east"], escalation_policy_id: policy.id }),
      201,
    );
    const cleared = dataOf(await on.api.patch(`/monitors/${monitor.id}`, { keyword: null, alert_type: null, regions: null, escalation_policy_id: null }), 200);
    expect(cleared).toMatchObject({ keyword: null, alert_type: null, regions: ["us-east", "eu-west"], escalation_policy_id: null });

    const group = dataOf(await on.api.post("/heartbeat-groups", { name: "Emptied" }), 201);
    const heartbeat = dataOf(await on.api.post("/heartbeats", { heartbeat_group_id: group.id }), 201);
    expect(dataOf(await on.api.patch(`/heartbeats/${heartbeat.id}`, { heartbeat_group_id: null }), 200).heartbeat_group_id).toBeNull();
    expect(dataOf(await on.api.get(`/heartbeat-groups/${group.id}`), 200).heartbeat_count).toBe(0);
  });
});

describe("ids", () => {
  test("are upper case wherever responses carry them, and accepted in any case", async () => {
    const client = dataOf(await on.api.post("/clients", { name: "Upper" }), 201);
    expect(client.id).toMatch(UPPER_UUID);
    const clientId = client.id.toLowerCase();
    const channel = dataOf(await on.api.post("/notification_channels", { name: "Up", kind: "email", config: { address: "u@example.com" }, client_id: clientId }), 201);
    expect(channel).toMatchObject({ id: expect.stringMatching(UPPER_UUID), client_id: client.id });
    const policy = dataOf(
      await on.api.post("/escalation-policies", { name: "Up", client_id: clientId, steps: [{ delay_minutes: 0, notification_channel_ids: [channel.id.toLowerCase()] }] }),
      201,
    );
    expect(policy.steps[0].notification_channel_ids).toEqual([channel.id]);
    const group = dataOf(await on.api.post("/heartbeat-groups", { name: "Up", client_id: clientId }), 201);
    const heartbeat = dataOf(await on.api.post("/heartbeats", { client_id: clientId, heartbeat_group_id: group.id.toLowerCase() }), 201);
    expect(heartbeat).toMatchObject({ id: expect.stringMatching(UPPER_UUID), client_id: client.id, heartbeat_group_id: group.id });

    const monitor = dataOf(
      await on.api.post("/monitors", { url: "https://upper.example.com", client_id: clientId, escalation_policy_id: policy.id.toLowerCase() }),
      201,
    );
    expect(monitor).toMatchObject({ id: expect.stringMatching(UPPER_UUID), client_id: client.id, escalation_policy_id: policy.id });
    expect(dataOf(await on.api.get(`/monitors/${monitor.id.toLowerCase()}`), 200).id).toBe(monitor.id);
    dataOf(await on.api.post(`/monitors/${monitor.id.toLowerCase()}/notification_channels/${channel.id.toLowerCase()}`), 201);
    const attached = dataOf(await on.api.get(`/monitors/${monitor.id}/notification_channels`), 200) as Json[];
    expect(attached.map((item) => item.id)).toEqual([channel.id]);

    const listed = dataOf(await on.api.get(`/monitors?client_id=${clientId}`), 200) as Json[];
    expect(listed.map((item) => [item.id, item.client_id])).toEqual([[monitor.id, client.id]]);
    dataOf(await on.api.post(`/monitors/${monitor.id}/check`), 202);
    const results = dataOf(await on.api.get(`/monitors/${monitor.id}/results`), 200) as Json[];
    expect(results[0]).toMatchObject({ id: expect.stringMatching(UPPER_UUID), monitor_id: monitor.id, check_id: expect.stringMatching(UPPER_UUID) });
  });
});

describe("response field names", () => {
  test("a webhook subscription's signing secret comes back as secret and secret_last4", async () => {
    const subscription = dataOf(await on.api.post("/webhook-subscriptions", { url: "https://hooks.example.com/secret", events: ["monitor.created"] }), 201);
    expect(subscription.secret).toMatch(/^whsec_[0-9a-f]{32}$/);
    expect(subscription.secret_last4).toBe(subscription.secret.slice(-4));
    expect(subscription).not.toHaveProperty("signing_secret");
    expect(subscription).not.toHaveProperty("signing_secret_last4");
    const listed = (dataOf(await on.api.get("/webhook-subscriptions"), 200) as Json[]).find((item) => item.id === subscription.id);
    expect(listed).toMatchObject({ secret_last4: subscription.secret_last4 });
    expect(listed).not.toHaveProperty("secret");
  });

  test("a heartbeat's ping URL comes back as check_in_url", async () => {
    const heartbeat = dataOf(await on.api.post("/heartbeats", { name: "Check in" }), 201);
    expect(heartbeat).not.toHaveProperty("ping_url");
    const ping = await fetch(heartbeat.check_in_url, { method: "POST" });
    expect(ping.status).toBe(200);
    expect(((await ping.json()) as Json).data).toEqual({ heartbeat_id: heartbeat.id, status: "UP" });
  });
});

describe("webhook payloads", () => {
  test("show the object as responses do, signed with the secret returned as secret", async () => {
    const receiver = await startReceiver();
    try {
      const subscription = dataOf(await on.api.post("/webhook-subscriptions", { url: receiver.url, events: ["monitor.created"] }), 201);
      const monitor = dataOf(await on.api.post("/monitors", { name: "Hooked", url: "https://hooked.example.com" }), 201);
      const [request] = await receiver.waitFor(1, (received) => JSON.parse(received.body).data.object.id === monitor.id);
      const expected = createHmac("sha256", subscription.secret).update(`${request!.headers["x-monitoring-timestamp"]}.${request!.body}`).digest("hex");
      expect(request!.headers["x-monitoring-signature"]).toBe(`v1=${expected}`);
      const { links: _links, etag: _etag, ...object } = monitor;
      expect(JSON.parse(request!.body).data.object).toMatchObject({ ...object, keyword: null });
    } finally {
      await receiver.close();
    }
  });
});

describe("POST /heartbeat-groups/assign", () => {
  test("takes a group and a list of heartbeats; null unassigns", async () => {
    const group = dataOf(await on.api.post("/heartbeat-groups", { name: "Bulk" }), 201);
    const first = dataOf(await on.api.post("/heartbeats", { name: "First" }), 201);
    const second = dataOf(await on.api.post("/heartbeats", { name: "Second" }), 201);

    const defaultBody = await on.api.post("/heartbeat-groups/assign", { heartbeat_id: first.id, heartbeat_group_id: group.id });
    expect(expectError(defaultBody, 422, "invalid_request").details).toEqual({ heartbeat_ids: "is required", group_id: expect.any(String) });

    const assigned = dataOf(await on.api.post("/heartbeat-groups/assign", { group_id: group.id.toLowerCase(), heartbeat_ids: [first.id, second.id] }), 201);
    expect(assigned.group_id).toBe(group.id);
    expect(assigned.heartbeats.map((heartbeat: Json) => [heartbeat.id, heartbeat.heartbeat_group_id])).toEqual([
      [first.id, group.id],
      [second.id, group.id],
    ]);
    expect(dataOf(await on.api.get(`/heartbeat-groups/${group.id}`), 200).heartbeat_count).toBe(2);

    dataOf(await on.api.post("/heartbeat-groups/assign", { group_id: null, heartbeat_ids: [first.id] }), 201);
    expect(dataOf(await on.api.get(`/heartbeats/${first.id}`), 200).heartbeat_group_id).toBeNull();
    expect(dataOf(await on.api.get(`/heartbeat-groups/${group.id}`), 200).heartbeat_count).toBe(1);

    const unknown = await on.api.post("/heartbeat-groups/assign", { group_id: group.id, heartbeat_ids: [MISSING_ID] });
    expect(expectError(unknown, 422, "invalid_request").details).toEqual({ "heartbeat_ids[0]": "no heartbeat with this id" });
  });
});

describe("POST /monitors/batch/dry-run", () => {
  test("answers 201 with a verdict per monitor, refused ones naming their fields, and creates nothing", async () => {
    const before = (dataOf(await on.api.get("/monitors?limit=250"), 200) as Json[]).length;
    const answer = dataOf(
      await on.api.post("/monitors/batch/dry-run", { monitors: [{ name: "ok", url: "https://ok.example.com" }, { url: "https://far.example.com", regions: ["us-east", "mars-1"], interval_seconds: 5 }] }),
      201,
    );
    expect(answer).toEqual({
      valid: false,
      count: 2,
      results: [
        { index: 0, valid: true, monitor: expect.objectContaining({ id: null, name: "ok", regions: ["us-east", "eu-west"] }) },
        { index: 1, valid: false, errors: { "regions[1]": expect.stringMatching(/offered region/), interval_seconds: expect.stringMatching(/at least 10/) } },
      ],
    });
    expect(dataOf(await on.api.post("/monitors/batch/dry-run", { monitors: [{ url: "https://ok.example.com" }] }), 201)).toMatchObject({ valid: true, count: 1 });
    expect((dataOf(await on.api.get("/monitors?limit=250"), 200) as Json[]).length).toBe(before);
  });
});

describe("notification channels", () => {
  test("credentials are returned as sent, like any other field", async () => {
    const credentials = { webhook_url: "https://hooks.example/T0/secret" };
    const channel = dataOf(await on.api.post("/notification_channels", { name: "Chat", kind: "slack", credentials }), 201);
    expect(channel).toMatchObject({ credentials, credentials_set: true });
    expect(dataOf(await on.api.get(`/notification_channels/${channel.id}`), 200)).toMatchObject({ credentials });
  });

  test("any kind and any setting key are accepted and stored as sent; known keys keep their rules", async () => {
    const body = { name: "Bird", kind: "pigeon", config: { loft: "north", teamId: 7 }, credentials: { ringCode: "r-1" } };
    const channel = dataOf(await on.api.post("/notification_channels", body), 201);
    expect(dataOf(await on.api.get(`/notification_channels/${channel.id}`), 200)).toMatchObject(body);
    expectError(await on.api.post("/notification_channels", { name: "Bad", kind: "email", config: { address: "nope" } }), 422, "invalid_request");
  });
});

describe("what stays as in the default profile", () => {
  test("Idempotency-Key replays the first response", async () => {
    const headers = { "idempotency-key": "alt-once" };
    const first = await on.api.post("/monitors", { url: "https://once.example.com" }, { headers });
    const second = await on.api.post("/monitors", { url: "https://once.example.com" }, { headers });
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
  });
});

describe("idempotency: false", () => {
  let ignoring: TestEmulator;
  let plain: Api;

  beforeAll(async () => {
    ignoring = await startTestEmulator({ idempotency: false });
    plain = apiClient(ignoring.baseUrl, ignoring.apiKey);
  });

  afterAll(() => ignoring.stop());

  test("every request runs as new, whatever its Idempotency-Key", async () => {
    const headers = { "idempotency-key": "ignored" };
    const first = await plain.post("/monitors", { url: "https://twice.example.com" }, { headers });
    const second = await plain.post("/monitors", { url: "https://twice.example.com" }, { headers });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    const otherBody = await plain.post("/monitors", { url: "https://other.example.com" }, { headers });
    expect(otherBody.status).toBe(201);
    const malformed = await plain.post("/monitors", { url: "https://x.example.com" }, { headers: { "idempotency-key": "" } });
    expect(malformed.status).toBe(201);
    expect((dataOf(await plain.get("/monitors"), 200) as Json[]).length).toBe(4);
  });
});
