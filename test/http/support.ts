import { expect } from "vitest";
import { ApiError } from "../../provider/errors.js";
import { ApiClient, type ApiClientOptions } from "../../provider/http/client.js";
import type { Clock } from "../../provider/http/rate-limit.js";
import type { FaultServer } from "./fault-server.js";

/** Long and distinctive, so any leak into a string is found by a plain substring search. */
export const API_KEY = "pls_test_k3y-that-must-never-leak-7f3a9c";

/** A client with backoff shrunk to milliseconds and a 2 s retry budget, so retry tests stay fast. */
export function clientFor(server: FaultServer, overrides: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    retryBudgetMs: 2_000,
    ...overrides,
  });
}

/** A clock that moves only when told to; sleepers wake in order of their deadline. */
export class ManualClock implements Clock {
  #now = 0;
  #sleepers: Array<{ until: number; wake: () => void }> = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((wake) => this.#sleepers.push({ until: this.#now + ms, wake }));
  }

  /** Moves time forward by `ms`, waking each sleeper whose deadline has come and letting it run. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      const due = this.#sleepers.filter((sleeper) => sleeper.until <= target).sort((a, b) => a.until - b.until)[0];
      if (due === undefined) break;
      this.#sleepers.splice(this.#sleepers.indexOf(due), 1);
      this.#now = Math.max(this.#now, due.until);
      due.wake();
      await settle();
    }
    this.#now = target;
    await settle();
  }
}

/** Lets every promise callback that is ready run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The ApiError a promise rejects with; fails the test if it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    (value: unknown) => ({ resolved: value }),
    (error: unknown) => ({ rejected: error }),
  );
  if (!("rejected" in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.resolved)}`);
  expect(outcome.rejected).toBeInstanceOf(ApiError);
  return outcome.rejected as ApiError;
}
