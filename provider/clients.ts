/**
 * The process's one API client: built when the first request is about to be made (so credentials
 * are resolved then and never captured in a serialized provider), and kept while the settings stay
 * the same, so every resource of a deployment, or every lookup of a program, shares its connections
 * and rate limit. A stateless module otherwise: the provider's dispatcher (provider/index.ts) and
 * the lookups (sdk/lookups.ts) each ask it for the client of their settings.
 */
import { type ConfigSource, resolveSettings } from "./config.js";
import { ApiClient, type RetryEvent } from "./http.js";

let shared: { settings: string; client: ApiClient } | undefined;

/** The client for the settings `config` resolves to; `onRetry` hears of retries (the provider announces slow ones). */
export function apiClientFor(config: ConfigSource, onRetry?: (event: RetryEvent) => void): ApiClient {
  const settings = resolveSettings(config);
  const signature = JSON.stringify(settings);
  if (shared === undefined || shared.settings !== signature) {
    const { apiUrl, ...options } = settings;
    void shared?.client.close();
    shared = { settings: signature, client: new ApiClient({ baseUrl: apiUrl, ...options, ...(onRetry === undefined ? {} : { onRetry }) }) };
  }
  return shared.client;
}
