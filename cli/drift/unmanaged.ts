/**
 * Objects no stack manages: in a stack's scope (the clients its objects live in, or outside any
 * client when it has objects there), held by the service, and recorded by no stack of the project,
 * of the shared project, or of the projects `drift.managedBy` names, nor ignored by
 * `drift.ignore`. Each comes with the declaration that adopts it, rendered by the importer.
 *
 * The service is read in list pages (`limit=250`, one pass per kind and scope, `client_id` for a
 * client), through the provider's HTTP client: never one request per object.
 */
import type { AnyResourceDefinition } from "../../schema/define.js";
import { definitions } from "../../schema/index.js";
import { membersOf } from "../../schema/members.js";
import { ResourceReader } from "../../provider/reader.js";
import { fillPath, pathFields } from "../../provider/fields.js";
import type { ApiClient } from "../../provider/http/client.js";
import type { Query } from "../../provider/http/request.js";
import { isRecord } from "../../schema/naming.js";
import { kindOfTypeToken } from "../../schema/type-token.js";
import type { StateResource } from "../project/state.js";
import { runBounded } from "../../provider/concurrency.js";
import { globToRegExp } from "../project/select.js";
import { displayTextOf } from "../import/names.js";
import { planImport } from "../import/plan.js";
import type { AccountObject } from "../import/read.js";
import { renderDeclaration } from "../import/render.js";

export interface UnmanagedObject {
  kind: string;
  /** The object's name (or label, description, URL) in the service; its id when it has none. */
  name: string;
  id: string;
  /** The client it lives in; absent outside any client. */
  clientId?: string;
  /** The declaration that adopts it: `new mon.Monitor("…", { adoptId: "…", … })`. */
  adopt: string;
}

/** Where a stack's objects live: `account` stands for "outside any client", else a client id (lower case). */
export type ScopeKey = "account" | string;

/** What the unmanaged-object check needs of a resource a stack's state records (cli/project/state.ts). */
export type RecordedResource = Pick<StateResource, "type"> & Partial<Pick<StateResource, "id" | "outputs">>;

export interface Ignore {
  ids: readonly string[];
  names: readonly string[];
}

const CLIENT_FIELD = "clientId";
const clientKind = definitions.find((definition) => definition.path === "/clients");

/** The kind of a recorded resource of this package, else undefined (a stack, a provider, another package). */
function kindOf(resource: RecordedResource): string | undefined {
  return kindOfTypeToken(resource.type);
}

/** The ids of the service's objects a stack's state records (each member of a monitor set included), lower case. */
export function managedIds(resources: readonly RecordedResource[]): string[] {
  return resources.flatMap((resource) => {
    const kind = kindOf(resource);
    if (kind === undefined || resource.id === undefined || resource.id === "") return [];
    const memberIds = membersOf(kind, resource.outputs ?? {}).flatMap((member) => (member.id === undefined ? [] : [member.id]));
    return [resource.id, ...memberIds].map((id) => id.toLowerCase());
  });
}

/** The scopes a stack's objects live in: each client (a client object is its own), and outside any client. */
export function scopesOf(resources: readonly RecordedResource[]): ScopeKey[] {
  const scopes = new Set<ScopeKey>();
  for (const resource of resources) {
    const kind = kindOf(resource);
    if (kind === undefined || resource.id === undefined) continue;
    if (kind === clientKind?.kind) {
      scopes.add(resource.id.toLowerCase());
      continue;
    }
    const members = membersOf(kind, resource.outputs ?? {});
    // A set with no member recorded still names its client.
    for (const values of members.length === 0 ? [resource.outputs ?? {}] : members.map((member) => member.values)) {
      const clientId = values[CLIENT_FIELD];
      scopes.add(typeof clientId === "string" ? clientId.toLowerCase() : "account");
    }
  }
  return [...scopes].sort();
}

/** One scope's objects, kind by kind in the order of the kinds, each as the service listed them. */
export type ScopeListing = ReadonlyArray<{ definition: AnyResourceDefinition; listed: readonly Listed[] }>;

/** A complete list already read (by the stack's refresh, under `fleet drift`), else `undefined`. */
export type KnownList = (path: string, query: Query) => readonly unknown[] | undefined;

/**
 * Every kind's list in each of `scopes`, in list pages, `parallel` lists at once (the client's rate
 * limit paces them); a list `known` has is taken from it instead. Fails with the first list that
 * could not be read.
 */
export async function readScopes(api: ApiClient, scopes: readonly ScopeKey[], parallel = 1, known: KnownList = () => undefined): Promise<Map<ScopeKey, ScopeListing>> {
  const unique = [...new Set(scopes)];
  const lists = unique.flatMap((scope) => definitions.map((definition) => ({ scope, definition })));
  const read = await runBounded(lists, parallel, ({ scope, definition }) => listKind(api, definition, scope, known));
  const listings = new Map<ScopeKey, Array<{ definition: AnyResourceDefinition; listed: Listed[] }>>(unique.map((scope) => [scope, []]));
  for (const [index, { scope, definition }] of lists.entries()) {
    const listed = read[index]!;
    if (listed.status !== "fulfilled") throw listed.status === "rejected" ? listed.reason : new Error(`the ${definition.kind} list of ${scope} was not read`);
    listings.get(scope)!.push({ definition, listed: listed.value });
  }
  return listings;
}

/**
 * The objects of each scope, as `listings` hold them, that no id of `managed` names and `ignore`
 * does not leave out; each scope's objects in the order of the kinds, then as the service listed
 * them. The declarations that adopt them are planned together, so that two objects of one name
 * get two names.
 */
export function unmanagedIn(listings: ReadonlyMap<ScopeKey, ScopeListing>, managed: ReadonlySet<string>, ignore: Ignore): Map<ScopeKey, UnmanagedObject[]> {
  const ignoredIds = new Set(ignore.ids.map((id) => id.toLowerCase()));
  const ignoredNames = ignore.names.map(globToRegExp);
  const found: AccountObject[] = [];
  for (const [scope, listing] of listings) {
    for (const { definition, listed } of listing) {
      const engine = new ResourceReader(definition, readsNothing);
      for (const { item, context } of listed) {
        const id = String(item["id"]);
        const inputs = { ...context, ...pick(engine.carried(item), Object.keys(definition.inputs.shape)) };
        if (managed.has(id.toLowerCase()) || ignoredIds.has(id.toLowerCase()) || isLeftDeleted(definition, inputs)) continue;
        // A list without client_id holds the objects outside any client (spec 4.1); a server that adds others is not believed.
        if (scope === "account" && definition !== clientKind && inputs[CLIENT_FIELD] !== undefined) continue;
        const name = displayTextOf(inputs) ?? id;
        if (ignoredNames.some((pattern) => pattern.test(name))) continue;
        found.push({ definition, id, inputs });
      }
    }
  }
  const plan = planImport({ objects: found, clients: [] });
  const byScope = new Map<ScopeKey, UnmanagedObject[]>([...listings.keys()].map((scope) => [scope, []]));
  for (const object of found) {
    const declaration = plan.declarations.find((candidate) => candidate.id === object.id && candidate.definition === object.definition);
    const clientId = object.definition === clientKind ? undefined : (object.inputs[CLIENT_FIELD] as string | undefined);
    byScope.get(clientId === undefined ? "account" : clientId.toLowerCase())?.push({
      kind: object.definition.kind,
      name: displayTextOf(object.inputs) ?? object.id,
      id: object.id,
      ...(clientId === undefined ? {} : { clientId }),
      adopt: declaration === undefined ? "" : renderDeclaration(declaration),
    });
  }
  return byScope;
}

/** The client of a reader that only takes the fields a listed object carries (`carried`), which sends nothing. */
function readsNothing(): ApiClient {
  throw new Error("the lists were read before: nothing more is sent");
}

interface Listed {
  item: Record<string, unknown>;
  /** Inputs placed in the list's path (a share link's client). */
  context: Record<string, unknown>;
}

/** One kind's objects in one scope, in list pages unless `known` has the list; none when the kind does not live there. */
async function listKind(api: ApiClient, definition: AnyResourceDefinition, scope: ScopeKey, known: KnownList): Promise<Listed[]> {
  const inPath = pathFields(definition);
  const list = async (path: string, query: Query, context: Record<string, unknown> = {}): Promise<Listed[]> =>
    (known(path, query) ?? (await api.listAll<unknown>(path, query))).filter(isRecord).map((item) => ({ item, context }));
  if (inPath.length > 0) {
    // Nested under a client (share links): one pass for the client of the scope.
    if (scope === "account" || !inPath.every((field) => field === CLIENT_FIELD)) return [];
    const context = { [CLIENT_FIELD]: scope };
    return list(fillPath(definition.path, context), {}, context);
  }
  if (scope === "account") return list(definition.path, {});
  return CLIENT_FIELD in definition.inputs.shape ? list(definition.path, { client_id: scope }) : [];
}

/** Whether an object is in the state destroy leaves it in (an archived client): then it counts as gone. */
function isLeftDeleted(definition: AnyResourceDefinition, inputs: Record<string, unknown>): boolean {
  const marker = definition.deletion?.leaves;
  return marker !== undefined && inputs[marker.field] === marker.value;
}

function pick(values: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => values[field] !== undefined).map((field) => [field, values[field]]));
}
