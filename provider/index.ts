/**
 * The provider as the Pulumi dynamic-provider host runs it: `pulumi-monitoring/provider`. The
 * serialized provider stored with each resource (provider/dynamic.ts) loads this module at call
 * time and asks it for the kind's implementation.
 *
 * Module state is per provider process, which serves every resource of a deployment: one API
 * client, hence one connection pool and one rate limiter (`monitoring:maxRequestsPerSecond`, and
 * the back-off after a 429, for every request of the deploy).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
import { definitionOf } from "../schema/index.js";
import { check } from "./check.js";
import { CONFIG_NAMESPACE, type ConfigSource, offeredRegions, resolveSettings } from "./config.js";
import { diff } from "./diff.js";
import { ResourceEngine } from "./engine.js";
import { describeResource } from "./failures.js";
import { ApiClient, describeRetry, type RetryEvent } from "./http.js";

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
    shared = { settings: signature, client: new ApiClient({ baseUrl: apiUrl, ...options, onRetry: announceSlowRetry }) };
  }
  return shared.client;
}

/** Retrying for this long is worth a line in the output of `pulumi up`. */
const RETRY_NOTICE_AFTER_MS = 5_000;

/** Which resource the provider operation in progress is for (`Monitor "web"`), so a notice can name it. */
const currentResource = new AsyncLocalStorage<string>();

/**
 * `Monitor "web": retrying POST /monitors after 503 (attempt 4, 9 s so far)`, at info level.
 *
 * It goes to standard output because that is what reaches the user from a dynamic provider: the
 * Pulumi CLI (3.259) shows each line a dynamic provider's process prints as an info message, but
 * the process has no connection to the engine's log service (`pulumi.log` falls back to the same
 * standard output) and the host passes create/read/update/delete no URN, so the message cannot be
 * attached to the resource's row; it names the resource instead.
 */
function announceSlowRetry(event: RetryEvent): void {
  if (event.elapsedMs < RETRY_NOTICE_AFTER_MS) return;
  const resource = currentResource.getStore();
  console.log(resource === undefined ? describeRetry(event) : `${resource}: ${describeRetry(event)}`);
}

const providers = new Map<string, pulumi.dynamic.ResourceProvider>();

/** The dynamic provider of one kind. */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  const cached = providers.get(kind);
  if (cached !== undefined) return cached;
  const definition = definitionOf(kind);
  const engine = new ResourceEngine(definition, () => apiClientFor(stackConfig));
  const on = <T>(values: Record<string, unknown>, operation: () => Promise<T>): Promise<T> =>
    currentResource.run(describeResource(definition, values), operation);
  const provider: pulumi.dynamic.ResourceProvider = {
    async configure(request) {
      stackConfig = (key) => request.config.get(`${CONFIG_NAMESPACE}:${key}`);
    },
    check: async (_olds, news) => {
      const regions = offeredRegions(stackConfig);
      return check(definition, news, regions === undefined ? {} : { region: regions });
    },
    diff: async (_id, olds, news) => diff(definition, olds, news),
    create: (inputs) => on(inputs, () => engine.create(inputs)),
    read: (id, props) => on(props ?? {}, () => engine.read(id, props ?? {})),
    update: (id, olds, news) => on(news, () => engine.update(id, olds, news)),
    delete: (id, props) => on(props, () => engine.delete(id, props)),
  };
  providers.set(kind, provider);
  return provider;
}
