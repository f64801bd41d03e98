/**
 * The unmanaged-object part of a drift check: which objects each checked stack's scope holds that
 * no stack manages. The stacks' states say what is managed and where each stack's objects live
 * (the checked stacks' as the check read them; the others', `pulumi stack export`); each stack's
 * configuration (or the environment) says which account to read, so stacks of different accounts
 * are read with their own keys, and stacks of one account share one read of each scope.
 */
import type { LocalWorkspace, StackSummary } from "@pulumi/pulumi/automation";
import { basename } from "node:path";
import { type ProviderSettings, resolveSettings, stackConfigKeyName } from "../../provider/config.js";
import { ApiClient } from "../../provider/http/client.js";
import { runBounded } from "../../provider/concurrency.js";
import { limiterWithin } from "../fleet/runners/budget.js";
import type { FleetProject } from "../project/project.js";
import { globToRegExp } from "../project/select.js";
import { stackSettingsOf } from "../project/settings.js";
import { exportedState } from "../project/state.js";
import { type Ignore, type KnownList, managedIds, readScopes, type RecordedResource, type ScopeKey, type ScopeListing, scopesOf, type UnmanagedObject, unmanagedIn } from "./unmanaged.js";

export interface CheckedStack {
  label: string;
  name: string;
  workspace: LocalWorkspace;
  /** The project whose files hold its settings. */
  project: FleetProject;
  /** Its resources as its state records them. */
  resources: readonly RecordedResource[];
}

/** Stacks whose objects count as managed: every stack of a workspace matching `stacks` (all when empty). */
export interface ManagingProject {
  workspace: LocalWorkspace;
  stacks: readonly string[];
  /** Its stacks, when the command has listed them already. */
  listed?: readonly StackSummary[];
}

/** Per checked stack (by label): its unmanaged objects, or why they could not be read. */
export type UnmanagedResult = Map<string, UnmanagedObject[] | Error>;

export interface ScopeReadsOptions {
  /** The complete lists already read of the account `settings` name (the drift check's, cli/drift/account-lists.ts), taken from there. */
  known?: (settings: ProviderSettings) => KnownList | undefined;
  /** The address of the run's rate budget, when it has one. */
  budget?: string;
  /** The stack's connection settings, by default from its configuration and the environment. */
  settingsOf?: (target: CheckedStack) => Promise<ProviderSettings>;
}

/**
 * The service's lists of each checked stack's scopes. Stacks of one account (service and key)
 * share one client and one read of each scope; each stack's configuration (or the environment)
 * names its account. A list the drift check already read of the account (`known`: its own, or a
 * client's share of the account's) is taken from there, not read again.
 */
export class ScopeReads {
  readonly #parallel: number;
  readonly #settingsOf: (target: CheckedStack) => Promise<ProviderSettings>;
  readonly #known: ((settings: ProviderSettings) => KnownList | undefined) | undefined;
  readonly #budget: string | undefined;
  readonly #stacks = new Map<string, Promise<{ account: string; settings: ProviderSettings }>>();
  readonly #accounts = new Map<string, { api: ApiClient; scopes: Map<ScopeKey, Promise<ScopeListing>> }>();

  constructor(parallel: number, { known, budget, settingsOf = stackSettings }: ScopeReadsOptions = {}) {
    this.#parallel = parallel;
    this.#known = known;
    this.#budget = budget;
    this.#settingsOf = settingsOf;
  }

  /** Starts reading `target`'s scopes; a failure is kept for {@link unmanagedObjects} to report. */
  start(target: CheckedStack): void {
    this.listingsOf(target).catch(() => undefined);
  }

  /** The account `target` reads, and the listing of each of its scopes (read now if not started yet). */
  async listingsOf(target: CheckedStack): Promise<{ account: string; listings: Map<ScopeKey, ScopeListing> }> {
    let stack = this.#stacks.get(target.label);
    if (stack === undefined) {
      stack = this.#settingsOf(target).then((settings) => ({ account: `${settings.apiUrl}\0${settings.apiKey}`, settings }));
      this.#stacks.set(target.label, stack);
    }
    const { account, settings } = await stack;
    let reads = this.#accounts.get(account);
    if (reads === undefined) {
      const { apiUrl, maxRequestsPerSecond, ...options } = settings;
      // Under `fleet drift`, within the fleet's rate budget like the stacks' own reads.
      reads = { api: new ApiClient({ baseUrl: apiUrl, ...options, rateLimiter: limiterWithin(this.#budget, maxRequestsPerSecond) }), scopes: new Map() };
      this.#accounts.set(account, reads);
    }
    const scopes = scopesOf(target.resources);
    const known = this.#known?.(settings);
    const listings = await Promise.all(
      scopes.map((scope) => {
        let listing = reads.scopes.get(scope);
        if (listing === undefined) {
          listing = readScopes(reads.api, [scope], this.#parallel, known).then((read) => read.get(scope)!);
          reads.scopes.set(scope, listing);
        }
        return listing;
      }),
    );
    return { account, listings: new Map(scopes.map((scope, index) => [scope, listings[index]!])) };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#accounts.values()].map(({ api }) => api.close()));
  }
}

async function stackSettings(target: CheckedStack): Promise<ProviderSettings> {
  return resolveSettings(await stackSettingsOf(target.project, target.name, target.workspace), process.env, stackConfigKeyName(basename(target.name)));
}

/**
 * Each checked stack's unmanaged objects, from the lists `reads` read (those of a stack not started
 * yet are read now), and from every managing stack's state.
 */
export async function unmanagedObjects(checked: readonly CheckedStack[], managing: readonly ManagingProject[], ignore: Ignore, parallel: number, reads: ScopeReads): Promise<UnmanagedResult> {
  const results: UnmanagedResult = new Map();
  const managed = new Set(checked.flatMap((target) => managedIds(target.resources)));
  for (const id of await managedByOthers(checked, managing, parallel)) managed.add(id);
  // A stack with no object of this package has no scope to read.
  const inScope = checked.filter((target) => scopesOf(target.resources).length > 0);
  for (const target of checked) if (!inScope.includes(target)) results.set(target.label, []);
  const read = await Promise.allSettled(inScope.map((target) => reads.listingsOf(target)));

  // The objects of one account are judged together, each scope once, whichever stacks share it.
  const accounts = new Map<string, Array<{ target: CheckedStack; listings: Map<ScopeKey, ScopeListing> }>>();
  read.forEach((result, index) => {
    const target = inScope[index]!;
    if (result.status === "rejected") {
      results.set(target.label, asError(result.reason));
      return;
    }
    const { account, listings } = result.value;
    accounts.set(account, [...(accounts.get(account) ?? []), { target, listings }]);
  });
  for (const group of accounts.values()) {
    const listings = new Map(group.flatMap(({ listings }) => [...listings]));
    const byScope = unmanagedIn(listings, managed, ignore);
    for (const { target, listings } of group) results.set(target.label, [...listings.keys()].flatMap((scope) => byScope.get(scope) ?? []));
  }
  return results;
}

/** The ids recorded by the managing stacks that are not checked (their states only). */
async function managedByOthers(checked: readonly CheckedStack[], managing: readonly ManagingProject[], parallel: number): Promise<string[]> {
  const checkedNames = new Set(checked.map((target) => `${target.workspace.workDir}\0${basename(target.name)}`));
  const others: Array<{ workspace: LocalWorkspace; name: string }> = [];
  for (const { workspace, stacks, listed } of managing) {
    const globs = stacks.map(globToRegExp);
    for (const { name } of listed ?? (await workspace.listStacks())) {
      if (checkedNames.has(`${workspace.workDir}\0${basename(name)}`)) continue;
      if (globs.length === 0 || globs.some((glob) => glob.test(basename(name)))) others.push({ workspace, name });
    }
  }
  const states = await runBounded(others, parallel, async ({ workspace, name }) => exportedState(workspace, name));
  return states.flatMap((state, index) => {
    if (state.status === "fulfilled") return managedIds(((state.value.deployment as { resources?: RecordedResource[] }).resources ?? []) as RecordedResource[]);
    const { name } = others[index]!;
    // A stack whose state cannot be read would make its objects look unmanaged: say so rather than guess.
    throw new Error(`cannot read the state of stack ${name}, whose objects count as managed: ${state.status === "rejected" ? asError(state.reason).message : "not read"}`);
  });
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
