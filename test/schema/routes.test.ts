/**
 * The route table (schema/routes.ts): the spec's operations with their scopes, held against the
 * endpoint tables of the spec document itself (test/support/spec.ts) and against the emulator's
 * own transcription of them; how a request resolves to its route; and the requests each kind's
 * definition sends, each a row of the spec with the scope the spec lists for it.
 */
import { describe, expect, it } from "vitest";
import type { AnyResourceDefinition, Association } from "../../schema/define.js";
import { definitions } from "../../schema/index.js";
import { groups } from "../../schema/members.js";
import { DRY_RUN_PATH, batchPathOf, deletionOf, dryRunOperation, groupOperationsOf, operationsOf, scopesOf } from "../../schema/operations.js";
import { ROUTES, resolveRoute, routeName } from "../../schema/routes.js";
import { ENDPOINTS } from "../emulator/support/endpoints.js";
import { type SpecRow, specEndpointRows } from "../support/spec.js";

const ID = "0b5e5a1c-2f4e-4b8e-9a43-1d6a8c7e1f00";

const SPEC = specEndpointRows();
const specText = (row: Pick<SpecRow, "method" | "path" | "scope">) => `${row.method} ${row.path} ${row.scope ?? "(no scope)"}`;

describe("the spec's endpoint tables, as the document states them", () => {
  it("are read from every section of 4 that has one, a table without a Scope column listing none", () => {
    expect([...new Set(SPEC.map((row) => row.section))]).toEqual(["4.2", "4.3", "4.4", "4.5", "4.6", "4.7", "4.8", "4.9", "4.10"]);
    expect(SPEC.find((row) => row.method === "GET" && row.path === "/monitors/{monitorID}")).toEqual({ section: "4.2", method: "GET", path: "/monitors/{monitorID}", scope: "monitor.delete" });
    expect(SPEC.find((row) => row.path === "/incidents/{incidentID}/ai")?.scope).toBeNull();
    expect(SPEC.filter((row) => row.section === "4.10").map((row) => row.scope)).toEqual(Array(7).fill(null));
  });

  it("refuse a scope cell that is neither a scope's name nor the words for none", () => {
    const text = "### 4.2 Monitors\n\n| Method | Path | Scope | Success |\n|---|---|---|---|\n| GET | /monitors | monitors-write | 200 |\n";
    expect(() => specEndpointRows(text)).toThrow(/section 4\.2: the scope of "\| GET \| \/monitors \| monitors-write \| 200 \|"/);
  });
});

describe("the route table", () => {
  it("holds every row of the spec's tables and nothing else, section by section in the spec's order: method, path and scope", () => {
    expect(ROUTES.map((route) => ({ section: route.section, method: route.method, path: route.path, scope: route.scope }))).toEqual(SPEC);
  });

  it("agrees with the emulator's transcription of the same tables", () => {
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

/** A path template with its parameters unnamed: `/monitors/{}` for `/monitors/{id}` and `/monitors/{monitorID}` alike. */
const shapeOf = (path: string) => path.replace(/\{\w+\}/g, "{}");

/** The spec's row of a request as a definition writes it (`POST /monitors/{id}/pause`), found by the document alone. */
function specRowOf(method: string, path: string): SpecRow | undefined {
  return SPEC.find((row) => row.method === method && shapeOf(row.path) === shapeOf(path));
}

/** Every request a definition names: its collection, its object, its deletion and each association's calls. */
function requestsNamedBy(definition: AnyResourceDefinition): Array<[string, string]> {
  const object = `${definition.path}/{id}`;
  const deletion = deletionOf(definition);
  const associations = (Object.values(definition.associations) as Association[]).flatMap((association): Array<[string, string]> => {
    switch (association.kind) {
      case "toggle":
        return [[association.on.method, association.on.path], [association.off.method, association.off.path]];
      case "set":
        return [["GET", association.list.path], [association.add.method, association.add.path], [association.remove.method, association.remove.path]];
      case "document":
        return [["GET", association.get.path], ["PUT", association.put.path]];
    }
  });
  return [
    ["POST", definition.path],
    ["GET", definition.path],
    ...(definition.readBy === "get" ? [["GET", object] as [string, string]] : []),
    ...(definition.updateMethod === "none" ? [] : [[definition.updateMethod, object] as [string, string]]),
    [deletion.method, deletion.path],
    ...associations,
  ];
}

describe("the operations of each kind", () => {
  it.each(definitions.map((definition) => [definition.kind, definition] as const))("%s: every request its definition names is a row of the spec, and its operations are those rows with the spec's scopes", (_kind, definition) => {
    const requests = requestsNamedBy(definition);
    const rows = requests.map(([method, path]) => specRowOf(method, path));
    expect(requests.filter((_request, index) => rows[index] === undefined), "requests the spec's tables do not list").toEqual([]);
    expect([...new Set(operationsOf(definition).map((entry) => specText(entry.route)))].sort()).toEqual([...new Set(rows.map((row) => specText(row!)))].sort());
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

  it("a set's batch create and the monitors' dry run are operations of the monitors' routes, rows of the spec", () => {
    expect([...groups.flatMap(groupOperationsOf), dryRunOperation].map((entry) => routeName(entry.route))).toEqual(["POST /monitors/batch", "POST /monitors/batch/dry-run"]);
    const requests = [...groups.map((group) => ["POST", batchPathOf(group)] as const), ["POST", DRY_RUN_PATH] as const];
    expect(requests.map(([method, path]) => specRowOf(method, path)).map((row) => row && specText(row))).toEqual([...groups.flatMap(groupOperationsOf), dryRunOperation].map((entry) => specText(entry.route)));
  });
});
