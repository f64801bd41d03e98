/**
 * The states of monitors, heartbeats and incidents (README, "States"), driven by simulated
 * checks, pings and the admin clock, and the outputs that follow them: incidents, notifications,
 * results, availability, the advisor and the incident AI.
 */
import { beforeEach, describe, expect, test } from "vitest";
import { startTestEmulator, useEmulatorWith } from "../support/emulator.js";
import { contractClientOn, apiClient, dataOf, type Json } from "./support/api.js";


const on = useEmulatorWith(contractClientOn);


beforeEach(() => on.emulator.admin.reset());

describe("monitors", () => {
  test("with --check-delay a check's result lands later: the monitor keeps its status until then, a paused one gets none", async () => {
    const delayed = await startTestEmulator({ checkDelayMs: 300 });
    try {
      const client = apiClient(delayed.baseUrl, delayed.apiKey);
      const monitor = dataOf(await client.post("/monitors", { name: "Shop", url: "https://shop.invalid" }), 201);
      const check = dataOf(await client.post(`/monitors/${monitor.id}/check`), 202);
      expect(dataOf(await client.get(`/monitors/${monitor.id}`), 200)).toMatchObject({ status: "PENDING", last_checked_at: null });
      expect(dataOf(await client.get(`/monitors/${monitor.id}/results`), 200)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(dataOf(await client.get(`/monitors/${monitor.id}`), 200)).toMatchObject({ status: "DOWN" });
      const results = dataOf(await client.get(`/monitors/${monitor.id}/results`), 200);
      expect(results.map((result: Json) => result.check_id)).toEqual([check.check_id, check.check_id]);

      dataOf(await client.post(`/monitors/${monitor.id}/check`), 202);
      dataOf(await client.post(`/monitors/${monitor.id}/pause`), 201);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(dataOf(await client.get(`/monitors/${monitor.id}/results`), 200)).toHaveLength(2);
    } finally {
      await delayed.stop();
    }
  });

  test("a failing check turns the monitor DOWN, opens an incident and notifies; a passing one resolves it", async () => {
    const channel = dataOf(await on.api.post("/notification_channels", { name: "Mail", kind: "email", config: { address: "ops@example.com" } }), 201);
    const monitor = dataOf(await on.api.post("/monitors", { name: "Shop", url: "https://shop.invalid", regions: ["us-east-1", "eu-west-1", "ap-south-1"] }), 201);
    dataOf(await on.api.post(`/monitors/${monitor.id}/notification_channels/${channel.id}`), 201);
    expect(monitor.status).toBe("PENDING");

    const check = dataOf(await on.api.post(`/monitors/${monitor.id}/check`), 202);
    expect(check).toMatchObject({ monitor_id: monitor.id, check_id: expect.any(String) });
    expect(dataOf(await on.api.get(`/monitors/${monitor.id}`), 200)).toMatchObject({ status: "DOWN", last_checked_at: expect.any(String) });
    const results = dataOf(await on.api.get(`/monitors/${monitor.id}/results`), 200);
    expect(results.map((result: Json) => [result.region, result.status])).toEqual([["us-east-1", "down"], ["eu-west-1", "down"], ["ap-south-1", "down"]]);
    expect(results[0]).toMatchObject({ check_id: check.check_id, response_time_ms: null, error: "getaddrinfo ENOTFOUND shop.invalid" });

    const [incident] = dataOf(await on.api.get(`/monitors/${monitor.id}/incidents`), 200);
    expect(incident).toMatchObject({ status: "OPEN", cause: "check_failed", monitor_id: monitor.id, severity: "major", resolved_at: null });

    dataOf(await on.api.patch(`/monitors/${monitor.id}`, { url: "https://shop.example.com" }), 200);
    dataOf(await on.api.post(`/monitors/${monitor.id}/check`), 202);
    expect(dataOf(await on.api.get(`/monitors/${monitor.id}`), 200).status).toBe("UP");
    expect(dataOf(await on.api.get(`/incidents/${incident.id}`), 200)).toMatchObject({ status: "RESOLVED", resolved_at: expect.any(String) });
    const notifications = await on.emulator.admin.notifications();
    expect(notifications.map((notification) => [notification.channel_id, notification.reason])).toEqual([
      [channel.id, "incident_opened"],
      [channel.id, "incident_resolved"],
    ]);

    const regions = dataOf(await on.api.get(`/monitors/${monitor.id}/regions`), 200);
    expect(regions.map((region: Json) => [region.region, region.status])).toEqual([["us-east-1", "UP"], ["eu-west-1", "UP"], ["ap-south-1", "UP"]]);
    expect(regions[0]).toMatchObject({ name: "US East (N. Virginia)", last_response_time_ms: expect.any(Number) });
    const times = dataOf(await on.api.get(`/monitors/${monitor.id}/response_times`), 200);
    expect(times).toMatchObject({ monitor_id: monitor.id, samples: 3, avg_ms: expect.any(Number), p95_ms: expect.any(Number) });
    expect(times.regions).toHaveLength(3);
    const availability = dataOf(await on.api.get(`/monitors/${monitor.id}/availability`), 200);
    expect(availability.periods.map((period: Json) => period.period)).toEqual(["24h", "7d", "30d"]);
    expect(availability.periods[0]).toMatchObject({ samples: 6, failed_samples: 3, incidents: 1 });
    expect(availability.periods[0].uptime_percent).toBeLessThan(100);
  });

  test("pause and resume are idempotent; a paused monitor is PAUSED and cannot be checked", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://p.example.com" }), 201);
    dataOf(await on.api.post(`/monitors/${monitor.id}/check`), 202);
    const paused = dataOf(await on.api.post(`/monitors/${monitor.id}/pause`), 201);
    expect(paused).toMatchObject({ status: "PAUSED", paused: true });
    expect(dataOf(await on.api.post(`/monitors/${monitor.id}/pause`), 201)).toEqual(paused);
    expect((await on.api.post(`/monitors/${monitor.id}/check`)).status).toBe(409);
    expect(dataOf(await on.api.post(`/monitors/${monitor.id}/resume`), 201)).toMatchObject({ status: "UP", paused: false });
  });

  test("the escalation policy is set and cleared through its own endpoint", async () => {
    const channel = dataOf(await on.api.post("/notification_channels", { name: "Pager", kind: "sms", config: { phone_number: "+14155550100" } }), 201);
    const policy = dataOf(await on.api.post("/escalation-policies", { name: "Plan", steps: [{ delay_minutes: 0, notification_channel_ids: [channel.id] }] }), 201);
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://e.example.com" }), 201);
    expect(dataOf(await on.api.put(`/monitors/${monitor.id}/escalation-policy`, { escalation_policy_id: policy.id }), 200).escalation_policy_id).toBe(policy.id);
    expect((await on.api.delete(`/escalation-policies/${policy.id}`)).status).toBe(409);
    expect((await on.api.delete(`/notification_channels/${channel.id}`)).status).toBe(409);

    const alert = dataOf(await on.api.post(`/monitors/${monitor.id}/test-alert`), 202);
    expect(alert.notification_channel_ids).toEqual([channel.id]);
    expect((await on.api.delete(`/monitors/${monitor.id}/escalation-policy`)).status).toBe(204);
    expect(dataOf(await on.api.get(`/monitors/${monitor.id}`), 200)).not.toHaveProperty("escalation_policy_id");
    expect((await on.api.delete(`/escalation-policies/${policy.id}`)).status).toBe(204);
  });

  test("certificates describe the chain of https targets only", async () => {
    const secure = dataOf(await on.api.post("/monitors", { url: "https://secure.example.com" }), 201);
    const plain = dataOf(await on.api.post("/monitors", { url: "http://plain.example.com" }), 201);
    const chain = dataOf(await on.api.get(`/monitors/${secure.id}/certificates`), 200);
    expect(chain).toHaveLength(2);
    expect(chain[0]).toMatchObject({ host: "secure.example.com", is_leaf: true, subject: "CN=secure.example.com", days_remaining: expect.any(Number) });
    expect(dataOf(await on.api.get(`/monitors/${plain.id}/certificates`), 200)).toEqual([]);
  });

  test("the advisor recommends and applies fixes", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { name: "Lonely", url: "https://lonely.example.com", regions: ["sa-east-1"] }), 201);
    const recommendations = dataOf(await on.api.get("/advisor"), 200);
    expect(recommendations.map((recommendation: Json) => recommendation.rule).sort()).toEqual(["no_alerting", "single_region", "ssl_expiry_alert"]);
    const applied = dataOf(await on.api.post("/advisor/apply", { recommendation_ids: recommendations.map((recommendation: Json) => recommendation.id) }), 201);
    expect(applied.applied.sort()).toEqual([`single_region:${monitor.id}`, `ssl_expiry_alert:${monitor.id}`]);
    expect(applied.skipped).toEqual([{ id: `no_alerting:${monitor.id}`, reason: expect.stringMatching(/needs a person/) }]);
    expect(dataOf(await on.api.get(`/monitors/${monitor.id}`), 200)).toMatchObject({ regions: ["sa-east-1", "us-east-1"], ssl_expiry_alert_days: 14 });
  });
});

describe("heartbeats", () => {
  test("NEW until pinged, then UP, LATE after the interval, DOWN after the grace period, UP again on a ping", async () => {
    const heartbeat = dataOf(await on.api.post("/heartbeats", { name: "Backup", expected_interval_seconds: 60, grace_period_seconds: 30 }), 201);
    expect(heartbeat.status).toBe("NEW");
    await on.emulator.admin.advanceClock(3600);
    expect(dataOf(await on.api.get(`/heartbeats/${heartbeat.id}`), 200).status).toBe("NEW");

    const ping = await fetch(heartbeat.ping_url, { method: "POST", headers: { "user-agent": "backup.sh" } });
    expect(await ping.json()).toEqual({ data: { heartbeat_id: heartbeat.id, status: "UP" } });
    expect(dataOf(await on.api.get(`/heartbeats/${heartbeat.id}`), 200)).toMatchObject({ status: "UP", last_ping_at: expect.any(String) });

    await on.emulator.admin.advanceClock(61);
    expect(dataOf(await on.api.get(`/heartbeats/${heartbeat.id}`), 200).status).toBe("LATE");
    await on.emulator.admin.advanceClock(30);
    expect(dataOf(await on.api.get(`/heartbeats/${heartbeat.id}`), 200).status).toBe("DOWN");
    const [incident] = dataOf(await on.api.get("/incidents"), 200);
    expect(incident).toMatchObject({ heartbeat_id: heartbeat.id, cause: "heartbeat_missed", status: "OPEN" });

    await fetch(heartbeat.ping_url);
    expect(dataOf(await on.api.get(`/heartbeats/${heartbeat.id}`), 200).status).toBe("UP");
    expect(dataOf(await on.api.get(`/incidents/${incident.id}`), 200).status).toBe("RESOLVED");
    const pings = dataOf(await on.api.get(`/heartbeats/${heartbeat.id}/pings`), 200);
    expect(pings.map((item: Json) => [item.method, item.user_agent])).toEqual([["POST", "backup.sh"], ["GET", "node"]]);
    const availability = dataOf(await on.api.get(`/heartbeats/${heartbeat.id}/availability`), 200);
    expect(availability.periods[0]).toMatchObject({ samples: 2, incidents: 1 });
  });

  test("a paused heartbeat does not go late, and resuming restarts its clock", async () => {
    const heartbeat = dataOf(await on.api.post("/heartbeats", { name: "Report", expected_interval_seconds: 60, grace_period_seconds: 0 }), 201);
    await fetch(heartbeat.ping_url);
    expect(dataOf(await on.api.put(`/heartbeats/${heartbeat.id}/pause`), 200)).toMatchObject({ status: "PAUSED", paused: true });
    await on.emulator.admin.advanceClock(600);
    expect(dataOf(await on.api.get(`/heartbeats/${heartbeat.id}`), 200).status).toBe("PAUSED");
    expect(dataOf(await on.api.post(`/heartbeats/${heartbeat.id}/resume`), 201)).toMatchObject({ status: "UP", paused: false });
    await on.emulator.admin.advanceClock(30);
    expect(dataOf(await on.api.get(`/heartbeats/${heartbeat.id}`), 200).status).toBe("UP");
  });

  test("groups count their heartbeats; assign moves one, null unassigns", async () => {
    const first = dataOf(await on.api.post("/heartbeat-groups", { name: "First" }), 201);
    const second = dataOf(await on.api.post("/heartbeat-groups", { name: "Second" }), 201);
    const heartbeat = dataOf(await on.api.post("/heartbeats", { name: "Job", heartbeat_group_id: first.id }), 201);
    expect(dataOf(await on.api.get(`/heartbeat-groups/${first.id}`), 200).heartbeat_count).toBe(1);
    const moved = dataOf(await on.api.post("/heartbeat-groups/assign", { heartbeat_id: heartbeat.id, heartbeat_group_id: second.id }), 201);
    expect(moved.heartbeat_group_id).toBe(second.id);
    expect(dataOf(await on.api.get(`/heartbeat-groups/${first.id}`), 200).heartbeat_count).toBe(0);
    expect(dataOf(await on.api.get(`/heartbeat-groups/${second.id}`), 200).heartbeat_count).toBe(1);
    const unassigned = dataOf(await on.api.post("/heartbeat-groups/assign", { heartbeat_id: heartbeat.id, heartbeat_group_id: null }), 201);
    expect(unassigned).not.toHaveProperty("heartbeat_group_id");
    expect(dataOf(await on.api.get(`/heartbeat-groups/${second.id}`), 200).heartbeat_count).toBe(0);
    const missing = await on.api.post("/heartbeat-groups/assign", { heartbeat_id: heartbeat.id });
    expect(missing.body.error.details).toEqual({ heartbeat_group_id: "is required (null unassigns)" });
  });

  test("an unknown ping URL is 404", async () => {
    expect((await fetch(`${on.emulator.baseUrl.replace("/v1", "")}/ping/not-a-token`)).status).toBe(404);
  });
});

describe("incidents", () => {
  test("OPEN, then ACKNOWLEDGED once; the AI endpoint explains it", async () => {
    const incident = dataOf(await on.api.post("/incidents", { title: "Payments failing", severity: "critical", description: "5xx from PSP" }), 201);
    expect(incident).toMatchObject({ status: "OPEN", cause: "manual", severity: "critical", acknowledged_at: null });
    const acknowledged = dataOf(await on.api.post(`/incidents/${incident.id}/acknowledge`, { acknowledged_by: "bob@example.com", note: "looking" }), 201);
    expect(acknowledged).toMatchObject({ status: "ACKNOWLEDGED", acknowledged_by: "bob@example.com", acknowledgement_note: "looking" });
    expect(dataOf(await on.api.put(`/incidents/${incident.id}/acknowledge`), 200)).toEqual(acknowledged);
    const analysis = dataOf(await on.api.get(`/incidents/${incident.id}/ai`), 200);
    expect(analysis).toMatchObject({ incident_id: incident.id, summary: expect.stringContaining("Payments failing"), model: "emulator-rules" });
    expect(analysis.probable_causes.length).toBeGreaterThan(0);
  });

  test("a resolved incident cannot be acknowledged", async () => {
    const monitor = dataOf(await on.api.post("/monitors", { url: "https://flaky.invalid" }), 201);
    dataOf(await on.api.post(`/monitors/${monitor.id}/check`), 202);
    dataOf(await on.api.patch(`/monitors/${monitor.id}`, { url: "https://flaky.example.com" }), 200);
    dataOf(await on.api.post(`/monitors/${monitor.id}/check`), 202);
    const [incident] = dataOf(await on.api.get(`/monitors/${monitor.id}/incidents`), 200);
    const answer = await on.api.post(`/incidents/${incident.id}/acknowledge`);
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe("conflict");
  });
});
