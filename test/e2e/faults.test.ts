/**
 * A flaky service: 30% of requests answer 429 or 503, some connections drop, some answers come
 * too late. The deploy still converges, with no duplicate object. On a fast clock: the 429s ask
 * for `Retry-After: 0`, so the run proves their handling without waiting a second for each. (The
 * request timeout stays at 1 s: on a busy machine a shorter one times out answers that are not late.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, type Deployment } from "./support.js";

const monitorCount = 20;
const resources = [
  { kind: "NotificationChannel", name: "ops", args: { name: "Ops", kind: "email", config: { address: "ops@example.com" } } },
  ...Array.from({ length: monitorCount }, (_, index) => ({
    kind: "Monitor",
    name: `web-${index}`,
    args: { name: `Web ${index}`, url: `https://example.com/${index}`, notificationChannelIds: [{ $ref: "ops" }] },
  })),
];

describe("deploying through injected faults", () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await deploy({
      program: "test/programs/declared",
      config: {
        resources: { value: JSON.stringify(resources) },
        "monitoring:maxRetries": { value: "12" },
        "monitoring:requestTimeoutSeconds": { value: "1" },
      },
    });
  });
  // The objects go away with the emulator: no destroy.
  afterAll(async () => deployment?.dispose({ keepObjects: true }));

  it("converges with no duplicates", async () => {
    const { admin } = deployment.emulator;
    await admin.injectFault({ status: 429, retry_after_seconds: 0, probability: 0.15 });
    await admin.injectFault({ status: 503, probability: 0.15 });
    await admin.injectFault({ drop_connection: true, probability: 0.05 });
    // Slower than the client's 1 s timeout: the create happens, but its answer is lost.
    await admin.injectFault({ method: "POST", path: "/monitors", latency_ms: 1_500, probability: 0.2 });

    const up = await deployment.harness.stack.up();
    expect(up.summary.result).toBe("succeeded");
    const log = await admin.requestLog();
    const faulted = log.filter((entry) => entry.fault !== null).length;
    console.log(`requests: ${log.length}, faulted: ${faulted}`);
    expect(faulted).toBeGreaterThan(0);

    await admin.clearFaults();
    const monitors = await deployment.listAll<{ name: string }>("/monitors");
    expect(monitors).toHaveLength(monitorCount);
    expect(new Set(monitors.map((monitor) => monitor.name)).size).toBe(monitorCount);
    expect(await deployment.listAll("/notification_channels")).toHaveLength(1);
  });

  it("then previews and refreshes no changes", async () => {
    await deployment.harness.stack.preview({ expectNoChanges: true });
    await deployment.harness.stack.refresh({ expectNoChanges: true });
  });
});
