/**
 * Create, read, update and delete for any kind, derived from its definition. Create and update
 * end by reading the object back the way read does, so the outputs recorded by an `up` are what
 * a later refresh reads: `preview --expect-no-changes` and `refresh --expect-no-changes` hold.
 */
// @ts-nocheck

import { createHash } from "node:crypto";
import type { z } from "zod";
import { type AnyResourceDefinition, type Association, type Call, apiNamesOf, factsOf } from "../schema/define.js";
import { unwrap } from "../schema/rules.js";
import { ApiError, type ApiClient, type Query, newIdempotencyKey } from "./http.js";
import { canonical, changedFields, declaredInputs } from "./diff.js";
import {
  associationOf,
  fillPath,
  inputFields,
  internal,
  isInternal,
  objectBodyFields,
  pathFields,
  replaceFields,
  updateBodyFields,
} from "./fields.js";
import { OperationError, ResourceInitError, describeResource } from "./failures.js";
import { ListReads } from "./list-reads.js";
import { isRecord } from "./naming.js";
import { apiBody, apiNameOf, fromApi, project, toApi } from "./translate.js";

type Values = Record<string, unknown>;
type ApiObject = Record<string, unknown>;

export class ResourceEngine {
  readonly #definition: AnyResourceDefinition;
  readonly #api: () => ApiClient;
  /** The reads of a refresh, answered from list pages where that costs less (provider/list-reads.ts). */
  readonly #lists: ListReads;

  /** `api` is called only when a request is about to be made, so credentials are resolved then. */
  constructor(definition: AnyResourceDefinition, api: () => ApiClient) {
    this.#definition = definition;
    this.#api = api;
    this.#lists = new ListReads(api);
  }

  async create(inputs: Values): Promise<{ id: string; outs: Values }> {
    this.#lists.forget();
    const adoptId = inputs["adoptId"];
    if (typeof adoptId === "string") {
      const existing = await this.#step(inputs, `adopt ${adoptId}`, () => this.#fetch(adoptId, inputs));
      if (existing === undefined) {
        throw new OperationError(`${describeResource(this.#definition, inputs)}: adoptId ${adoptId} names no existing ${this.#definition.kind}`);
      }
      return { id: adoptId, outs: await this.#converge(adoptId, existing, inputs) };
    }

    const { id, created, replayed } = await this.#step(inputs, "create", () => this.#post(inputs));
    // A replay means an earlier attempt of this very create succeeded but its outcome was lost
    // (e.g. the deployment was interrupted): that object is taken over, not made a second time.
    if (replayed) return { id, outs: await this.#converge(id, created, inputs) };
    return { id, outs: await this.completeCreate(id, created, inputs) };
  }

  /**
   * Takes over an object already read (e.g. from a list): makes it match the inputs and returns
   * its outputs, read back only when a call changed it.
   */
  async adopt(id: string, apiObject: ApiObject, inputs: Values): Promise<Values> {
    this.#lists.forget();
    return this.#converge(id, apiObject, inputs);
  }

  /**
   * Applies the associations the inputs declare to an object just created (here or by a batch
   * create) and returns its outputs: from the create's answer, read back only when an association
   * call changed the object.
   */
  async completeCreate(id: string, created: ApiObject, inputs: Values): Promise<Values> {
    const kept = this.#keptOutputs(created, inputs);
    try {
      const changed = await this.#step(inputs, "create", () => this.#applyAssociations(id, this.#project(created), inputs, []));
      return await this.#step(inputs, "create", () => this.#outputs(id, changed ? undefined : created, inputs, kept));
    } catch (error) {
      // The object exists: hand it to Pulumi to record, so the next run updates it.
      const properties = {
        ...this.#project(created),
        ...kept,
        ...this.#internals([]),
        [internal.provider]: inputs[internal.provider],
      };
      throw new ResourceInitError(id, properties, error);
    }
  }

  /**
   * The object's outputs as it is now, or no id when it is gone (Pulumi then drops it from state).
   * Reads of many objects of the kind share list pages (provider/list-reads.ts).
   */
  async read(id: string, state: Values): Promise<{ id?: string; props?: Values }> {
    return this.#step(state, `read ${id}`, async () => {
      const apiObject = await this.#current(id, state);
      if (apiObject === undefined) return {};
      const props = await this.#outputs(id, apiObject, state, this.#keptOutputs(apiObject, state), declaredInputs(state));
      return { id, props };
    });
  }

  async update(id: string, olds: Values, news: Values): Promise<{ outs: Values }> {
    this.#lists.forget();
    return this.#step(news, `update ${id}`, async () => {
      await this.#applyChanges(id, olds, news);
      return { outs: await this.#outputs(id, undefined, news, this.#keptOutputs({}, olds)) };
    });
  }

  async delete(id: string, state: Values): Promise<void> {
    this.#lists.forget();
    const deletion = this.#definition.deletion ?? { method: "DELETE", path: `${this.#definition.path}/{id}`, alreadyGone: [404] };
    await this.#step(state, `delete ${id}`, async () => {
      try {
        await this.#api().request(deletion.method, fillPath(deletion.path, { ...state, id }), retryableIfPost(deletion.method));
      } catch (error) {
        if (!(error instanceof ApiError && deletion.alreadyGone.includes(error.status))) throw error;
      }
    });
  }

  /** Every field of an object, associations included, without provider internals; `undefined` when it does not exist. */
  async lookup(id: string): Promise<Values | undefined> {
    return this.#step({}, `read ${id}`, async () => {
      const apiObject = await this.#fetch(id, {});
      return apiObject === undefined ? undefined : this.describe(apiObject);
    });
  }

  /**
   * The fields an object read from a list carries (toggles such as `paused` included), camelCase,
   * with no further request: associations with endpoints of their own are left out.
   */
  carried(apiObject: ApiObject): Values {
    return this.#project(apiObject);
  }

  /**
   * Every field of an object already read (e.g. an item of a list), associations read from their
   * endpoints, without provider internals. `context` holds the inputs placed in the path (a share
   * link's `clientId`), which an object may not carry.
   */
  async describe(apiObject: ApiObject, context: Values = {}): Promise<Values> {
    const id = String(apiObject["id"]);
    return this.#step(context, `read ${id}`, async () => {
      const outputs = await this.#outputs(id, apiObject, {}, this.#keptOutputs(apiObject, context), inputFields(this.#definition));
      return Object.fromEntries(Object.entries(outputs).filter(([key]) => !isInternal(key)));
    });
  }

  // -------------------------------------------------------------------------------------------
  // Create

  /**
   * POSTs the create body with an idempotency key derived from the resource's URN and the body, so
   * a create whose outcome was lost (a dropped response, a crashed deployment) is replayed by the
   * service instead of made twice, and two resources never share a key. A replay is taken over
   * only when its object still exists and is usable; a replay of an object deleted or archived
   * since (an earlier destroy/up cycle) or of a refusal (whose cause may be fixed by now) is
   * followed by one fresh create under a new key: at most two POSTs, however many cycles came before.
   *
   * That the service honours `Idempotency-Key` is an assumption (spec 5.7: not shown). On a server
   * that ignores it, a lost create response can leave one visible duplicate, never two resources
   * merged into one object.
   */
  async #post(inputs: Values): Promise<{ id: string; created: ApiObject; replayed: boolean }> {
    const shape = this.#definition.inputs.shape as Record<string, z.ZodType>;
    const body = apiBody(shape, inputs, objectBodyFields(this.#definition));
    const path = fillPath(this.#definition.path, inputs);
    const create = async (idempotencyKey: string) => {
      const response = await this.#api().request<unknown>("POST", path, { body, idempotencyKey, expectedStatus: 201 });
      return { created: apiObjectOf(response.data, `POST ${path}`), replayed: response.replayed };
    };
    try {
      const { created, replayed } = await create(this.#createKey(inputs, path, body));
      const id = created["id"] as string;
      if (!replayed) return { id, created, replayed: false };
      const current = await this.#fetch(id, inputs);
      if (current !== undefined && !this.#isDeleted(current)) return { id, created: current, replayed: true };
    } catch (error) {
      if (!(error instanceof ApiError && error.replayed)) throw error;
    }
    const { created } = await create(newIdempotencyKey());
    return { id: created["id"] as string, created, replayed: false };
  }

  /** Whether an object is in the state destroy leaves it in (e.g. an archived client). */
  #isDeleted(apiObject: ApiObject): boolean {
    const marker = this.#definition.deletion?.leaves;
    return marker !== undefined && fromApi(this.#definition.inputs.shape as Record<string, z.ZodType>, apiObject)[marker.field] === marker.value;
  }

  /** `<kind>-<sha256>` of the URN, path and body. The body holds secrets; only its hash leaves. */
  #createKey(inputs: Values, path: string, body: Values): string {
    const urn = inputs[internal.urn];
    const hash = createHash("sha256")
      .update(JSON.stringify([typeof urn === "string" ? urn : "", this.#definition.kind, path, body]))
      .digest("hex");
    return `${this.#definition.kind.toLowerCase()}-${hash}`;
  }

  /** Makes an existing object match the inputs (adoption, or a replayed create) and returns its outputs. */
  async #converge(id: string, apiObject: ApiObject, inputs: Values): Promise<Values> {
    const operation = `adopt ${id}`;
    // Read as if nothing were declared yet (write-only values unknown), but with the associations
    // the inputs declare, so that every difference is applied and nothing is "removed".
    const kept = this.#keptOutputs(apiObject, inputs);
    const current = await this.#step(inputs, operation, () =>
      this.#outputs(id, apiObject, {}, kept, declaredNames(this.#definition, inputs)),
    );
    const fixed = replaceFields(this.#definition).filter((field) => {
      const schema = this.#definition.inputs.shape[field] as z.ZodType;
      return inputs[field] !== undefined && canonical(schema, current[field]) !== canonical(schema, inputs[field]);
    });
    if (fixed.length > 0) {
      throw new OperationError(
        `${describeResource(this.#definition, inputs)}: cannot adopt ${this.#definition.kind} ${id}: its ` +
          `${fixed.join(", ")} differ from the inputs and cannot change in place`,
      );
    }
    return this.#step(inputs, operation, async () => {
      const changed = await this.#applyChanges(id, current, inputs);
      // Read back only when a call changed the object: otherwise it is as just read.
      return this.#outputs(id, changed ? undefined : apiObject, inputs, kept);
    });
  }

  // -------------------------------------------------------------------------------------------
  // Update

  /**
   * Sends the changed body fields (PATCH) or the whole body (PUT), then the association calls. A
   * field the program stopped setting is cleared: it is sent with its default when the definition
   * declares one, else as null. A PUT keeps the fields the program never set as the service holds
   * them, so a replacement of the whole object changes nothing the preview did not show. Whether
   * any call changed the object.
   */
  async #applyChanges(id: string, olds: Values, news: Values): Promise<boolean> {
    const changed = changedFields(this.#definition, olds, news);
    const changedBody = updateBodyFields(this.#definition).filter((field) => changed.includes(field));
    let sent = false;
    const itemPath = fillPath(`${this.#definition.path}/{id}`, { ...news, id });
    if (changedBody.length > 0 && this.#definition.updateMethod === "PATCH") {
      const body = this.#body(changedBody, news, olds, await this.#clearedDefaults(changedBody, news, olds));
      await this.#api().request("PATCH", itemPath, { body, idempotencyKey: "auto", expectedStatus: 200 });
      sent = true;
    } else if (changedBody.length > 0 && this.#definition.updateMethod === "PUT") {
      // A PUT replaces the whole object: fields the program leaves to others are sent as the
      // service holds them now, so a change made by hand since the last refresh survives.
      const current = await this.#fetch(id, news);
      const held = current === undefined ? olds : { ...olds, ...this.#project(current) };
      const body = this.#body(objectBodyFields(this.#definition), news, held, await this.#clearedDefaults(changedBody, news, olds));
      await this.#api().request("PUT", itemPath, { body, expectedStatus: 200 });
      sent = true;
    }
    const associated = await this.#applyAssociations(id, olds, news, declaredInputs(olds));
    return sent || associated;
  }

  /**
   * The API body of `fields`: as the program sets them, cleared when it stopped (to `defaults`, else
   * the field's `default` fact, else null), else as last read.
   */
  #body(fields: readonly string[], news: Values, olds: Values, defaults: Values = {}): Values {
    const shape = this.#definition.inputs.shape as Record<string, z.ZodType>;
    const declaredBefore = declaredInputs(olds);
    const body: Values = {};
    for (const field of fields) {
      const schema = shape[field] as z.ZodType;
      const value = news[field] ?? (declaredBefore.includes(field) ? (defaults[field] ?? factsOf(schema)?.default ?? null) : olds[field]);
      if (value !== undefined) body[apiNameOf(shape, field)] = toApi(schema, value);
    }
    return body;
  }

  /**
   * The defaults the template of the object's client holds for the fields among `changed` that the
   * program stopped setting: the definition's defaults are the service's, and a template may say
   * otherwise (it did when the object was created). Read only when such a field has a default, the
   * object lives in a client and the kind takes template defaults: the client, then its template.
   */
  async #clearedDefaults(changed: readonly string[], news: Values, olds: Values): Promise<Values> {
    const link = this.#definition.templateDefaults;
    const clientId = news["clientId"] ?? olds["clientId"];
    const shape = this.#definition.inputs.shape as Record<string, z.ZodType>;
    const declaredBefore = declaredInputs(olds);
    const cleared = changed.filter((field) => news[field] === undefined && declaredBefore.includes(field) && factsOf(shape[field] as z.ZodType)?.default !== undefined);
    if (link === undefined || typeof clientId !== "string" || cleared.length === 0) return {};
    const read = async (definition: AnyResourceDefinition, id: string): Promise<Values> => {
      const path = `${definition.path}/${id}`;
      const object = apiObjectOf((await this.#api().request<unknown>("GET", path, { expectedStatus: 200 })).data, `GET ${path}`);
      return fromApi(definition.inputs.shape as Record<string, z.ZodType>, object);
    };
    const templateId = (await read(link.client, clientId))["templateId"];
    if (typeof templateId !== "string") return {};
    // A template deleted since has no defaults to give: the definition's apply.
    const template = await read(link.template, templateId).catch((error: unknown): Values => {
      if (error instanceof ApiError && error.status === 404) return {};
      throw error;
    });
    const defaults = template[link.field];
    return isRecord(defaults) ? Object.fromEntries(cleared.filter((field) => defaults[field] !== undefined).map((field) => [field, defaults[field]])) : {};
  }

  /**
   * Brings every association the inputs declare, or declared before, from its `current` value to
   * the desired one; an association no longer declared is reset. Whether any call was made.
   */
  async #applyAssociations(id: string, current: Values, desired: Values, declaredBefore: readonly string[]): Promise<boolean> {
    let changed = false;
    for (const [field, association] of this.#associations()) {
      const declared = desired[field] !== undefined;
      if (!declared && !declaredBefore.includes(field)) continue;
      const schema = this.#definition.inputs.shape[field] as z.ZodType;
      const target = declared ? desired[field] : resetValue(schema, association);
      if (canonical(schema, current[field]) === canonical(schema, target)) continue;
      await this.#applyAssociation(id, field, association, target);
      changed = true;
    }
    return changed;
  }

  async #applyAssociation(id: string, field: string, association: Association, target: unknown): Promise<void> {
    const call = async (spec: Call, value: unknown): Promise<void> => {
      const path = fillPath(spec.path, { id, value });
      const body = spec.body === undefined ? {} : { body: spec.body(id, value) };
      await this.#api().request(spec.method, path, { ...body, ...retryableIfPost(spec.method) }).catch(doneIfDeleteFoundNothing(spec.method));
    };
    switch (association.kind) {
      case "toggle":
        return call(target === true ? association.on : association.off, undefined);
      case "set": {
        // Against what the service holds now, not what state recorded: an item detached by hand
        // is not detached again, one attached by hand is.
        const attached = await this.#listSet(id, association);
        const wanted = new Map((target as string[]).map((value) => [value.toLowerCase(), value]));
        const held = new Map(attached.map((value) => [value.toLowerCase(), value]));
        for (const [key, value] of wanted) if (!held.has(key)) await call(association.add, value);
        for (const [key, value] of held) if (!wanted.has(key)) await call(association.remove, value);
        return;
      }
      case "document": {
        const body = toApi(this.#definition.inputs.shape[field] as z.ZodType, target);
        await this.#api().request("PUT", fillPath(association.put.path, { id }), { body, expectedStatus: 200 });
        return;
      }
    }
  }

  async #listSet(id: string, association: Extract<Association, { kind: "set" }>): Promise<string[]> {
    const items = await this.#api().listAll<unknown>(fillPath(association.list.path, { id }));
    return items.filter(isRecord).map((item) => String(item["id"]));
  }

  /** Every object the list shows with `query`, read now, by lower-case id. */
  async listNow(query: Query): Promise<Map<string, ApiObject>> {
    return this.#lists.scan(this.#definition.path, query);
  }

  // -------------------------------------------------------------------------------------------
  // Read

  /**
   * The object as read needs it: from a list page shared with the other reads of its kind and
   * scope, when the item shows every field the state records (that list items carry the fields of
   * a GET is an assumption, see `readBy` in schema/define.ts), else by id.
   */
  async #current(id: string, state: Values): Promise<ApiObject | undefined> {
    const listOnly = this.#definition.readBy === "list";
    const listed = await this.#lists.find(fillPath(this.#definition.path, state), this.#readQuery(state), id, listOnly).catch((error: unknown) => {
      // A list under a parent that is gone (a deleted client's share links) answers 404: so is the object.
      if (listOnly && error instanceof ApiError && error.status === 404) return "absent" as const;
      throw error;
    });
    if (typeof listed === "object" && (listOnly || this.#showsRecordedFields(listed, state))) return listed;
    // No GET by id: absent from the whole list means gone.
    if (listOnly) return undefined;
    return this.#fetch(id, state);
  }

  /** Whether a listed item carries every field the state records a value for (write-only and path fields aside). */
  #showsRecordedFields(item: ApiObject, state: Values): boolean {
    const recorded = Object.keys(state).filter((field) => state[field] !== undefined);
    return this.#fieldsNotCarried(item, recorded).length === 0;
  }

  /**
   * The input fields a GET of the object may show that `item` (an item of a list) does not carry:
   * a server that leaves unset fields out lacks them in both, one that keeps large fields out of
   * its lists lacks them only in the list (an assumption either way: spec, "not shown").
   * Write-only fields, fields kept from state, path fields and associations read from endpoints of
   * their own are never carried, and are not counted.
   */
  fieldsNotCarried(item: ApiObject): string[] {
    return this.#fieldsNotCarried(item, Object.keys(this.#definition.inputs.shape));
  }

  #fieldsNotCarried(item: ApiObject, fields: readonly string[]): string[] {
    const shape = { ...this.#definition.inputs.shape, ...this.#definition.outputs.shape } as Record<string, z.ZodType>;
    const notCarried = new Set<string>([...this.#definition.writeOnly, ...this.#definition.keepFromState, ...pathFields(this.#definition)]);
    return fields.filter((field) => {
      const schema = shape[field];
      if (schema === undefined || notCarried.has(field) || isInternal(field)) return false;
      const association = associationOf(this.#definition, field);
      if (association !== undefined && association.kind !== "toggle") return false;
      return !apiNamesOf(field, schema).some((name) => name in item);
    });
  }

  /** The object by id as the service shows it (a GET, or a scan of the list for kinds without one); `undefined` when it does not exist. */
  async fetch(id: string, context: Values = {}): Promise<ApiObject | undefined> {
    return this.#step(context, `read ${id}`, () => this.#fetch(id, context));
  }

  /**
   * The scope of the list a read looks in: the object's client as recorded; none (objects outside
   * any client) when the state records the object without one; every client when nothing is
   * recorded (a lookup by id).
   */
  #readQuery(state: Values): Query {
    if (!("clientId" in this.#definition.inputs.shape) || pathFields(this.#definition).includes("clientId")) return {};
    const clientId = state["clientId"];
    if (typeof clientId === "string") return { client_id: clientId };
    return internal.declaredInputs in state ? {} : { all_clients: true };
  }

  /** The object by id: `GET path/{id}`, or a scan of the list for kinds without a GET by id. */
  async #fetch(id: string, values: Values): Promise<ApiObject | undefined> {
    try {
      if (this.#definition.readBy === "get") {
        const path = fillPath(`${this.#definition.path}/{id}`, { ...values, id });
        return apiObjectOf((await this.#api().request<unknown>("GET", path, { expectedStatus: 200 })).data, `GET ${path}`);
      }
      for await (const item of this.#api().paginate<unknown>(fillPath(this.#definition.path, values), this.#listQuery(values))) {
        if (isRecord(item) && item["id"] === id) return item;
      }
      return undefined;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  /**
   * Lists show only objects outside any client unless told otherwise: the object's own client
   * when known, else all clients (an object being adopted may live in any).
   */
  #listQuery(values: Values): Query {
    if (!("clientId" in this.#definition.inputs.shape) || pathFields(this.#definition).includes("clientId")) return {};
    const clientId = values["clientId"];
    return typeof clientId === "string" ? { client_id: clientId } : { all_clients: true };
  }

  /**
   * The outputs: every input field as the service reports it, write-only ones from `state`, the
   * declared associations read from their endpoints, server outputs, `kept` outputs and internals.
   */
  async #outputs(
    id: string,
    apiObject: ApiObject | undefined,
    state: Values,
    kept: Values,
    declared: readonly string[] = declaredNames(this.#definition, state),
  ): Promise<Values> {
    const object = apiObject ?? (await this.#fetch(id, state));
    if (object === undefined) {
      throw new OperationError(`${describeResource(this.#definition, state)}: ${this.#definition.kind} ${id} disappeared while it was being written`);
    }
    const outputs: Values = { ...this.#project(object), ...kept };
    for (const field of this.#definition.writeOnly) {
      if (declared.includes(field) && state[field] !== undefined) outputs[field] = state[field];
    }
    for (const [field, association] of this.#associations()) {
      if (!declared.includes(field)) continue;
      if (association.kind === "set") {
        outputs[field] = await this.#listSet(id, association);
      } else if (association.kind === "document") {
        const response = await this.#api().request<unknown>("GET", fillPath(association.get.path, { id }), { expectedStatus: 200 });
        outputs[field] = project(this.#definition.inputs.shape[field] as z.ZodType, response.data);
      }
    }
    return { ...outputs, ...this.#internals(declared) };
  }

  /** Input fields the object carries (toggles included) and server outputs, camelCase. */
  #project(apiObject: ApiObject): Values {
    const carried = Object.fromEntries(
      Object.entries(this.#definition.inputs.shape as Record<string, z.ZodType>).filter(([field]) => {
        const association = associationOf(this.#definition, field);
        return association === undefined || association.kind === "toggle";
      }),
    );
    return { ...fromApi(carried, apiObject), ...fromApi(this.#definition.outputs.shape as Record<string, z.ZodType>, apiObject) };
  }

  /**
   * Values the object does not carry on every read: outputs the service returns once (from the
   * object when it has them, else from state) and the inputs placed in the path.
   */
  #keptOutputs(apiObject: ApiObject, state: Values): Values {
    const kept: Values = {};
    const shape = this.#definition.outputs.shape as Record<string, z.ZodType>;
    for (const field of this.#definition.keepFromState) {
      const value = fromApi({ [field]: shape[field] as z.ZodType }, apiObject)[field] ?? state[field];
      if (value !== undefined) kept[field] = value;
    }
    for (const field of pathFields(this.#definition)) {
      if (state[field] !== undefined) kept[field] = state[field];
    }
    return kept;
  }

  #internals(declared: readonly string[]): Values {
    return { [internal.declaredInputs]: [...declared] };
  }

  #associations(): [string, Association][] {
    return inputFields(this.#definition).flatMap((field) => {
      const association = associationOf(this.#definition, field);
      return association === undefined ? [] : [[field, association] as [string, Association]];
    });
  }

  /** Runs a step of an operation, turning an API failure into a message for the user. */
  async #step<T>(values: Values, operation: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw OperationError.fromApiError(this.#definition, values, operation, error);
    }
  }
}

/**
 * POSTs are retried after a failure only with an idempotency key; the association and archive
 * POSTs are safe to repeat, so each call gets a key of its own.
 */
function retryableIfPost(method: string): { idempotencyKey?: "auto" } {
  return method === "POST" ? { idempotencyKey: "auto" } : {};
}

/**
 * A DELETE answered 404 found nothing to remove: done, whether someone removed it by hand or an
 * earlier attempt of the same request removed it and its answer was lost.
 */
function doneIfDeleteFoundNothing(method: string): (error: unknown) => void {
  return (error) => {
    if (!(method === "DELETE" && error instanceof ApiError && error.status === 404)) throw error;
  };
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
function declaredNames(definition: AnyResourceDefinition, values: Values): string[] {
  return inputFields(definition).filter((field) => values[field] !== undefined);
}

function apiObjectOf(data: unknown, request: string): ApiObject {
  if (!isRecord(data) || typeof data["id"] !== "string") throw new OperationError(`${request} answered without an object id`);
  return data;
}
