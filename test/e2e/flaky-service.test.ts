/**
 * A bad minute (scripts/flaky-service.ts): on every route, 30 % of requests answer 429 or 503 and
 * 5 % of connections drop; during the `up`, a fifth of the monitors' creates are also answered
 * later than the client's 1 s request timeout (the create happens, its answer is lost). A
 * 40-resource lifecycle still goes through with the provider's default retry settings: each `up`,
 * `refresh` and `destroy` succeeds on its first attempt, makes no duplicate and leaves nothing
 * behind, the program previews no change after the faulted `up`, and a request that keeps
 * failing for more than 5 s is announced in the output of `pulumi up`. On a fast clock: the 429s
 * ask for `Retry-After: 0`, so the run proves the handling of every fault without waiting a second
 * for each (the wait itself is proven below, by a burst of 429s that ask for 1 s, and by
 * test/http/rate-limit.test.ts).
 * `npm run bench:faults` runs it three times over, at the real service's 1 s, beside a
 * fault-free run and prints the figures.
 */
import type { RequestLogEntry } from "../../emulator/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_COUNT, figuresTable, lifecycle } from "../../scripts/flaky-service.js";
import { deploy, type Deployment } from "./support.js";

let deployment: Deployment;

beforeAll(async () => {
  deployment = await deploy({
    program: "test/programs/fleet",
    // 1 s, shorter than the injected latency; not shorter, since on a busy machine it would time out answers that are not late.
    config: { resourceCount: { value: String(RESOURCE_COUNT) }, "monitoring:requestTimeoutSeconds": { value: "1" } },
  });
});
// The objects of the last up go away with the emulator: no destroy.
afterAll(async () => deployment?.dispose({ keepObjects: true }));

describe(`a ${RESOURCE_COUNT}-resource lifecycle against a flaky service`, () => {
  it("up, refresh and destroy each succeed at once, with no duplicate and nothing left, and no change to preview after up; a request that keeps failing is announced", async () => {
    const target = { stack: deployment.harness.stack, ...deployment.emulator };
    // Before the bad minute, so that it fires first: the two heartbeat groups' creates share
    // fourteen 503s 1 s apart, so one of them retries for 6 s at least, past the 5 s after which
    // a retry is announced in the output of pulumi up, naming the resource, the request and the time so far.
    await deployment.emulator.admin.injectFault({ method: "POST", path: "/heartbeat-groups", status: 503, retry_after_seconds: 1, times: 14 });
    // Slower than the 1 s request timeout: the create happens, but its answer is lost, and the create is sent again.
    await deployment.emulator.admin.injectFault({ method: "POST", path: "/monitors", latency_ms: 1_500, probability: 0.2 });
    const emptyPreview = () => deployment.harness.stack.preview({ expectNoChanges: true }).then(() => undefined);
    const { figures, declared, afterUp, afterDestroy } = await lifecycle(target, 2, true, 0, emptyPreview);
    console.log(figuresTable("a bad minute", figures));
    expect(figures.map((entry) => `${entry.command} ${entry.result}`)).toEqual(["up succeeded", "refresh succeeded", "destroy succeeded"]);
    expect(Object.values(declared).flat()).toHaveLength(RESOURCE_COUNT);
    // Exactly the declared objects, each once: a create repeated after a lost answer made no second one.
    expect(afterUp).toEqual(declared);
    expect(afterDestroy).toEqual({});
    expect(figures.reduce((sum, entry) => sum + entry.faulted, 0)).toBeGreaterThan(0);
    expect(figures.reduce((sum, entry) => sum + entry.throttled, 0)).toBeGreaterThan(0);
    expect(figures[0]!.delayed).toBeGreaterThan(0);
    const notice = /HeartbeatGroup "(nightly|hourly)-jobs": retrying POST \/heartbeat-groups after 503 \(attempt ([6-9]|[1-9]\d), ([5-9]|\d\d) s so far\)/;
    const announced = figures[0]!.noticeLines.find((line) => notice.test(line));
    console.log(`[flaky-service] in the output of pulumi up: ${announced}`);
    expect(announced).toBeDefined();
    // Under three minutes on a 2-core machine shared by a load of 25; the limit is for a stuck one.
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
    // The default request timeout again: the rates below are of requests, not of attempts timed out on a busy machine.
    await stack.removeConfig("monitoring:requestTimeoutSeconds");
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
    // The second after the first 429 is its Retry-After: every request of the deploy waits it out,
    // so the requests that arrive in it are the few already on their way. Measured over that second
    // alone, not a longer window, because the catch-up after it runs as fast as the machine allows.
    const paused = rate(log, firstThrottle + 1, firstThrottle + 1000);
    console.log(
      `[flaky-service] 429 burst: ${before.toFixed(1)} requests/s before the first 429, ` +
        `${paused.toFixed(1)} in the second after it (${log.length} requests in all)`,
    );
    expect(paused).toBeLessThan(before / 2);
  }, 240_000);
});
