/**
 * What reads, for any kind, derived from its definition: an object by id (`GET`, or a scan of the
 * list for kinds without one), the reads of a refresh (from list pages where that costs less,
 * provider/list-reads.ts), lookups, and an object turned into outputs or inputs. It sends no write:
 * lookups (sdk/lookups.ts), the importer and drift use it alone; the writer (provider/engine.ts)
 * reads through it.
 */
import type { z } from "zod";
import { type AnyResourceDefinition, type Association, apiNamesOf } from "../schema/define.js";
import { unwrap } from "../schema/rules.js";
import { ApiError } from "./errors.js";
import type { ApiClient } from "./http/client.js";
import type { Query } from "./http/request.js";
import { declaredInputs } from "./diff.js";
import { associationOf, fillPath, inputFields, internal, isInternal, pathFields } from "./fields.js";
import { OperationError, describeResource } from "./failures.js";
import { withLeftOutAsWritten } from "./left-out.js";
import { ListReads } from "./list-reads.js";
import { isRecord } from "../schema/naming.js";
import { fromApi, project } from "./translate.js";

type Values = Record<string, unknown>;
export type ApiObject = Record<string, unknown>;

/** What a caller already read of an object: the object, or that a complete list does not show it. */
export type Listed = ApiObject | "absent";

export class ResourceReader {
  readonly definition: AnyResourceDefinition;
  readonly #api: () => ApiClient;
  /** The reads of a refresh, answered from list pages where that costs less (provider/list-reads.ts). */
  readonly #lists: ListReads;

  /** `api` is called only when a request is about to be made, so credentials are resolved then. */
  constructor(definition: AnyResourceDefinition, api: () => ApiClient) {
    this.definition = definition;
    this.#api = api;
    this.#lists = new ListReads(api);
  }

  /**
   * The object's outputs as it is now, or no id when it is gone (Pulumi then drops it from state).
   * Reads of many objects of the kind share list pages (provider/list-reads.ts); `listed` is the
   * object as a caller already read it from a complete list (a set reads its members' list once).
   * What the provider last wrote of the fields the program leaves out is carried on (provider/left-out.ts).
   */
  async read(id: string, state: Values, listed?: Listed): Promise<{ id?: string; props?: Values }> {
    return this.step(state, `read ${id}`, async () => {
      const apiObject = listed === undefined ? await this.#current(id, state) : await this.#fromList(id, state, listed);
      if (apiObject === undefined) return {};
      const props = await this.outputs(id, apiObject, state, this.keptOutputs(apiObject, state), declaredInputs(state));
      return { id, props: withLeftOutAsWritten(this.definition, state, props) };
    });
  }

  /** Every field of an object, associations included, without provider internals; `undefined` when it does not exist. */
  async lookup(id: string): Promise<Values | undefined> {
    return this.step({}, `read ${id}`, async () => {
      const apiObject = await this.fetchObject(id, {});
      return apiObject === undefined ? undefined : this.describe(apiObject);
    });
  }

  /**
   * The fields an object read from a list carries (toggles such as `paused` included), camelCase,
   * with no further request: associations with endpoints of their own are left out.
   */
  carried(apiObject: ApiObject): Values {
    return this.project(apiObject);
  }

  /**
   * Every field of an object already read (e.g. an item of a list), associations read from their
   * endpoints, without provider internals. `context` holds the inputs placed in the path (a share
   * link's `clientId`), which an object may not carry.
   */
  async describe(apiObject: ApiObject, context: Values = {}): Promise<Values> {
    const id = String(apiObject["id"]);
    return this.step(context, `read ${id}`, async () => {
      const outputs = await this.outputs(id, apiObject, {}, this.keptOutputs(apiObject, context), inputFields(this.definition));
      return Object.fromEntries(Object.entries(outputs).filter(([key]) => !isInternal(key)));
    });
  }

  /** The object by id as the service shows it (a GET, or a scan of the list for kinds without one); `undefined` when it does not exist. */
  async fetch(id: string, context: Values = {}): Promise<ApiObject | undefined> {
    return this.step(context, `read ${id}`, () => this.fetchObject(id, context));
  }

  /**
   * Every object in the scope of the objects recorded as `states` (members of a set), read now in
   * list pages, by lower-case id: the list of their one client, of the objects outside any client,
   * or of all clients when they live in several.
   */
  async listScopeOf(states: readonly Values[]): Promise<Map<string, ApiObject>> {
    const clients = new Set(states.map((state) => state["clientId"]));
    const [clientId] = clients;
    const query: Query = clients.size > 1 ? { all_clients: true } : typeof clientId === "string" ? { client_id: clientId } : {};
    return this.#lists.scan(fillPath(this.definition.path, states[0] ?? {}), query);
  }

  /** Ends the sessions of list pages: the service changed since they were read. */
  forget(): void {
    this.#lists.forget();
  }

  /**
   * The input fields a GET of the object may show that `item` (an item of a list) does not carry:
   * a server that leaves unset fields out lacks them in both, one that keeps large fields out of
   * its lists lacks them only in the list (an assumption either way: spec, "not shown").
   * Write-only fields, fields kept from state, path fields and associations read from endpoints of
   * their own are never carried, and are not counted.
   */
  fieldsNotCarried(item: ApiObject): string[] {
    return this.#fieldsNotCarried(item, inputFields(this.definition));
  }

  // -------------------------------------------------------------------------------------------
  // For the writer: the same reads, without turning failures into messages

  /** The object by id: `GET path/{id}`, or a scan of the list for kinds without a GET by id. */
  async fetchObject(id: string, values: Values): Promise<ApiObject | undefined> {
    try {
      if (this.definition.readBy === "get") {
        const path = fillPath(`${this.definition.path}/{id}`, { ...values, id });
        return apiObjectOf((await this.#api().request<unknown>("GET", path, { expectedStatus: 200 })).data, `GET ${path}`);
      }
      for await (const item of this.#api().paginate<unknown>(fillPath(this.definition.path, values), this.#listQuery(values))) {
        if (isRecord(item) && item["id"] === id) return item;
      }
      return undefined;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** The ids of the items attached through a set association, as the service holds them now. */
  async listSet(id: string, association: Extract<Association, { kind: "set" }>): Promise<string[]> {
    const items = await this.#api().listAll<unknown>(fillPath(association.list.path, { id }));
    return items.filter(isRecord).map((item) => String(item["id"]));
  }

  /**
   * The outputs: every input field as the service reports it, write-only ones from `state`, the
   * declared associations (as `known` gives them, e.g. just applied, else read from their
   * endpoints), server outputs, `kept` outputs and internals. Reads the object when `apiObject` is
   * not given.
   */
  async outputs(id: string, apiObject: ApiObject | undefined, state: Values, kept: Values, declared: readonly string[] = declaredNames(this.definition, state), known: Values = {}): Promise<Values> {
    const object = apiObject ?? (await this.fetchObject(id, state));
    if (object === undefined) {
      throw new OperationError(`${describeResource(this.definition, state)}: ${this.definition.kind} ${id} disappeared while it was being written`);
    }
    const outputs: Values = { ...this.project(object), ...kept };
    for (const field of this.definition.writeOnly) {
      if (declared.includes(field) && state[field] !== undefined) outputs[field] = state[field];
    }
    for (const [field, association] of this.associations()) {
      if (!declared.includes(field)) continue;
      if (field in known) {
        outputs[field] = known[field];
      } else if (association.kind === "set") {
        outputs[field] = await this.listSet(id, association);
      } else if (association.kind === "document") {
        const response = await this.#api().request<unknown>("GET", fillPath(association.get.path, { id }), { expectedStatus: 200 });
        outputs[field] = project(this.definition.inputs.shape[field] as z.ZodType, response.data);
      }
    }
    return { ...outputs, [internal.declaredInputs]: [...declared] };
  }

  /** Input fields the object carries (toggles included) and server outputs, camelCase. */
  project(apiObject: ApiObject): Values {
    const shape = this.definition.inputs.shape as Record<string, z.ZodType>;
    const carried = Object.fromEntries(
      inputFields(this.definition).filter((field) => {
        const association = associationOf(this.definition, field);
        return association === undefined || association.kind === "toggle";
      }).map((field) => [field, shape[field] as z.ZodType]),
    );
    return { ...fromApi(carried, apiObject), ...fromApi(this.definition.outputs.shape as Record<string, z.ZodType>, apiObject) };
  }

  /**
   * Values the object does not carry on every read: outputs the service returns once (from the
   * object when it has them, else from state) and the inputs placed in the path.
   */
  keptOutputs(apiObject: ApiObject, state: Values): Values {
    const kept: Values = {};
    const shape = this.definition.outputs.shape as Record<string, z.ZodType>;
    for (const field of this.definition.keepFromState) {
      const value = fromApi({ [field]: shape[field] as z.ZodType }, apiObject)[field] ?? state[field];
      if (value !== undefined) kept[field] = value;
    }
    for (const field of pathFields(this.definition)) {
      if (state[field] !== undefined) kept[field] = state[field];
    }
    return kept;
  }

  /** The kind's associations, in declaration order. */
  associations(): [string, Association][] {
    return inputFields(this.definition).flatMap((field) => {
      const association = associationOf(this.definition, field);
      return association === undefined ? [] : [[field, association] as [string, Association]];
    });
  }

  /** Runs a step of an operation, turning an API failure into a message for the user. */
  async step<T>(values: Values, operation: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw OperationError.fromApiError(this.definition, values, operation, error);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Read

  /**
   * The object as read needs it: from a list page shared with the other reads of its kind and
   * scope, when the item shows every field the state records (that list items carry the fields of
   * a GET is an assumption, see `readBy` in schema/define.ts), else by id.
   */
  async #current(id: string, state: Values): Promise<ApiObject | undefined> {
    const listOnly = this.definition.readBy === "list";
    const query = this.#readQuery(state);
    const listed = await this.#lists.find(fillPath(this.definition.path, state), query, id, listOnly).catch((error: unknown) => {
      // A list under a parent that is gone (a deleted client's share links) answers 404: so is the object.
      if (listOnly && error instanceof ApiError && error.status === 404) return "absent" as const;
      throw error;
    });
    if (typeof listed === "object" && (listOnly || this.#showsRecordedFields(listed, state))) return listed;
    // No GET by id: absent from the whole list means gone.
    if (listOnly) return undefined;
    return this.fetchObject(id, state);
  }

  /** From what a caller read of a complete list: absent means gone; an item lacking a recorded field is read by id. */
  async #fromList(id: string, state: Values, listed: Listed): Promise<ApiObject | undefined> {
    if (listed === "absent") return undefined;
    if (this.definition.readBy === "list" || this.#showsRecordedFields(listed, state)) return listed;
    return this.fetchObject(id, state);
  }

  /** Whether a listed item carries every field the state records a value for (write-only and path fields aside). */
  #showsRecordedFields(item: ApiObject, state: Values): boolean {
    const recorded = Object.keys(state).filter((field) => state[field] !== undefined);
    return this.#fieldsNotCarried(item, recorded).length === 0;
  }

  #fieldsNotCarried(item: ApiObject, fields: readonly string[]): string[] {
    const shape = { ...this.definition.inputs.shape, ...this.definition.outputs.shape } as Record<string, z.ZodType>;
    const notCarried = new Set<string>([...this.definition.writeOnly, ...this.definition.keepFromState, ...pathFields(this.definition)]);
    return fields.filter((field) => {
      const schema = shape[field];
      if (schema === undefined || notCarried.has(field) || isInternal(field)) return false;
      const association = associationOf(this.definition, field);
      if (association !== undefined && association.kind !== "toggle") return false;
      return !apiNamesOf(field, schema).some((name) => name in item);
    });
  }

  /**
   * The scope of the list a read looks in: the object's client as recorded; none (objects outside
   * any client) when the state records the object without one; every client when nothing is
   * recorded (a lookup by id).
   */
  #readQuery(state: Values): Query {
    if (!("clientId" in this.definition.inputs.shape) || pathFields(this.definition).includes("clientId")) return {};
    const clientId = state["clientId"];
    if (typeof clientId === "string") return { client_id: clientId };
    return internal.declaredInputs in state ? {} : { all_clients: true };
  }

  /**
   * Lists show only objects outside any client unless told otherwise: the object's own client
   * when known, else all clients (an object being adopted may live in any).
   */
  #listQuery(values: Values): Query {
    if (!("clientId" in this.definition.inputs.shape) || pathFields(this.definition).includes("clientId")) return {};
    const clientId = values["clientId"];
    return typeof clientId === "string" ? { client_id: clientId } : { all_clients: true };
  }
}

/** The value an association returns to when the user stops declaring it. */
export function resetValue(schema: z.ZodType, association: Association): unknown {
  switch (association.kind) {
    case "toggle":
      return false;
    case "set":
      return [];
    case "document":
      return unwrap(schema).parse({});
  }
}

/** The input names set in `values`. */
export function declaredNames(definition: AnyResourceDefinition, values: Values): string[] {
  return inputFields(definition).filter((field) => values[field] !== undefined);
}

export function apiObjectOf(data: unknown, request: string): ApiObject {
  if (!isRecord(data) || typeof data["id"] !== "string") throw new OperationError(`${request} answered without an object id`);
  return data;
}
