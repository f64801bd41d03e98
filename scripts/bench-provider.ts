/**
 * Benchmark of the provider on the real Pulumi engine against the in-memory emulator.
 *
 * Prints:
 *  - `pulumi up` creating N monitors (default 500), in seconds;
 *  - API requests during a `preview` with no changes (must be 0);
 *  - API requests per resource during `refresh`;
 *  - the size in bytes of `__provider` per resource in state;
 *  - the same N-resource up with a do-nothing dynamic resource, and the ratio of the two,
 *    so the provider's own overhead shows.
 *
 * Usage: npm run bench:provider [-- --count 500]
 */
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator/index.js";

const repoRoot = join(__dirname, "..", "..");
const { values } = parseArgs({ options: { count: { type: "string", default: "500" } } });
const count = Number(values.count);

const programs = {
  monitors: `
import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";
const count = new pulumi.Config().requireNumber("count");
for (let i = 0; i < count; i++) {
  new mon.Monitor(\`m\${i}\`, { name: \`bench \${i}\`, url: \`https://example.com/\${i}\`, intervalSeconds: 60, regions: ["eu-west-1", "us-east-1"] });
}
`,
  noop: `
import * as pulumi from "@pulumi/pulumi";
const noop: pulumi.dynamic.ResourceProvider = {
  async create(inputs) { return { id: inputs.name, outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async diff() { return { changes: false }; },
};
const count = new pulumi.Config().requireNumber("count");
for (let i = 0; i < count; i++) {
  new (class extends pulumi.dynamic.Resource {})(noop, \`n\${i}\`, { name: \`bench \${i}\` }, {}, "bench", "Noop");
}
`,
};

async function createStack(program: keyof typeof programs, env: Record<string, string>): Promise<{ stack: Stack; workDir: string }> {
  const workDir = join(repoRoot, ".work", `bench-${program}-${process.pid}`);
  await rm(workDir, { recursive: true, force: true });
  await mkdir(join(workDir, ".state"), { recursive: true });
  await writeFile(join(workDir, "Pulumi.yaml"), `name: bench-${program}\nmain: index.ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`);
  await writeFile(join(workDir, "index.ts"), programs[program]);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "bench", workDir },
    {
      envVars: {
        PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`,
        PULUMI_CONFIG_PASSPHRASE: "bench",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        ...env,
      },
    },
  );
  await stack.setConfig("count", { value: String(count) });
  return { stack, workDir };
}

async function timed<T>(action: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await action();
  return [result, (performance.now() - started) / 1000];
}

async function apiRequestCount(adminUrl: string): Promise<number> {
  const response = await fetch(`${adminUrl}/requests`);
  const body = (await response.json()) as { data: unknown[] };
  return body.data.length;
}

async function clearRequestLog(adminUrl: string): Promise<void> {
  await fetch(`${adminUrl}/requests`, { method: "DELETE" });
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ quiet: true });
  const lines: string[] = [];
  const report = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  try {
    report(`benchmark: ${count} resources, emulator in memory at ${emulator.baseUrl}`);

    const monitors = await createStack("monitors", {});
    await monitors.stack.setConfig("monitoring:apiUrl", { value: emulator.baseUrl });
    await monitors.stack.setConfig("monitoring:apiKey", { value: emulator.apiKey, secret: true });
    const [up, upSeconds] = await timed(() => monitors.stack.up());
    if (up.summary.result !== "succeeded") throw new Error(`up failed: ${up.summary.result}`);
    // The stack itself is one of the creates; a program that declared nothing must not pass as fast.
    if (up.summary.resourceChanges?.create !== count + 1) throw new Error(`up created ${up.summary.resourceChanges?.create} resources, not ${count + 1}`);
    report(`pulumi up creating ${count} monitors: ${upSeconds.toFixed(1)} s`);

    await clearRequestLog(emulator.adminUrl);
    const [, previewSeconds] = await timed(() => monitors.stack.preview({ expectNoChanges: true }));
    report(`API requests during a preview with no changes: ${await apiRequestCount(emulator.adminUrl)} (${previewSeconds.toFixed(1)} s)`);

    await clearRequestLog(emulator.adminUrl);
    const [, refreshSeconds] = await timed(() => monitors.stack.refresh({ expectNoChanges: true }));
    const refreshRequests = await apiRequestCount(emulator.adminUrl);
    report(`API requests per resource during refresh: ${(refreshRequests / count).toFixed(2)} (${refreshRequests} in ${refreshSeconds.toFixed(1)} s)`);

    const state = (await monitors.stack.exportStack()).deployment as { resources: { type: string; outputs?: Record<string, unknown> }[] };
    const providerSizes = state.resources
      .filter((resource) => resource.type.endsWith(":Monitor"))
      .map((resource) => Buffer.byteLength(String(resource.outputs?.["__provider"] ?? "")));
    report(`__provider per resource in state: ${Math.max(...providerSizes)} bytes`);

    const [, destroySeconds] = await timed(() => monitors.stack.destroy());
    report(`pulumi destroy of ${count} monitors: ${destroySeconds.toFixed(1)} s`);
    await rm(monitors.workDir, { recursive: true, force: true });

    const noop = await createStack("noop", {});
    const [, noopSeconds] = await timed(() => noop.stack.up());
    report(`pulumi up creating ${count} do-nothing dynamic resources: ${noopSeconds.toFixed(1)} s`);
    report(`provider overhead: ${(upSeconds / noopSeconds).toFixed(2)}x the do-nothing resource`);
    await noop.stack.destroy();
    await rm(noop.workDir, { recursive: true, force: true });
  } finally {
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
