import { describe, expect, it } from "vitest";
import type { HttpMethod } from "../../provider/http/request.js";
import { parseRetryAfter, retryDecision, type AttemptFailure, type RetryPolicy } from "../../provider/http/retry.js";

const policy: RetryPolicy = {
  budgetMs: 120_000,
  baseDelayMs: 200,
  maxDelayMs: 20_000,
  retryAfterMaxMs: 60_000,
  // The top of the jitter range, so the expected delay is the exponential ceiling itself.
  random: () => 0.999_999,
};

const unavailable: AttemptFailure = { kind: "status", status: 503 };

describe("retryDecision: which failures are repeated", () => {
  const cases: Array<[HttpMethod, boolean, AttemptFailure, boolean]> = [
    ["GET", false, unavailable, true],
    ["HEAD", false, unavailable, true],
    ["PUT", false, unavailable, true],
    ["DELETE", false, unavailable, true],
    ["OPTIONS", false, unavailable, true],
    ["POST", false, unavailable, false],
    ["PATCH", false, unavailable, false],
    ["POST", true, unavailable, true],
    ["PATCH", true, unavailable, true],
    ["GET", false, { kind: "status", status: 500 }, true],
    ["GET", false, { kind: "status", status: 502 }, true],
    ["GET", false, { kind: "status", status: 504 }, true],
    ["GET", false, { kind: "status", status: 429 }, true],
    ["POST", true, { kind: "status", status: 429 }, true],
    ["POST", false, { kind: "status", status: 429 }, false],
    ["GET", false, { kind: "status", status: 501 }, false],
    ["GET", false, { kind: "status", status: 400 }, false],
    ["GET", false, { kind: "status", status: 404 }, false],
    ["POST", true, { kind: "status", status: 409 }, false],
    ["POST", true, { kind: "status", status: 422 }, false],
    ["GET", false, { kind: "network" }, true],
    ["POST", true, { kind: "network" }, true],
    ["POST", false, { kind: "network" }, false],
    ["GET", false, { kind: "timeout" }, true],
    ["POST", false, { kind: "timeout" }, false],
    // A refused connection never delivered the request, so even a bare POST may be repeated.
    ["POST", false, { kind: "connect" }, true],
    ["GET", false, { kind: "fatal" }, false],
    ["POST", true, { kind: "fatal" }, false],
  ];

  it.each(cases)("%s (key: %s) after %j → retry %s", (method, hasIdempotencyKey, failure, expected) => {
    expect(retryDecision(1, { method, hasIdempotencyKey, failure, elapsedMs: 0 }, policy).retry).toBe(expected);
  });
});

describe("retryDecision: how long to keep trying", () => {
  const context = { method: "GET" as const, hasIdempotencyKey: false, failure: unavailable };
  // A 1 s wait after the fourth attempt, whose jitter range ends at 1.6 s.
  const steady: RetryPolicy = { ...policy, random: () => 0.625 };

  it.each<[string, number, number, boolean]>([
    ["early on", 4, 0, true],
    ["after many attempts, while time is left", 40, 100_000, true],
    ["when the wait ends exactly at the budget", 4, 119_000, true],
    ["when the wait would end past the budget", 4, 119_001, false],
    ["once the budget is spent", 4, 120_000, false],
  ])("retries %s → %s", (_, attempt, elapsedMs, expected) => {
    expect(retryDecision(attempt, { ...context, elapsedMs }, steady).retry).toBe(expected);
  });

  it("counts a Retry-After wait against the budget like a backoff", () => {
    const failure: AttemptFailure = { kind: "status", status: 429, retryAfterMs: 30_000 };
    expect(retryDecision(1, { ...context, failure, elapsedMs: 90_000 }, policy)).toEqual({ retry: true, delayMs: 30_000 });
    expect(retryDecision(1, { ...context, failure, elapsedMs: 90_001 }, policy)).toEqual({ retry: false });
  });

  it("has no count limit unless maxRetries is set, then stops once that many retries were made", () => {
    expect(retryDecision(1000, { ...context, elapsedMs: 0 }, steady).retry).toBe(true);
    expect(retryDecision(4, { ...context, elapsedMs: 0 }, { ...steady, maxRetries: 4 }).retry).toBe(true);
    expect(retryDecision(5, { ...context, elapsedMs: 0 }, { ...steady, maxRetries: 4 })).toEqual({ retry: false });
    expect(retryDecision(1, { ...context, elapsedMs: 0 }, { ...steady, maxRetries: 0 })).toEqual({ retry: false });
  });
});

describe("retryDecision: how long to wait", () => {
  const context = { method: "GET" as const, hasIdempotencyKey: false, elapsedMs: 0 };

  it.each([
    [1, 199],
    [2, 399],
    [3, 799],
    [6, 6399],
    [7, 12_799],
    [8, 19_999],
    [30, 19_999],
  ])("after attempt %i the ceiling of the jittered backoff is %i ms", (attempt, expected) => {
    const decision = retryDecision(attempt, { ...context, failure: unavailable }, policy);
    expect(decision).toEqual({ retry: true, delayMs: expected });
  });

  it.each<[string, AttemptFailure]>([
    ["a refused connection", { kind: "connect" }],
    ["a dropped connection", { kind: "network" }],
    ["a timeout", { kind: "timeout" }],
  ])("after %s, waits the jittered backoff, as after a 503", (_, failure) => {
    expect(retryDecision(3, { ...context, failure }, policy)).toEqual({ retry: true, delayMs: 799 });
  });

  it("spreads delays over the whole range below the ceiling (full jitter)", () => {
    const delays = [0, 0.25, 0.5].map((draw) => {
      const decision = retryDecision(3, { ...context, failure: unavailable }, { ...policy, random: () => draw });
      return decision.retry ? decision.delayMs : undefined;
    });
    expect(delays).toEqual([0, 200, 400]);
  });

  it("waits what Retry-After says instead of backing off, up to retryAfterMaxMs", () => {
    const failure = (retryAfterMs: number): AttemptFailure => ({ kind: "status", status: 429, retryAfterMs });
    expect(retryDecision(1, { ...context, failure: failure(1500) }, policy)).toEqual({ retry: true, delayMs: 1500 });
    expect(retryDecision(1, { ...context, failure: failure(0) }, policy)).toEqual({ retry: true, delayMs: 0 });
    expect(retryDecision(1, { ...context, failure: failure(3_600_000) }, policy)).toEqual({
      retry: true,
      delayMs: 60_000,
    });
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-07-09T12:00:00Z");

  it.each<[string | undefined, number | undefined]>([
    ["1", 1000],
    [" 120 ", 120_000],
    ["0", 0],
    ["1.5", 1500],
    ["Thu, 09 Jul 2026 12:00:30 GMT", 30_000],
    ["Thu, 09 Jul 2026 11:59:00 GMT", 0],
    ["soon", undefined],
    // A number followed by anything is not delay-seconds, nor a date.
    ["5 seconds", undefined],
    ["-5", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%j → %j ms", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
