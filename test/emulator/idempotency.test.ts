/**
 * `Idempotency-Key` (README, "Idempotency-Key"): the same key with the same request replays the
 * first response; the same key with another body, method or path is 409; keys belong to the API
 * key that sent them and expire after 24 hours.
 */
import { expect, test } from "vitest";
import { useEmulatorWith } from "../support/emulator.js";
import { contractClientOn, dataOf } from "./support/api.js";


const on = useEmulatorWith(contractClientOn);


const withKey = (key: string) => ({ headers: { "idempotency-key": key } });

async function monitorCount(): Promise<number> {
  return (dataOf(await on.api.get("/monitors?limit=250"), 200) as unknown[]).length;
}

test("the same key and body replays the first response without creating again", async () => {
  const before = await monitorCount();
  const body = { name: "Once", url: "https://once.example.com" };
  const first = await on.api.post("/monitors", body, withKey("create-once"));
  const second = await on.api.post("/monitors", { url: "https://once.example.com", name: "Once" }, withKey("create-once"));

  expect(first.status).toBe(201);
  expect(second.status).toBe(201);
  expect(second.text).toBe(first.text);
  expect(second.headers.get("idempotent-replayed")).toBe("true");
  expect(first.headers.get("idempotent-replayed")).toBeNull();
  expect(await monitorCount()).toBe(before + 1);

  const log = await on.emulator.admin.requestLog();
  const entries = log.filter((entry) => entry.idempotency_key === "create-once");
  expect(entries.map((entry) => [entry.status, entry.replayed])).toEqual([[201, false], [201, true]]);
});

test("the same key with a different body is 409 idempotency_key_reused", async () => {
  dataOf(await on.api.post("/monitors", { url: "https://a.example.com" }, withKey("reused")), 201);
  const answer = await on.api.post("/monitors", { url: "https://b.example.com" }, withKey("reused"));
  expect(answer.status).toBe(409);
  expect(answer.body.error).toMatchObject({ code: "idempotency_key_reused", details: { idempotency_key: "reused" } });
});

test("the same key on another path or method is 409 as well", async () => {
  const monitor = dataOf(await on.api.post("/monitors", { url: "https://c.example.com" }, withKey("path-bound")), 201);
  expect((await on.api.post(`/monitors/${monitor.id}/pause`, undefined, withKey("path-bound"))).status).toBe(409);
  expect((await on.api.delete(`/monitors/${monitor.id}`, withKey("path-bound"))).status).toBe(409);
});

test("errors are replayed too, except 5xx and 429, which run again", async () => {
  const invalid = { url: "https://d.example.com", interval_seconds: 1 };
  const first = await on.api.post("/monitors", invalid, withKey("invalid-once"));
  const second = await on.api.post("/monitors", invalid, withKey("invalid-once"));
  expect(first.status).toBe(422);
  expect(second.text).toBe(first.text);

  await on.emulator.admin.injectFault({ method: "POST", path: "/monitors", status: 503, times: 1 });
  const failed = await on.api.post("/monitors", { url: "https://e.example.com" }, withKey("after-503"));
  const retried = await on.api.post("/monitors", { url: "https://e.example.com" }, withKey("after-503"));
  expect(failed.status).toBe(503);
  expect(retried.status).toBe(201);
  expect(retried.headers.get("idempotent-replayed")).toBeNull();
});

test("keys belong to the API key that sent them", async () => {
  const other = on.api.withKey((await on.emulator.admin.createKey(["monitor.write"])).key);
  const mine = dataOf(await on.api.post("/monitors", { url: "https://mine.example.com" }, withKey("per-api-key")), 201);
  const theirs = dataOf(await other.post("/monitors", { url: "https://mine.example.com" }, withKey("per-api-key")), 201);
  expect(theirs.id).not.toBe(mine.id);
});

test("concurrent requests with one key create one object", async () => {
  const before = await monitorCount();
  const answers = await Promise.all(
    Array.from({ length: 8 }, () => on.api.post("/monitors", { url: "https://race.example.com" }, withKey("concurrent"))),
  );
  expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
  expect(answers.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(7);
  expect(await monitorCount()).toBe(before + 1);
});

test("keys expire after 24 hours", async () => {
  const first = dataOf(await on.api.post("/monitors", { url: "https://daily.example.com" }, withKey("daily")), 201);
  await on.emulator.admin.advanceClock(23 * 3600);
  const replayed = dataOf(await on.api.post("/monitors", { url: "https://daily.example.com" }, withKey("daily")), 201);
  expect(replayed.id).toBe(first.id);
  await on.emulator.admin.advanceClock(3600 + 1);
  const fresh = dataOf(await on.api.post("/monitors", { url: "https://daily.example.com" }, withKey("daily")), 201);
  expect(fresh.id).not.toBe(first.id);
});
