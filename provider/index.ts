/**
 * The provider as the Pulumi dynamic-provider host runs it: `pulumi-monitoring/provider`. The
 * serialized provider stored with each resource (provider/dynamic.ts) loads this module once per
 * provider process and takes over {@link dispatcher}, which hands each call to its kind's provider.
 *
 * Module state is per provider process, which serves every resource of a deployment: one API
 * client, hence one connection pool and one rate limiter (`monitoring:maxRequestsPerSecond`, and
 * the back-off after a 429, for every request of the deploy). Run by `pulumi-monitoring fleet`,
 * the process also takes its turns from the fleet's shared budget (provider/fleet-budget.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type * as pulumi from "@pulumi/pulumi";
import { definitionOf } from "../schema/index.js";
import { check } from "./check.js";
import { apiClientFor as sharedApiClient } from "./clients.js";
import { CONFIG_NAMESPACE, type ConfigKeyName, type ConfigSource, dryRunEnabled, handPauses, offeredRegions, recordedConfigKeyName, stackConfigKeyName } from "./config.js";
import { RunInstant } from "./run-instant.js";
import { diff } from "./diff.js";
import { DryRunBatcher, withDryRun } from "./dry-run.js";
import { warn } from "./engine-log.js";
import { ResourceEngine } from "./engine.js";
import { PartialFailure, describeResource } from "./failures.js";
import { internal } from "./fields.js";
import type { ApiClient } from "./http/client.js";
import { describeRetry, type RetryEvent } from "./http/request.js";
import { MONITOR_SET_KIND, monitorSetProvider } from "./monitor-set.js";
import { type PauseSettings, withMemberPauses, withPauses } from "./pauses.js";
import { ResourceReader } from "./reader.js";
import { type SettingsSeen, settingsSeen as settingsSeenOf, stackConfigNow } from "./settings-now.js";

export { ResourceEngine } from "./engine.js";
export { ResourceReader } from "./reader.js";
export { resolveSettings, type ConfigSource, type ProviderSettings } from "./config.js";

/**
 * The stack's settings: what `configure` was handed (environment variables only until then), which
 * a process configured with the settings the last deploy recorded replaces with the configuration
 * now before its first request ({@link withSettingsNow}).
 */
let stackConfig: ConfigSource = () => undefined;
/**
 * The stack being deployed, once a resource has named it: its URN (`urn:pulumi:<stack>::...`) in
 * the inputs of check, create and update, or the `__stack` output the provider records for the
 * reads and deletes, which the host hands no URN.
 */
let stackName: string | undefined;

function noteStack(properties: Record<string, unknown> | undefined): void {
  if (stackName !== undefined) return;
  const urn = properties?.[internal.urn];
  const recorded = properties?.[internal.stack];
  if (typeof urn === "string") stackName = /^urn:pulumi:([^:]+)::/.exec(urn)?.[1];
  else if (typeof recorded === "string" && recorded !== "") stackName = recorded;
}

/**
 * Whether `configure` was handed the settings the last deploy recorded rather than the
 * configuration now. The host configures a process once, before its first call: a deploy that
 * runs the program checks each resource first and hands the program's configuration; a refresh
 * or destroy without the program (plain `pulumi refresh` and `pulumi destroy`, and the refresh
 * `refresh: always` runs before preview and up) reads or deletes first and hands what Pulumi
 * recorded with the provider at the last deploy, which may hold a key revoked since.
 */
let configured: "program" | "recorded" | undefined;
/** The configuration now of a process configured with recorded settings, resolved once, at its first read or delete. */
let settingsNow: Promise<void> | undefined;
/**
 * What the outputs record of the secrets of the configuration this process runs with
 * (provider/settings-now.ts, `SettingsSeen`), so that a later refresh or destroy tells without the
 * CLI whether the settings it is handed are still the configuration now. Undefined until known.
 */
let seen: SettingsSeen | undefined;
/** Computes {@link seen} once in a process that runs with the program's configuration. */
let seenFromProgram: Promise<void> | undefined;
/** How the process's settings name a configuration key in messages: the stack's configuration now, or the recorded one when that could not be read. */
let keyName: () => ConfigKeyName = () => stackConfigKeyName(stackName);

/** A call that carries the program's configuration (check, diff, create, update) came first. */
function fromProgram(properties: Record<string, unknown> | undefined): void {
  noteStack(properties);
  configured ??= "program";
}

/**
 * Before a write records outputs: the fingerprints of the secrets of the configuration the
 * program handed, read once from the stack's settings file. A file that cannot be read records none.
 */
async function noteSeenFromProgram(): Promise<void> {
  if (configured !== "program" || stackName === undefined) return;
  const stack = stackName;
  seenFromProgram ??= settingsSeenOf(stack, stackConfig).then(
    (found) => void (seen = found),
    () => undefined,
  );
  await seenFromProgram;
}

/**
 * Before a read or delete: in a process configured with recorded settings, the stack's
 * configuration now takes their place (provider/settings-now.ts: the files, and the recorded
 * secrets while the fingerprints the resources recorded vouch for them, else the CLI). A state
 * whose resources name no stack (deployed before the provider recorded it) keeps the recorded
 * settings, and every message about them says so.
 */
async function withSettingsNow(properties: Record<string, unknown> | undefined): Promise<void> {
  noteStack(properties);
  configured ??= "recorded";
  if (configured === "program") return;
  settingsNow ??= (async () => {
    if (stackName === undefined) {
      keyName = () => recordedConfigKeyName();
    } else {
      const recordedSeen = properties?.[internal.settingsSeen] as SettingsSeen | undefined;
      const stack = stackName;
      const now = await stackConfigNow(stack, { config: stackConfig, seen: recordedSeen }).catch((error: unknown) => {
        const reason = (error as Error).message.split("\n")[0];
        throw new Error(
          `pulumi-monitoring could not read the configuration of stack ${stack} now (${reason}), and does not send the settings the last deploy recorded, ` +
            `which may hold a key revoked since: make \`pulumi config --show-secrets --stack ${stack}\` work here (PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE, for a passphrase), or run with --run-program`,
        );
      });
      stackConfig = now.config;
      seen = now.seen;
    }
  })();
  await settingsNow;
}

/**
 * The process's API client for the settings `config` resolves to, built on first use and kept
 * while they stay the same, so every resource shares its connections and rate limit. Its messages
 * about a setting that cannot work name the stack when a resource has named it by then.
 */
export function apiClientFor(config: ConfigSource): ApiClient {
  return sharedApiClient(config, { onRetry: announceSlowRetry, onBudgetFallback: announceBudgetFallback, keyName: () => keyName() });
}

/** Shown in the output of `pulumi up` (see {@link announceSlowRetry} for why on standard output). */
function announceBudgetFallback(reason: string): void {
  console.log(`the fleet's shared rate budget is gone (${reason}): this stack goes on within its own limit, monitoring:maxRequestsPerSecond`);
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

/** `monitoring:dryRun`: check asks the service about the monitors it creates or changes, every request of the process through one batcher. */
const dryRun = { enabled: () => dryRunEnabled(stackConfig), batcher: new DryRunBatcher(() => apiClientFor(stackConfig)) };

async function configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
  stackConfig = (key) => request.config.get(`${CONFIG_NAMESPACE}:${key}`);
}

/** This run's one instant (provider/run-instant.ts): the clock read once, or `monitoring:now`. */
const runInstant = new RunInstant({ config: () => stackConfig, keyName: () => stackConfigKeyName(stackName) });

/** The run's instant and the rule for hand pauses. */
function pauseSettings(): PauseSettings {
  return { now: runInstant.now(), handPauses: handPauses(stackConfig) };
}

/** Open domains the stack closed (`monitoring:offeredRegions`), for check. */
function closedDomains() {
  const regions = offeredRegions(stackConfig);
  return regions === undefined ? {} : { region: regions };
}

/**
 * The dynamic provider of one kind. Resources recorded before the provider text became the same
 * for every kind still carry a text that calls this with their kind.
 */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  const cached = providers.get(kind);
  if (cached !== undefined) return cached;
  const own =
    kind === MONITOR_SET_KIND
      ? withMemberPauses(monitorSetProvider(engineOf("Monitor"), closedDomains, (name, operation) => currentResource.run(name, operation)), pauseSettings)
      : withPauses(kind, kindProvider(kind), pauseSettings);
  const provider = withDryRun(kind, own, dryRun);
  providers.set(kind, provider);
  return provider;
}

const engines = new Map<string, ResourceEngine>();

function engineOf(kind: string): ResourceEngine {
  let engine = engines.get(kind);
  if (engine === undefined) {
    const definition = definitionOf(kind);
    const api = () => apiClientFor(stackConfig);
    engine = new ResourceEngine(definition, api, new ResourceReader(definition, api));
    engines.set(kind, engine);
  }
  return engine;
}

function kindProvider(kind: string): pulumi.dynamic.ResourceProvider {
  const definition = definitionOf(kind);
  const engine = engineOf(kind);
  const on = <T>(values: Record<string, unknown>, operation: () => Promise<T>): Promise<T> =>
    currentResource.run(describeResource(definition, values), operation);
  return {
    configure,
    check: async (_olds, news) => {
      const { warnings, ...result } = check(definition, news, closedDomains());
      await warn(news[internal.urn], warnings);
      return result;
    },
    diff: async (_id, olds, news) => diff(definition, olds, news),
    create: (inputs) => on(inputs, () => engine.create(inputs)),
    read: (id, props) => on(props ?? {}, () => engine.read(id, props ?? {})),
    update: (id, olds, news) => on(news, () => engine.update(id, olds, news)),
    delete: (id, props) => on(props, () => engine.delete(id, props)),
  };
}

/**
 * The kind a call is for: the type in the URN the SDK passes as an input, or, for calls that
 * get only outputs (read, delete), the kind recorded with them.
 */
function kindOf(properties: Record<string, unknown>): string {
  const urn = properties[internal.urn];
  if (typeof urn === "string") {
    const type = urn.split("::")[2] ?? "";
    return type.slice(type.lastIndexOf(":") + 1);
  }
  const kind = properties[internal.kind];
  if (typeof kind === "string") return kind;
  throw new Error("pulumi-monitoring: a resource's properties name no kind (neither __urn nor __kind)");
}

/**
 * Outputs carry their kind, so read and delete, which get only outputs, find their provider, and
 * their stack, so a process handed only outputs knows whose configuration now to read.
 */
function withKind<T extends Record<string, unknown> | undefined>(outputs: T, kind: string, recorded?: Record<string, unknown>): T {
  if (outputs === undefined) return outputs;
  const fingerprints = seen ?? (recorded?.[internal.settingsSeen] as SettingsSeen | undefined);
  return {
    ...outputs,
    [internal.kind]: kind,
    ...(stackName === undefined ? {} : { [internal.stack]: stackName }),
    ...(fingerprints === undefined || Object.keys(fingerprints).length === 0 ? {} : { [internal.settingsSeen]: fingerprints }),
  };
}

/** Outputs a create or update just wrote: with their kind and the time of the write. */
function written<T extends Record<string, unknown> | undefined>(outputs: T, kind: string): T {
  return (outputs === undefined ? undefined : { ...withKind(outputs, kind), [internal.changedAt]: new Date().toISOString() }) as T;
}

/** A partial failure's outputs carry their kind like complete ones. */
function kindOnFailure(kind: string): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof PartialFailure)) throw error;
    throw error.recording(written(error.properties, kind));
  };
}

/**
 * The provider object the serialized text turns into (provider/dynamic.ts): one for every kind,
 * configured once per provider process, each call handed to its kind's provider.
 */
export const dispatcher: Required<pulumi.dynamic.ResourceProvider> = {
  configure,
  check: async (olds, news) => {
    fromProgram(news);
    // Every preview and up checks each resource: the first check of the run says when its instant is fixed.
    const notice = runInstant.notice();
    if (notice !== undefined) await warn(news[internal.urn], [notice]);
    return providerFor(kindOf(news)).check!(olds, news);
  },
  diff: async (id, olds, news) => {
    fromProgram(news);
    return providerFor(kindOf(news)).diff!(id, olds, news);
  },
  create: async (inputs) => {
    fromProgram(inputs);
    await noteSeenFromProgram();
    const kind = kindOf(inputs);
    const { id, outs } = await providerFor(kind).create(inputs).catch(kindOnFailure(kind));
    return { id, outs: written(outs, kind) };
  },
  read: async (id, props) => {
    await withSettingsNow(props);
    const kind = kindOf(props ?? {});
    const result = await providerFor(kind).read!(id, props);
    const changedAt = props?.[internal.changedAt];
    const kept = result.props === undefined || changedAt === undefined ? result.props : { ...result.props, [internal.changedAt]: changedAt };
    return { ...result, props: withKind(kept, kind, props) };
  },
  update: async (id, olds, news) => {
    fromProgram(news);
    await noteSeenFromProgram();
    const kind = kindOf(news);
    const { outs } = await providerFor(kind).update!(id, olds, news).catch(kindOnFailure(kind));
    return { outs: written(outs, kind) };
  },
  delete: async (id, props) => {
    await withSettingsNow(props);
    return providerFor(kindOf(props)).delete!(id, props);
  },
};
