/**
 * What the policy pack adds to a preview: a program of N monitors (default 100, each routed to a
 * channel, with two regions and an SSL expiry alert) previewed on the real CLI with and without
 * `--policy-pack node_modules/pulumi-monitoring/policy`, runs interleaved, and the median wall
 * time of each, their difference and ratio printed. The project is made like `pulumi new
 * typescript` with the package installed from `npm pack` (dist must be built), as users run it.
 *
 * Usage: npm run bench:policy [-- --monitors 100 --runs 3]
 */
// @ts-nocheck

import { execFile } from "node:child_process";
import { parseArgs } from "node:util";
import { promisify } from "node:util";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { createConsumerProject } from "./consumer-project.js";

const run = promisify(execFile);
const { values } = parseArgs({ options: { monitors: { type: "string", default: "100" }, runs: { type: "string", default: "3" } } });
const monitors = Number(values.monitors);
const runs = Number(values.runs);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";
const count = new pulumi.Config().requireNumber("count");
const ops = new mon.NotificationChannel("ops", { name: "ops", kind: "email", config: { address: "ops@example.com" } });
for (let i = 0; i < count; i++) {
  new mon.Monitor(\`m\${i}\`, { url: \`https://example.com/\${i}\`, regions: ["eu-west-1", "us-east-1"], sslExpiryAlertDays: 30, notificationChannelIds: [ops.id] });
}
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const project = await createConsumerProject({ pulumiVersion: "3.259.0", files: { "index.ts": PROGRAM, "Pulumi.yaml": "name: bench-policy\nruntime: nodejs\n" } });
  const env = { ...process.env, PULUMI_BACKEND_URL: `file://${project.dir}`, PULUMI_CONFIG_PASSPHRASE: "bench", PULUMI_SKIP_UPDATE_CHECK: "true" };
  try {
    const stack = await LocalWorkspace.createOrSelectStack({ stackName: "bench", workDir: project.dir }, { envVars: env as Record<string, string> });
    // Preview makes no API call: the address only has to be set.
    await stack.setAllConfig({ "monitoring:apiUrl": { value: "http://127.0.0.1:9/v1" }, "bench-policy:count": { value: String(monitors) } });
    const preview = async (args: string[]) => {
      const started = performance.now();
      await run("pulumi", ["preview", "--stack", "bench", "--non-interactive", ...args], { cwd: project.dir, env, maxBuffer: 64 * 1024 * 1024 });
      return (performance.now() - started) / 1000;
    };
    await preview([]); // warms the disk cache and compiles nothing twice: not counted
    const without: number[] = [];
    const withPack: number[] = [];
    for (let i = 0; i < runs; i++) {
      without.push(await preview([]));
      withPack.push(await preview(["--policy-pack", "node_modules/pulumi-monitoring/policy"]));
    }
    const [plain, checked] = [median(without), median(withPack)];
    console.log(`preview of ${monitors} monitors, median of ${runs} runs (wall):`);
    console.log(`  without the pack  ${plain.toFixed(2)} s   (${without.map((s) => s.toFixed(2)).join(", ")})`);
    console.log(`  with the pack     ${checked.toFixed(2)} s   (${withPack.map((s) => s.toFixed(2)).join(", ")})`);
    console.log(`  the pack adds     ${(checked - plain).toFixed(2)} s, ratio ${(checked / plain).toFixed(2)}`);
  } finally {
    await project.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
