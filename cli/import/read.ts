/**
 * Reading an account through the API the way the provider reads objects: one paginated pass per
 * kind (`limit=250`), each item turned into the kind's inputs by the provider's own reader
 * (`ResourceReader.describe`), which also reads associations from their endpoints (a monitor's
 * attached channels: one list call per monitor; a client's portal settings: one GET per client).
 * Items that lack a field are read by id where the list may have left it out (ListCompleteness).
 */
import type { z } from "zod";
import type { AnyResourceDefinition } from "../../schema/define.js";
import { membersOf } from "../../schema/members.js";
import { ResourceReader } from "../../provider/reader.js";
import { fillPath, pathFields } from "../../provider/fields.js";
import type { ApiClient } from "../../provider/http/client.js";
import type { Query } from "../../provider/http/request.js";
import { isRecord } from "../../schema/naming.js";
import { fromApi } from "../../provider/translate.js";
import { mapBounded } from "../../provider/concurrency.js";
import { dependencyOrder, referencedDefinition } from "./references.js";

/**
 * Which part of the account is read:
 * - `account`: objects outside any client, and the kinds that never live in one (client templates);
 * - `client`: one client, its nested objects (share links) and the objects inside it;
 * - `all`: everything.
 */
export type Scope = { kind: "account" } | { kind: "client"; clientId: string } | { kind: "all" };

export interface AccountObject {
  definition: AnyResourceDefinition;
  id: string;
  /** The kind's inputs as the provider reads them, camelCase, associations included. */
  inputs: Record<string, unknown>;
}

export interface ReadOptions {
  api: ApiClient;
  scope: Scope;
  /** Kinds to read; every kind when left out. */
  kinds?: readonly AnyResourceDefinition[];
  /** Progress lines for people watching a large account being read. */
  progress?: (line: string) => void;
  /** Association reads in flight at once. Default 16. */
  concurrency?: number;
}

export interface AccountContents {
  /** The objects in scope, in dependency order of their kinds, each kind in the order the API listed it. */
  objects: AccountObject[];
  /** Every client the scope touches (read even when clients are not imported): names, templates. */
  clients: AccountObject[];
}

const CLIENT_FIELD = "clientId";
const PROGRESS_EVERY = 250;

export async function readAccount(options: ReadOptions): Promise<AccountContents> {
  const { api, scope } = options;
  const progress = options.progress ?? (() => undefined);
  const clientDefinition = referencedDefinition(CLIENT_FIELD);
  if (clientDefinition === undefined) throw new Error(`no kind is referenced by ${CLIENT_FIELD}`);

  const clientsInScope = async (): Promise<Record<string, unknown>[]> => {
    if (scope.kind === "account") return [];
    const clients = await api.listAll<unknown>(clientDefinition.path);
    return clients.filter(isRecord).filter((client) => scope.kind === "all" || sameId(client["id"], scope.clientId));
  };
  const clientItems = await clientsInScope();
  if (scope.kind === "client" && clientItems.length === 0) throw new Error(`no client with id ${scope.clientId}`);
  const clientShape = clientDefinition.inputs.shape as Record<string, z.ZodType>;
  const clients = clientItems.map((item) => ({ definition: clientDefinition, id: String(item["id"]), inputs: fromApi(clientShape, item) }));

  const objects: AccountObject[] = [];
  for (const definition of dependencyOrder(options.kinds)) {
    const engine = new ResourceReader(definition, () => api);
    const listed = definition === clientDefinition ? clientItems.map((item) => ({ item, context: {} })) : await listKind(definition, scope, clientItems, api);
    if (listed === undefined) continue;
    let read = 0;
    const lists = new ListCompleteness(engine);
    const described = await mapBounded(listed, options.concurrency ?? 16, async ({ item, context }) => {
      const object = await lists.complete(item, context);
      if (object === undefined) return undefined;
      const inputs = pick(await engine.describe(object, context), Object.keys(definition.inputs.shape));
      read++;
      if (read % PROGRESS_EVERY === 0) progress(`${definition.kind}: ${read}/${listed.length} read`);
      // An object of the service is a member of its kind (schema/members.ts), declared with the
      // definition drift, the policy pack and the YAML loader take for it.
      const [member] = membersOf(definition.kind, inputs);
      return member === undefined ? undefined : { definition: member.definition, id: String(item["id"]), inputs: member.values };
    });
    const found = described.filter((object) => object !== undefined);
    progress(`${definition.kind}: ${found.length} read${lists.gets > 0 ? ` (${lists.gets} by id: ${lists.describe()})` : ""}`);
    objects.push(...found);
  }
  return { objects, clients };
}

/** Items of a kind's list checked by GET before a list is trusted to carry what a GET shows. */
const SAMPLED_GETS = 8;

/**
 * Whether a kind's list items carry every field a GET of the object shows, learned from the list
 * itself: that they do is an assumption (spec: "not shown"), and a server may keep large fields
 * out of its lists (the emulator's alt profile: a monitor's `request_body`). An item that lacks an
 * input field is read by id, up to {@link SAMPLED_GETS} of them; a field the GET shows and the
 * item lacked is left out of the list, and every later item lacking it is read by id too. A field
 * both lack is simply unset (a server that leaves unset fields out). So an account costs at most 8
 * more requests per kind, or one per object of a kind whose list leaves a field out.
 */
class ListCompleteness {
  /** GETs made. */
  gets = 0;
  /** Fields the list leaves out and a GET shows. */
  readonly leftOut = new Set<string>();

  constructor(private readonly engine: ResourceReader) {}

  /** The object with every field a GET shows; `undefined` when it was deleted since it was listed. */
  async complete(item: Record<string, unknown>, context: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
    const lacking = this.engine.fieldsNotCarried(item);
    if (lacking.length === 0) return item;
    if (this.gets >= SAMPLED_GETS && !lacking.some((field) => this.leftOut.has(field))) return item;
    this.gets++;
    const object = await this.engine.fetch(String(item["id"]), context);
    if (object === undefined) return undefined;
    const unset = new Set(this.engine.fieldsNotCarried(object));
    for (const field of lacking) if (!unset.has(field)) this.leftOut.add(field);
    return object;
  }

  describe(): string {
    return this.leftOut.size === 0 ? "the list showed every field they show" : `the list leaves out ${[...this.leftOut].sort().join(", ")}`;
  }
}

interface Listed {
  item: Record<string, unknown>;
  /** Inputs placed in the list's path (a share link's client). */
  context: Record<string, unknown>;
}

/** The objects of one kind in scope; `undefined` when the kind has none in this scope. */
async function listKind(
  definition: AnyResourceDefinition,
  scope: Scope,
  clients: readonly Record<string, unknown>[],
  api: ApiClient,
): Promise<Listed[] | undefined> {
  const inPath = pathFields(definition);
  if (inPath.length > 0) {
    // Nested under a parent (share links under a client): one pass per parent in scope.
    const listed: Listed[] = [];
    for (const parent of clients) {
      const context = Object.fromEntries(inPath.map((field) => [field, parent["id"]]));
      const items = await api.listAll<unknown>(fillPath(definition.path, context));
      listed.push(...items.filter(isRecord).map((item) => ({ item, context })));
    }
    return listed;
  }
  const livesInClients = CLIENT_FIELD in definition.inputs.shape;
  if (!livesInClients && scope.kind === "client") return undefined;
  const query: Query = !livesInClients || scope.kind === "account" ? {} : scope.kind === "all" ? { all_clients: true } : { client_id: scope.clientId };
  const items = await api.listAll<unknown>(definition.path, query);
  return items.filter(isRecord).map((item) => ({ item, context: {} }));
}

function pick(values: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => values[field] !== undefined).map((field) => [field, values[field]]));
}

/** Ids compare without regard to letter case (servers may return them in either). */
export function sameId(a: unknown, b: unknown): boolean {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}
