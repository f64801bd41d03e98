/**
 * The `pulumi-monitoring-emulator` command: flags, the key printed at start, the environment
 * variable, and a clean stop on SIGTERM.
 */
// @ts-nocheck

import { describe, expect, test } from "vitest";
import { apiClient } from "./support/api.js";
import { banner, exitOf, spawnEmulator as runBin } from "./support/process.js";

describe("pulumi-monitoring-emulator", () => {
  test("serves the API with the key given by --key, printed at start, and stops cleanly on SIGTERM", async () => {
    const key = "pls_test_cli00000000000000000000000000";
    const child = runBin(["--port", "0", "--key", key]);
    const exited = exitOf(child);
    const { lines, baseUrl, apiKey } = await banner(child);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(apiKey).toBe(key);
    expect(lines).toHaveLength(4);
    expect((await apiClient(baseUrl, key).get("/monitors")).status).toBe(200);
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });

  test("takes the key from MONITORING_EMULATOR_KEY", async () => {
    const key = "pls_test_environment000000000000000000";
    const child = runBin(["--port", "0"], { MONITORING_EMULATOR_KEY: key });
    const exited = exitOf(child);
    const { baseUrl, apiKey } = await banner(child);
    expect(apiKey).toBe(key);
    expect((await apiClient(baseUrl, key).get("/heartbeats")).status).toBe(200);
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });

  test("--help describes every flag", async () => {
    const { code, output } = await exitOf(runBin(["--help"]));
    expect(code).toBe(0);
    for (const flag of ["--port", "--data", "--key", "--rate-limit", "--webhook-attempts", "--webhook-backoff-ms", "--webhook-timeout-ms", "--profile", "--no-idempotency", "--quiet"]) {
      expect(output).toContain(flag);
    }
  });

  test.each([
    [["--port", "eighty"], /--port must be an integer/],
    [["--colour"], /Unknown option/],
    [["--key", "secret"], /must be pls_test_/],
    [["--profile", "beta"], /Unknown profile beta/],
  ])("refuses %j with exit code 2", async (args, message) => {
    const { code, output } = await exitOf(runBin(["--port", "0", ...args]));
    expect(code).toBe(2);
    expect(output).toMatch(message);
  });

  test("--profile alt and --no-idempotency choose the alt profile and ignore Idempotency-Key", async () => {
    const key = "pls_test_altprofile0000000000000000000";
    const child = runBin(["--port", "0", "--key", key, "--profile", "alt", "--no-idempotency"]);
    const exited = exitOf(child);
    const { lines, baseUrl } = await banner(child);
    expect(lines[0]).toContain("(profile alt)");
    const api = apiClient(baseUrl, key);
    const headers = { "idempotency-key": "same" };
    const first = await api.post("/monitors", { url: "https://cli.example.com" }, { headers });
    const second = await api.post("/monitors", { url: "https://cli.example.com" }, { headers });
    expect(first.body.data.regions).toEqual(["us-east", "eu-west"]);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });

  test("--rate-limit answers 429 with Retry-After beyond the limit", async () => {
    const key = "pls_test_ratelimit00000000000000000000";
    const child = runBin(["--port", "0", "--key", key, "--rate-limit", "5"]);
    const exited = exitOf(child);
    const { baseUrl } = await banner(child);
    const api = apiClient(baseUrl, key);
    const statuses = await Promise.all(Array.from({ length: 12 }, () => api.get("/monitors")));
    const limited = statuses.filter((answer) => answer.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.headers.get("retry-after")).toBe("1");
    expect(limited[0]!.body.error.code).toBe("rate_limited");
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });
});
