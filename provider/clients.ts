/**
 * The process's one API client: built when the first request is about to be made (so credentials
 * are resolved then and never captured in a serialized provider), and kept while the settings stay
 * the same, so every resource of a deployment, or every lookup of a program, shares its connections
 * and rate limit. A stateless module otherwise: the provider's dispatcher (provider/index.ts) and
 * the lookups (sdk/lookups.ts) each ask it for the client of their settings.
 */
import { type ConfigKeyName, type ConfigSource, resolveSettings, stackConfigKeyName } from "./config.js";
import { ApiClient, type RetryEvent } from "./http.js";

let shared: { settings: string; client: ApiClient } | undefined;

export interface ClientHooks {
  /** Hears of retries (the provider announces slow ones). */
  onRetry?: (event: RetryEvent) => void;
  /**
   * How messages about a setting that cannot work name its configuration key: asked when such a
   * message is written, so the provider can name the stack once a URN has shown it.
   */
  keyName?: () => ConfigKeyName;
}

/** The client for the settings `config` resolves to. */
export function apiClientFor(config: ConfigSource, hooks: ClientHooks = {}): ApiClient {
  const { sources: _named, ...settings } = resolveSettings(config);
  const signature = JSON.stringify(settings);
  if (shared === undefined || shared.settings !== signature) {
    const { apiUrl, ...options } = settings;
    void shared?.client.close();
    const sources = () => resolveSettings(config, process.env, hooks.keyName?.() ?? stackConfigKeyName()).sources;
    shared = { settings: signature, client: new ApiClient({ baseUrl: apiUrl, ...options, sources, ...(hooks.onRetry === undefined ? {} : { onRetry: hooks.onRetry }) }) };
  }
  return shared.client;
}
