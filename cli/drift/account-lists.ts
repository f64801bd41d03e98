/**
 * The lists a drift check reads of one account (a service and a key), each once for every checked
 * stack of the account: the objects of the stacks are found in them, and so are the objects no
 * stack manages (cli/drift/unmanaged.ts takes its scopes' lists from here, reading nothing more).
 *
 * Per kind that lives in clients, the stacks' client scopes decide the question: one client,
 * its list (`client_id`); several, one list of the whole account (`all_clients=true`, every
 * page), which answers each client's question by the items' `clientId`: a fleet of 500 client
 * stacks of 8 monitors each reads 16 pages of monitors, not 500 lists. A list of the account that
 * runs to more pages than there are clients to read gives way to their own lists (`#readList`).
 * Objects outside any client are asked for with their own list (no filter), and only when a stack
 * has objects there: the spec does not say whether `all_clients` spans them. A kind nested under a client (share links)
 * has no list of the account: one per client scope. A kind that lives in no client (clients,
 * client templates) is listed whole when a stack has objects outside any client (its
 * unmanaged ones are looked for there) or when the stacks record more than one of its objects;
 * a single one is read by id, as cheap as a page.
 */
import type { AnyResourceDefinition } from "../../schema/define.js";
import { definitions } from "../../schema/index.js";
import { isRecord } from "../../schema/naming.js";
import { runBounded } from "../../provider/concurrency.js";
import { fillPath, pathFields } from "../../provider/fields.js";
import type { ApiClient } from "../../provider/http/client.js";
import type { Query } from "../../provider/http/request.js";
import { type ApiObject, type Listed, ResourceReader } from "../../provider/reader.js";
import { type KnownList, type RecordedResource, scopesOf } from "./unmanaged.js";
import { kindOfTypeToken } from "../../schema/type-token.js";

const CLIENT_FIELD = "clientId";

/** One list to read: a kind's path and question. */
interface ListRead {
  definition: AnyResourceDefinition;
  path: string;
  query: Query;
  /** A list of the account (`all_clients`): the clients it is read for, whose own lists it replaces. */
  clients?: readonly string[];
}

/** Whether the kind's objects live in clients and its lists take `client_id` / `all_clients`. */
function livesInClients(definition: AnyResourceDefinition): boolean {
  return CLIENT_FIELD in definition.inputs.shape && !pathFields(definition).includes(CLIENT_FIELD);
}

/** Nested under a client (`/clients/{clientId}/share-links`): one list per client. */
function nestedInClient(definition: AnyResourceDefinition): boolean {
  const inPath = pathFields(definition);
  return inPath.length > 0 && inPath.every((field) => field === CLIENT_FIELD);
}

/** The lists the checked stacks' resources need, per kind (the rules at the top of this file). */
export function listsToRead(stacks: ReadonlyArray<readonly RecordedResource[]>): ListRead[] {
  const scopes = new Set(stacks.flatMap((resources) => scopesOf(resources)));
  const clients = [...scopes].filter((scope) => scope !== "account").sort();
  const outside = scopes.has("account");
  const recorded = new Map<string, number>();
  for (const resource of stacks.flat()) {
    const kind = kindOfTypeToken(resource.type);
    if (kind === undefined || !resource.id) continue;
    recorded.set(kind, (recorded.get(kind) ?? 0) + 1);
  }
  return definitions.flatMap((definition): ListRead[] => {
    const { path } = definition;
    if (nestedInClient(definition)) return clients.map((client) => ({ definition, path: fillPath(path, { [CLIENT_FIELD]: client }), query: {} }));
    if (pathFields(definition).length > 0) return [];
    if (livesInClients(definition)) {
      const inClients: ListRead[] = clients.length === 0 ? [] : clients.length === 1 ? [{ definition, path, query: { client_id: clients[0]! } }] : [{ definition, path, query: { all_clients: true }, clients }];
      return outside ? [...inClients, { definition, path, query: {} }] : inClients;
    }
    return outside || (recorded.get(definition.kind) ?? 0) > 1 ? [{ definition, path, query: {} }] : [];
  });
}

/** A list read: its items, by lower-case id, and for a list of the account, by lower-case client id. */
interface ReadList extends ListRead {
  items: ApiObject[];
  byId: Map<string, ApiObject>;
  byClient?: Map<string, ApiObject[]>;
}

/**
 * The lists are looked up by maps, not searched: a fleet of 500 stacks asks each kind's list 500
 * times (one client each), and finds 5,000 objects in them.
 */
export class AccountLists {
  readonly #api: ApiClient;
  readonly #readers = new Map<AnyResourceDefinition, ResourceReader>();
  /** By {@link questionKey}. */
  #lists = new Map<string, ReadList>();
  #byDefinition = new Map<AnyResourceDefinition, ReadList[]>();

  constructor(api: ApiClient) {
    this.#api = api;
  }

  /** The reader of a kind, which sends its requests (association reads, reads by id) with this account's client. */
  reader(definition: AnyResourceDefinition): ResourceReader {
    let reader = this.#readers.get(definition);
    if (reader === undefined) {
      reader = new ResourceReader(definition, () => this.#api);
      this.#readers.set(definition, reader);
    }
    return reader;
  }

  /** Reads `lists`, every page of each, `parallel` lists at once; fails with the first that could not be read. */
  async read(lists: readonly ListRead[], parallel: number): Promise<void> {
    const read = await runBounded(lists, parallel, (list) => this.#readList(list, parallel));
    const done = lists.flatMap((list, index): ReadList[] => {
      const outcome = read[index]!;
      if (outcome.status !== "fulfilled") throw outcome.status === "rejected" ? outcome.reason : new Error(`${list.path} was not read`);
      return outcome.value;
    });
    this.#lists = new Map(done.map((list) => [questionKey(list.path, list.query), list]));
    this.#byDefinition = new Map(definitions.map((definition) => [definition, done.filter((list) => list.definition === definition)]));
  }

  /**
   * The complete list at `path` with `query`, when the lists read answer it: the list itself, or a
   * client's share of the account's list. The check for unmanaged objects asks its questions here.
   */
  readonly known: KnownList = (path, query) => {
    const same = this.#lists.get(questionKey(path, query));
    if (same !== undefined) return same.items;
    const clientId = query["client_id"];
    if (typeof clientId !== "string" || Object.keys(query).length !== 1) return undefined;
    const account = this.#lists.get(questionKey(path, { all_clients: true }))?.byClient;
    return account === undefined ? undefined : (account.get(clientId.toLowerCase()) ?? []);
  };

  /**
   * The object `id`, recorded as `state`, as the lists read show it, else as a read by id finds it
   * (`absent`: gone). `goneWhenUnlisted`: absent from the complete list of its scope means gone,
   * with no read by id, as the provider's read judges a kind without a GET by id, and a set its
   * members (provider/monitor-set.ts); a single object of another kind is read by id then (gone,
   * or moved to another client by hand, which the GET tells).
   */
  async find(definition: AnyResourceDefinition, id: string, state: Record<string, unknown>, goneWhenUnlisted = definition.readBy === "list"): Promise<Listed> {
    const key = id.toLowerCase();
    for (const list of this.#byDefinition.get(definition) ?? []) {
      const item = list.byId.get(key);
      if (item !== undefined) return item;
    }
    if (goneWhenUnlisted && this.#listsScopeOf(definition, state)) return "absent";
    return (await this.reader(definition).fetch(id, state)) ?? "absent";
  }

  /** Whether a list read shows every object of the scope `state` records (its client, or outside any client). */
  #listsScopeOf(definition: AnyResourceDefinition, state: Record<string, unknown>): boolean {
    const path = nestedInClient(definition) ? fillPath(definition.path, state) : definition.path;
    const clientId = livesInClients(definition) && typeof state[CLIENT_FIELD] === "string" ? state[CLIENT_FIELD] : undefined;
    return this.known(path, clientId === undefined ? {} : { client_id: clientId }) !== undefined;
  }

  /**
   * One list, every page. A list of the account is read while it costs fewer pages than its
   * clients' own lists would (at least one each): once it has taken as many and goes on, those
   * lists are read instead, so that a check of a few clients in a large account pays at most twice
   * their lists, not the whole account.
   */
  async #readList(list: ListRead, parallel: number): Promise<ReadList[]> {
    const complete = (read: ListRead, items: ApiObject[]): ReadList => ({
      ...read,
      items,
      byId: new Map(items.map((item) => [String(item["id"]).toLowerCase(), item])),
      ...(read.clients === undefined ? {} : { byClient: this.#byClient(read.definition, items) }),
    });
    const items: ApiObject[] = [];
    let pages = 0;
    for await (const page of this.#api.pages<unknown>(list.path, list.query)) {
      items.push(...page.items.filter(isRecord));
      pages += 1;
      if (page.more && list.clients !== undefined && pages >= list.clients.length) {
        const own = list.clients.map((client): ListRead => ({ definition: list.definition, path: list.path, query: { client_id: client } }));
        const read = await runBounded(own, parallel, (each) => this.#readList(each, parallel));
        return read.flatMap((outcome) => {
          if (outcome.status !== "fulfilled") throw outcome.status === "rejected" ? outcome.reason : new Error(`${list.path} was not read`);
          return outcome.value;
        });
      }
    }
    return [complete(list, items)];
  }

  /** A list of the account's items by their client, as the kind's reader reads an item's client. */
  #byClient(definition: AnyResourceDefinition, items: readonly ApiObject[]): Map<string, ApiObject[]> {
    const reader = this.reader(definition);
    const byClient = new Map<string, ApiObject[]>();
    for (const item of items) {
      const clientId = reader.carried(item)[CLIENT_FIELD];
      if (typeof clientId !== "string") continue;
      const key = clientId.toLowerCase();
      const ofClient = byClient.get(key);
      if (ofClient === undefined) byClient.set(key, [item]);
      else ofClient.push(item);
    }
    return byClient;
  }
}

/** A list's question as a key: its path and query, in lower case (UUIDs, whatever their case, are the same). */
function questionKey(path: string, query: Query): string {
  return JSON.stringify([path, Object.entries(query).map(([name, value]) => [name, String(value)]).sort()]).toLowerCase();
}
