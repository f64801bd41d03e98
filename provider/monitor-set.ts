/**
 * `MonitorSet`: many monitors as one Pulumi resource, so a fleet of thousands costs the engine one
 * step and the state one entry instead of one per monitor.
 *
 * The set is a group (schema/members.ts): each member goes through the code a single `Monitor` goes
 * through, check, diff, create, read, update and delete (provider/engine.ts, provider/reader.ts),
 * under a per-monitor name (`<set URN>.monitors["<key>"]`) that seeds its create key. The set only
 * groups members and batches their requests:
 * - creates go in batches (`POST /monitors/batch`, body `{ "monitors": [...] }` — the spec lists the
 *   endpoint but not its body: an assumption, as the emulator implements it) through the engine's
 *   one idempotent POST, each member then completed as a single create is; single POSTs when the
 *   service refuses the batch call (400, 404, 405, 422);
 * - refresh reads the members' list once, page by page (a set knows its size, so no GET by id
 *   first), and hands each member's item to the reader: ceil(N/250) requests, plus the association
 *   reads of members that declare associations;
 * - updates and deletes go per monitor, at most {@link CONCURRENCY} in flight, through the process's
 *   one API client (its rate limit and connections);
 * - a partial failure records what was done and names what failed: the next `up` carries on.
 *
 * State: inputs as written; outputs `ids` and `statuses` (maps by key), `monitors` (each monitor's
 * outputs as a `Monitor` records them, without status), `clientId`, and per key the input names
 * the program set (`__declaredInputs`), which diff needs to tell "removed" from "never set", and
 * for the keys that have any, what the provider last wrote of the left-out fields that moved since
 * (`__leftOutAsWritten`, provider/left-out.ts), which drift needs after a deploy kept them.
 */
import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { memberOf, memberPath, monitorSet } from "../schema/members.js";
import { mapBounded } from "./concurrency.js";
import { type CheckFailure, type ClosedDomains, check, containsUnknown } from "./check.js";
import { changedFields, declaredInputs } from "./diff.js";
import { type ResourceEngine, idempotencyKeyOf } from "./engine.js";
import { OperationError, ResourceInitError } from "./failures.js";
import { internal, isInternal, objectBodyFields, replaceFields } from "./fields.js";
import { ApiError, type Query, newIdempotencyKey } from "./http.js";
import { isRecord } from "../schema/naming.js";
import { apiBody } from "./translate.js";

export const MONITOR_SET_KIND = monitorSet.kind;
const monitor = monitorSet.member;

/** Requests of one set operation in flight at once. */
const CONCURRENCY = 8;
/** Monitors per batch create: the emulator's limit; the spec shows none (an assumption). */
const BATCH_SIZE = 100;
/** Answers by which a service says it has no batch create (or not for this body): single POSTs then. */
const BATCH_REFUSED = [400, 404, 405, 422];

type Values = Record<string, unknown>;

/** What a set's outputs record, by monitor key. */
interface SetState {
  ids: Record<string, string>;
  statuses: Record<string, string>;
  monitors: Record<string, Values>;
  declared: Record<string, string[]>;
  /** What the provider last wrote of the left-out fields that moved since (provider/left-out.ts), for the keys that have any. */
  asWritten: Record<string, Values>;
}

/** A monitor operation that failed, by key. */
interface Failure {
  key: string;
  message: string;
}

/**
 * Some monitors of a set were written and some were not. The dynamic provider host reads `id` and
 * `properties` (as for {@link ResourceInitError}) and records them: the state holds exactly what
 * exists, so the next deployment creates, updates or deletes only what is still missing.
 */
export class PartialFailure extends Error {
  override readonly name = "PartialFailure";
  readonly id: string;
  readonly properties: Values;
  readonly reasons: string[];

  constructor(subject: string, id: string, properties: Values, failures: readonly Failure[], done: string) {
    const listed = failures.slice(0, 10).map((failure) => `${keyPath(failure.key)}: ${failure.message}`);
    const more = failures.length > listed.length ? `; and ${failures.length - listed.length} more` : "";
    super(`${subject}: ${failures.length} monitor(s) failed (${done}; what was done is recorded, the next up carries on): ${listed.join("; ")}${more}`);
    this.id = id;
    this.properties = properties;
    // The engine shows the reasons instead of the message.
    this.reasons = [this.message];
  }
}

/** `monitors["checkout"]`: how messages and paths name a monitor of a set. */
export function keyPath(key: string): string {
  return memberPath(monitorSet, key);
}

export function monitorSetProvider(engine: ResourceEngine, closedDomains: () => ClosedDomains): pulumi.dynamic.ResourceProvider {
  const sets = new MonitorSetEngine(engine);
  return {
    check: async (_olds, news) => checkSet(news, closedDomains()),
    diff: async (_id, olds, news) => diffSet(olds, news),
    create: (inputs) => sets.create(inputs),
    read: (id, props) => sets.read(id, props ?? {}),
    update: (id, olds, news) => sets.update(id, olds, news),
    delete: (id, props) => sets.delete(id, props),
  };
}

// ---------------------------------------------------------------------------------------------
// Check and diff: pure, no API calls

/** Each monitor checked as a `Monitor`, failures named `MonitorSet.monitors["key"].field`. */
export function checkSet(news: Values, closed: ClosedDomains = {}): { inputs: Values; failures: CheckFailure[] } {
  const failures: CheckFailure[] = [];
  for (const key of Object.keys(news)) {
    if (!isInternal(key) && key !== "monitors" && key !== "clientId") {
      failures.push({ property: key, reason: `${MONITOR_SET_KIND}.${key}: unknown field (known: monitors, clientId)` });
    }
  }
  const monitors = news["monitors"];
  if (containsUnknown(monitors) && !isRecord(monitors)) return { inputs: news, failures };
  if (!isRecord(monitors) || Object.keys(monitors).length === 0) {
    failures.push({ property: "monitors", reason: `${MONITOR_SET_KIND}.monitors: must be a map of at least one monitor by key` });
    return { inputs: news, failures };
  }
  const parsed: Record<string, Values> = {};
  for (const [key, value] of Object.entries(monitors)) {
    const subject = `${MONITOR_SET_KIND}.${keyPath(key)}`;
    if (!isRecord(value)) {
      failures.push({ property: keyPath(key), reason: `${subject}: must be a monitor's inputs (an object)` });
      continue;
    }
    const result = check({ ...monitor, kind: subject }, memberOf(monitorSet, news, key)?.values ?? value, closed);
    for (const failure of result.failures) {
      failures.push({ property: failure.property === "" ? "" : `${keyPath(key)}.${failure.property}`, reason: failure.reason });
    }
    parsed[key] = withoutSetClient(result.inputs, value, news["clientId"]);
  }
  if (failures.length > 0) return { inputs: news, failures };
  return { inputs: { ...news, monitors: parsed }, failures };
}

/**
 * A change of one monitor changes only that monitor, so the set is never replaced; a monitor
 * whose client changes is replaced inside the update. The dynamic provider host of this Pulumi
 * version forwards no `detailedDiff`, so the preview shows the engine's own diff of the inputs,
 * which is already per monitor and per field (`~ monitors: { ~ checkout: { ~ intervalSeconds: … } }`).
 */
export function diffSet(olds: Values, news: Values): { changes: boolean; replaces: string[]; deleteBeforeReplace: boolean } {
  // Monitors not known yet at preview (or not given, which check refuses) may change any member.
  const changes = !isRecord(news["monitors"]) || changedKeys(stateOf(olds), news).length > 0;
  return { changes, replaces: [], deleteBeforeReplace: false };
}

/**
 * Keys added, removed, or with a changed input, in the new inputs' order then the removed ones,
 * of inputs whose monitors are known: diffSet tests that, and update runs on checked inputs.
 */
function changedKeys(state: SetState, news: Values): string[] {
  const monitors = news["monitors"] as Values;
  const changed = Object.keys(monitors).filter((key) => {
    const desired = monitorInputs(news, key);
    return state.ids[key] === undefined || containsUnknown(desired) || changedFields(monitor, monitorState(state, key), desired).length > 0;
  });
  return [...changed, ...Object.keys(state.ids).filter((key) => !(key in monitors))];
}

// ---------------------------------------------------------------------------------------------
// The set's state

function stateOf(outputs: Values): SetState {
  const map = <T>(value: unknown): Record<string, T> => (isRecord(value) ? (value as Record<string, T>) : {});
  return {
    ids: map(outputs["ids"]),
    statuses: map(outputs["statuses"]),
    monitors: map(outputs["monitors"]),
    declared: map(outputs[internal.declaredInputs]),
    asWritten: map(outputs[internal.leftOutAsWritten]),
  };
}

function outputsOf(state: SetState, inputs: Values): Values {
  const clientId = inputs["clientId"];
  return {
    ...(typeof clientId === "string" ? { clientId } : {}),
    ids: state.ids,
    statuses: state.statuses,
    monitors: state.monitors,
    [internal.declaredInputs]: state.declared,
    // Usually empty, and then left out: the state of a set nobody touched by hand stays as it was.
    ...(Object.keys(state.asWritten).length === 0 ? {} : { [internal.leftOutAsWritten]: state.asWritten }),
  };
}

/** One monitor's outputs as a `Monitor` records them, for the engine. */
function monitorState(state: SetState, key: string): Values {
  const { ids, statuses, monitors, declared, asWritten } = state;
  const values = memberOf(monitorSet, { ids, statuses, monitors, [internal.declaredInputs]: declared, [internal.leftOutAsWritten]: asWritten }, key)?.values ?? {};
  return { ...values, [internal.declaredInputs]: declaredInputs(values) };
}

function record(state: SetState, key: string, id: string, outputs: Values): void {
  const { status, ...fields } = outputs;
  state.ids[key] = id;
  if (typeof status === "string") state.statuses[key] = status;
  state.declared[key] = declaredInputs(outputs);
  const asWritten = outputs[internal.leftOutAsWritten];
  if (isRecord(asWritten)) state.asWritten[key] = asWritten;
  else delete state.asWritten[key];
  state.monitors[key] = Object.fromEntries(Object.entries(fields).filter(([field]) => !isInternal(field)));
}

function forget(state: SetState, key: string): void {
  delete state.ids[key];
  delete state.statuses[key];
  delete state.declared[key];
  delete state.asWritten[key];
  delete state.monitors[key];
}

function copyOf(state: SetState): SetState {
  return { ids: { ...state.ids }, statuses: { ...state.statuses }, monitors: { ...state.monitors }, declared: { ...state.declared }, asWritten: { ...state.asWritten } };
}

function withoutSetClient(checked: Values, written: Values, clientId: unknown): Values {
  const inputs = Object.fromEntries(Object.entries(checked).filter(([field]) => !isInternal(field)));
  if (clientId !== undefined && written["clientId"] === undefined) delete inputs["clientId"];
  return inputs;
}

/** One monitor's inputs as a `Monitor` would get them: its own name (for messages and its create key) and the set's client. */
function monitorInputs(setInputs: Values, key: string): Values {
  const urn = setInputs[internal.urn];
  return { ...memberOf(monitorSet, setInputs, key)?.values, [internal.urn]: `${typeof urn === "string" ? urn : MONITOR_SET_KIND}.${keyPath(key)}` };
}

// ---------------------------------------------------------------------------------------------
// Create, read, update, delete

class MonitorSetEngine {
  readonly #engine: ResourceEngine;

  constructor(engine: ResourceEngine) {
    this.#engine = engine;
  }

  async create(inputs: Values): Promise<{ id: string; outs: Values }> {
    const id = randomUUID();
    const state = stateOf({});
    const keys = Object.keys(inputs["monitors"] as Values);
    const failures = await this.#createMonitors(inputs, keys, state);
    if (failures.length > 0) throw this.#partialFailure(inputs, id, state, failures, `created ${Object.keys(state.ids).length}`);
    return { id, outs: outputsOf(state, inputs) };
  }

  async update(id: string, olds: Values, news: Values): Promise<{ outs: Values }> {
    const before = stateOf(olds);
    const state = copyOf(before);
    const monitors = news["monitors"] as Values;
    const removed = Object.keys(before.ids).filter((key) => !(key in monitors));
    const added = Object.keys(monitors).filter((key) => before.ids[key] === undefined);
    const replacing = replaceFields(monitor);
    const changed = changedKeys(before, news).filter((key) => !removed.includes(key) && !added.includes(key));
    const replaced = changed.filter((key) => changedFields(monitor, monitorState(before, key), monitorInputs(news, key)).some((field) => replacing.includes(field)));
    const updated = changed.filter((key) => !replaced.includes(key));

    // A replaced monitor goes first, as a removed one: its new object then comes with the added ones.
    const failures = await this.#deleteMonitors([...removed, ...replaced], state);
    const recreated = replaced.filter((key) => state.ids[key] === undefined);
    failures.push(...(await this.#createMonitors(news, [...added, ...recreated], state)));
    await forEachLimited(updated, async (key) => {
      try {
        const { outs } = await this.#engine.update(before.ids[key] as string, monitorState(before, key), monitorInputs(news, key));
        record(state, key, before.ids[key] as string, outs);
      } catch (error) {
        failures.push({ key, message: messageOf(error) });
      }
    });
    if (failures.length > 0) {
      const done = `${added.length + recreated.length} to create, ${updated.length} to update, ${removed.length + replaced.length} to delete`;
      throw this.#partialFailure(news, id, state, failures, done);
    }
    return { outs: outputsOf(state, news) };
  }

  /**
   * Reads every monitor as a `Monitor` is read, from one pass over the list of the members'
   * clients (a set knows its size: its list pages cost less than any GET by id first); a member
   * whose item lacks a recorded field is read by id, associations only where declared. Monitors
   * deleted by hand drop out.
   */
  async read(id: string, props: Values): Promise<{ id: string; props: Values }> {
    const before = stateOf(props);
    const state = stateOf({});
    const keys = Object.keys(before.ids);
    const listed = keys.length === 0 ? new Map<string, Values>() : await this.#engine.reader.listNow(listQuery(keys.map((key) => monitorState(before, key)["clientId"])));
    await forEachLimited(keys, async (key) => {
      const memberId = before.ids[key] as string;
      const current = await this.#engine.read(memberId, monitorState(before, key), listed.get(memberId.toLowerCase()) ?? "absent");
      if (current.id !== undefined && current.props !== undefined) record(state, key, current.id, current.props);
    });
    const { [internal.leftOutAsWritten]: _before, ...recorded } = props;
    return { id, props: { ...recorded, ...outputsOf(state, props) } };
  }

  async delete(_id: string, props: Values): Promise<void> {
    const state = stateOf(props);
    const failures = await this.#deleteMonitors(Object.keys(state.ids), state);
    if (failures.length > 0) {
      throw new OperationError(`${MONITOR_SET_KIND}: delete failed for ${failures.map((failure) => `${keyPath(failure.key)} (${failure.message})`).join("; ")}`);
    }
  }

  async #deleteMonitors(keys: readonly string[], state: SetState): Promise<Failure[]> {
    const failures: Failure[] = [];
    await forEachLimited(keys, async (key) => {
      try {
        await this.#engine.delete(state.ids[key] as string, monitorState(state, key));
        forget(state, key);
      } catch (error) {
        failures.push({ key, message: messageOf(error) });
      }
    });
    return failures;
  }

  /**
   * Creates the monitors of `keys` and records each one created. Those taking over an existing
   * object (`adoptId`) go one by one; the others in batches, or one by one once the service
   * refused a batch.
   */
  async #createMonitors(setInputs: Values, keys: readonly string[], state: SetState): Promise<Failure[]> {
    const failures: Failure[] = [];
    const createOne = async (key: string): Promise<void> => {
      try {
        const { id, outs } = await this.#engine.create(monitorInputs(setInputs, key));
        record(state, key, id, outs);
      } catch (error) {
        // Created but not fully set up: recorded, so the next update finishes it.
        if (error instanceof ResourceInitError) record(state, key, error.id, error.properties);
        failures.push({ key, message: messageOf(error) });
      }
    };
    const adopting = keys.filter((key) => monitorInputs(setInputs, key)["adoptId"] !== undefined);
    const batched = keys.filter((key) => !adopting.includes(key));
    await forEachLimited(adopting, (key) => createOne(key));

    let batchRefused = false;
    /** One batch create of `chunk`, under a fresh idempotency key or the one derived from the chunk. */
    const createBatch = async (chunk: readonly string[], freshKey: boolean): Promise<void> => {
      if (batchRefused || chunk.length === 1) return forEachLimited(chunk, (key) => createOne(key));
      let answer: { created: Values[]; replayed: boolean };
      try {
        answer = await this.#postBatch(setInputs, chunk, freshKey);
      } catch (error) {
        if (error instanceof ApiError && BATCH_REFUSED.includes(error.status)) {
          batchRefused = true;
          await forEachLimited(chunk, (key) => createOne(key));
        } else {
          failures.push(...chunk.map((key) => ({ key, message: `create failed: ${messageOf(error)}` })));
        }
        return;
      }
      const idOf = (key: string) => (answer.created[chunk.indexOf(key)] as Values)["id"] as string;
      // A replay: an earlier attempt of this very batch created these objects. Either its answer
      // was lost (a retry, an interrupted deployment) and they exist, or they were deleted since
      // (an earlier destroy of the same set). A list read made now tells which (a few pages, not
      // a GET per monitor); an earlier one would miss what the replayed attempt created.
      let existing: Map<string, Values> | undefined;
      if (answer.replayed) {
        try {
          existing = await this.#engine.reader.listNow(listQuery(chunk.map((key) => monitorInputs(setInputs, key)["clientId"])));
        } catch (error) {
          failures.push(...chunk.map((key) => ({ key, message: `create failed: ${messageOf(error)}` })));
          return;
        }
      }
      const gone = existing === undefined ? [] : chunk.filter((key) => !existing.has(idOf(key).toLowerCase()));
      await forEachLimited(
        chunk.filter((key) => !gone.includes(key)),
        async (key) => {
          const id = idOf(key);
          const inputs = monitorInputs(setInputs, key);
          try {
            const current = existing?.get(id.toLowerCase());
            const created = answer.created[chunk.indexOf(key)] as Values;
            record(state, key, id, current === undefined ? await this.#engine.completeCreate(id, created, inputs) : await this.#engine.adopt(id, current, inputs));
          } catch (error) {
            if (error instanceof ResourceInitError) record(state, key, error.id, error.properties);
            failures.push({ key, message: messageOf(error) });
          }
        },
      );
      // The deleted ones are made afresh together, once: a replay under a fresh key is of this very call.
      if (gone.length > 0) await (freshKey ? forEachLimited(gone, (key) => createOne(key)) : createBatch(gone, true));
    };
    for (let start = 0; start < batched.length; start += BATCH_SIZE) await createBatch(batched.slice(start, start + BATCH_SIZE), false);
    return failures;
  }

  /**
   * One batch create through the engine's one idempotent POST, under a key derived from the set's
   * URN, the keys and the bodies, or a fresh one: a batch whose answer was lost is replayed, not
   * made twice.
   */
  async #postBatch(setInputs: Values, keys: readonly string[], freshKey: boolean): Promise<{ created: Values[]; replayed: boolean }> {
    const shape = monitor.inputs.shape as Record<string, z.ZodType>;
    const body = { monitors: keys.map((key) => apiBody(shape, monitorInputs(setInputs, key), objectBodyFields(monitor))) };
    const path = `${monitor.path}/batch`;
    const key = freshKey ? newIdempotencyKey() : idempotencyKeyOf(MONITOR_SET_KIND, setInputs[internal.urn], path, { keys, ...body });
    const { data, replayed } = await this.#engine.post(path, body, key);
    if (!Array.isArray(data) || data.length !== keys.length || !data.every((item) => isRecord(item) && typeof item["id"] === "string")) {
      throw new OperationError(`POST ${path} answered without ${keys.length} monitor objects`);
    }
    return { created: data as Values[], replayed };
  }

  #partialFailure(inputs: Values, id: string, state: SetState, failures: Failure[], done: string): PartialFailure {
    const urn = inputs[internal.urn];
    const subject = typeof urn === "string" ? `${MONITOR_SET_KIND} "${urn.split("::").slice(3).join("::")}"` : MONITOR_SET_KIND;
    // Recorded as the set's outputs: with the provider and kind that complete outputs get from the
    // dynamic provider host and the dispatcher, so refresh and destroy work on them too.
    const properties = { ...outputsOf(state, inputs), [internal.provider]: inputs[internal.provider], [internal.kind]: MONITOR_SET_KIND };
    return new PartialFailure(subject, id, properties, failures, done);
  }
}

/**
 * The list query that shows every monitor of the given clients (`undefined`: outside any client):
 * the one client's, the ones outside any client, or all clients when they are several.
 */
function listQuery(clientIds: readonly unknown[]): Query {
  const clients = new Set(clientIds);
  if (clients.size > 1) return { all_clients: true };
  const [clientId] = clients;
  return typeof clientId === "string" ? { client_id: clientId } : {};
}

/** Runs `work` on every item, at most {@link CONCURRENCY} at once. */
async function forEachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  await mapBounded(items, CONCURRENCY, work);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
