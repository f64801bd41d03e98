/**
 * The provider as the Pulumi dynamic-provider host runs it: `pulumi-monitoring/provider`. The
 * serialized provider stored with each resource (provider/dynamic.ts) loads this module at call
 * time and asks it for the kind's implementation.
 *
 * Module state is per provider process, which serves every resource of a deployment: one API
 * client, hence one connection pool and one rate limiter (`monitoring:maxRequestsPerSecond`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { definitionOf } from "../schema/index.js";
import { check } from "./check.js";
import { CONFIG_NAMESPACE, type ConfigSource, offeredRegions, resolveSettings } from "./config.js";
import { diff } from "./diff.js";
import { ResourceEngine } from "./engine.js";
import { ApiClient } from "./http.js";

export { ResourceEngine } from "./engine.js";
export { resolveSettings, type ConfigSource, type ProviderSettings } from "./config.js";

/** Stack configuration as handed to `configure`; environment variables only until then. */
let stackConfig: ConfigSource = () => undefined;
let shared: { settings: string; client: ApiClient } | undefined;

/**
 * The process's API client for the settings `config` resolves to, built on first use and kept
 * while they stay the same, so every resource shares its connections and rate limit.
 */
export function apiClientFor(config: ConfigSource): ApiClient {
  const settings = resolveSettings(config);
  const signature = JSON.stringify(settings);
  if (shared === undefined || shared.settings !== signature) {
    const { apiUrl, ...options } = settings;
    void shared?.client.close();
    shared = { settings: signature, client: new ApiClient({ baseUrl: apiUrl, ...options }) };
  }
  return shared.client;
}

const providers = new Map<string, pulumi.dynamic.ResourceProvider>();

/** The dynamic provider of one kind. */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  const cached = providers.get(kind);
  if (cached !== undefined) return cached;
  const definition = definitionOf(kind);
  const engine = new ResourceEngine(definition, () => apiClientFor(stackConfig));
  const provider: pulumi.dynamic.ResourceProvider = {
    async configure(request) {
      stackConfig = (key) => request.config.get(`${CONFIG_NAMESPACE}:${key}`);
    },
    check: async (_olds, news) => {
      const regions = offeredRegions(stackConfig);
      return check(definition, news, regions === undefined ? {} : { region: regions });
    },
    diff: async (_id, olds, news) => diff(definition, olds, news),
    create: (inputs) => engine.create(inputs),
    read: (id, props) => engine.read(id, props ?? {}),
    update: (id, olds, news) => engine.update(id, olds, news),
    delete: (id, props) => engine.delete(id, props),
  };
  providers.set(kind, provider);
  return provider;
}
