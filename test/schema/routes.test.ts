/**
 * The route table (schema/routes.ts): the spec's operations with their scopes, held against the
 * emulator's own transcription of the same tables, and how a request resolves to its route.
 */
import { describe, expect, it } from "vitest";
import { definitions } from "../../schema/index.js";
import { groups } from "../../schema/members.js";
import { dryRunOperation, groupOperationsOf, operationsOf, scopesOf } from "../../schema/operations.js";
import { ROUTES, resolveRoute, routeName } from "../../schema/routes.js";
import { ENDPOINTS } from "../emulator/support/endpoints.js";

const ID = "0b5e5a1c-2f4e-4b8e-9a43-1d6a8c7e1f00";

describe("the route table", () => {
  it("lists every operation of the spec's tables with its scope, as the emulator's transcription does", () => {
    const ours = ROUTES.map((route) => `${routeName(route)} ${route.scope}`).sort();
    const emulators = ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path} ${endpoint.scope}`).sort();
    expect(ours).toEqual(emulators);
  });

  it("lists each operation once", () => {
    expect(new Set(ROUTES.map(routeName)).size).toBe(ROUTES.length);
  });
});

describe("a request resolves to its route", () => {
  it.each([
    ["GET", `/monitors/${ID}`, "GET /monitors/{monitorID}", "monitor.delete"],
    ["GET", "/monitors", "GET /monitors", "monitor.write"],
    ["POST", "/monitors/batch", "POST /monitors/batch", "monitor.write"],
    ["POST", "/monitors/batch/dry-run", "POST /monitors/batch/dry-run", "monitor.write"],
    ["POST", `/monitors/${ID}/notification_channels/${ID}`, "POST /monitors/{monitorID}/notification_channels/{channelID}", "monitor.delete"],
    ["POST", "/heartbeat-groups/assign", "POST /heartbeat-groups/assign", "heartbeat.write"],
    ["PUT", `/heartbeat-groups/${ID}`, "PUT /heartbeat-groups/{groupID}", "heartbeat.write"],
    ["DELETE", `/clients/${ID}/share-links/${ID}`, "DELETE /clients/{clientID}/share-links/{linkID}", "client.write"],
    ["GET", "/client-templates", "GET /client-templates", null],
    ["GET", "/monitors/{id}", "GET /monitors/{monitorID}", "monitor.delete"],
  ])("%s %s is %s, scope %s", (method, path, name, scope) => {
    const route = resolveRoute(method, path);
    expect(route === undefined ? undefined : routeName(route)).toBe(name);
    expect(route?.scope).toBe(scope);
  });

  it.each([
    ["POST", `/monitors/${ID}`],
    ["GET", `/webhook-subscriptions/${ID}`],
    ["GET", "/monitors/batch/extra/deep"],
    ["GET", "/unknown"],
  ])("%s %s resolves to none", (method, path) => {
    expect(resolveRoute(method, path)).toBeUndefined();
  });
});

describe("the operations of each kind", () => {
  it.each(definitions.map((definition) => [definition.kind, definition] as const))("%s resolve to routes of the table", (_kind, definition) => {
    for (const entry of operationsOf(definition)) expect(ROUTES).toContain(entry.route);
  });

  it("need the scopes the spec lists, odd ones included: a monitor's read needs monitor.delete, its list monitor.write", () => {
    const monitor = operationsOf(definitions[0]!);
    expect(monitor.find((entry) => entry.action === "read")?.route.scope).toBe("monitor.delete");
    expect(monitor.find((entry) => entry.action === "list")?.route.scope).toBe("monitor.write");
    expect(scopesOf(monitor)).toEqual(["monitor.delete", "monitor.read", "monitor.write"]);
  });

  it("client templates need no scope the spec lists", () => {
    expect(scopesOf(operationsOf(definitions.find((definition) => definition.kind === "ClientTemplate")!))).toEqual([]);
  });

  it("a set's batch create and the monitors' dry run are operations of the monitors' routes", () => {
    expect([...groups.flatMap(groupOperationsOf), dryRunOperation].map((entry) => routeName(entry.route))).toEqual(["POST /monitors/batch", "POST /monitors/batch/dry-run"]);
  });
});
