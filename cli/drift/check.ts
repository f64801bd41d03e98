/**
 * The unmanaged-object part of a drift check, beside the stacks' refreshes: which objects each
 * checked stack's scope holds that no stack manages. The stacks' states say what is managed and
 * where each stack's objects live (for a checked stack, as its refresh reported them; for the
 * others, `pulumi stack export`); each stack's configuration (or the environment) says which
 * account to read, so stacks of different accounts are read with their own keys, and stacks of
 * one account share one read of each scope.
 */
import type { LocalWorkspace, StackSummary } from "@pulumi/pulumi/automation";
import { basename } from "node:path";
import { type ProviderSettings, resolveSettings, stackConfigKeyName } from "../../provider/config.js";
import { accountKey } from "../../provider/fleet-lists.js";
import { ApiClient } from "../../provider/http/client.js";
import type { Query } from "../../provider/http/request.js";
import { runBounded } from "../../provider/concurrency.js";
import { limiterWithin } from "../fleet/runners/budget.js";
import type { FleetProject } from "../project/project.js";
import { globToRegExp } from "../project/select.js";
import { stackSettingsOf } from "../project/settings.js";
import { exportedState } from "../project/state.js";
import type { HandedLists } from "./handed-lists.js";
import { type Ignore, managedIds, readScopes, type RecordedResource, type ScopeKey, type ScopeListing, scopesOf, type UnmanagedObject, unmanagedIn } from "./unmanaged.js";

export interface CheckedStack {
  label: string;
  name: string;
  workspace: LocalWorkspace;
  /** The project whose files hold its settings. */
  project: FleetProject;
  /** Its resources as its state records them, from the refresh's events. */
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
  /** The lists the stacks' refreshes read whole (`fleet drift`), taken from there. */
  handed?: HandedLists;
  /** The address of the run's rate budget, when it has one. */
  budget?: string;
  /** The stack's connection settings, by default from its configuration and the environment. */
  settingsOf?: (target: CheckedStack) => Promise<ProviderSettings>;
}

/**
 * The service's lists a drift check reads, each stack's as soon as its refresh is done: under a
 * rate limit they then overlap the refreshes of the stacks still running, instead of all waiting
 * for the last one (20 client stacks: 140 lists, some 15 s at 10 requests per second). Stacks of
 * one account (service and key) share one client and one read of each scope; each stack's
 * configuration (or the environment) names its account. A list the stacks' refreshes already read
 * whole (`handed`, under `fleet drift`) is taken from there, not read again.
 */
export class ScopeReads {
  readonly #parallel: number;
  readonly #settingsOf: (target: CheckedStack) => Promise<ProviderSettings>;
  readonly #handed: HandedLists | undefined;
  readonly #budget: string | undefined;
  readonly #stacks = new Map<string, Promise<{ account: string; settings: ProviderSettings }>>();
  readonly #accounts = new Map<string, { api: ApiClient; scopes: Map<ScopeKey, Promise<ScopeListing>> }>();

  constructor(parallel: number, { handed, budget, settingsOf = stackSettings }: ScopeReadsOptions = {}) {
    this.#parallel = parallel;
    this.#handed = handed;
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
    // The lists the stacks' refreshes handed on are kept by the digest of their account.
    const handed = this.#handed;
    const digest = accountKey(settings.apiUrl, settings.apiKey);
    const known = handed === undefined ? undefined : (path: string, query: Query) => handed.get(digest, path, query);
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
