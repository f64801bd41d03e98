/**
 * `MonitorSet`: many monitors as one Pulumi resource, so a fleet costs the engine one step and the
 * state one entry. A thin group (schema/members.ts): each member is checked, diffed, written and
 * read as a single `Monitor` is; the set only batches creates and runs members' requests
 * concurrently (docs/architecture.md, docs/monitor-set.md).
 */
import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { type RecordedMember, groupOutputs, memberName, memberOf, memberPath, monitorSet, recordedMembers } from "../schema/members.js";
import { type ClosedDomains, checkGroup } from "./check.js";
import { declaredInputs, diffGroup, memberChanges } from "./diff.js";
import { warn } from "./engine-log.js";
import { mapBounded } from "./concurrency.js";
import { type ResourceEngine, idempotencyKeyOf } from "./engine.js";
import { OperationError, PartialFailure, describeMember, describeResource, resourceName } from "./failures.js";
import { internal, objectBodyFields } from "./fields.js";
import { ApiError } from "./errors.js";
import { isRecord } from "../schema/naming.js";
import type { Listed } from "./reader.js";
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
type Members = Map<string, RecordedMember>;
type Failure = { key: string; message: string };
/** Runs an operation under the name of what it is for, so that a retry notice names it (provider/index.ts). */
export type Scope = <T>(name: string, operation: () => Promise<T>) => Promise<T>;

/** `fleet[checkout]`: how messages name a monitor of the set whose values are `setValues`. */
function memberNamed(setValues: Values, key: string): string {
  return memberName(resourceName(setValues) || MONITOR_SET_KIND, key);
}

export function monitorSetProvider(engine: ResourceEngine, closedDomains: () => ClosedDomains, scope: Scope = (_name, operation) => operation()): pulumi.dynamic.ResourceProvider {
  const sets = new MonitorSetEngine(engine, scope);
  return {
    check: async (_olds, news) => {
      const { warnings, ...result } = checkGroup(monitorSet, news, closedDomains());
      await warn(news[internal.urn], warnings);
      return result;
    },
    diff: async (_id, olds, news) => diffGroup(monitorSet, olds, news),
    create: (inputs) => sets.create(inputs),
    read: (id, props) => sets.read(id, props ?? {}),
    update: (id, olds, news) => sets.update(id, olds, news),
    delete: (id, props) => sets.delete(id, props),
  };
}

/** A member's outputs as a single `Monitor` records them, for the engine. */
function stateOf(member: RecordedMember): Values {
  return { ...member.values, [internal.declaredInputs]: declaredInputs(member.values) };
}

/** A member's inputs as a single `Monitor` gets them: the set's client, and a name of its own (`<set URN>.monitors["key"]`) that seeds its create key. */
function memberInputs(setInputs: Values, key: string): Values {
  const urn = setInputs[internal.urn];
  return { ...memberOf(monitorSet, setInputs, key)?.values, [internal.urn]: `${typeof urn === "string" ? urn : MONITOR_SET_KIND}.${memberPath(monitorSet, key)}` };
}

class MonitorSetEngine {
  readonly #engine: ResourceEngine;
  readonly #scope: Scope;

  constructor(engine: ResourceEngine, scope: Scope) {
    this.#engine = engine;
    this.#scope = scope;
  }

  async create(inputs: Values): Promise<{ id: string; outs: Values }> {
    const id = randomUUID();
    const members: Members = new Map();
    const failures = await this.#create(inputs, Object.keys(inputs[monitorSet.membersField] as Values), members);
    const failure = failures.length === 0 ? undefined : partialFailure(inputs, id, members, failures, `created ${members.size}`);
    // Nothing created: nothing to record, as for a single Monitor whose create failed.
    if (failure !== undefined) throw members.size === 0 ? new OperationError(failure.message) : failure;
    return { id, outs: groupOutputs(monitorSet, members.values(), inputs) };
  }

  /** Creates (added members, successors of replaced ones), then updates, then deletes (removed members, replaced ones): the order of the engine's own steps. */
  async update(id: string, olds: Values, news: Values): Promise<{ outs: Values }> {
    const before = recordedMembers(monitorSet, olds);
    const members: Members = new Map(before);
    const { added, replaced, updated, removed } = memberChanges(monitorSet, olds, news);
    const created: Members = new Map();
    const failures = await this.#create(news, [...added, ...replaced], created);
    await this.#each(news, updated, failures, async (key) => {
      const old = before.get(key) as RecordedMember;
      members.set(key, recorded(key, old.id, (await this.#engine.update(old.id, stateOf(old), memberInputs(news, key))).outs));
    });
    for (const [key, member] of created) members.set(key, member);
    const superseded = replaced.filter((key) => created.has(key)).map((key) => before.get(key) as RecordedMember);
    await this.#each(news, [...removed.map((key) => before.get(key) as RecordedMember), ...superseded], failures, async (old) => {
      // A replaced object stays recorded until deleted, as the engine keeps a single Monitor's: under a key the program lacks, so the next up deletes it.
      const key = removed.includes(old.key) ? old.key : `${old.key} (replaced ${old.id})`;
      members.set(key, { ...old, key });
      await this.#engine.delete(old.id, stateOf(old)).catch((error: unknown) => {
        throw key === old.key ? error : new OperationError(`${messageOf(error)}; the object it replaced stays recorded as ${memberNamed(news, key)}, which the next up deletes`);
      });
      members.delete(key);
    });
    if (failures.length > 0) {
      const done = `${added.length + replaced.length} to create, ${updated.length} to update, ${removed.length + replaced.length} to delete`;
      throw partialFailure(news, id, members, failures, done);
    }
    return { outs: groupOutputs(monitorSet, members.values(), news) };
  }

  /**
   * Reads every member as a `Monitor` is read, from one pass over the list of the members' scope
   * (a set knows its size: list pages cost less than any GET by id first). Members deleted by hand drop out.
   */
  async read(id: string, props: Values): Promise<{ id: string; props: Values }> {
    const before = [...recordedMembers(monitorSet, props).values()];
    const listed = before.length === 0 ? new Map<string, Values>() : await this.#scope(describeResource(monitorSet, props), () => this.#engine.reader.listScopeOf(before.map(stateOf)));
    const readMember = (member: RecordedMember, state: Values, item: Listed) => this.#scope(describeMember(monitorSet, props, member.key), () => this.#engine.read(member.id, state, item));
    return { id, props: await readMembers(props, (memberId) => listed.get(memberId.toLowerCase()) ?? "absent", readMember) };
  }

  async delete(_id: string, props: Values): Promise<void> {
    const failures: Failure[] = [];
    await this.#each(props, [...recordedMembers(monitorSet, props).values()], failures, (member) => this.#engine.delete(member.id, stateOf(member)));
    if (failures.length > 0) throw new OperationError(`${MONITOR_SET_KIND}: delete failed for ${failures.map((failure) => `${memberNamed(props, failure.key)} (${failure.message})`).join("; ")}`);
  }

  /** Runs `work` on each member (a key, or a recorded member) under its name, at most {@link CONCURRENCY} at once; a failure is added to `failures`. */
  async #each<T extends string | RecordedMember>(setValues: Values, items: readonly T[], failures: Failure[], work: (item: T) => Promise<void>): Promise<void> {
    await eachBounded(items, async (item) => {
      const key = typeof item === "string" ? item : item.key;
      try {
        await this.#scope(describeMember(monitorSet, setValues, key), () => work(item));
      } catch (error) {
        failures.push({ key, message: messageOf(error) });
      }
    });
  }

  /**
   * Creates the members of `keys` into `members`. Those taking over an existing object (`adoptId`)
   * go one by one; the others in batches, each member then completed as a single create (a replay
   * included), or one by one once the service refused a batch.
   */
  async #create(setInputs: Values, keys: readonly string[], members: Members): Promise<Failure[]> {
    const failures: Failure[] = [];
    const complete = (key: string, create: () => Promise<{ id: string; outs: Values }>) =>
      this.#each(setInputs, [key], failures, async () => {
        try {
          const { id, outs } = await create();
          members.set(key, recorded(key, id, outs));
        } catch (error) {
          // Created but not fully set up: recorded, so the next update finishes it.
          if (error instanceof PartialFailure) members.set(key, recorded(key, error.id, error.properties));
          throw error;
        }
      });
    const createOne = (key: string) => complete(key, () => this.#engine.create(memberInputs(setInputs, key)));
    const adopting = keys.filter((key) => memberInputs(setInputs, key)["adoptId"] !== undefined);
    const batched = keys.filter((key) => !adopting.includes(key));
    await eachBounded(adopting, createOne);
    let batchRefused = false;
    for (let start = 0; start < batched.length; start += BATCH_SIZE) {
      const chunk = batched.slice(start, start + BATCH_SIZE);
      if (batchRefused || chunk.length === 1) {
        await eachBounded(chunk, createOne);
        continue;
      }
      try {
        const { created, replayed } = await this.#scope(describeResource(monitorSet, setInputs), () => this.#postBatch(setInputs, chunk));
        await eachBounded(chunk, (key) => complete(key, () => this.#engine.completeCreate(created[chunk.indexOf(key)] as Values, replayed, memberInputs(setInputs, key))));
      } catch (error) {
        batchRefused = error instanceof ApiError && BATCH_REFUSED.includes(error.status);
        if (batchRefused) await eachBounded(chunk, createOne);
        else failures.push(...chunk.map((key) => ({ key, message: `create failed: ${messageOf(error)}` })));
      }
    }
    return failures;
  }

  /** One batch create through the engine's one idempotent POST, under a key derived from the set's URN, the keys and the bodies: a batch whose answer was lost is replayed, not made twice. */
  async #postBatch(setInputs: Values, keys: readonly string[]): Promise<{ created: Values[]; replayed: boolean }> {
    const shape = monitor.inputs.shape as Record<string, z.ZodType>;
    const body = { monitors: keys.map((key) => apiBody(shape, memberInputs(setInputs, key), objectBodyFields(monitor))) };
    const path = `${monitor.path}/batch`;
    const { data, replayed } = await this.#engine.post(path, body, idempotencyKeyOf(MONITOR_SET_KIND, setInputs[internal.urn], path, { keys, ...body }));
    if (!Array.isArray(data) || data.length !== keys.length || !data.every((item) => isRecord(item) && typeof item["id"] === "string")) {
      throw new OperationError(`POST ${path} answered without ${keys.length} monitor objects`);
    }
    return { created: data as Values[], replayed };
  }
}

const recorded = (key: string, id: string, values: Values): RecordedMember => ({ key, id, definition: monitor, values });

/** Reads one member as a single `Monitor` is read: its id, its state as a `Monitor` records it, and its item of a complete list. */
export type MemberRead = (member: RecordedMember, state: Values, listed: Listed) => Promise<{ id?: string; props?: Values }>;

/**
 * A set's outputs after a read: each member recorded in `props` read as a single `Monitor` is read
 * (`read`), from its item of a complete list of the members' scope (`listed`: the item, or
 * `absent`), members deleted by hand dropped. One code for the provider's own read and for a drift
 * check that read the lists beforehand (cli/drift/stack-refresh.ts).
 */
export async function readMembers(props: Values, listed: (id: string) => Listed, read: MemberRead): Promise<Values> {
  const members: Members = new Map();
  await eachBounded([...recordedMembers(monitorSet, props).values()], async (member) => {
    const current = await read(member, stateOf(member), listed(member.id));
    if (current.id !== undefined && current.props !== undefined) members.set(member.key, recorded(member.key, current.id, current.props));
  });
  const { [internal.leftOutAsWritten]: _before, ...kept } = props;
  return { ...kept, ...groupOutputs(monitorSet, members.values(), props) };
}

/** Some members written and some not: the set's outputs record what exists (with the provider that complete outputs get from the host), and the message names each failed member. */
function partialFailure(inputs: Values, id: string, members: Members, failures: readonly Failure[], done: string): PartialFailure {
  const properties = { ...groupOutputs(monitorSet, members.values(), inputs), [internal.provider]: inputs[internal.provider] };
  const listed = failures.slice(0, 10).map((failure) => `${memberNamed(inputs, failure.key)}: ${failure.message}`);
  const more = failures.length > listed.length ? `; and ${failures.length - listed.length} more` : "";
  const message = `${describeResource(monitorSet, inputs)}: ${failures.length} monitor(s) failed (${done}; what was done is recorded, the next up carries on): ${listed.join("; ")}${more}`;
  return new PartialFailure(id, properties, message);
}

/** The set's requests in flight: at most {@link CONCURRENCY} at once. */
const eachBounded = <T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<unknown> => mapBounded(items, CONCURRENCY, work);

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
