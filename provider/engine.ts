/**
 * What writes, for any kind, derived from its definition: create, update and delete (and the
 * adoption of an existing object), each in the fewest requests the spec allows. Reads go through
 * the kind's reader (provider/reader.ts); `ResourceEngine` is what the provider's facade
 * (provider/index.ts) hands Pulumi's calls to, a set's members included (provider/monitor-set.ts).
 *
 * The outputs an operation records are what a later read will see, built from the service's
 * answers (a create's object, a PATCH's, a pause's) and the attachments just made, with no read
 * back: `preview --expect-no-changes` and `refresh --expect-no-changes` hold.
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import { type AnyResourceDefinition, type Association, type Call, factsOf } from "../schema/define.js";
import { ApiError } from "./errors.js";
import type { ApiClient } from "./http/client.js";
import { newIdempotencyKey } from "./http/request.js";
import { canonical, changedFields, declaredInputs } from "./diff.js";
import { fillPath, internal, isInternal, objectBodyFields, replaceFields, updateBodyFields } from "./fields.js";
import { OperationError, PartialFailure, describeResource } from "./failures.js";
import { withLeftOutAsWritten } from "./left-out.js";
import { isRecord } from "../schema/naming.js";
import { type ApiObject, type Listed, ResourceReader, apiObjectOf, declaredNames, resetValue } from "./reader.js";
import { apiBody, apiNameOf, fromApi, project, toApi } from "./translate.js";

type Values = Record<string, unknown>;

/** What the calls of an operation left. */
interface Applied {
  /** The newest object a call answered with. */
  object?: ApiObject;
  /** A call changed the object itself without answering with it: it is read back. */
  stale: boolean;
  /** The association values the service holds after the calls, by field. */
  known: Values;
}

/** Answers by which a server refuses to delete an object that still has attachments: they are detached first, then the DELETE is sent again. */
const REFUSED_WHILE_ATTACHED = [409, 422];

export class ResourceEngine {
  readonly definition: AnyResourceDefinition;
  readonly reader: ResourceReader;
  readonly #api: () => ApiClient;

  /** `api` is called only when a request is about to be made, so credentials are resolved then. */
  constructor(definition: AnyResourceDefinition, api: () => ApiClient, reader = new ResourceReader(definition, api)) {
    this.definition = definition;
    this.#api = api;
    this.reader = reader;
  }

  /** A refresh's read, by the kind's reader. */
  read(id: string, state: Values, listed?: Listed): Promise<{ id?: string; props?: Values }> {
    return this.reader.read(id, state, listed);
  }

  async create(inputs: Values): Promise<{ id: string; outs: Values }> {
    this.reader.forget();
    const adoptId = inputs["adoptId"];
    if (typeof adoptId === "string") {
      const existing = await this.reader.step(inputs, `adopt ${adoptId}`, () => this.reader.fetchObject(adoptId, inputs));
      if (existing === undefined) {
        throw new OperationError(`${describeResource(this.definition, inputs)}: adoptId ${adoptId} names no existing ${this.definition.kind}`);
      }
      return { id: adoptId, outs: await this.#converge(adoptId, existing, inputs) };
    }

    const { path, body } = this.#createRequest(inputs);
    const { data, replayed } = await this.reader.step(inputs, "create", () => this.post(path, body, idempotencyKeyOf(this.definition.kind, inputs[internal.urn], path, body)));
    return this.completeCreate(apiObjectOf(data, `POST ${path}`), replayed, inputs);
  }

  /**
   * Completes a create the service answered, alone or in a batch: the one rule for both. A new
   * object gets the associations the inputs declare. A replay means an earlier attempt of this very
   * create succeeded and its outcome was lost (a dropped answer, an interrupted deployment): its
   * object is fetched by id and taken over while it exists and is usable; one deleted or archived
   * since (an earlier destroy/up cycle) is followed by one fresh create under a new key: at most
   * two POSTs, however many cycles came before.
   */
  async completeCreate(created: ApiObject, replayed: boolean, inputs: Values): Promise<{ id: string; outs: Values }> {
    const id = created["id"] as string;
    if (!replayed) return { id, outs: await this.#completeNew(id, created, inputs) };
    const current = await this.reader.step(inputs, "create", () => this.reader.fetchObject(id, inputs));
    if (current !== undefined && !this.#isDeleted(current)) return { id, outs: await this.#converge(id, current, inputs) };
    const { path, body } = this.#createRequest(inputs);
    const fresh = apiObjectOf((await this.reader.step(inputs, "create", () => this.post(path, body, newIdempotencyKey()))).data, `POST ${path}`);
    return { id: fresh["id"] as string, outs: await this.#completeNew(fresh["id"] as string, fresh, inputs) };
  }

  /**
   * Applies the associations the inputs declare to an object just created and returns its outputs,
   * from the create's answer and the calls' answers: a new object has no attachments, so none is
   * read, and none is read back.
   */
  async #completeNew(id: string, created: ApiObject, inputs: Values): Promise<Values> {
    const kept = this.reader.keptOutputs(created, inputs);
    try {
      const applied = await this.reader.step(inputs, "create", () => this.#applyAssociations(id, this.reader.project(created), inputs, [], true));
      return await this.reader.step(inputs, "create", () => this.#outputsAfter(id, applied, created, inputs, kept));
    } catch (error) {
      // The object exists: hand it to Pulumi to record, so the next run updates it.
      const properties = {
        ...this.reader.project(created),
        ...kept,
        [internal.declaredInputs]: [],
        [internal.provider]: inputs[internal.provider],
      };
      throw PartialFailure.created(id, properties, error);
    }
  }

  /** One write per changed object, one request per attachment added or removed, nothing read back. */
  async update(id: string, olds: Values, news: Values): Promise<{ outs: Values }> {
    this.reader.forget();
    return this.reader.step(news, `update ${id}`, async () => {
      const applied = await this.#applyChanges(id, olds, news);
      const outs = await this.#outputsAfter(id, applied, undefined, news, this.reader.keptOutputs({}, olds), olds);
      // A write of other fields leaves those the program leaves out as they are: what the provider
      // last wrote of them stays known to drift (provider/left-out.ts).
      return { outs: withLeftOutAsWritten(this.definition, olds, outs) };
    });
  }

  /**
   * One DELETE. That a monitor's attachments go with it is an assumption (the kind's `deletion`
   * says so); a server that refuses the DELETE while something is attached (409, 422) gets each
   * attachment removed first, then the DELETE again.
   */
  async delete(id: string, state: Values): Promise<void> {
    this.reader.forget();
    const deletion = this.definition.deletion ?? { method: "DELETE" as const, path: `${this.definition.path}/{id}`, alreadyGone: [404] };
    const send = async (): Promise<void> => {
      try {
        await this.#api().request(deletion.method, fillPath(deletion.path, { ...state, id }), retryableIfPost(deletion.method));
      } catch (error) {
        if (!(error instanceof ApiError && deletion.alreadyGone.includes(error.status))) throw error;
      }
    };
    await this.reader.step(state, `delete ${id}`, async () => {
      try {
        await send();
      } catch (error) {
        const sets = this.reader.associations().filter((entry): entry is [string, Extract<Association, { kind: "set" }>] => entry[1].kind === "set");
        if (!(error instanceof ApiError && REFUSED_WHILE_ATTACHED.includes(error.status)) || sets.length === 0) throw error;
        for (const [, association] of sets) {
          for (const value of await this.reader.listSet(id, association)) await this.#call(association.remove, id, value);
        }
        await send();
      }
    });
  }

  /**
   * Turns one toggle (`paused`) of an object on or off and writes nothing else: the one call the
   * toggle names. Returns what the service then holds of the object (the toggle, server outputs
   * such as `status`): from the call's answer when it shows the toggle, else from one read by id,
   * since the spec does not show what a pause or resume answers.
   */
  async setToggle(id: string, field: string, on: boolean, values: Values = {}): Promise<Values> {
    const association = this.reader.associations().find(([name]) => name === field)?.[1];
    if (association?.kind !== "toggle") throw new Error(`${this.definition.kind}.${field} is not a field set by a call of its own`);
    const answered = answeredObject(await this.#call(on ? association.on : association.off, id, undefined));
    const shown = answered === undefined ? undefined : this.reader.project(answered);
    if (shown?.[field] !== undefined) return shown;
    const object = await this.reader.fetchObject(id, values);
    if (object === undefined) throw new OperationError(`${describeResource(this.definition, values)}: ${this.definition.kind} ${id} disappeared while it was being written`);
    return this.reader.project(object);
  }

  /**
   * The one idempotent POST, for single and batch creates: the body under `key` (derived from the
   * resource, see {@link idempotencyKeyOf}), so a create whose outcome was lost (a dropped
   * response, a crashed deployment) is replayed by the service instead of made twice. A replayed
   * refusal (whose cause may be fixed by now) is followed by one attempt under a fresh key.
   *
   * That the service honours `Idempotency-Key` is an assumption (spec 5.7: not shown). On a server
   * that ignores it, a lost create response can leave one visible duplicate, never two resources
   * merged into one object.
   */
  async post(path: string, body: unknown, key: string): Promise<{ data: unknown; replayed: boolean }> {
    const send = async (idempotencyKey: string) => {
      const response = await this.#api().request<unknown>("POST", path, { body, idempotencyKey, expectedStatus: 201 });
      return { data: response.data, replayed: response.replayed };
    };
    try {
      return await send(key);
    } catch (error) {
      if (!(error instanceof ApiError && error.replayed)) throw error;
      return send(newIdempotencyKey());
    }
  }

  // -------------------------------------------------------------------------------------------
  // Create

  /** The create request of the inputs: the kind's collection path and the object's body. */
  #createRequest(inputs: Values): { path: string; body: Values } {
    const shape = this.definition.inputs.shape as Record<string, z.ZodType>;
    return { path: fillPath(this.definition.path, inputs), body: apiBody(shape, inputs, objectBodyFields(this.definition)) };
  }

  /** Whether an object is in the state destroy leaves it in (e.g. an archived client). */
  #isDeleted(apiObject: ApiObject): boolean {
    const marker = this.definition.deletion?.leaves;
    return marker !== undefined && fromApi(this.definition.inputs.shape as Record<string, z.ZodType>, apiObject)[marker.field] === marker.value;
  }

  /** Makes an existing object match the inputs (adoption, or a replayed create) and returns its outputs. */
  async #converge(id: string, apiObject: ApiObject, inputs: Values): Promise<Values> {
    const operation = `adopt ${id}`;
    // Read as if nothing were declared yet (write-only values unknown), but with the associations
    // the inputs declare, so that every difference is applied and nothing is "removed".
    const kept = this.reader.keptOutputs(apiObject, inputs);
    const current = await this.reader.step(inputs, operation, () => this.reader.outputs(id, apiObject, {}, kept, declaredNames(this.definition, inputs)));
    const fixed = replaceFields(this.definition).filter((field) => {
      const schema = this.definition.inputs.shape[field] as z.ZodType;
      return inputs[field] !== undefined && canonical(schema, current[field]) !== canonical(schema, inputs[field]);
    });
    if (fixed.length > 0) {
      throw new OperationError(
        `${describeResource(this.definition, inputs)}: cannot adopt ${this.definition.kind} ${id}: its ` +
          `${fixed.join(", ")} differ from the inputs and cannot change in place`,
      );
    }
    return this.reader.step(inputs, operation, async () => {
      const applied = await this.#applyChanges(id, current, inputs);
      return this.#outputsAfter(id, applied, apiObject, inputs, kept, current);
    });
  }

  /**
   * The outputs after the calls of an operation: from the newest object a call answered with (else
   * `object`, else the `recorded` outputs when no call touched the object itself), the association
   * values the calls left, and the inputs' write-only values. Read back only when a call that
   * changed the object answered without it.
   */
  async #outputsAfter(id: string, applied: Applied, object: ApiObject | undefined, inputs: Values, kept: Values, recorded?: Values): Promise<Values> {
    const declared = declaredNames(this.definition, inputs);
    const latest = applied.object ?? (applied.stale ? undefined : object);
    if (latest === undefined && !applied.stale && recorded !== undefined) {
      // No call touched the object itself: it is as recorded, with the attachments just made.
      const outputs: Values = Object.fromEntries(Object.entries(recorded).filter(([field]) => !isInternal(field)));
      for (const [field] of this.reader.associations()) if (!declared.includes(field)) delete outputs[field];
      for (const field of this.definition.writeOnly) {
        if (declared.includes(field) && inputs[field] !== undefined) outputs[field] = inputs[field];
        else delete outputs[field];
      }
      return { ...outputs, ...kept, ...applied.known, [internal.declaredInputs]: declared };
    }
    return this.reader.outputs(id, latest, inputs, kept, declared, applied.known);
  }

  // -------------------------------------------------------------------------------------------
  // Update

  /**
   * Sends the changed body fields (PATCH) or the whole body (PUT), then the association calls. A
   * field the program stopped setting is cleared: it is sent with its default when the definition
   * declares one, else as null. A PUT keeps the fields the program never set as the service holds
   * them, so a replacement of the whole object changes nothing the preview did not show.
   */
  async #applyChanges(id: string, olds: Values, news: Values): Promise<Applied> {
    const changed = changedFields(this.definition, olds, news);
    const changedBody = updateBodyFields(this.definition).filter((field) => changed.includes(field));
    let object: ApiObject | undefined;
    let stale = false;
    const itemPath = fillPath(`${this.definition.path}/{id}`, { ...news, id });
    if (changedBody.length > 0 && this.definition.updateMethod === "PATCH") {
      const body = this.#body(changedBody, news, olds, await this.#clearedDefaults(changedBody, news, olds));
      object = answeredObject((await this.#api().request<unknown>("PATCH", itemPath, { body, idempotencyKey: "auto", expectedStatus: 200 })).data);
      stale = object === undefined;
    } else if (changedBody.length > 0 && this.definition.updateMethod === "PUT") {
      // A PUT replaces the whole object: fields the program leaves to others are sent as the
      // service holds them now, so a change made by hand since the last refresh survives.
      const current = await this.reader.fetchObject(id, news);
      const held = current === undefined ? olds : { ...olds, ...this.reader.project(current) };
      const body = this.#body(objectBodyFields(this.definition), news, held, await this.#clearedDefaults(changedBody, news, olds));
      object = answeredObject((await this.#api().request<unknown>("PUT", itemPath, { body, expectedStatus: 200 })).data);
      stale = object === undefined;
    }
    const applied = await this.#applyAssociations(id, olds, news, declaredInputs(olds), false);
    return { object: applied.object ?? object, stale: applied.object === undefined && (stale || applied.stale), known: applied.known };
  }

  /**
   * The API body of `fields`: as the program sets them, cleared when it stopped (to `defaults`, else
   * the field's `default` fact, else null), else as last read.
   */
  #body(fields: readonly string[], news: Values, olds: Values, defaults: Values = {}): Values {
    const shape = this.definition.inputs.shape as Record<string, z.ZodType>;
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
    const link = this.definition.templateDefaults;
    const clientId = news["clientId"] ?? olds["clientId"];
    const shape = this.definition.inputs.shape as Record<string, z.ZodType>;
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
   * the desired one; an association no longer declared is reset. What the service holds is taken
   * from `current` where it records it (a refreshed state, an object just read), else read: a new
   * object (`fresh`) holds nothing.
   */
  async #applyAssociations(id: string, current: Values, desired: Values, declaredBefore: readonly string[], fresh: boolean): Promise<Applied> {
    const applied: Applied = { stale: false, known: {} };
    for (const [field, association] of this.reader.associations()) {
      const declared = desired[field] !== undefined;
      if (!declared && !declaredBefore.includes(field)) continue;
      const schema = this.definition.inputs.shape[field] as z.ZodType;
      const target = declared ? desired[field] : resetValue(schema, association);
      switch (association.kind) {
        case "toggle": {
          if (canonical(schema, current[field] ?? false) === canonical(schema, target)) break;
          const object = answeredObject(await this.#call(target === true ? association.on : association.off, id, undefined));
          if (object === undefined) applied.stale = true;
          else applied.object = object;
          break;
        }
        case "set": {
          const recorded = current[field];
          const held = fresh ? [] : Array.isArray(recorded) ? (recorded as string[]) : await this.reader.listSet(id, association);
          const wanted = new Map((target as string[]).map((value) => [value.toLowerCase(), value]));
          const holding = new Map(held.map((value) => [value.toLowerCase(), value]));
          for (const [key, value] of wanted) if (!holding.has(key)) await this.#call(association.add, id, value);
          for (const [key, value] of holding) if (!wanted.has(key)) await this.#call(association.remove, id, value);
          applied.known[field] = [...holding.entries()].filter(([key]) => wanted.has(key)).map(([, value]) => value).concat([...wanted.entries()].filter(([key]) => !holding.has(key)).map(([, value]) => value));
          break;
        }
        case "document": {
          if (!fresh && field in current && canonical(schema, current[field]) === canonical(schema, target)) {
            applied.known[field] = current[field];
            break;
          }
          const body = toApi(schema, target);
          const answer = (await this.#api().request<unknown>("PUT", fillPath(association.put.path, { id }), { body, expectedStatus: 200 })).data;
          if (isRecord(answer)) applied.known[field] = project(schema, answer);
          break;
        }
      }
    }
    return applied;
  }

  /** One association call; its answer's data. */
  async #call(spec: Call, id: string, value: unknown): Promise<unknown> {
    const path = fillPath(spec.path, { id, value });
    const body = spec.body === undefined ? {} : { body: spec.body(id, value) };
    try {
      return (await this.#api().request<unknown>(spec.method, path, { ...body, ...retryableIfPost(spec.method) })).data;
    } catch (error) {
      // A DELETE answered 404 found nothing to remove: done, whether someone removed it by hand or
      // an earlier attempt of the same request removed it and its answer was lost.
      if (spec.method === "DELETE" && error instanceof ApiError && error.status === 404) return undefined;
      throw error;
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

/** The object a call answered with, when it did (an object with an id). */
function answeredObject(data: unknown): ApiObject | undefined {
  return isRecord(data) && typeof data["id"] === "string" ? data : undefined;
}

/**
 * `<kind>-<sha256>` of the resource's URN, the kind, the path and the body: two resources never
 * share a key, and a changed body is a new create. The body holds secrets; only its hash leaves.
 */
export function idempotencyKeyOf(kind: string, urn: unknown, path: string, body: unknown): string {
  const hash = createHash("sha256")
    .update(JSON.stringify([typeof urn === "string" ? urn : "", kind, path, body]))
    .digest("hex");
  return `${kind.toLowerCase()}-${hash}`;
}
