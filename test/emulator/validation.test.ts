/**
 * Request validation and the error codes of the emulator's contract (README, "Errors"): each
 * rule of spec 2.4-2.6 and 4.1 answers with its status, and a validation error names every bad
 * field in `error.details`, by its snake_case path.
 */
import { describe, expect, test } from "vitest";
import { useEmulatorWith } from "../support/emulator.js";
import { contractClientOn, dataOf } from "./support/api.js";


const on = useEmulatorWith(contractClientOn);


const MISSING_ID = "6f1c1a34-0c55-4b8e-9a3e-5a0d8c1f2b7e";

async function expectInvalid(path: string, body: unknown, details: Record<string, unknown>, method = "POST"): Promise<void> {
  const answer = await on.api.request(method, path, { body });
  expect(answer.status, answer.text).toBe(422);
  expect(answer.body.error).toMatchObject({ code: "validation_failed", message: expect.any(String), request_id: expect.any(String) });
  expect(answer.body.error.details).toEqual(details);
}

describe("monitor fields", () => {
  test.each([
    ["interval_seconds below 10", { interval_seconds: 9 }, { interval_seconds: "must be at least 10" }],
    ["interval_seconds not whole", { interval_seconds: 10.5 }, { interval_seconds: "must be a whole number" }],
    ["an unknown monitor_type", { monitor_type: "smtp" }, { monitor_type: "must be one of http, ping, tcp, dns" }],
    ["an unknown http_method", { http_method: "TRACE" }, { http_method: "must be one of GET, HEAD, POST, PUT, PATCH, DELETE" }],
    ["a region not offered", { regions: ["us-east-1", "mars-1"] }, { "regions[1]": expect.stringMatching(/^must be an offered region/) }],
    ["maintenance_from not HH:MM", { maintenance_from: "9:00" }, { maintenance_from: expect.stringMatching(/HH:MM/) }],
    ["maintenance_to out of range", { maintenance_to: "24:00" }, { maintenance_to: expect.stringMatching(/HH:MM/) }],
    ["an invalid time zone", { maintenance_timezone: "Mars/Olympus" }, { maintenance_timezone: expect.stringMatching(/IANA/) }],
    ["a UTC offset for a time zone", { maintenance_timezone: "+01:00" }, { maintenance_timezone: expect.stringMatching(/IANA/) }],
    ["an unknown weekday", { maintenance_weekdays: ["mon", "someday"] }, { "maintenance_weekdays[1]": expect.any(String) }],
    ["a port out of range", { tcp_port: 70000 }, { tcp_port: "must be a port from 1 to 65535" }],
    ["a non-UUID escalation_policy_id", { escalation_policy_id: "policy-1" }, { escalation_policy_id: "must be a UUID" }],
    ["a non-UUID client_id", { client_id: "acme" }, { client_id: "must be a UUID" }],
    ["an unknown escalation_policy_id", { escalation_policy_id: MISSING_ID }, { escalation_policy_id: "no object with this id" }],
    ["an unknown client_id", { client_id: MISSING_ID }, { client_id: "no client with this id" }],
    ["a malformed request header", { request_headers: [{ name: "" , value: "x" }] }, { "request_headers[0].name": "must not be empty" }],
  ])("%s is 422", async (_case, fields, details) => {
    await expectInvalid("/monitors", { name: "Bad", url: "https://bad.example.com", ...fields }, details);
  });

  test("every bad field is named at once", async () => {
    await expectInvalid(
      "/monitors",
      { interval_seconds: 5, monitor_type: "smtp", regions: ["nowhere"], maintenance_from: "25:61" },
      {
        interval_seconds: "must be at least 10",
        monitor_type: "must be one of http, ping, tcp, dns",
        "regions[0]": expect.any(String),
        maintenance_from: expect.any(String),
      },
    );
  });

  test("the boundary values are accepted", async () => {
    const monitor = dataOf(
      await on.api.post("/monitors", {
        url: "https://ok.example.com",
        interval_seconds: 10,
        http_method: "HEAD",
        regions: ["ap-northeast-1"],
        maintenance_from: "00:00",
        maintenance_to: "23:59",
        maintenance_timezone: "Europe/Berlin",
      }),
      201,
    );
    expect(monitor).toMatchObject({ interval_seconds: 10, http_method: "HEAD", regions: ["ap-northeast-1"], maintenance_timezone: "Europe/Berlin" });
  });

  test("unknown properties are accepted and echoed back, and server defaults are applied", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { name: "Echo", url: "https://echo.example.com", team: "web", labels: { tier: 1 } }), 201);
    expect(monitor).toMatchObject({
      name: "Echo",
      team: "web",
      labels: { tier: 1 },
      monitor_type: "http",
      interval_seconds: 60,
      http_method: "GET",
      follow_redirects: true,
      request_timeout_s: 30,
      regions: ["us-east-1", "eu-west-1"],
      status: "PENDING",
      paused: false,
      client_id: null,
    });
    expect(monitor.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(monitor.created_at)).not.toBeNaN();
    expect(dataOf(await on.api.get(`/monitors/${monitor.id}`), 200)).toEqual(monitor);
  });

  test("auth_password is write-only", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://private.example.com", auth_username: "u", auth_password: "s3cret" }), 201);
    expect(monitor).not.toHaveProperty("auth_password");
    expect(monitor.auth_password_set).toBe(true);
    expect(JSON.stringify(dataOf(await on.api.get(`/monitors/${monitor.id}`), 200))).not.toContain("s3cret");
  });

  test("PATCH changes the fields sent, and null resets a field to its default or removes it", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { name: "Patchable", url: "https://p.example.com", interval_seconds: 30, keyword: "ok" }), 201);
    const patched = dataOf(await on.api.patch(`/monitors/${monitor.id}`, { interval_seconds: null, keyword: null, name: "Renamed" }), 200);
    expect(patched).toMatchObject({ name: "Renamed", url: "https://p.example.com", interval_seconds: 60 });
    expect(patched).not.toHaveProperty("keyword");
    await expectInvalid(`/monitors/${monitor.id}`, { interval_seconds: 1 }, { interval_seconds: "must be at least 10" }, "PATCH");
  });

  test("PUT replaces every request field", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { name: "Replaceable", url: "https://r.example.com", keyword: "ok", alert_type: "keyword" }), 201);
    const replaced = dataOf(await on.api.put(`/monitors/${monitor.id}`, { name: "Replaced", url: "https://r2.example.com" }), 200);
    expect(replaced).toMatchObject({ id: monitor.id, name: "Replaced", url: "https://r2.example.com", created_at: monitor.created_at, status: "PENDING" });
    expect(replaced).not.toHaveProperty("keyword");
  });

  test("client_id cannot change", async () => {
    const client = dataOf(await on.api.post("/clients", { name: "Mover" }), 201);
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://m.example.com" }), 201);
    await expectInvalid(`/monitors/${monitor.id}`, { client_id: client.id }, { client_id: expect.stringMatching(/cannot change/) }, "PATCH");
  });
});

describe("heartbeat fields", () => {
  test("heartbeat_group_id must be a UUID of an existing group", async () => {
    await expectInvalid("/heartbeats", { heartbeat_group_id: "nightly" }, { heartbeat_group_id: "must be a UUID" });
    await expectInvalid("/heartbeats", { heartbeat_group_id: MISSING_ID }, { heartbeat_group_id: "no object with this id" });
  });

  test("expected_interval_seconds is at least 30 and defaults apply", async () => {
    await expectInvalid("/heartbeats", { expected_interval_seconds: 29 }, { expected_interval_seconds: "must be at least 30" });
    const heartbeat = dataOf(await on.api.post("/heartbeats", { name: "Defaults" }), 201);
    expect(heartbeat).toMatchObject({ expected_interval_seconds: 3600, grace_period_seconds: 300, status: "NEW", last_ping_at: null });
    expect(heartbeat.ping_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ping\/[A-Za-z0-9_-]+$/);
  });
});

describe("references in PATCH and PUT bodies", () => {
  test("a monitor's escalation_policy_id is set, changed and cleared with null, under the same checks as create", async () => {
    const channel = dataOf(await on.api.post("/notification_channels", { name: "Ref mail", kind: "email", config: { address: "r@example.com" } }), 201);
    const steps = [{ delay_minutes: 0, notification_channel_ids: [channel.id] }];
    const first = dataOf(await on.api.post("/escalation-policies", { name: "First", steps }), 201);
    const second = dataOf(await on.api.post("/escalation-policies", { name: "Second", steps }), 201);
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://ref.example.com" }), 201);

    expect(dataOf(await on.api.patch(`/monitors/${monitor.id}`, { escalation_policy_id: first.id.toUpperCase() }), 200).escalation_policy_id).toBe(first.id);
    expect(dataOf(await on.api.patch(`/monitors/${monitor.id}`, { escalation_policy_id: second.id }), 200).escalation_policy_id).toBe(second.id);
    expect((await on.api.delete(`/escalation-policies/${second.id}`)).status).toBe(409);
    expect(dataOf(await on.api.patch(`/monitors/${monitor.id}`, { escalation_policy_id: null }), 200)).not.toHaveProperty("escalation_policy_id");
    expect((await on.api.delete(`/escalation-policies/${second.id}`)).status).toBe(204);

    await expectInvalid(`/monitors/${monitor.id}`, { escalation_policy_id: MISSING_ID }, { escalation_policy_id: "no object with this id" }, "PATCH");
    const client = dataOf(await on.api.post("/clients", { name: "Ref client" }), 201);
    const clientChannel = dataOf(await on.api.post("/notification_channels", { name: "C", kind: "email", config: { address: "c@example.com" }, client_id: client.id }), 201);
    const clientPolicy = dataOf(
      await on.api.post("/escalation-policies", { name: "Client's", client_id: client.id, steps: [{ delay_minutes: 0, notification_channel_ids: [clientChannel.id] }] }),
      201,
    );
    await expectInvalid(`/monitors/${monitor.id}`, { escalation_policy_id: clientPolicy.id }, { escalation_policy_id: "belongs to another client" }, "PATCH");
  });

  test("a heartbeat's heartbeat_group_id is set, changed and cleared with null; group counts follow", async () => {
    const first = dataOf(await on.api.post("/heartbeat-groups", { name: "Ref first" }), 201);
    const second = dataOf(await on.api.post("/heartbeat-groups", { name: "Ref second" }), 201);
    const heartbeat = dataOf(await on.api.post("/heartbeats", { name: "Ref" }), 201);
    const countOf = async (group: { id: string }) => dataOf(await on.api.get(`/heartbeat-groups/${group.id}`), 200).heartbeat_count;

    expect(dataOf(await on.api.patch(`/heartbeats/${heartbeat.id}`, { heartbeat_group_id: first.id }), 200).heartbeat_group_id).toBe(first.id);
    expect([await countOf(first), await countOf(second)]).toEqual([1, 0]);
    expect(dataOf(await on.api.patch(`/heartbeats/${heartbeat.id}`, { heartbeat_group_id: second.id }), 200).heartbeat_group_id).toBe(second.id);
    expect([await countOf(first), await countOf(second)]).toEqual([0, 1]);
    expect(dataOf(await on.api.patch(`/heartbeats/${heartbeat.id}`, { heartbeat_group_id: null }), 200)).not.toHaveProperty("heartbeat_group_id");
    expect([await countOf(first), await countOf(second)]).toEqual([0, 0]);

    await expectInvalid(`/heartbeats/${heartbeat.id}`, { heartbeat_group_id: MISSING_ID }, { heartbeat_group_id: "no object with this id" }, "PATCH");
    const client = dataOf(await on.api.post("/clients", { name: "Ref group client" }), 201);
    const clientGroup = dataOf(await on.api.post("/heartbeat-groups", { name: "Client's", client_id: client.id }), 201);
    await expectInvalid(`/heartbeats/${heartbeat.id}`, { heartbeat_group_id: clientGroup.id }, { heartbeat_group_id: "belongs to another client" }, "PATCH");
    const replaced = dataOf(await on.api.put(`/heartbeats/${heartbeat.id}`, { name: "Ref", heartbeat_group_id: first.id }), 200);
    expect(replaced.heartbeat_group_id).toBe(first.id);
    expect(await countOf(first)).toBe(1);
  });
});

describe("other kinds", () => {
  test("required fields are named", async () => {
    await expectInvalid("/notification_channels", {}, { name: "is required", kind: "is required" });
    await expectInvalid("/escalation-policies", { name: "No steps" }, { steps: "is required" });
    await expectInvalid("/clients", { website: "ftp://acme" }, { name: "is required", website: "must be an http(s) URL" });
    await expectInvalid("/incidents", {}, { title: "is required" });
  });

  test("nested fields are named by their path", async () => {
    const channel = dataOf(await on.api.post("/notification_channels", { name: "Mail", kind: "email", config: { address: "a@example.com" } }), 201);
    await expectInvalid(
      "/escalation-policies",
      { name: "Bad steps", steps: [{ delay_minutes: 2000, notification_channel_ids: [channel.id, MISSING_ID] }] },
      { "steps[0].delay_minutes": "must be at most 1440", "steps[0].notification_channel_ids[1]": "no object with this id" },
    );
    await expectInvalid("/notification_channels", { name: "Bad", kind: "sms", config: { phone_number: "0800 123" } }, { "config.phone_number": expect.stringMatching(/E\.164/) });
  });

  test("a channel kind or a setting key outside the emulator's contract is refused, naming it (the alt profile accepts them)", async () => {
    await expectInvalid("/notification_channels", { name: "Bird", kind: "pigeon" }, { kind: expect.stringMatching(/^must be one of/) });
    await expectInvalid(
      "/notification_channels",
      { name: "Chat", kind: "slack", config: { channel: "#ops", thread: "t1" }, credentials: { bot_token: "xoxb" } },
      { "config.thread": "is not a known field", "credentials.bot_token": "is not a known field" },
    );
  });

  test("webhook subscriptions accept known event kinds only", async () => {
    await expectInvalid(
      "/webhook-subscriptions",
      { url: "https://hooks.example.com", events: ["monitor.created", "monitor.exploded"] },
      { "events[1]": expect.stringMatching(/^unknown event kind/) },
    );
  });

  test("a share link must expire in the future", async () => {
    const client = dataOf(await on.api.post("/clients", { name: "Linked" }), 201);
    await expectInvalid(`/clients/${client.id}/share-links`, { label: "Old", expires_at: "2001-01-01T00:00:00Z" }, { expires_at: "must be in the future" });
  });
});

describe("request errors", () => {
  test("a body that is not JSON is 400 invalid_json", async () => {
    const answer = await on.api.request("POST", "/monitors", { rawBody: "{name: oops" });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_json");
  });

  test("a JSON body that is not an object is 400 invalid_json", async () => {
    const answer = await on.api.request("POST", "/monitors", { rawBody: "[1, 2]" });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_json");
  });

  test("a path id that is not a UUID is 400 invalid_parameter", async () => {
    const answer = await on.api.get("/monitors/homepage");
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_parameter", details: { monitorID: "must be a UUID" } });
  });

  test("an unknown id is 404 not_found naming the id", async () => {
    for (const path of [`/monitors/${MISSING_ID}`, `/heartbeats/${MISSING_ID}`, `/incidents/${MISSING_ID}`, `/clients/${MISSING_ID}`]) {
      const answer = await on.api.get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error).toMatchObject({ code: "not_found", details: { id: MISSING_ID } });
    }
  });

  test("a state conflict is 409 conflict", async () => {
    const group = dataOf(await on.api.post("/heartbeat-groups", { name: "Busy" }), 201);
    dataOf(await on.api.post("/heartbeats", { name: "Member", heartbeat_group_id: group.id }), 201);
    const answer = await on.api.delete(`/heartbeat-groups/${group.id}`);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({ code: "conflict", details: { heartbeat_count: 1 } });
  });

  test("an unknown path is 404 and a wrong method is 405 with Allow", async () => {
    const unknown = await on.api.get("/widgets");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
    const wrongMethod = await on.api.request("PATCH", "/notification_channels");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe("method_not_allowed");
    expect(wrongMethod.headers.get("allow")).toBe("GET, POST");
  });
});
