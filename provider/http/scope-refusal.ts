/**
 * What a 403 means in the spec's terms: the operation's route and the scope the spec lists for it
 * (schema/routes.ts), for the HTTP client's message, beside where the key came from.
 */
import { resolveRoute, routeName } from "../../schema/routes.js";

/**
 * `does not hold the scope monitor.delete, which the spec lists for GET /monitors/{monitorID}
 * (spec 4.2): add it to the key (…), or check …`; for a route the spec lists without a scope, or a
 * path of no route, what the key lacks is not known.
 */
export function scopeRefusal(method: string, path: string, baseUrl: string): string {
  const route = resolveRoute(method, path);
  const account = `check that it is a key of the account at ${baseUrl}`;
  if (route?.scope === undefined || route.scope === null) return `does not give access to this: ${account}`;
  return (
    `does not hold the scope ${route.scope}, which the spec lists for ${routeName(route)} (spec ${route.section}): ` +
    `add it to the key (\`pulumi-monitoring scopes\` lists every scope the stack needs), or ${account}`
  );
}
