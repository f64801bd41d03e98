/**
 * A bad minute (scripts/flaky-service.ts): on every route, 30 % of requests answer 429
 * (Retry-After 1 s) or 503 and 5 % of connections drop. A 40-resource lifecycle still goes through
 * with the provider's default retry settings: each `up`, `refresh` and `destroy` succeeds on its
 * first attempt, makes no duplicate and leaves nothing behind. `npm run bench:faults` runs it
 * three times over beside a fault-free run and prints the figures.
 */
// @ts-nocheck

import type { RequestLogEntry } from "../../emulator/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_COUNT, figuresTable, lifecycle } from "../../scripts/flaky-service.js";
import { deploy, type Deployment } from "./support.js";

let deployment: Deployment;

beforeAll(async () => {
  deployment = await deploy({ program: "test/programs/fleet", config: { resourceCount: { value: String(RESOURCE_COUNT) } } });
});
afterAll(async () => deployment?.dispose());

describe(`a ${RESOURCE_COUNT}-resource lifecycle against a flaky service`, () => {
  it("up, refresh and destroy each succeed at once, with no duplicate and nothing left", async () => {
    const target = { stack: deployment.harness.stack, ...deployment.emulator };
    const { figures, declared, afterUp, afterDestroy } = await lifecycle(target, 2, true);
    console.log(figuresTable("a bad minute", figures));
    expect(figures.map((entry) => `${entry.command} ${entry.result}`)).toEqual(["up succeeded", "refresh succeeded", "destroy succeeded"]);
    expect(Object.values(declared).flat()).toHaveLength(RESOURCE_COUNT);
    // Exactly the declared objects, each once: a create repeated after a lost answer made no second one.
    expect(afterUp).toEqual(declared);
    expect(afterDestroy).toEqual({});
    expect(figures.reduce((sum, entry) => sum + entry.faulted, 0)).toBeGreaterThan(0);
    // About 2 minutes on a busy 2-core machine; the limit is for a stuck one.
  }, 480_000);
});

/** Requests per second in [from, to) of the log, by arrival time. */
function rate(log: RequestLogEntry[], from: number, to: number): number {
  const within = log.filter((entry) => {
    const time = Date.parse(entry.time);
    return time >= from && time < to;
  });
  return within.length / ((to - from) / 1000);
}

describe("a burst of 429s", () => {
  it("slows every request of the deploy, not only the ones that got it", async () => {
    const { stack } = deployment.harness;
    const { admin } = deployment.emulator;
    await stack.setConfig("generation", { value: "5" });
    await admin.clearRequestLog();
    const up = stack.up();
    // Let the deploy get going, then refuse the next three requests, whatever they are.
    for (let log = await admin.requestLog(); log.length < 30; log = await admin.requestLog()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await admin.injectFault({ path: "**", status: 429, retry_after_seconds: 1, times: 3 });
    expect((await up).summary.result).toBe("succeeded");

    const log = await admin.requestLog();
    const firstThrottle = Date.parse(log.find((entry) => entry.status === 429)?.time ?? "");
    const start = Date.parse(log[0]?.time ?? "");
    const before = rate(log, start, firstThrottle);
    const pausedAndAfter = rate(log, firstThrottle + 1, firstThrottle + 2000);
    console.log(
      `[flaky-service] 429 burst: ${before.toFixed(1)} requests/s before the first 429, ` +
        `${pausedAndAfter.toFixed(1)} in the 2 s after it (${log.length} requests in all)`,
    );
    expect(pausedAndAfter).toBeLessThan(before / 2);
    await stack.destroy();
  }, 240_000);
});

describe("a request that keeps failing", () => {
  it("is announced in the output of pulumi up, naming the resource, the request and the time so far", async () => {
    const { stack } = deployment.harness;
    // Two channels, the policy and the two heartbeat groups, whose creates share eight 503s 2 s apart.
    await stack.setConfig("generation", { value: "6" });
    await stack.setConfig("resourceCount", { value: "5" });
    await deployment.emulator.admin.injectFault({ method: "POST", path: "/heartbeat-groups", status: 503, retry_after_seconds: 2, times: 8 });
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    const notice = /HeartbeatGroup "(nightly|hourly)-jobs": retrying POST \/heartbeat-groups after 503 \(attempt [4-8], \d+ s so far\)/;
    expect(up.stdout).toMatch(notice);
    console.log(`[flaky-service] in the output of pulumi up: ${up.stdout.split("\n").find((line) => notice.test(line))?.trim()}`);
    await stack.destroy();
  }, 240_000);
});
