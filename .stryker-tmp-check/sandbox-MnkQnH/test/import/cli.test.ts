/**
 * The `pulumi-monitoring import` command line (also `pulumi-monitoring-import`): its help, its
 * refusals, where it writes, and what it prints for the person running it.
 */
// @ts-nocheck

import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";
import { repoRoot } from "../support/pulumi.js";


interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a bin of the package as installed: from the build (`npm test` builds first, as the Pulumi programs need it too). */
function run(bin: "cli/main.js" | "cli/import/bin.js", args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [join(repoRoot, "dist", bin), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, MONITORING_API_URL: "", MONITORING_API_KEY: "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

describe("pulumi-monitoring import", () => {
  let emulator: TestEmulator;
  let directory: string;
  let channel: string;

  const post = async (path: string, body: unknown): Promise<string> => (await emulator.byHand<{ id: string }>("POST", path, body)).id;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    directory = await mkdtemp(join(tmpdir(), "import-cli-"));
    channel = await post("/notification_channels", { name: "Ops chat", kind: "slack", config: { channel: "#ops" }, credentials: { webhook_url: "https://hooks.slack.example/s3cret" } });
    const monitor = await post("/monitors", { name: "Website", url: "https://example.com", auth_username: "probe", auth_password: "pw" });
    await post(`/monitors/${monitor}/notification_channels/${channel}`, {});
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
    await emulator?.stop();
  });

  it("--help describes every option, through the dispatcher and the bin of its own", async () => {
    for (const [bin, args] of [["cli/main.js", ["import", "--help"]], ["cli/import/bin.js", ["--help"]]] as const) {
      const { code, stdout } = await run(bin, [...args]);
      expect(code).toBe(0);
      for (const option of ["--format", "--out", "--client-id", "--all-clients", "--kind", "--api-url", "--api-key", "--quiet"]) {
        expect(stdout).toContain(option);
      }
    }
  });

  it("names its commands when run without one", async () => {
    const { code, stdout } = await run("cli/main.js", []);
    expect(code).toBe(2);
    expect(stdout).toMatch(/import +write a Pulumi program/);
  });

  it("refuses bad options with a reason, before reading anything", async () => {
    const cases: [string[], RegExp][] = [
      [["--format", "xml"], /--format must be ts or yaml, got "xml"/],
      [["--kind", "Widget"], /--kind Widget: unknown kind; known kinds: Monitor, /],
      [["--client-id", "acme"], /--client-id must be a UUID/],
      [["--all-clients", "--client-id", "00000000-0000-4000-8000-000000000000"], /exclude each other/],
      [["--format", "yaml", "--all-clients"], /use --format ts for --all-clients/],
      [["--format", "yaml", "--kind", "Client"], /--format yaml cannot hold Client/],
    ];
    const runs = await Promise.all(cases.map(([args]) => run("cli/import/bin.js", args)));
    runs.forEach(({ code, stderr }, index) => {
      const [args, message] = cases[index] as [string[], RegExp];
      expect(code, args.join(" ")).toBe(2);
      expect(stderr).toMatch(message);
    });
  });

  it("names the settings it needs when it has no connection", async () => {
    const { code, stderr } = await run("cli/import/bin.js", []);
    expect(code).toBe(1);
    expect(stderr).toContain("No API key for the monitoring service");
  });

  it("writes the program to --out and prints progress, the summary and the secrets to fill in on stderr", async () => {
    const out = join(directory, "index.ts");
    const { code, stdout, stderr } = await run("cli/import/bin.js", ["--out", out, "--api-url", emulator.baseUrl, "--api-key", emulator.apiKey]);
    expect(code).toBe(0);
    expect(stdout).toBe("");
    const program = await readFile(out, "utf8");
    expect(program).toContain('export const website = new mon.Monitor("website", {');
    expect(program).toContain("notificationChannelIds: [opsChat.id],");
    expect(program).not.toContain("s3cret");
    expect(stderr).toContain("Monitor: 1 read");
    expect(stderr).toContain(`Imported 2 objects into ${out}: 1 NotificationChannel, 1 Monitor.`);
    expect(stderr).toContain("pulumi config set --secret opsChatCredentialsWebhookUrl   # NotificationChannel ops-chat: credentials.webhookUrl (the service does not return it)");
    expect(stderr).toContain("pulumi config set --secret websiteAuthPassword   # Monitor website: authPassword (the service does not return it)");
  });

  it("keeps the ids of objects left out by --kind in a program, and refuses them in a monitoring file", async () => {
    const env = { MONITORING_API_URL: emulator.baseUrl, MONITORING_API_KEY: emulator.apiKey };
    const program = await run("cli/import/bin.js", ["--kind", "Monitor", "--quiet"], env);
    expect(program.code).toBe(0);
    expect(program.stdout).toContain(`notificationChannelIds: [${JSON.stringify(channel)}],`);
    const file = await run("cli/import/bin.js", ["--format", "yaml", "--kind", "monitors", "--quiet"], env);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(`Monitor website references NotificationChannel ${channel}`);
  });

  it("prints the monitoring file and the environment variables it reads", async () => {
    const env = { MONITORING_API_URL: emulator.baseUrl, MONITORING_API_KEY: emulator.apiKey };
    const { code, stdout, stderr } = await run("cli/import/bin.js", ["--format", "yaml", "--quiet"], env);
    expect(code).toBe(0);
    expect(stdout).toContain("notificationChannels: [ops-chat]");
    expect(stdout).toContain("webhookUrl: ${env:OPS_CHAT_CREDENTIALS_WEBHOOK_URL}");
    expect(stderr).toContain("export WEBSITE_AUTH_PASSWORD='...'   # Monitor website: authPassword (the service does not return it)");
  });
});
