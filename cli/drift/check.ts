/**
 * The unmanaged-object part of a drift check, after the stacks' refreshes: which objects each
 * checked stack's scope holds that no stack manages. The stacks' states say what is managed and
 * where each stack's objects live (for a checked stack, as its refresh reported them; for the
 * others, `pulumi stack export`); each stack's configuration (or the environment) says which
 * account to read, so stacks of different accounts are read with their own keys, and stacks of
 * one account share one read of each scope.
 */
import { type LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { basename } from "node:path";
import { CONFIG_NAMESPACE, type ProviderSettings, resolveSettings, stackConfigKeyName } from "../../provider/config.js";
import { limiterFor } from "../../provider/fleet-budget.js";
import { ApiClient } from "../../provider/http.js";
import { runBounded } from "../fleet/scheduler.js";
import { globToRegExp } from "../fleet/select.js";
import { findUnmanaged, type Ignore, managedIds, type RecordedResource, type ScopeKey, scopesOf, type UnmanagedObject } from "./unmanaged.js";

export interface CheckedStack {
  label: string;
  name: string;
  workspace: LocalWorkspace;
  /** Its resources as its state records them, from the refresh's events. */
  resources: readonly RecordedResource[];
}

/** Stacks whose objects count as managed: every stack of a workspace matching `stacks` (all when empty). */
export interface ManagingProject {
  workspace: LocalWorkspace;
  stacks: readonly string[];
}

/** Per checked stack (by label): its unmanaged objects, or why they could not be read. */
export type UnmanagedResult = Map<string, UnmanagedObject[] | Error>;

export async function unmanagedObjects(checked: readonly CheckedStack[], managing: readonly ManagingProject[], ignore: Ignore, parallel: number): Promise<UnmanagedResult> {
  const results: UnmanagedResult = new Map();
  const managed = new Set(checked.flatMap((target) => managedIds(target.resources)));
  for (const id of await managedByOthers(checked, managing, parallel)) managed.add(id);
  // A stack with no object of this package has no scope to read.
  const inScope = checked.filter((target) => scopesOf(target.resources).length > 0);
  for (const target of checked) if (!inScope.includes(target)) results.set(target.label, []);
  const settings = await runBounded(inScope, parallel, async (target) => {
    const config = await (await Stack.select(target.name, target.workspace)).getAllConfig();
    return resolveSettings((key) => config[`${CONFIG_NAMESPACE}:${key}`]?.value, process.env, stackConfigKeyName(basename(target.name)));
  });

  // One read per account (service and key), of every scope its stacks live in.
  const accounts = new Map<string, Array<{ target: CheckedStack; scopes: ScopeKey[]; settings: ProviderSettings }>>();
  settings.forEach((result, index) => {
    const target = inScope[index] as CheckedStack;
    if (result.status !== "fulfilled") {
      results.set(target.label, result.status === "rejected" ? asError(result.reason) : new Error("not read"));
      return;
    }
    const account = `${result.value.apiUrl}\0${result.value.apiKey}`;
    accounts.set(account, [...(accounts.get(account) ?? []), { target, scopes: scopesOf(target.resources), settings: result.value }]);
  });
  for (const group of accounts.values()) {
    const { apiUrl, maxRequestsPerSecond, ...options } = group[0]!.settings;
    // Under `fleet drift`, within the fleet's rate budget like the stacks' own reads.
    const api = new ApiClient({ baseUrl: apiUrl, ...options, rateLimiter: limiterFor(maxRequestsPerSecond) });
    try {
      const byScope = await findUnmanaged(api, [...new Set(group.flatMap((stack) => stack.scopes))], managed, ignore, parallel);
      for (const { target, scopes } of group) results.set(target.label, scopes.flatMap((scope) => byScope.get(scope) ?? []));
    } catch (error) {
      for (const { target } of group) results.set(target.label, asError(error));
    } finally {
      await api.close();
    }
  }
  return results;
}

/** The ids recorded by the managing stacks that are not checked (their states only). */
async function managedByOthers(checked: readonly CheckedStack[], managing: readonly ManagingProject[], parallel: number): Promise<string[]> {
  const checkedNames = new Set(checked.map((target) => `${target.workspace.workDir}\0${basename(target.name)}`));
  const others: Array<{ workspace: LocalWorkspace; name: string }> = [];
  for (const { workspace, stacks } of managing) {
    const globs = stacks.map(globToRegExp);
    for (const { name } of await workspace.listStacks()) {
      if (checkedNames.has(`${workspace.workDir}\0${basename(name)}`)) continue;
      if (globs.length === 0 || globs.some((glob) => glob.test(basename(name)))) others.push({ workspace, name });
    }
  }
  const states = await runBounded(others, parallel, async ({ workspace, name }) => workspace.exportStack(name));
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
