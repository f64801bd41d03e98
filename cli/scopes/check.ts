/**
 * `scopes --check`: proves with GETs only that a key holds every scope a stack needs. For each
 * scope, a GET of a route that needs it: on a made-up id (a random UUID), 404 means the scope is
 * held and 403 that it is not; on a list (no id to make up), one item is asked for and any
 * success means held. That the service checks the scope before it looks the object up is an
 * assumption (docs/any-server.md). A scope no GET needs cannot be proven this way: it is reported
 * as such, and the check does not fail for it.
 */
import { randomUUID } from "node:crypto";
import { ApiError } from "../../provider/errors.js";
import type { ProviderSettings } from "../../provider/config.js";
import { ApiClient } from "../../provider/http/client.js";
import { ROUTES, type Route, routeName } from "../../schema/routes.js";

export type Proof =
  | { scope: string; verdict: "held" | "missing"; route: Route; status: number }
  /** No GET needs it; or the GET answered neither 403 nor 404 nor a success (401, an outage): the check failed. */
  | { scope: string; verdict: "unprovable" | "failed"; reason: string };

/** A GET that needs the scope: one on an object (a made-up id proves without reading anything) before a list. */
export function provingRoute(scope: string): Route | undefined {
  const gets = ROUTES.filter((route) => route.method === "GET" && route.scope === scope);
  const parameters = (route: Route) => (route.path.match(/\{/g) ?? []).length;
  return [...gets].sort((a, b) => parameters(b) - parameters(a) || a.path.length - b.path.length)[0];
}

export async function proveScopes(api: ApiClient, scopes: readonly string[]): Promise<Proof[]> {
  return Promise.all(scopes.map((scope) => prove(api, scope)));
}

/** Proves the scopes with a client of its own on the service and key `settings` name, closed once done. */
export async function proveKeyHolds(settings: ProviderSettings, scopes: readonly string[]): Promise<Proof[]> {
  const { apiUrl, maxRequestsPerSecond, ...rest } = settings;
  const api = new ApiClient({ baseUrl: apiUrl, ...rest, ...(maxRequestsPerSecond === undefined ? {} : { maxRequestsPerSecond }) });
  try {
    return await proveScopes(api, scopes);
  } finally {
    await api.close();
  }
}

async function prove(api: ApiClient, scope: string): Promise<Proof> {
  const route = provingRoute(scope);
  if (route === undefined) return { scope, verdict: "unprovable", reason: "no GET of the spec needs it, so it cannot be proven with a GET: it shows only when an operation that needs it runs" };
  const path = route.path.replace(/\{\w+\}/g, () => randomUUID());
  try {
    const answer = await api.request("GET", path, route.path.includes("{") ? {} : { query: { limit: 1 } });
    return { scope, verdict: "held", route, status: answer.status };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 404) return { scope, verdict: "held", route, status: 404 };
    if (error.status === 403) return { scope, verdict: "missing", route, status: 403 };
    return { scope, verdict: "failed", reason: `${routeName(route)}: ${error.message}` };
  }
}
