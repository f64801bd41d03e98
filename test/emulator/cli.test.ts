/**
 * The `pulumi-monitoring-emulator` command: flags, the key printed at start, the environment
 * variable, and a clean stop on SIGTERM.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { apiClient } from "./support/api.js";

const repoRoot = join(__dirname, "..", "..");

function runBin(args: string[], env: Record<string, string> = {}): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, ["-r", join(__dirname, "support", "typescript-hooks.cjs"), join(repoRoot, "emulator", "bin.ts"), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, MONITORING_EMULATOR_KEY: "", ...env },
  });
}

/** The banner lines, once the key line (the last one) is printed. */
function banner(child: ChildProcessByStdio<null, Readable, Readable>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(line);
      if (line.includes("API key")) resolve(lines);
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code} before printing its banner`)));
  });
}

function exitOf(child: ChildProcessByStdio<null, Readable, Readable>): Promise<{ code: number | null; output: string }> {
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

describe("pulumi-monitoring-emulator", () => {
  test("serves the API with the key given by --key, printed at start, and stops cleanly on SIGTERM", async () => {
    const key = "pls_test_cli00000000000000000000000000";
    const child = runBin(["--port", "0", "--key", key]);
    const exited = exitOf(child);
    const lines = await banner(child);
    const baseUrl = /listening on (\S+)/.exec(lines[0]!)![1]!;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(lines.join("\n")).toContain(`sandbox API key (full access): ${key}`);
    expect((await apiClient(baseUrl, key).get("/monitors")).status).toBe(200);
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });

  test("takes the key from MONITORING_EMULATOR_KEY", async () => {
    const key = "pls_test_environment000000000000000000";
    const child = runBin(["--port", "0"], { MONITORING_EMULATOR_KEY: key });
    const exited = exitOf(child);
    const lines = await banner(child);
    const baseUrl = /listening on (\S+)/.exec(lines[0]!)![1]!;
    expect((await apiClient(baseUrl, key).get("/heartbeats")).status).toBe(200);
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });

  test("--help describes every flag", async () => {
    const { code, output } = await exitOf(runBin(["--help"]));
    expect(code).toBe(0);
    for (const flag of ["--port", "--data", "--key", "--rate-limit", "--webhook-attempts", "--webhook-backoff-ms", "--webhook-timeout-ms", "--quiet"]) {
      expect(output).toContain(flag);
    }
  });

  test.each([
    [["--port", "eighty"], /--port must be an integer/],
    [["--colour"], /Unknown option/],
    [["--key", "secret"], /must be pls_test_/],
  ])("refuses %j with exit code 2", async (args, message) => {
    const { code, output } = await exitOf(runBin(["--port", "0", ...args]));
    expect(code).toBe(2);
    expect(output).toMatch(message);
  });

  test("--rate-limit answers 429 with Retry-After beyond the limit", async () => {
    const key = "pls_test_ratelimit00000000000000000000";
    const child = runBin(["--port", "0", "--key", key, "--rate-limit", "5"]);
    const exited = exitOf(child);
    const baseUrl = /listening on (\S+)/.exec((await banner(child))[0]!)![1]!;
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
