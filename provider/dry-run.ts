/**
 * Preview asks the service (opt-in, `monitoring:dryRun: true`): check sends the monitors it is
 * about to create or change to `POST /monitors/batch/dry-run`, batched, and a refusal fails check
 * naming the resource and the field. Why at check time, the batching and how a verdict is read:
 * docs/architecture.md (The dry run at preview).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { groupOf, memberPath, membersOf } from "../schema/members.js";
import { monitor } from "../schema/resources/monitor.js";
import { type CheckFailure, containsUnknown } from "./check.js";
import { canonical } from "./diff.js";
import { redactSecrets } from "./failures.js";
import { inputFields, isInternal, objectBodyFields } from "./fields.js";
import { ApiError } from "./errors.js";
import type { ApiClient } from "./http/client.js";
import { isRecord } from "../schema/naming.js";
import { apiBody, inputPathOf } from "./translate.js";

/** Monitors per dry-run request: the limit of the batch endpoints in the emulator; the spec shows none (an assumption). */
export const MAX_PER_REQUEST = 100;
/** How long the batcher waits for more bodies after the first one. */
export const WINDOW_MS = 5;

export const DRY_RUN_PATH = `${monitor.path}/batch/dry-run`;

type Values = Record<string, unknown>;

/** What the service said of one monitor body. */
export interface DryRunVerdict {
  /** The fields it refused, by API path (`regions[0]`), with its rule as it phrased it; empty when it refused none. */
  fields: Record<string, string>;
  /** A refusal that names no field of this monitor: the server's words. */
  message?: string;
  requestId?: string;
}

export const passed = (verdict: DryRunVerdict): boolean => Object.keys(verdict.fields).length === 0 && verdict.message === undefined;

interface Pending {
  body: Values;
  resolve: (verdict: DryRunVerdict) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers monitor bodies from concurrent callers and asks the service about them in requests of
 * at most `maxPerRequest`, through the process's one API client (its rate limit, retries and
 * connections). Each caller gets the verdicts of its own bodies, in order.
 */
export class DryRunBatcher {
  readonly #api: () => ApiClient;
  readonly #windowMs: number;
  readonly #maxPerRequest: number;
  #pending: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(api: () => ApiClient, options: { windowMs?: number; maxPerRequest?: number } = {}) {
    this.#api = api;
    this.#windowMs = options.windowMs ?? WINDOW_MS;
    this.#maxPerRequest = options.maxPerRequest ?? MAX_PER_REQUEST;
  }

  verdicts(bodies: readonly Values[]): Promise<DryRunVerdict[]> {
    const answers = bodies.map(
      (body) => new Promise<DryRunVerdict>((resolve, reject) => this.#pending.push({ body, resolve, reject })),
    );
    // Full requests need not wait for more.
    while (this.#pending.length >= this.#maxPerRequest) this.#send(this.#pending.splice(0, this.#maxPerRequest));
    if (this.#pending.length > 0 && this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#flush(), this.#windowMs);
    }
    return Promise.all(answers);
  }

  #flush(): void {
    this.#timer = undefined;
    while (this.#pending.length > 0) this.#send(this.#pending.splice(0, this.#maxPerRequest));
  }

  #send(chunk: Pending[]): void {
    // In a promise, so that a client that cannot be built (no API key) fails the callers, not the timer.
    Promise.resolve()
      .then(() => askService(this.#api(), chunk.map((item) => item.body)))
      .then(
        (verdicts) => chunk.forEach((item, index) => item.resolve(verdicts[index] as DryRunVerdict)),
        (error: unknown) => chunk.forEach((item) => item.reject(error)),
      );
  }
}

/** One dry-run request for `bodies`; a verdict per body, in order. */
export async function askService(api: ApiClient, bodies: readonly Values[]): Promise<DryRunVerdict[]> {
  try {
    // Nothing is created, so a retry is harmless: the key lets the client retry it like a create.
    const response = await api.request<unknown>("POST", DRY_RUN_PATH, { body: { monitors: bodies }, idempotencyKey: "auto", expectedStatus: 201 });
    const verdicts = verdictsOfAnswer(bodies.length, response.data);
    return response.requestId === undefined ? verdicts : verdicts.map((verdict) => ({ ...verdict, requestId: response.requestId }));
  } catch (error) {
    // A refusal is a verdict; a 429 that outlasted the retries, like a 5xx or no answer, is not.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) return verdictsOfRefusal(bodies.length, error);
    throw error;
  }
}

const ITEM_PATH = /^monitors\[(\d+)\](?:\.(.+))?$/;

/** A refusal of the whole request: its details name items and fields, or it concerns every item. */
export function verdictsOfRefusal(count: number, error: ApiError): DryRunVerdict[] {
  const verdicts: DryRunVerdict[] = Array.from({ length: count }, () => ({ fields: {}, ...(error.requestId ? { requestId: error.requestId } : {}) }));
  let named = false;
  for (const [path, rule] of Object.entries(error.details)) {
    const match = ITEM_PATH.exec(path);
    const verdict = match === null ? undefined : verdicts[Number(match[1])];
    if (verdict === undefined) continue;
    named = true;
    const text = typeof rule === "string" ? rule : JSON.stringify(rule);
    if (match?.[2] === undefined) verdict.message = text;
    else verdict.fields[match[2]] = text;
  }
  if (!named) for (const verdict of verdicts) verdict.message = error.message;
  return verdicts;
}

/**
 * A 201 answer: per-item results, if it carries them, as `data` itself or a list in it
 * (`results`, `items`, `monitors`), each at its `index` or its position. An item result with
 * `valid: false` is a refusal; an answer with `valid: false` and no item results refuses the items
 * its `errors` (or `details`, `issues`) name by `monitors[i]`, or every item when they name none.
 */
export function verdictsOfAnswer(count: number, data: unknown): DryRunVerdict[] {
  const verdicts: DryRunVerdict[] = Array.from({ length: count }, () => ({ fields: {} }));
  const results = Array.isArray(data) ? data : isRecord(data) ? [data["results"], data["items"], data["monitors"]].find(Array.isArray) : undefined;
  if (results === undefined) {
    if (!isRecord(data) || data["valid"] !== false) return verdicts;
    // Reasons that name items (`monitors[1].name`) go to those items; others concern every item.
    const reasons = data["errors"] ?? data["details"] ?? data["issues"];
    const byItem = isRecord(reasons) ? Object.keys(reasons).filter((path) => ITEM_PATH.test(path)) : [];
    if (byItem.length === 0) {
      for (const verdict of verdicts) Object.assign(verdict, refusalOf(data));
      return verdicts;
    }
    for (const path of byItem) {
      const [, index, field] = ITEM_PATH.exec(path) as RegExpExecArray;
      const verdict = verdicts[Number(index)];
      const rule = (reasons as Values)[path];
      const text = typeof rule === "string" ? rule : JSON.stringify(rule);
      if (verdict === undefined) continue;
      if (field === undefined) verdict.message = text;
      else verdict.fields[field] = text;
    }
    return verdicts;
  }
  results.forEach((result, position) => {
    if (!isRecord(result) || result["valid"] !== false) return;
    const index = Number.isInteger(result["index"]) ? (result["index"] as number) : position;
    const verdict = verdicts[index];
    if (verdict !== undefined) Object.assign(verdict, refusalOf(result));
  });
  return verdicts;
}

/** What a result that says "not valid" gives as its reasons: field by field where it names fields. */
function refusalOf(result: Values): Omit<DryRunVerdict, "requestId"> {
  const reasons = result["errors"] ?? result["details"] ?? result["issues"];
  const fields: Record<string, string> = {};
  if (isRecord(reasons)) {
    for (const [path, rule] of Object.entries(reasons)) fields[path.replace(ITEM_PATH, (_all, _index, rest: string | undefined) => rest ?? "")] = typeof rule === "string" ? rule : JSON.stringify(rule);
  } else if (Array.isArray(reasons)) {
    for (const reason of reasons) {
      const path = isRecord(reason) ? (reason["field"] ?? reason["path"]) : undefined;
      const rule = isRecord(reason) ? (reason["message"] ?? reason["rule"]) : reason;
      if (typeof path === "string" && path !== "") fields[path] = typeof rule === "string" ? rule : JSON.stringify(rule);
    }
  }
  delete fields[""];
  if (Object.keys(fields).length > 0) return { fields };
  const { valid: _valid, index: _index, ...shown } = result;
  return { fields, message: Object.keys(shown).length === 0 ? "not valid" : JSON.stringify(shown) };
}

// ---------------------------------------------------------------------------------------------
// Check, with the service's verdict

/** One monitor check may send: how failures name it, its body, and whether it is new or changed. */
interface Subject {
  /** `Monitor` or `MonitorSet.monitors["key"]`: how a failure's reason starts, as check's own. */
  kind: string;
  /** Prefix of a failure's property: `""`, or `monitors["key"].` */
  property: string;
  inputs: Values;
  changed: boolean;
}

export interface DryRunHook {
  /** Whether the stack asked for it (`monitoring:dryRun`). */
  enabled: () => boolean;
  batcher: DryRunBatcher;
}

/**
 * `provider` with a check that, once its own rules pass, asks the service about the monitors it
 * creates or changes: a `Monitor`, or the monitors of a group (`MonitorSet`), the only objects the
 * endpoint takes; other kinds are returned as they are.
 */
export function withDryRun(kind: string, provider: pulumi.dynamic.ResourceProvider, hook: DryRunHook): pulumi.dynamic.ResourceProvider {
  const own = provider.check;
  if (groupOf(kind)?.member !== monitor && kind !== monitor.kind) return provider;
  if (own === undefined) return provider;
  return {
    ...provider,
    check: async (olds, news) => {
      const result = await own(olds, news);
      if ((result.failures?.length ?? 0) > 0 || !hook.enabled()) return result;
      const subjects = subjectsOf(kind, olds, result.inputs ?? news).filter((subject) => subject.changed);
      if (subjects.length === 0) return result;
      const verdicts = await hook.batcher.verdicts(subjects.map((subject) => bodyOf(subject.inputs)));
      const failures = subjects.flatMap((subject, index) => failuresOf(subject, verdicts[index] as DryRunVerdict));
      return failures.length === 0 ? result : { inputs: news, failures };
    },
  };
}

/** The create body of a monitor, without the values not known yet (during a preview): the server judges the rest. */
export function bodyOf(inputs: Values): Values {
  const known = Object.fromEntries(Object.entries(inputs).filter(([, value]) => !containsUnknown(value)));
  return apiBody(monitor.inputs.shape as Record<string, z.ZodType>, known, objectBodyFields(monitor));
}

/** Whether a monitor's inputs differ from the recorded ones, field by field (nothing recorded: a create). */
function changedSince(olds: Values | undefined, inputs: Values): boolean {
  if (olds === undefined || Object.keys(olds).filter((key) => !isInternal(key)).length === 0) return true;
  const shape = monitor.inputs.shape as Record<string, z.ZodType>;
  return inputFields(monitor).some((field) => canonical(shape[field] as z.ZodType, olds[field]) !== canonical(shape[field] as z.ZodType, inputs[field]));
}

/**
 * The monitors of a resource (schema/members.ts) as it creates them, a group's shared `clientId`
 * included: each changed when its inputs differ from the recorded ones.
 */
function subjectsOf(kind: string, olds: Values, inputs: Values): Subject[] {
  const group = groupOf(kind);
  const before = new Map(membersOf(kind, olds).map((member) => [member.key, member.values]));
  return membersOf(kind, inputs).map(({ key, values }) => {
    const path = group === undefined || key === undefined ? undefined : memberPath(group, key);
    return {
      kind: path === undefined ? monitor.kind : `${kind}.${path}`,
      property: path === undefined ? "" : `${path}.`,
      inputs: values,
      changed: changedSince(before.get(key), values),
    };
  });
}

/** Check failures for a refused monitor, as check phrases its own: `Monitor.regions[0]: <the server's rule>`. */
function failuresOf(subject: Subject, verdict: DryRunVerdict): CheckFailure[] {
  if (passed(verdict)) return [];
  const shape = { ...monitor.inputs.shape, ...monitor.outputs.shape } as Record<string, z.ZodType>;
  const where = `refused by the service's dry run, POST ${DRY_RUN_PATH}${verdict.requestId ? ` [request_id ${verdict.requestId}]` : ""}`;
  const redact = (text: string) => redactSecrets(monitor, subject.inputs, text);
  const secrets = new Set<string>(monitor.secrets);
  const failures: CheckFailure[] = Object.entries(verdict.fields).map(([apiPath, rule]) => {
    const path = inputPathOf(shape, apiPath);
    const field = /^[^.[]*/.exec(path)?.[0] ?? path;
    // As check does: the engine prints a failing property's value, so a secret field is named in the reason only.
    return { property: secrets.has(field) ? "" : `${subject.property}${path}`, reason: redact(`${subject.kind}.${path}: ${rule}; ${where}`) };
  });
  if (verdict.message !== undefined) {
    failures.push({ property: subject.property.replace(/\.$/, ""), reason: redact(`${subject.kind}: ${verdict.message}; ${where}`) });
  }
  return failures;
}
