/**
 * How the provider's default retries carry a 40-resource lifecycle through a bad minute of the
 * service (scripts/flaky-service.ts), for the record: a fault-free run of up, refresh and destroy,
 * then `--repetitions` runs (default 3) with 30 % of requests answered 429 or 503 and 5 % of
 * connections dropped. Prints, per command, its time, the requests the service saw, how many met a
 * fault and were retried, and the retry notices in its output; fails if any run leaves a duplicate
 * or an object behind. `npm test` runs one bad minute (test/e2e/flaky-service.test.ts).
 *
 * The program is test/programs/fleet, run by the real Pulumi CLI against an in-memory emulator,
 * with its state in a file backend under .work/.
 *
 * Usage: npm run bench:faults [-- --repetitions 3]
 */
// @ts-nocheck

import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { randomBytes } from "node:crypto";
import { cp, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { startEmulator } from "../emulator/index.js";
import { type FlakyServiceTarget, RESOURCE_COUNT, figuresTable, lifecycle } from "./flaky-service.js";

const repoRoot = join(__dirname, "..", "..");
const { values } = parseArgs({ options: { repetitions: { type: "string", default: "3" } } });
const repetitions = Number(values.repetitions);

async function main(): Promise<void> {
  const emulator = await startEmulator({ quiet: true });
  // Inside the repository, so that the program resolves @pulumi/pulumi and pulumi-monitoring.
  const workDir = join(repoRoot, ".work", `bench-faults-${randomBytes(4).toString("hex")}`);
  await mkdir(join(workDir, ".state"), { recursive: true });
  await cp(join(repoRoot, "test/programs/fleet"), workDir, { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "bench", workDir },
    {
      envVars: {
        PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`,
        PULUMI_CONFIG_PASSPHRASE: "bench-faults",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        // npm test type-checks the program; the benchmark measures the deploys.
        PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      },
    },
  );
  await stack.setAllConfig({ "monitoring:apiUrl": { value: emulator.baseUrl }, "monitoring:apiKey": { value: emulator.apiKey, secret: true } });
  const target: FlakyServiceTarget = { stack, baseUrl: emulator.baseUrl, adminUrl: emulator.adminUrl, apiKey: emulator.apiKey };
  console.log(`A ${RESOURCE_COUNT}-resource lifecycle, fault-free and through ${repetitions} bad minutes:`);
  try {
    for (let run = 0; run <= repetitions; run++) {
      const outcome = await lifecycle(target, run + 1, run > 0);
      console.log(figuresTable(run === 0 ? "fault-free" : `repetition ${run}`, outcome.figures));
      if (!isDeepStrictEqual(outcome.afterUp, outcome.declared)) throw new Error(`after up the service held ${JSON.stringify(outcome.afterUp)}, not what was declared`);
      if (Object.keys(outcome.afterDestroy).length > 0) throw new Error(`destroy left ${JSON.stringify(outcome.afterDestroy)}`);
    }
  } finally {
    await stack.destroy().catch(() => undefined);
    await emulator.stop();
    await rm(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
