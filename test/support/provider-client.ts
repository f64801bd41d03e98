/** The provider's API client on a test emulator, its backoff shrunk to milliseconds so retries cost no time. */
import { ApiClient, type ApiClientOptions } from "../../provider/http/client.js";
import type { TestEmulator } from "./emulator.js";

export function providerClientOn(emulator: Pick<TestEmulator, "baseUrl" | "apiKey">, overrides: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({ baseUrl: emulator.baseUrl, apiKey: emulator.apiKey, retryBaseDelayMs: 1, retryMaxDelayMs: 5, ...overrides });
}
