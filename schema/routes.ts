/**
 * The service's operations with the scope each needs, as the spec's tables list them (spec 4.2 to
 * 4.10, 5.3-5.4): the one source for the scopes a stack needs (`pulumi-monitoring scopes`), the
 * message of a 403 and the reference pages. The HTTP client resolves every request it sends to
 * one of these routes; a request that resolves to none is a programming error, which the engine
 * tests catch.
 */

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

type Row = readonly [RouteMethod, string, string | null];

function section(number: string, rows: readonly Row[]): Route[] {
  return rows.map(([method, path, scope]) => ({ method, path, scope, section: number }));
}

/** Every operation of the spec's tables, in their order. */
export const ROUTES: readonly Route[] = [
  ...section("4.2", [
    ["GET", "/monitors", "monitor.write"],
    ["POST", "/monitors", "monitor.write"],
    ["POST", "/monitors/batch", "monitor.write"],
    ["POST", "/monitors/batch/dry-run", "monitor.write"],
    ["GET", "/monitors/{monitorID}", "monitor.delete"],
    ["PUT", "/monitors/{monitorID}", "monitor.delete"],
    ["PATCH", "/monitors/{monitorID}", "monitor.delete"],
    ["DELETE", "/monitors/{monitorID}", "monitor.delete"],
    ["GET", "/monitors/{monitorID}/availability", "monitor.read"],
    ["GET", "/monitors/{monitorID}/certificates", "monitor.read"],
    ["POST", "/monitors/{monitorID}/check", "monitor.write"],
    ["PUT", "/monitors/{monitorID}/escalation-policy", "monitor.delete"],
    ["DELETE", "/monitors/{monitorID}/escalation-policy", "monitor.delete"],
    ["GET", "/monitors/{monitorID}/incidents", "monitor.read"],
    ["GET", "/monitors/{monitorID}/notification_channels", "monitor.read"],
    ["POST", "/monitors/{monitorID}/notification_channels/{channelID}", "monitor.delete"],
    ["DELETE", "/monitors/{monitorID}/notification_channels/{channelID}", "monitor.delete"],
    ["POST", "/monitors/{monitorID}/pause", "monitor.write"],
    ["GET", "/monitors/{monitorID}/regions", "monitor.read"],
    ["GET", "/monitors/{monitorID}/response_times", "monitor.read"],
    ["GET", "/monitors/{monitorID}/results", "monitor.read"],
    ["POST", "/monitors/{monitorID}/resume", "monitor.write"],
    ["POST", "/monitors/{monitorID}/test-alert", "monitor.write"],
  ]),
  ...section("4.3", [
    ["GET", "/heartbeats", "heartbeat.write"],
    ["POST", "/heartbeats", "heartbeat.write"],
    ["GET", "/heartbeats/{heartbeatID}", "heartbeat.write"],
    ["PUT", "/heartbeats/{heartbeatID}", "heartbeat.write"],
    ["PATCH", "/heartbeats/{heartbeatID}", "heartbeat.write"],
    ["DELETE", "/heartbeats/{heartbeatID}", "heartbeat.write"],
    ["GET", "/heartbeats/{heartbeatID}/availability", "heartbeat.read"],
    ["POST", "/heartbeats/{heartbeatID}/pause", "heartbeat.write"],
    ["PUT", "/heartbeats/{heartbeatID}/pause", "heartbeat.write"],
    ["GET", "/heartbeats/{heartbeatID}/pings", "heartbeat.read"],
    ["POST", "/heartbeats/{heartbeatID}/resume", "heartbeat.write"],
    ["PUT", "/heartbeats/{heartbeatID}/resume", "heartbeat.write"],
  ]),
  ...section("4.4", [
    ["GET", "/heartbeat-groups", "heartbeat.write"],
    ["POST", "/heartbeat-groups", "heartbeat.write"],
    ["POST", "/heartbeat-groups/assign", "heartbeat.write"],
    ["GET", "/heartbeat-groups/{groupID}", "heartbeat.write"],
    ["PUT", "/heartbeat-groups/{groupID}", "heartbeat.write"],
    ["DELETE", "/heartbeat-groups/{groupID}", "heartbeat.write"],
  ]),
  ...section("4.5", [
    ["GET", "/incidents", "incident.write"],
    ["POST", "/incidents", "incident.write"],
    ["GET", "/incidents/{incidentID}", "incident.read"],
    ["POST", "/incidents/{incidentID}/acknowledge", "incident.write"],
    ["PUT", "/incidents/{incidentID}/acknowledge", "incident.write"],
    ["GET", "/incidents/{incidentID}/ai", null],
  ]),
  ...section("4.6", [
    ["GET", "/escalation-policies", "escalation_policy.write"],
    ["POST", "/escalation-policies", "escalation_policy.write"],
    ["GET", "/escalation-policies/{policyID}", "escalation_policy.write"],
    ["PUT", "/escalation-policies/{policyID}", "escalation_policy.write"],
    ["DELETE", "/escalation-policies/{policyID}", "escalation_policy.write"],
    ["POST", "/escalation-policies/{policyID}/test", "escalation_policy.write"],
  ]),
  ...section("4.7", [
    ["GET", "/notification_channels", "notification_channel.write"],
    ["POST", "/notification_channels", "notification_channel.write"],
    ["GET", "/notification_channels/{channelID}", "notification_channel.write"],
    ["PUT", "/notification_channels/{channelID}", "notification_channel.write"],
    ["DELETE", "/notification_channels/{channelID}", "notification_channel.write"],
    ["POST", "/notification_channels/{channelID}/test", "notification_channel.write"],
  ]),
  ...section("4.8", [
    ["GET", "/webhook-subscriptions", "webhook.write"],
    ["POST", "/webhook-subscriptions", "webhook.write"],
    ["PUT", "/webhook-subscriptions/{subscriptionID}", "webhook.write"],
    ["DELETE", "/webhook-subscriptions/{subscriptionID}", "webhook.write"],
    ["GET", "/webhook-subscriptions/{subscriptionID}/deliveries", "webhook.read"],
    ["POST", "/webhook-subscriptions/{subscriptionID}/redeliver/{deliveryID}", "webhook.write"],
    ["POST", "/webhook-subscriptions/{subscriptionID}/test", "webhook.write"],
  ]),
  ...section("4.9", [
    ["GET", "/clients", "client.write"],
    ["POST", "/clients", "client.write"],
    ["GET", "/clients/{clientID}", "client.write"],
    ["PUT", "/clients/{clientID}", "client.write"],
    ["POST", "/clients/{clientID}/archive", "client.write"],
    ["POST", "/clients/{clientID}/unarchive", "client.write"],
    ["GET", "/clients/{clientID}/portal-settings", "client.write"],
    ["PUT", "/clients/{clientID}/portal-settings", "client.write"],
    ["GET", "/clients/{clientID}/share-links", "client.write"],
    ["POST", "/clients/{clientID}/share-links", "client.write"],
    ["DELETE", "/clients/{clientID}/share-links/{linkID}", "client.write"],
    ["GET", "/clients/{clientID}/teams", "client.read"],
  ]),
  ...section("4.10", [
    ["GET", "/client-templates", null],
    ["POST", "/client-templates", null],
    ["GET", "/client-templates/{templateID}", null],
    ["PUT", "/client-templates/{templateID}", null],
    ["DELETE", "/client-templates/{templateID}", null],
    ["GET", "/advisor", null],
    ["POST", "/advisor/apply", null],
  ]),
];

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
