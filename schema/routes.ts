/**
 * The service's operations with the scope each needs, as the spec's tables list them (spec 4.2 to
 * 4.10, 5.3-5.4): the one source for the scopes a stack needs (`pulumi-monitoring scopes`), the
 * message of a 403 and the reference pages. The HTTP client resolves every request it sends to
 * one of these routes; a request that resolves to none is a programming error, which the engine
 * tests catch.
 */

import specTables from "./routes.json";

export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Route {
  method: RouteMethod;
  /** The spec's path template, with its parameter names: `/monitors/{monitorID}`. */
  path: string;
  /** The scope the spec lists; `null` where it lists none (client templates, the advisor, incident AI): any valid key. */
  scope: string | null;
  /** The spec's section that lists it. */
  section: string;
}

const METHODS: readonly string[] = ["GET", "POST", "PUT", "PATCH", "DELETE"] satisfies RouteMethod[];

/** A row of schema/routes.json as a route; a row of another shape is a mistake in that file. */
function routeFromRow(section: string, row: unknown): Route {
  if (Array.isArray(row) && row.length === 3) {
    const [method, path, scope] = row as unknown[];
    if (typeof method === "string" && METHODS.includes(method) && typeof path === "string" && path.startsWith("/") && (scope === null || typeof scope === "string")) {
      return { method: method as RouteMethod, path, scope, section };
    }
  }
  throw new Error(`schema/routes.json, section ${section}: ${JSON.stringify(row)} is not [method, path, scope]`);
}

/**
 * Every operation of the spec's tables, in their order: schema/routes.json holds them as the spec
 * lists them, section by section (method, path template, scope or null).
 */
export const ROUTES: readonly Route[] = Object.entries(specTables as Record<string, unknown[]>).flatMap(([number, rows]) => rows.map((row) => routeFromRow(number, row)));

/** `GET /monitors/{monitorID}` */
export function routeName(route: Pick<Route, "method" | "path">): string {
  return `${route.method} ${route.path}`;
}

/** `monitor.delete`, or the words for an operation the spec lists without a scope. */
export function scopeText(route: Route): string {
  return route.scope ?? "no scope listed (any valid key)";
}

const PARAMETER = /^\{\w+\}$/;

function segmentsOf(path: string): string[] {
  return path.replace(/\/+$/, "").split("/").slice(1);
}

/**
 * The route of a request as the client sends it (`GET /monitors/0b5e…`, no query), or of a
 * template with any parameter names (`/monitors/{id}`); undefined when the spec lists none. A
 * literal segment wins over a parameter (`POST /monitors/batch` is not a monitor's path).
 */
export function resolveRoute(method: string, path: string): Route | undefined {
  const sent = segmentsOf(path);
  let best: { route: Route; literals: number } | undefined;
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const template = segmentsOf(route.path);
    if (template.length !== sent.length) continue;
    let literals = 0;
    const matches = template.every((segment, index) => {
      const given = sent[index]!;
      if (PARAMETER.test(segment)) return given !== "" && (PARAMETER.test(given) || !given.includes("/"));
      literals += 1;
      return segment === given;
    });
    if (matches && (best === undefined || literals > best.literals)) best = { route, literals };
  }
  return best?.route;
}

/** {@link resolveRoute} for a path this package writes itself: one that resolves to no route is a programming error. */
export function routeOf(method: string, path: string): Route {
  const route = resolveRoute(method, path);
  if (route === undefined) throw new Error(`${method} ${path} is no operation of the spec's tables (schema/routes.ts)`);
  return route;
}
