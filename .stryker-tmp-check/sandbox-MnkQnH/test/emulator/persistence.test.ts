/**
 * Persistence with a data file: the state survives a restart, and a process killed in the middle
 * of writes loses no change it had acknowledged.
 */
// @ts-nocheck

import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestEmulator } from "../support/emulator.js";
import { apiClient, dataOf, type Json } from "./support/api.js";
import { banner, exitOf, spawnEmulator } from "./support/process.js";

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "emulator-persistence-"));
});

afterAll(() => rm(directory, { recursive: true, force: true }));

describe("restart", () => {
  test("objects, attachments, keys and idempotency records survive; URLs follow the new port", async () => {
    const dataFile = join(directory, "restart.json");
    const first = await startTestEmulator({ dataFile });
    const api = apiClient(first.baseUrl, first.apiKey);
    const client = dataOf(await api.post("/clients", { name: "Acme" }), 201);
    const channel = dataOf(await api.post("/notification_channels", { name: "Mail", kind: "email", config: { address: "ops@example.com" } }), 201);
    const monitor = dataOf(await api.post("/monitors", { name: "Shop", url: "https://shop.example.com", auth_password: "pw" }, { headers: { "idempotency-key": "shop" } }), 201);
    dataOf(await api.post(`/monitors/${monitor.id}/notification_channels/${channel.id}`), 201);
    const heartbeat = dataOf(await api.post("/heartbeats", { name: "Backup", client_id: client.id }), 201);
    const readOnly = await first.admin.createKey(["monitor.read"]);
    const before = dataOf(await api.get("/monitors?all_clients=true"), 200);
    await first.stop();

    const second = await startTestEmulator({ dataFile });
    try {
      expect(second.apiKey).toBe(first.apiKey);
      expect(second.baseUrl).not.toBe(first.baseUrl);
      const again = apiClient(second.baseUrl, second.apiKey);
      expect(dataOf(await again.get("/monitors?all_clients=true"), 200)).toEqual(before);
      expect(dataOf(await again.get(`/monitors/${monitor.id}/notification_channels`), 200).map((item: Json) => item.id)).toEqual([channel.id]);
      expect(dataOf(await again.get(`/clients/${client.id}`), 200)).toEqual(client);

      const replay = await again.post("/monitors", { name: "Shop", url: "https://shop.example.com", auth_password: "pw" }, { headers: { "idempotency-key": "shop" } });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body.data.id).toBe(monitor.id);

      expect((await again.withKey(readOnly.key).get(`/monitors/${monitor.id}/regions`)).status).toBe(200);

      const moved = dataOf(await again.get(`/heartbeats/${heartbeat.id}`), 200);
      expect(moved.ping_url).toMatch(new RegExp(`^${second.baseUrl.replace("/v1", "")}/ping/`));
      expect((await fetch(moved.ping_url)).status).toBe(200);
      expect(dataOf(await again.get(`/heartbeats/${heartbeat.id}`), 200).status).toBe("UP");
    } finally {
      await second.stop();
    }
  });

  test("the generated key is saved at start: a process killed before any request restarts with it", async () => {
    const dataFile = join(directory, "untouched.json");
    const child = spawnEmulator(["--port", "0", "--data", dataFile]);
    const exited = exitOf(child);
    const { apiKey } = await banner(child);
    child.kill("SIGKILL");
    expect((await exited).signal).toBe("SIGKILL");
    const restarted = await startTestEmulator({ dataFile });
    await restarted.stop();
    expect(restarted.apiKey).toBe(apiKey);
  });

  test("a data file in a directory that does not exist fails the start", async () => {
    await expect(startTestEmulator({ dataFile: join(directory, "missing", "state.json") })).rejects.toThrow(/ENOENT/);
  });

  test("a data file that is not emulator state is refused and left untouched", async () => {
    const dataFile = join(directory, "foreign.json");
    await writeFile(dataFile, '{"hello": "world"}');
    await expect(startTestEmulator({ dataFile })).rejects.toThrow(/not an emulator state file/);
    expect(await readFile(dataFile, "utf8")).toBe('{"hello": "world"}');
  });
});

describe("a kill in the middle of writes", () => {
  test("loses no acknowledged change", { timeout: 60_000 }, async () => {
    const dataFile = join(directory, "killed.json");
    const key = "pls_test_persistence0000000000000000000";
    const child = spawnEmulator(["--port", "0", "--data", dataFile, "--key", key]);
    const exited = exitOf(child);
    const { baseUrl } = await banner(child);

    const api = apiClient(baseUrl, key);
    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (worker: number) => {
      for (let index = 0; !killed; index++) {
        try {
          const answer = await api.post("/monitors", { name: `w${worker}-${index}`, url: `https://w${worker}-${index}.example.com` });
          if (answer.status === 201) acknowledged.push(answer.body.data.id);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = Array.from({ length: 16 }, (_, worker) => writer(worker));
    while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 5));
    killed = child.kill("SIGKILL");
    await Promise.all(writers);
    expect((await exited).signal).toBe("SIGKILL");

    const restarted = await startTestEmulator({ dataFile, apiKey: key });
    try {
      const survivors = new Set<string>();
      const again = apiClient(restarted.baseUrl, key);
      let cursor: string | null = null;
      do {
        const page = await again.get(`/monitors?limit=250${cursor === null ? "" : `&cursor=${cursor}`}`);
        for (const monitor of page.body.data) survivors.add(monitor.id);
        cursor = page.body.pagination.next_cursor;
      } while (cursor !== null);
      const lost = acknowledged.filter((id) => !survivors.has(id));
      expect(lost).toEqual([]);
      expect(survivors.size).toBeGreaterThanOrEqual(acknowledged.length);
    } finally {
      await restarted.stop();
    }
    expect((await readdir(directory)).filter((name) => name.startsWith(".killed.json")).length).toBeLessThanOrEqual(1);
  });
});
