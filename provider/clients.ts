/**
 * The process's one API client: built when the first request is about to be made (so credentials
 * are resolved then and never captured in a serialized provider), and kept while the settings stay
 * the same, so every resource of a deployment, or every lookup of a program, shares its connections
 * and rate limit. A stateless module otherwise: the provider's dispatcher (provider/index.ts) and
 * the lookups (sdk/lookups.ts) each ask it for the client of their settings.
 *
 * The rate limit is the fleet's shared budget when the process is part of a fleet run with one
 * (provider/fleet-run-settings.ts, provider/fleet-budget.ts), else its own `monitoring:maxRequestsPerSecond`.
 */
import { type ConfigKeyName, type ConfigSource, resolveSettings, stackConfigKeyName } from "./config.js";
import { FleetBudgetClient, limiterFor } from "./fleet-budget.js";
import { fleetRunSettings } from "./fleet-run-settings.js";
import { ApiClient } from "./http/client.js";
import type { RequestLimiter } from "./http/rate-limit.js";
import type { RetryEvent } from "./http/request.js";

let shared: { settings: string; client: ApiClient; limiter: RequestLimiter } | undefined;

export interface ClientHooks {
  /** Hears of retries (the provider announces slow ones). */
  onRetry?: (event: RetryEvent) => void;
  /** Hears that the fleet's token server went away, so this process went back to its own limit. */
  onBudgetFallback?: (reason: string) => void;
  /**
   * How messages about a setting that cannot work name its configuration key: asked when such a
   * message is written, so the provider can name the stack once a URN has shown it.
   */
  keyName?: () => ConfigKeyName;
}

/** The client for the settings `config` resolves to. */
export function apiClientFor(config: ConfigSource, hooks: ClientHooks = {}): ApiClient {
  const { sources: _named, ...settings } = resolveSettings(config);
  const fleetBudget = fleetRunSettings().budget;
  const signature = JSON.stringify({ ...settings, fleetBudget });
  if (shared === undefined || shared.settings !== signature) {
    const { apiUrl, maxRequestsPerSecond, ...options } = settings;
    void shared?.client.close();
    if (shared?.limiter instanceof FleetBudgetClient) shared.limiter.close();
    const limiter = limiterFor(maxRequestsPerSecond, fleetBudget, hooks.onBudgetFallback === undefined ? {} : { onFallback: hooks.onBudgetFallback });
    const sources = () => resolveSettings(config, process.env, hooks.keyName?.() ?? stackConfigKeyName()).sources;
    const client = new ApiClient({ baseUrl: apiUrl, ...options, sources, rateLimiter: limiter, ...(hooks.onRetry === undefined ? {} : { onRetry: hooks.onRetry }) });
    shared = { settings: signature, client, limiter };
  }
  return shared.client;
}
