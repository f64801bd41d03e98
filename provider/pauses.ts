/**
 * The pause state of monitors and heartbeats, single or a set's members, around their kind's own
 * provider: before diff, create and update, the declared `paused` gives way to what the pause plan
 * (provider/pause-plan.ts) wants at the deploy's instant, so the writer sends a pause or resume
 * call exactly when the plan changes and nothing else; reads and updates carry the records the plan
 * needs (`__override`, `__handPauseSeen`); a run that the command line aims at one object with a
 * new override (provider/overrides.ts) applies only that, and a "pauses only" run (the scheduled
 * `apply-due`, {@link PAUSES_ONLY_VARIABLE}) only the pauses and resumes that are due. Preview and up
 * say what time will do.
 */
import type * as pulumi from "@pulumi/pulumi";
import { memberOf, monitorSet } from "../schema/members.js";
import { isRecord } from "../schema/naming.js";
import { declaredInputs } from "./diff.js";
import { inform } from "./engine-log.js";
import { internal, isInternal } from "./fields.js";
import { type OverrideRequest, overrideFor, recordedOverride } from "./overrides.js";
import { type HandPauses, type OverrideRecord, type PausePlan, type PauseWindow, describePlan, pausePlan } from "./pause-plan.js";

type Values = Record<string, unknown>;
type Provider = pulumi.dynamic.ResourceProvider;

/** What the pause state depends on besides the object: read from the settings at each call (provider/config.ts). */
export interface PauseSettings {
  now: number;
  handPauses: HandPauses;
  /** The new overrides the command line asks this run to record or end (none in other runs). */
  overrides: readonly OverrideRequest[];
  /** This run sends only the pauses and resumes that are due, every other output kept as recorded. */
  pausesOnly: boolean;
}

/**
 * Set to `1` by `apply-due` for its one targeted run without refresh: updates send only the pause
 * or resume the plan wants and keep every other output as recorded, so program changes not yet
 * deployed are not applied.
 */
export const PAUSES_ONLY_VARIABLE = "PULUMI_MONITORING_PAUSES_ONLY";

export function pausesOnlyRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[PAUSES_ONLY_VARIABLE] === "1";
}

/** Whether the plan changes the pause state the outputs record: a pause or resume is due. */
export function isDue(plan: PausePlan, outputs: Values): boolean {
  return plan.paused !== "unmanaged" && plan.paused !== (outputs["paused"] === true);
}

const CHANGES = { changes: true, replaces: [], deleteBeforeReplace: false };

/** The kinds whose objects have a pause state that windows and overrides drive. */
export const PAUSABLE_KINDS = ["Monitor", "Heartbeat"];

/** The plan of one object: `inputs` as the program declares it (none at a read), `outputs` as recorded. */
export function planOf(inputs: Values | undefined, outputs: Values, settings: Pick<PauseSettings, "now" | "handPauses">): PausePlan {
  const paused = inputs?.["paused"];
  const pauses = inputs?.["pauses"];
  const seen = outputs[internal.handPauseSeen];
  return pausePlan({
    declaredPaused: typeof paused === "boolean" ? paused : undefined,
    pauses: Array.isArray(pauses) ? (pauses as PauseWindow[]) : undefined,
    override: recordedOverride(outputs),
    handPauseSeen: typeof seen === "string" ? seen : undefined,
    handPauses: settings.handPauses,
    now: settings.now,
  });
}

/** `inputs` with `paused` as the plan wants it; as declared when the plan leaves the pause state alone. */
function effectiveInputs(inputs: Values, plan: PausePlan): Values {
  return plan.paused === "unmanaged" ? inputs : { ...inputs, paused: plan.paused };
}

/**
 * The records an object's outputs keep after a read (`before` its outputs until then, `after` the
 * read's): an override as recorded; the instant a refresh first saw a pause that nothing recorded
 * asks for (the outputs recorded it active, and no override is active).
 */
export function recordsAfterRead(before: Values, after: Values, now: number): Values {
  const override = recordedOverride(before);
  const seenBefore = before[internal.handPauseSeen];
  const overrideActive = override !== undefined && now < Date.parse(override.until);
  const seen = after["paused"] !== true ? undefined : typeof seenBefore === "string" ? seenBefore : before["paused"] !== true && !overrideActive ? new Date(now).toISOString() : undefined;
  return { ...(override === undefined ? {} : { [internal.override]: override }), ...(seen === undefined ? {} : { [internal.handPauseSeen]: seen }) };
}

/** The records an object's outputs keep after a deploy's update by `plan`, or by the override `request`. */
function recordsAfterUpdate(outputs: Values, plan: PausePlan, now: number, request?: OverrideRequest): Values {
  const recorded = recordedOverride(outputs);
  const override: OverrideRecord | undefined =
    request === undefined
      ? plan.keepOverride
        ? recorded
        : undefined
      : "end" in request
        ? undefined
        : { until: request.until, reason: request.reason, by: request.by, at: new Date(now).toISOString() };
  const seen = outputs[internal.handPauseSeen];
  return {
    ...(override === undefined ? {} : { [internal.override]: override }),
    ...(plan.keepHandPause && typeof seen === "string" ? { [internal.handPauseSeen]: seen } : {}),
  };
}

/** `outputs` without the records, then with `records`. */
function withRecords(outputs: Values, records: Values): Values {
  const { [internal.override]: _override, [internal.handPauseSeen]: _seen, ...rest } = outputs;
  return { ...rest, ...records };
}

/**
 * The inputs that change nothing of an object but its pause state: its declared fields as its
 * outputs record them, and `paused`. The override run sends only the pause or resume call.
 */
function onlyPaused(outputs: Values, paused: boolean, internals: Values): Values {
  return { ...internals, ...asRecorded(outputs), paused };
}

/** The inputs that change nothing: the declared fields as the outputs record them. */
function asRecorded(outputs: Values): Values {
  return Object.fromEntries(declaredInputs(outputs).map((field) => [field, outputs[field]]));
}

/** The plan of an override run: the override applied (its end: the plan without it). */
function overridePlan(inputs: Values, outputs: Values, request: OverrideRequest, settings: PauseSettings): PausePlan {
  const { [internal.override]: _recorded, ...withoutOverride } = outputs;
  const plan = planOf(inputs, withoutOverride, settings);
  if ("end" in request) return { ...plan, paused: plan.paused === "unmanaged" ? false : plan.paused };
  return { ...plan, paused: true, why: { kind: "override", reason: request.reason, by: request.by, until: request.until }, keepOverride: true };
}

function internalsOf(values: Values): Values {
  return Object.fromEntries(Object.entries(values).filter(([key]) => isInternal(key)));
}

/** `Monitor "web"`, `MonitorSet "fleet" monitors["web"]`: who a notice is about. */
function subjectOf(urn: unknown, kind: string, key?: string): string {
  const name = typeof urn === "string" ? urn.slice(urn.lastIndexOf("::") + 2) : kind;
  return `${kind} "${name}"${key === undefined ? "" : ` monitors[${JSON.stringify(key)}]`}`;
}

async function announce(urn: unknown, notices: readonly (string | undefined)[]): Promise<void> {
  await inform(urn, notices.filter((notice): notice is string => notice !== undefined));
}

/** A notice of what time will do to one object, when it has something to say. */
function noticeOf(subject: string, plan: PausePlan, outputs: Values, now: number): string | undefined {
  const text = describePlan(plan, outputs["paused"] === true ? true : outputs["paused"] === false ? false : undefined, now);
  return text === undefined ? undefined : `${subject}: ${text}`;
}

/** Errors that carry what was done (an init failure, a set's partial failure) keep the records too. */
function recordOnFailure(records: Values): (error: unknown) => never {
  return (error) => {
    const properties = isRecord(error) ? (error as { properties?: unknown }).properties : undefined;
    if (isRecord(properties)) Object.assign(properties, records);
    throw error;
  };
}

/**
 * `check`, then, for an object about to be created (no old inputs) whose inputs pass, what time will
 * do to it: an existing object's notices come from diff, which sees what the state records.
 */
function announcingCheck(
  check: Required<Provider>["check"],
  settings: () => PauseSettings,
  noticesFor: (news: Values, inputs: Values, now: PauseSettings) => readonly (string | undefined)[],
): Required<Provider>["check"] {
  return async (olds, news) => {
    const result = await check(olds, news);
    const creating = Object.keys(olds).filter((key) => !isInternal(key)).length === 0;
    if (creating && (result.failures?.length ?? 0) === 0) {
      const now = settings();
      await announce(news[internal.urn], noticesFor(news, result.inputs ?? news, now));
    }
    return result;
  };
}

/** A single monitor's or heartbeat's provider, with its pause state driven by windows, overrides and hand pauses. */
export function withPauses(kind: string, provider: Provider, settings: () => PauseSettings): Provider {
  if (!PAUSABLE_KINDS.includes(kind)) return provider;
  const { check, diff, read, update } = provider as Required<Provider>;
  return {
    ...provider,
    check: announcingCheck(check, settings, (news, inputs, now) => [noticeOf(subjectOf(news[internal.urn], kind), planOf(inputs, {}, now), {}, now.now)]),
    diff: async (id, olds, news) => {
      const now = settings();
      const request = overrideFor(now.overrides, news[internal.urn]);
      const plan = request === undefined ? planOf(news, olds, now) : overridePlan(news, olds, request, now);
      await announce(news[internal.urn], [noticeOf(subjectOf(news[internal.urn], kind), plan, olds, now.now)]);
      if (request !== undefined) return CHANGES;
      if (now.pausesOnly) return isDue(plan, olds) ? CHANGES : { changes: false };
      return diff(id, olds, effectiveInputs(news, plan));
    },
    create: (inputs) => provider.create(effectiveInputs(inputs, planOf(inputs, {}, settings()))),
    read: async (id, props) => {
      const result = await read(id, props);
      if (result.props === undefined) return result;
      return { ...result, props: withRecords(result.props, recordsAfterRead(props ?? {}, result.props, settings().now)) };
    },
    update: async (id, olds, news) => {
      const now = settings();
      const request = overrideFor(now.overrides, news[internal.urn]);
      const plan = request === undefined ? planOf(news, olds, now) : overridePlan(news, olds, request, now);
      if (request !== undefined || (now.pausesOnly && isDue(plan, olds))) {
        const { outs } = await update(id, olds, onlyPaused(olds, plan.paused as boolean, internalsOf(news)));
        const kept = { ...olds, paused: outs["paused"], ...(outs["status"] === undefined ? {} : { status: outs["status"] }) };
        return { outs: withRecords(kept, recordsAfterUpdate(olds, plan, now.now, request)) };
      }
      if (now.pausesOnly) return { outs: olds };
      const records = recordsAfterUpdate(olds, plan, now.now);
      const { outs } = await update(id, olds, effectiveInputs(news, plan)).catch(recordOnFailure(records));
      return { outs: withRecords(outs, records) };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// A set's members

type MemberPlans = Map<string, PausePlan>;

/** Each member's plan, for the members the new inputs declare (objects; not known yet at preview: none). */
function memberPlans(news: Values, olds: Values, now: PauseSettings): MemberPlans {
  const monitors = news[monitorSet.membersField];
  const plans: MemberPlans = new Map();
  if (!isRecord(monitors)) return plans;
  for (const [key, inputs] of Object.entries(monitors)) {
    if (!isRecord(inputs)) continue;
    const request = overrideFor(now.overrides, news[internal.urn], key);
    const outputs = memberOf(monitorSet, olds, key)?.values ?? {};
    plans.set(key, request === undefined ? planOf(inputs, outputs, now) : overridePlan(inputs, outputs, request, now));
  }
  return plans;
}

/** The set's inputs with each member's `paused` as its plan wants it. */
function effectiveSetInputs(news: Values, plans: MemberPlans): Values {
  const monitors = news[monitorSet.membersField];
  if (!isRecord(monitors)) return news;
  const effective = Object.fromEntries(Object.entries(monitors).map(([key, inputs]) => {
    const plan = plans.get(key);
    return [key, plan === undefined || !isRecord(inputs) ? inputs : effectiveInputs(inputs, plan)];
  }));
  return { ...news, [monitorSet.membersField]: effective };
}

/** The set's outputs with each member's records (maps by key, left out when empty), for the members it holds. */
function withMemberRecords(outputs: Values, recordsOf: (key: string) => Values): Values {
  const ids = isRecord(outputs["ids"]) ? Object.keys(outputs["ids"]) : [];
  const maps: Record<string, Values> = { [internal.override]: {}, [internal.handPauseSeen]: {} };
  for (const key of ids) {
    for (const [name, value] of Object.entries(recordsOf(key))) (maps[name] as Values)[key] = value;
  }
  const present = Object.fromEntries(Object.entries(maps).filter(([, map]) => Object.keys(map).length > 0));
  return withRecords(outputs, present);
}

function memberOutputs(outputs: Values, key: string): Values {
  return memberOf(monitorSet, outputs, key)?.values ?? {};
}

/** What a run that writes only pause states does to one member: the state it sends and the records it keeps. */
interface MemberPause {
  paused: boolean;
  records: Values;
}

/**
 * Writes only the pause state of the members `changes` names (an override run's one member, a
 * "pauses only" run's due members); every other member and field is left as recorded.
 */
async function writeMemberPauses(update: Required<Provider>["update"], id: string, olds: Values, news: Values, changes: ReadonlyMap<string, MemberPause>): Promise<Values> {
  const ids = isRecord(olds["ids"]) ? Object.keys(olds["ids"]) : [];
  const monitors = Object.fromEntries(ids.map((member) => {
    const outputs = memberOutputs(olds, member);
    const change = changes.get(member);
    return [member, change === undefined ? asRecorded(outputs) : onlyPaused(outputs, change.paused, {})];
  }));
  const clientId = olds["clientId"];
  const { outs } = await update(id, olds, { ...internalsOf(news), ...(clientId === undefined ? {} : { clientId }), monitors });
  const kept = structuredClone(olds) as Values & { monitors: Record<string, Values>; statuses?: Record<string, unknown> };
  for (const key of changes.keys()) {
    const written = memberOutputs(outs, key);
    kept.monitors[key] = { ...kept.monitors[key], paused: written["paused"] };
    if (isRecord(kept.statuses) && written["status"] !== undefined) kept.statuses[key] = written["status"];
  }
  return withMemberRecords(kept, (member) => changes.get(member)?.records ?? pick(memberOutputs(olds, member), [internal.override, internal.handPauseSeen]));
}

/** The members whose pause or resume is due, in a "pauses only" run: those the set holds and the program still declares. */
function duePauses(olds: Values, plans: MemberPlans, now: number): Map<string, MemberPause> {
  const due = new Map<string, MemberPause>();
  for (const [key, plan] of plans) {
    const outputs = memberOutputs(olds, key);
    if (memberOf(monitorSet, olds, key) !== undefined && isDue(plan, outputs)) due.set(key, { paused: plan.paused as boolean, records: recordsAfterUpdate(outputs, plan, now) });
  }
  return due;
}

function pick(values: Values, keys: readonly string[]): Values {
  return Object.fromEntries(keys.filter((key) => values[key] !== undefined).map((key) => [key, values[key]]));
}

/** A `MonitorSet`'s provider, with each member's pause state driven like a single monitor's. */
export function withMemberPauses(provider: Provider, settings: () => PauseSettings): Provider {
  const { check, diff, read, update } = provider as Required<Provider>;
  const notices = (news: Values, olds: Values, plans: MemberPlans, now: number) =>
    [...plans].map(([key, plan]) => noticeOf(subjectOf(news[internal.urn], monitorSet.kind, key), plan, memberOutputs(olds, key), now));
  return {
    ...provider,
    check: announcingCheck(check, settings, (news, inputs, now) => notices(news, {}, memberPlans(inputs, {}, now), now.now)),
    diff: async (id, olds, news) => {
      const now = settings();
      const plans = memberPlans(news, olds, now);
      await announce(news[internal.urn], notices(news, olds, plans, now.now));
      if ([...plans.keys()].some((key) => overrideFor(now.overrides, news[internal.urn], key) !== undefined)) return CHANGES;
      if (now.pausesOnly) return duePauses(olds, plans, now.now).size > 0 ? CHANGES : { changes: false };
      return diff(id, olds, effectiveSetInputs(news, plans));
    },
    create: (inputs) => provider.create(effectiveSetInputs(inputs, memberPlans(inputs, {}, settings()))),
    read: async (id, props) => {
      const result = await read(id, props);
      if (result.props === undefined) return result;
      const now = settings().now;
      const after = result.props;
      return { ...result, props: withMemberRecords(after, (key) => recordsAfterRead(memberOutputs(props ?? {}, key), memberOutputs(after, key), now)) };
    },
    update: async (id, olds, news) => {
      const now = settings();
      const plans = memberPlans(news, olds, now);
      // The members the command line's overrides name: their pauses alone, in one update.
      const asked = new Map<string, MemberPause>();
      for (const [key, plan] of plans) {
        const request = overrideFor(now.overrides, news[internal.urn], key);
        if (request !== undefined) asked.set(key, { paused: plan.paused as boolean, records: recordsAfterUpdate(memberOutputs(olds, key), plan, now.now, request) });
      }
      if (asked.size > 0) return { outs: await writeMemberPauses(update, id, olds, news, asked) };
      if (now.pausesOnly) {
        const due = duePauses(olds, plans, now.now);
        return { outs: due.size === 0 ? olds : await writeMemberPauses(update, id, olds, news, due) };
      }
      const recordsOf = (key: string) => {
        const plan = plans.get(key);
        return plan === undefined ? {} : recordsAfterUpdate(memberOutputs(olds, key), plan, now.now);
      };
      const records = withMemberRecords({ ids: olds["ids"] }, recordsOf);
      const { outs } = await update(id, olds, effectiveSetInputs(news, plans)).catch(recordOnFailure(pick(records, [internal.override, internal.handPauseSeen])));
      return { outs: withMemberRecords(outs, recordsOf) };
    },
  };
}
