/**
 * The packed package as a user installs it today: beside the newest `@pulumi/pulumi` on the npm
 * registry (the package asks for ^3.259.0, so npm keeps one copy), driven by the CLI this project
 * builds (3.259.0) through a small program's lifecycle against the emulator. Without the
 * registry this fails, saying so: the newest SDK is what is under test.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";
import { type ConsumerProject, createConsumerProject, installedVersion, pulumiCopies } from "../../scripts/consumer-project.js";
import { testPassphrase } from "../support/pulumi.js";

const run = promisify(execFile);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
const ops = new mon.NotificationChannel("ops", { name: "ops", kind: "email", config: { address: "ops@example.com" } });
const web = new mon.Monitor("web", {
  url: "https://example.com",
  regions: config.require("regions").split(","),
  authUsername: "probe",
  authPassword: config.requireSecret("password"),
  notificationChannelIds: [ops.id],
});
const backup = new mon.Heartbeat("backup", { expectedIntervalSeconds: 86400 });
// The inputs of the provider benchmark's monitors (scripts/bench-provider.ts).
new mon.Monitor("basic", { name: "bench 0", url: "https://example.com/0", intervalSeconds: 60, regions: ["eu-west-1", "us-east-1"] });

export const monitorId = web.id;
export const monitorStatus = web.status;
export const pingUrl = backup.pingUrl;
`;

async function newestPulumiVersion(): Promise<string> {
  try {
    const { stdout } = await run("npm", ["view", "@pulumi/pulumi", "version"], { encoding: "utf8" });
    return stdout.trim();
  } catch (error) {
    throw new Error(`the npm registry is unreachable, so the newest @pulumi/pulumi is unknown: ${String(error)}`);
  }
}

/** The provider text stored twice per resource: the serializer's fixed wrapping of one `require`. */
const PROVIDER_TEXT_LIMIT = 400;
/**
 * What the provider stores per basic monitor: its inputs and outputs, the provider text twice
 * among them. The engine's own record of every resource (URNs, dependencies, the stack trace of its
 * declaration) comes on top, the same for any provider.
 */
const MONITOR_STATE_LIMIT = 1_500;

interface StateResource {
  urn: string;
  type: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

describe("the packed package beside the newest @pulumi/pulumi", () => {
  let newest: string;
  let project: ConsumerProject;
  let emulator: TestEmulator;
  let stack: Stack;

  beforeAll(async () => {
    newest = await newestPulumiVersion();
    project = await createConsumerProject({ pulumiVersion: newest, files: { "index.ts": PROGRAM, "Pulumi.yaml": "name: consumer\nruntime: nodejs\n" } });
    emulator = await startTestEmulator();
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "dev", workDir: project.dir },
      // Transpiled only: the fleet's preview below type-checks the program, as `pulumi preview` does, once is enough.
      { envVars: { PULUMI_BACKEND_URL: `file://${project.dir}`, PULUMI_CONFIG_PASSPHRASE: testPassphrase, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_NODEJS_TRANSPILE_ONLY: "true" } },
    );
    await stack.setAllConfig({
      "monitoring:apiUrl": { value: emulator.baseUrl },
      "monitoring:apiKey": { value: emulator.apiKey, secret: true },
      "consumer:regions": { value: "us-east-1,eu-west-1" },
      "consumer:password": { value: "pw-packed-e2e", secret: true },
    });
  });
  afterAll(async () => {
    // The objects go away with the emulator; the state with the project. The last test destroys
    // them as a user would, with the provider text stored in state.
    await emulator?.stop();
    await project?.dispose();
  });

  /** The state after up, exported once (a CLI run) for the tests that read it. */
  let exported: Promise<StateResource[]> | undefined;
  const monitoringResources = (): Promise<StateResource[]> =>
    (exported ??= stack.exportStack().then(({ deployment }) => (deployment.resources as StateResource[]).filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic/monitoring:"))));

  it("installs one copy of it, the newest", async () => {
    expect(await installedVersion(project.dir, "@pulumi/pulumi")).toBe(newest);
    expect(await pulumiCopies(project.dir)).toEqual(["node_modules/@pulumi/pulumi/package.json"]);
  });

  it("creates the program's resources on up", async () => {
    const up = await stack.up();
    expect(up.summary.resourceChanges?.create).toBe(5); // 4 resources and the stack
    expect(up.outputs.monitorStatus?.value).toBe("PENDING");
    expect(up.outputs.pingUrl?.secret).toBe(true);
  });

  it("previews no change afterwards, with the installed fleet command, which runs the program inside its own process", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PULUMI_BACKEND_URL: `file://${project.dir}`, PULUMI_CONFIG_PASSPHRASE: testPassphrase, PULUMI_SKIP_UPDATE_CHECK: "true" };
    // Without PULUMI_NODEJS_TRANSPILE_ONLY: the program is type-checked, as under `pulumi preview`.
    delete env.PULUMI_NODEJS_TRANSPILE_ONLY;
    const { stdout } = await run(join(project.dir, "node_modules", ".bin", "pulumi-monitoring-fleet"), ["preview", "--json"], { cwd: project.dir, env });
    const report = JSON.parse(stdout) as { programs?: string; stacks: Array<{ stack: string; result: string }> };
    expect(report.programs).toBe("in the fleet process");
    expect(report.stacks).toEqual([expect.objectContaining({ stack: "dev", result: "no changes", counts: { create: 0, update: 0, delete: 0, replace: 0 } })]);
  });

  it("stores one short provider text for every kind: a require of the installed package", async () => {
    const resources = await monitoringResources();
    const texts = new Set(resources.flatMap((resource) => [resource.inputs.__provider, resource.outputs.__provider]));
    expect(texts.size).toBe(1);
    const text = String([...texts][0]);
    console.log(`__provider: ${Buffer.byteLength(text)} B`);
    expect(text).toContain('require("pulumi-monitoring/host")');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PROVIDER_TEXT_LIMIT);
  });

  it("keeps a basic monitor's inputs and outputs under 1.5 KB, with no internal field stored twice", async () => {
    const basic = (await monitoringResources()).find((resource) => resource.urn.endsWith("::basic"))!;
    const bytes = Buffer.byteLength(JSON.stringify(basic.inputs)) + Buffer.byteLength(JSON.stringify(basic.outputs));
    console.log(`basic monitor: inputs and outputs ${bytes} B; whole state entry, engine records included, ${Buffer.byteLength(JSON.stringify(basic))} B`);
    expect(bytes).toBeLessThanOrEqual(MONITOR_STATE_LIMIT);
    const internal = (values: Record<string, unknown>) => Object.keys(values).filter((key) => key.startsWith("__") && key !== "__provider");
    expect(internal(basic.inputs).filter((key) => internal(basic.outputs).includes(key))).toEqual([]);
  });

  it("destroys everything", async () => {
    const destroy = await stack.destroy();
    expect(destroy.summary.resourceChanges?.delete).toBe(5);
    const response = await fetch(`${emulator.baseUrl}/monitors`, { headers: { authorization: `Bearer ${emulator.apiKey}` } });
    expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
  });
});
