import { expect } from "vitest";
import { ApiClient, ApiError, type ApiClientOptions } from "../../provider/http.js";
import type { FaultServer } from "./fault-server.js";

/** Long and distinctive, so any leak into a string is found by a plain substring search. */
export const API_KEY = "pls_test_k3y-that-must-never-leak-7f3a9c";

/** A client with backoff shrunk to milliseconds, so retry tests stay fast. */
export function clientFor(server: FaultServer, overrides: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    ...overrides,
  });
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
