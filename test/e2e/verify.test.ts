/**
 * `pulumi-monitoring verify` and `fleet verify` end to end, as users run them. One stack
 * (refreshing before each deploy): a good monitor, one whose host ends in `.invalid`, a
 * declared-paused one, a TCP monitor, two channels and two webhook subscriptions of which one
 * cannot be reached. `verify` exits 3, and its JSON, JUnit file and job summary agree on every
 * verdict; the paused monitor gets no check request; without `--alerts` no channel is tested.
 * After the URL is fixed and deployed, a plain `verify` checks that monitor alone (the checks of
 * the first run changed every monitor's status, which the deploy's refresh records); `--all
 * --alerts` checks every active one and tests each channel once. Then `fleet verify` over three
 * client stacks, one with a broken monitor, exits 3 and names that stack (their states are
 * written to the file backend: no deploy needed).
 *
 * On the default profile only: what the alt profile changes (upper-case ids, other region names)
 * is the emulator's answer to the checks and tests, which test/cli/verify.test.ts runs on both
 * profiles with the same objects; the engine's part (the state verify reads, what the last deploy
 * changed) is the same on both.
 */
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerifyEntry } from "../../cli/verify/report.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { useReceiver } from "../support/receiver.js";
import { repoRoot, testPassphrase, testCli } from "../support/pulumi.js";
import { deploy, type Deployment } from "./support.js";

const STEP_MS = 300_000;

interface JsonReport {
  passed: number;
  failed: number;
  skipped: number;
  stacks: Array<{ stack: string; entries: VerifyEntry[]; notes?: string[] }>;
}

/** `pulumi-monitoring <args>` with `env`; what it printed and its exit status. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [join(repoRoot, "dist/cli/main.js"), ...args], { env: { ...process.env, ...env }, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr }),
    ),
  );
}

const verdicts = (entries: readonly VerifyEntry[]): Record<string, string> => Object.fromEntries(entries.map((entry) => [entry.name, entry.verdict]));

const receiver = useReceiver();

const declarations = (brokenUrl: string) => [
  { kind: "NotificationChannel", name: "ops", args: { name: "Ops", kind: "email", config: { address: "ops@example.com" } } },
  { kind: "NotificationChannel", name: "oncall", args: { name: "On call", kind: "email", config: { address: "oncall@example.com" } } },
  { kind: "Monitor", name: "storefront", args: { name: "Storefront", url: "https://shop.example.com", notificationChannelIds: [{ $ref: "ops" }] } },
  { kind: "Monitor", name: "checkout", args: { name: "Checkout", url: brokenUrl } },
  { kind: "Monitor", name: "legacy", args: { name: "Legacy", url: "https://legacy.example.com", paused: true } },
  { kind: "Monitor", name: "database", args: { name: "Database", monitorType: "tcp", tcpHost: "db.example.com", tcpPort: 5432 } },
  { kind: "WebhookSubscription", name: "hooks", args: { url: receiver.url, events: ["monitor.down"] } },
  { kind: "WebhookSubscription", name: "dead-hooks", args: { url: "http://127.0.0.1:1/hooks", events: ["monitor.down"] } },
];

describe("verify a deployed stack", () => {
  let deployment: Deployment;
  let ids: Record<string, string>;
  let env: Record<string, string>;

  /** Where the job summary and the JUnit report go: files of the stack's project. */
  const summaryFile = () => join(deployment.harness.workDir, "summary.md");
  const junitFile = () => join(deployment.harness.workDir, "verify.xml");
  const verify = (...args: string[]) => cli(["verify", "--stack", deployment.harness.stack.name, "--cwd", deployment.harness.workDir, ...args], env);
  const checkedIds = async (): Promise<string[]> =>
    (await deployment.emulator.admin.requestLog())
      .filter((entry) => entry.method === "POST" && entry.path.endsWith("/check"))
      .map((entry) => entry.path.split("/")[2]!.toLowerCase())
      .sort();
  const idsOf = (...names: string[]) => names.map((name) => ids[name]!.toLowerCase()).sort();

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: JSON.stringify(declarations("https://shop.example.invalid/checkout")) } } });
    const projectFile = join(deployment.harness.workDir, "Pulumi.yaml");
    if (!/refresh:\s*always/.test(await readFile(projectFile, "utf8"))) await appendFile(projectFile, "options:\n  refresh: always\n");
    ids = (await deployment.harness.stack.up()).outputs.ids!.value as Record<string, string>;
    env = {
      PULUMI_BACKEND_URL: `file://${deployment.harness.backendDir}`,
      PULUMI_CONFIG_PASSPHRASE: testPassphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      GITHUB_STEP_SUMMARY: summaryFile(),
    };
    await deployment.emulator.admin.clearRequestLog();
  }, STEP_MS);
  afterAll(async () => {
    // The objects go away with the emulator: no destroy.
    await deployment?.dispose({ keepObjects: true });
  }, STEP_MS);

  it("fails the .invalid monitor and the unreachable subscription, skips the paused monitor, and JSON, JUnit and job summary agree", async () => {
    const json = await verify("--json", "--junit", junitFile());
    expect(json.code, json.stderr).toBe(3);
    const report = JSON.parse(json.stdout) as JsonReport;
    const entries = report.stacks[0]!.entries;
    expect(verdicts(entries)).toEqual({ storefront: "passed", checkout: "failed", legacy: "skipped", database: "passed", hooks: "passed", "dead-hooks": "failed" });
    expect(report.stacks[0]!.notes).toEqual(["2 notification channel(s) not tested: --alerts sends each one test notification."]);
    expect(entries.find((entry) => entry.name === "checkout")).toMatchObject({ id: ids.checkout, reason: "DOWN after its check: getaddrinfo ENOTFOUND shop.example.invalid" });

    const junit = await readFile(junitFile(), "utf8");
    const cases = Object.fromEntries([...junit.matchAll(/<testcase classname="[^"]+" name="([^"]+)"[^>]*>\n\s*<(failure|skipped|system-out)/g)].map((match) => [match[1], match[2]]));
    const asJunit = { passed: "system-out", failed: "failure", skipped: "skipped" } as const;
    expect(cases).toEqual(Object.fromEntries(entries.map((entry) => [entry.name, asJunit[entry.verdict]])));

    const summary = await readFile(summaryFile(), "utf8");
    expect(summary).toMatch(/^## Verify `[^`]+`: 2 failed$/m);
    expect(summary).toContain(`- **checkout** (Monitor \`${ids.checkout}\`): DOWN after its check: getaddrinfo ENOTFOUND shop.example.invalid`);
    expect(summary).toMatch(/- \*\*dead-hooks\*\* \(WebhookSubscription `[^`]+`\): the test delivery failed/);
    for (const entry of entries) expect(summary).toContain(`| ${entry.name} | ${entry.kind} | ${entry.verdict} |`);

    expect(await checkedIds()).toEqual(idsOf("storefront", "checkout", "database"));
    const log = await deployment.emulator.admin.requestLog();
    expect(log.filter((entry) => entry.path.toLowerCase().includes(ids.legacy!.toLowerCase()))).toEqual([]);
    expect(await deployment.api(`/monitors/${ids.legacy}`)).toMatchObject({ paused: true });
    expect(await deployment.emulator.admin.notifications()).toEqual([]);
  }, STEP_MS);

  it("after the URL is fixed and deployed, a plain verify checks only that monitor; --all --alerts checks every active one and tests each channel once, ops through the test alert of the monitor it is attached to, on-call directly", async () => {
    await deployment.harness.stack.setConfig("resources", { value: JSON.stringify(declarations("https://shop.example.com/checkout")) });
    await deployment.harness.stack.up();
    await deployment.emulator.admin.clearRequestLog();
    const plain = await verify("--json");
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    expect(verdicts((JSON.parse(plain.stdout) as JsonReport).stacks[0]!.entries)).toEqual({ checkout: "passed" });
    expect(await checkedIds()).toEqual(idsOf("checkout"));

    await deployment.emulator.admin.clearRequestLog();
    await writeFile(summaryFile(), "");
    const { code, stdout, stderr } = await verify("--all", "--alerts", "--junit", junitFile());
    // What a CI job shows for the acceptance stack: the table, the JUnit file and the job summary.
    console.log(`${stdout}\n${await readFile(junitFile(), "utf8")}\n${await readFile(summaryFile(), "utf8")}`);
    expect(code, stderr).toBe(3);
    const rows = Object.fromEntries([...stdout.matchAll(/^([\w-]+) +(\w+) +\S+ +(passed|failed|skipped)\b/gm)].map((match) => [match[1], `${match[2]} ${match[3]}`]));
    expect(rows).toEqual({
      ops: "NotificationChannel passed",
      oncall: "NotificationChannel passed",
      storefront: "Monitor passed",
      checkout: "Monitor passed",
      legacy: "Monitor skipped",
      database: "Monitor passed",
      hooks: "WebhookSubscription passed",
      "dead-hooks": "WebhookSubscription failed",
    });
    expect(stdout).toMatch(new RegExp(`^ops +NotificationChannel +${ids.ops} +passed +test accepted \\(202\\) through the test alert of monitor storefront$`, "m"));
    expect(stdout).toMatch(new RegExp(`^oncall +NotificationChannel +${ids.oncall} +passed +test accepted \\(202\\) through the channel's own test$`, "m"));
    expect(stdout).toContain("6 passed, 1 failed, 1 skipped.");
    expect(await checkedIds()).toEqual(idsOf("storefront", "checkout", "database"));
    const tests = (await deployment.emulator.admin.notifications()).filter((notification) => notification.reason === "test_alert" || notification.reason === "channel_test");
    expect(tests.map((notification) => [notification.channel_id.toLowerCase(), notification.reason]).sort()).toEqual(
      [
        [ids.ops!.toLowerCase(), "test_alert"],
        [ids.oncall!.toLowerCase(), "channel_test"],
      ].sort(),
    );
  }, STEP_MS);
});

describe("fleet verify", () => {
  let emulator: TestEmulator;
  let workDir: string;
  let env: Record<string, string>;
  const CLIENTS = ["acme", "globex", "initech"];

  beforeAll(async () => {
    emulator = await startTestEmulator();
    workDir = join(repoRoot, ".work", `fleet-verify-${randomBytes(4).toString("hex")}`);
    await mkdir(join(workDir, ".state"), { recursive: true });
    await writeFile(join(workDir, "Pulumi.yaml"), "name: agency\nruntime: nodejs\n");
    env = { PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`, PULUMI_CONFIG_PASSPHRASE: testPassphrase, PULUMI_SKIP_UPDATE_CHECK: "true" };
    // One stack through the CLI, for its configuration file (the passphrase's salt, the key as a
    // secret) and the head of its state; the three clients' states are then written to the file
    // backend from it, one monitor each: ten CLI runs fewer than creating, exporting and importing
    // each stack, and the same states for fleet verify to read.
    const template = await Stack.create("template", await LocalWorkspace.create({ workDir, envVars: env, pulumiCommand: testCli() }));
    await template.setAllConfig({ "monitoring:apiUrl": { value: emulator.baseUrl }, "monitoring:apiKey": { value: emulator.apiKey, secret: true } });
    const stacksDir = join(workDir, ".state", ".pulumi", "stacks", "agency");
    const head = (JSON.parse(await readFile(join(stacksDir, "template.json"), "utf8")) as { checkpoint: { latest: object } }).checkpoint.latest;
    const configFile = await readFile(join(workDir, "Pulumi.template.yaml"), "utf8");
    for (const file of await readdir(stacksDir)) await rm(join(stacksDir, file));
    await rm(join(workDir, "Pulumi.template.yaml"));
    for (const client of CLIENTS) {
      const url = client === "globex" ? "https://globex.example.invalid" : `https://${client}.example.com`;
      const { id } = await emulator.byHand<{ id: string }>("POST", "/monitors", { name: `${client} site`, url });
      const urn = (type: string, name: string) => `urn:pulumi:${client}::agency::${type}::${name}`;
      const resources = [
        { urn: urn("pulumi:pulumi:Stack", `agency-${client}`), custom: false, type: "pulumi:pulumi:Stack" },
        { urn: urn("pulumi-nodejs:dynamic/monitoring:Monitor", "site"), custom: true, type: "pulumi-nodejs:dynamic/monitoring:Monitor", id, inputs: { url }, outputs: { url } },
      ];
      await writeFile(join(workDir, `Pulumi.${client}.yaml`), configFile);
      await writeFile(join(stacksDir, `${client}.json`), JSON.stringify({ version: 3, checkpoint: { stack: `organization/agency/${client}`, latest: { ...head, resources } } }));
    }
  }, STEP_MS);
  afterAll(async () => {
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
    await emulator?.stop();
  }, STEP_MS);

  it("verifies the three client stacks in one report, exits 3 and names the stack of the broken monitor", async () => {
    const junit = join(workDir, "verify.xml");
    const { code, stdout, stderr } = await cli(["fleet", "verify", "--all", "--shard", "1/1", "--junit", junit, "--cwd", workDir], { ...env, GITHUB_STEP_SUMMARY: "" });
    console.log(stdout);
    expect(code, stderr).toBe(3);
    expect(stdout).toMatch(/^acme +site +Monitor +\S+ +passed /m);
    expect(stdout).toMatch(/^globex +site +Monitor +\S+ +failed +DOWN after its check: getaddrinfo ENOTFOUND globex\.example\.invalid$/m);
    expect(stdout).toMatch(/^initech +site +Monitor +\S+ +passed /m);
    const suites = [...(await readFile(junit, "utf8")).matchAll(/<testsuite name="(\w+)" tests="1" failures="(\d)"/g)].map((match) => [match[1], match[2]]);
    expect(suites).toEqual([
      ["acme", "0"],
      ["globex", "1"],
      ["initech", "0"],
    ]);
  }, STEP_MS);
});
