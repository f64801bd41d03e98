/**
 * The operations the provider sends for a kind, derived from its definition (path, `readBy`,
 * `updateMethod`, deletion, associations) and resolved to the spec's routes (schema/routes.ts):
 * so the scopes a kind needs, the reference pages' tables and `pulumi-monitoring scopes` all come
 * from the same place as the requests themselves.
 */
import type { AnyResourceDefinition, Association } from "./define.js";
import type { GroupDefinition } from "./members.js";
import { monitor } from "./resources/monitor.js";
import { type Route, routeOf } from "./routes.js";

/** What an operation does for a kind. */
export type Action =
  | "create"
  | "create in batch"
  | "dry run"
  | "read"
  | "list"
  | "update"
  | "delete"
  | "turn on"
  | "turn off"
  | "read attached"
  | "attach"
  | "detach"
  | "read document"
  | "write document";

export interface KindOperation {
  /** The kind (or group) the operation is sent for. */
  kind: string;
  action: Action;
  /** The association's input, for its operations. */
  field?: string;
  route: Route;
}

/** `Monitor attach (notificationChannelIds)` */
export function operationText(operation: KindOperation): string {
  return `${operation.kind} ${operation.action}${operation.field === undefined ? "" : ` (${operation.field})`}`;
}

/** The delete of a definition without a `deletion` of its own. */
export function deletionOf(definition: AnyResourceDefinition): { method: "DELETE" | "POST"; path: string } {
  return definition.deletion ?? { method: "DELETE", path: `${definition.path}/{id}` };
}

/** The path of a group's batch create (`POST /monitors/batch`). */
export function batchPathOf(group: GroupDefinition): string {
  return `${group.member.path}/batch`;
}

/** The path of the monitors' dry run (`monitoring:dryRun`, provider/dry-run.ts). */
export const DRY_RUN_PATH = `${monitor.path}/batch/dry-run`;

function operation(kind: string, action: Action, method: string, path: string, field?: string): KindOperation {
  return { kind, action, route: routeOf(method, path), ...(field === undefined ? {} : { field }) };
}

/** The operations of one association: its reads first, then its writes. */
function associationOperations(kind: string, field: string, association: Association): KindOperation[] {
  switch (association.kind) {
    case "toggle":
      return [operation(kind, "turn on", association.on.method, association.on.path, field), operation(kind, "turn off", association.off.method, association.off.path, field)];
    case "set":
      return [
        operation(kind, "read attached", "GET", association.list.path, field),
        operation(kind, "attach", association.add.method, association.add.path, field),
        operation(kind, "detach", association.remove.method, association.remove.path, field),
      ];
    case "document":
      return [operation(kind, "read document", "GET", association.get.path, field), operation(kind, "write document", "PUT", association.put.path, field)];
  }
}

/** Every operation the provider may send for an object of the kind. */
export function operationsOf(definition: AnyResourceDefinition): KindOperation[] {
  const kind = definition.kind;
  const deletion = deletionOf(definition);
  return [
    operation(kind, "create", "POST", definition.path),
    operation(kind, "read", "GET", definition.readBy === "get" ? `${definition.path}/{id}` : definition.path),
    operation(kind, "list", "GET", definition.path),
    ...(definition.updateMethod === "none" ? [] : [operation(kind, "update", definition.updateMethod, `${definition.path}/{id}`)]),
    operation(kind, "delete", deletion.method, deletion.path),
    ...Object.entries(definition.associations).flatMap(([field, association]) => associationOperations(kind, field, association as Association)),
  ];
}

/** What a preview with `monitoring:dryRun` sends for the monitors it creates or changes. */
export const dryRunOperation: KindOperation = operation(monitor.kind, "dry run", "POST", DRY_RUN_PATH);

/** The operations a group adds to its members' (a set's batch create). */
export function groupOperationsOf(group: GroupDefinition): KindOperation[] {
  return [operation(group.kind, "create in batch", "POST", batchPathOf(group))];
}

/** The scopes the operations need, sorted; operations the spec lists without a scope need none. */
export function scopesOf(operations: readonly KindOperation[]): string[] {
  return [...new Set(operations.flatMap((entry) => (entry.route.scope === null ? [] : [entry.route.scope])))].sort();
}
