/**
 * The policy pack as a user runs it: the packed package installed into a project made like
 * `pulumi new typescript`, runs on the real CLI with
 * `--policy-pack node_modules/pulumi-monitoring/policy`, and an organisation's own pack written
 * with the package's helpers beside it. One stack: a compliant program (TypeScript and a
 * monitoring file) with violations added, so that each run shows both what the packs flag and
 * what they let pass. Each policy's rule, message and configuration is proven without an engine
 * in test/policy/; this file proves the packs' wiring: one `up` that stops at its preview, with a
 * policy configuration. That the own pack and a program of these kinds compile against the
 * package's types, its declaration files checked too, is test/sdk/editor.test.ts's compile (one
 * program already loaded there, instead of a tsc run of its own here).
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ConsumerProject, STOCK_TSCONFIG, createConsumerProject } from "../../scripts/consumer-project.js";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";
import { OWN_POLICY_PACK } from "../support/own-policy-pack.js";
import { testPassphrase } from "../support/pulumi.js";
import packageManifest from "../../package.json";
import { secrets } from "./support.js";

const run = promisify(execFile);
const PACK = "node_modules/pulumi-monitoring/policy";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
const ops = new mon.NotificationChannel("ops", { name: "ops", kind: "email", config: { address: "ops@example.com" } });
const standard = { regions: ["eu-west-1", "us-east-1"], sslExpiryAlertDays: 30 };
// The channel's id is unknown at the first preview: it counts as set.
new mon.Monitor("web", { name: "shop-web", url: "https://example.com", ...standard, notificationChannelIds: [ops.id] });
new mon.MonitorSet("fleet", { monitors: { home: { name: "shop-home", url: "https://example.com/home", ...standard, notificationChannelIds: [ops.id] } } });
mon.loadMonitoringYaml("monitoring.yaml");

if (config.getBoolean("violations")) {
  const password = config.requireSecret("password");
  new mon.Monitor("unrouted", { url: "https://example.com/x", ...standard, intervalSeconds: 30, authUsername: "probe", authPassword: password });
  new mon.MonitorSet("loose", {
    monitors: {
      routed: { url: "https://example.com/a", ...standard, notificationChannelIds: [ops.id] },
      unrouted: { url: "https://example.com/b", ...standard, authUsername: "probe", authPassword: password },
    },
  });
  mon.loadMonitoringYaml("loose.yaml", { namePrefix: "loose-" });
}
`;

const MONITORING_FILE = `notificationChannels:
  team-email:
    kind: email
    config: { address: team@example.com }
monitors:
  api:
    name: shop-api
    url: https://api.example.com/health
    regions: [eu-west-1, us-east-1]
    sslExpiryAlertDays: 30
    notificationChannels: [team-email]
monitorSets:
  pages:
    monitors:
      about: { name: shop-about, url: https://example.com/about, regions: [eu-west-1, us-east-1], sslExpiryAlertDays: 30, notificationChannels: [team-email] }
`;

const LOOSE_FILE = `monitors:
  status:
    url: https://status.example.com
    regions: [eu-west-1, us-east-1]
    sslExpiryAlertDays: 30
`;

/** The distinct lines of `output` that contain `text`, trimmed, in order. */
const violations = (output: string, text: string): string[] => [...new Set(output.split("\n").filter((line) => line.includes(text)).map((line) => line.trim()))].sort();

interface CliResult {
  code: number;
  output: string;
}

describe("the policy pack of the packed package", () => {
  let project: ConsumerProject;
  let emulator: TestEmulator;
  let env: NodeJS.ProcessEnv;

  /** The CLI in the project on `stack`, as a user or CI runs it; never throws. */
  async function pulumi(stack: string, args: readonly string[]): Promise<CliResult> {
    try {
      const { stdout, stderr } = await run("pulumi", [...args, "--stack", stack, "--non-interactive", "--color", "never"], {
        cwd: project.dir,
        env,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
      return { code: code ?? -1, output: `${stdout ?? ""}${stderr ?? ""}` };
    }
  }

  beforeAll(async () => {
    project = await createConsumerProject({
      pulumiVersion: "3.259.0",
      sharedInstalls: inject("consumerInstalls"),
      files: { "index.ts": PROGRAM, "Pulumi.yaml": "name: consumer\nruntime: nodejs\n", "monitoring.yaml": MONITORING_FILE, "loose.yaml": LOOSE_FILE },
    });
    const ownPack = join(project.dir, "acme-policy");
    await mkdir(ownPack);
    await writeFile(join(ownPack, "PulumiPolicy.yaml"), "runtime: nodejs\n");
    await writeFile(join(ownPack, "package.json"), JSON.stringify({ name: "acme-policy", version: "1.0.0", main: "index.ts" }));
    await writeFile(join(ownPack, "tsconfig.json"), JSON.stringify(STOCK_TSCONFIG));
    await writeFile(join(ownPack, "index.ts"), OWN_POLICY_PACK);
    emulator = await startTestEmulator();
    env = {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${project.dir}`,
      PULUMI_CONFIG_PASSPHRASE: testPassphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      // The program's kinds and the own pack are type-checked with the package's declaration files
      // in test/sdk/editor.test.ts; the up need not load the type checker for them again.
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    };
    const stack = await LocalWorkspace.createOrSelectStack({ stackName: "violations", workDir: project.dir }, { envVars: env as Record<string, string> });
    await stack.setAllConfig({
      "monitoring:apiUrl": { value: emulator.baseUrl },
      "monitoring:apiKey": { value: emulator.apiKey, secret: true },
      "consumer:violations": { value: "true" },
      "consumer:password": { value: secrets.basicAuthPassword, secret: true },
      "consumer:namePrefix": { value: "shop-" },
    });
  });
  afterAll(async () => {
    await emulator?.stop();
    await project?.dispose();
  });

  it("fails the up of a monitor, a MonitorSet entry and a monitoring file's monitor without alert routing, naming each and nothing else, creates nothing, and prints no secret; takes a threshold and an enforcement level from --policy-pack-config", async () => {
    // The minimum interval made mandatory and lowered from its default of 60 s to 45 s: the
    // monitors that leave it at the service's 60 s pass, the one at 30 s does not. The CLI takes
    // one configuration per pack, so the own pack gets an empty one (its defaults).
    await writeFile(join(project.dir, "policy-config.json"), JSON.stringify({ "monitoring-min-interval": { enforcementLevel: "mandatory", minIntervalSeconds: 45 } }));
    await writeFile(join(project.dir, "acme-config.json"), "{}");
    // With an organisation's own pack beside the package's, as CI would run both. The up's preview
    // checks the whole program and stops before the first create.
    const up = await pulumi("violations", [
      "up",
      "--yes",
      ...["--policy-pack", PACK, "--policy-pack-config", "policy-config.json"],
      ...["--policy-pack", "acme-policy", "--policy-pack-config", "acme-config.json"],
    ]);
    expect(up.code).not.toBe(0);
    expect(up.output).toContain(`pulumi-monitoring@v${packageManifest.version}`);
    expect(up.output).toContain("[mandatory]  monitoring-alert-routing");
    // The compliant part of the program (TypeScript and monitoring file, routed to the ids of
    // channels being created, which count as set) draws no violation: these are all there are.
    expect(violations(up.output, "routes its alerts nowhere")).toEqual(
      ['Monitor "unrouted"', 'MonitorSet "loose", entry "unrouted"', 'Monitor "loose-status"']
        .map((name) => `${name}: routes its alerts nowhere: set notificationChannelIds (at least 1 channel) or escalationPolicyId`)
        .sort(),
    );
    expect(up.output).toContain("[mandatory]  monitoring-min-interval");
    expect(up.output).not.toContain("[advisory]  monitoring-min-interval");
    expect(violations(up.output, "below the minimum")).toEqual(['Monitor "unrouted": intervalSeconds is 30, below the minimum of 45 s (minIntervalSeconds)']);
    expect(up.output).not.toMatch(/can't be known/);
    expect(up.output).not.toContain(secrets.basicAuthPassword);
    // The own pack reads the stack's configuration, its name and its project.
    expect(up.output).toContain("[advisory]  acme-monitor-names");
    expect(up.output).toContain('Monitor "unrouted": name does not start with shop- (stack violations of project consumer)');
    expect(up.output).toContain('MonitorSet "loose", entry "unrouted": name does not start with shop-');
    expect(up.output).not.toContain('"web": name');
    for (const collection of ["/monitors", "/notification_channels"]) {
      const response = await fetch(`${emulator.baseUrl}${collection}`, { headers: { authorization: `Bearer ${emulator.apiKey}` } });
      expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
    }
  });
});
