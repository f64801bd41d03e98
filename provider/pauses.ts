/**
 * The pause state of monitors and heartbeats, single or a set's members: one hook around their
 * kind's own provider. Before diff, create and update, the declared `paused` gives way to what the
 * pause plan (provider/pause-plan.ts) wants at the deploy's instant, so the writer sends a pause or
 * resume call exactly when the plan changes and nothing else; reads and updates carry the records
 * the plan needs (`__override`, `__handPauseSeen`). Operators' overrides are written by the
 * command line straight to the service and the state (cli/overrides/); deploys only keep them
 * while they hold and drop them once ended. Preview and up say what time will do.
 */
import type * as pulumi from "@pulumi/pulumi";
import { memberName, memberOf, monitorSet } from "../schema/members.js";
import { isRecord } from "../schema/naming.js";
import { inform } from "./engine-log.js";
import { internal, isInternal } from "./fields.js";
import { recordedOverride } from "./overrides.js";
import { type HandPauses, type OverrideRecord, type PausePlan, type PauseWindow, describePlan, pausePlan } from "./pause-plan.js";

type Values = Record<string, unknown>;
type Provider = pulumi.dynamic.ResourceProvider;

/** What the pause state depends on besides the object: the deploy's instant and `monitoring:handPauses` (provider/config.ts). */
export interface PauseSettings {
  now: number;
  handPauses: HandPauses;
}

/** Whether the plan changes the pause state the outputs record: a pause or resume is due. */
export function isDue(plan: PausePlan, outputs: Values): boolean {
  return plan.paused !== "unmanaged" && plan.paused !== (outputs["paused"] === true);
}

/** The kinds whose objects have a pause state that windows and overrides drive. */
export const PAUSABLE_KINDS = ["Monitor", "Heartbeat"];

/** The plan of one object: `inputs` as the program declares it (none at a read), `outputs` as recorded. */
export function planOf(inputs: Values | undefined, outputs: Values, settings: PauseSettings): PausePlan {
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
  const recorded = recordedOverride(before);
  const seenBefore = before[internal.handPauseSeen];
  const overrideActive = recorded !== undefined && now < Date.parse(recorded.until);
  // An ended override stays only while the service still holds the pause it made: the deploy
  // that reads it resumes the object once and drops it. Found active, nothing is left to undo.
  const override = overrideActive || (recorded !== undefined && after["paused"] === true) ? recorded : undefined;
  const seen = after["paused"] !== true ? undefined : typeof seenBefore === "string" ? seenBefore : before["paused"] !== true && !overrideActive ? new Date(now).toISOString() : undefined;
  return { ...(override === undefined ? {} : { [internal.override]: override }), ...(seen === undefined ? {} : { [internal.handPauseSeen]: seen }) };
}

/**
 * The records an object's outputs keep once its pause state is as `plan` wants (a deploy's
 * update, or a command's write): the override while it holds, the hand pause's sighting while it
 * still keeps the object paused.
 */
export function recordsAfterPlan(outputs: Values, plan: PausePlan): { override?: OverrideRecord; handPauseSeen?: string } {
  const override = plan.keepOverride ? recordedOverride(outputs) : undefined;
  const seen = outputs[internal.handPauseSeen];
  return { ...(override === undefined ? {} : { override }), ...(plan.keepHandPause && typeof seen === "string" ? { handPauseSeen: seen } : {}) };
}

/** The records as outputs (`__override`, `__handPauseSeen`). */
function recordsOf(outputs: Values, plan: PausePlan): Values {
  const { override, handPauseSeen } = recordsAfterPlan(outputs, plan);
  return { ...(override === undefined ? {} : { [internal.override]: override }), ...(handPauseSeen === undefined ? {} : { [internal.handPauseSeen]: handPauseSeen }) };
}

/** `outputs` without the records, then with `records`. */
function withRecords(outputs: Values, records: Values): Values {
  const { [internal.override]: _override, [internal.handPauseSeen]: _seen, ...rest } = outputs;
  return { ...rest, ...records };
}

/** `Monitor "web"`, `MonitorSet "fleet" monitors["web"]`: who a notice is about. */
function subjectOf(urn: unknown, kind: string, key?: string): string {
  const name = typeof urn === "string" ? urn.slice(urn.lastIndexOf("::") + 2) : kind;
  return `${kind} "${key === undefined ? name : memberName(name, key)}"`;
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
      const plan = planOf(news, olds, now);
      await announce(news[internal.urn], [noticeOf(subjectOf(news[internal.urn], kind), plan, olds, now.now)]);
      return diff(id, olds, effectiveInputs(news, plan));
    },
    create: (inputs) => provider.create(effectiveInputs(inputs, planOf(inputs, {}, settings()))),
    read: async (id, props) => {
      const result = await read(id, props);
      if (result.props === undefined) return result;
      return { ...result, props: withRecords(result.props, recordsAfterRead(props ?? {}, result.props, settings().now)) };
    },
    update: async (id, olds, news) => {
      const plan = planOf(news, olds, settings());
      const records = recordsOf(olds, plan);
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
    if (isRecord(inputs)) plans.set(key, planOf(inputs, memberOutputs(olds, key), now));
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
      const plans = memberPlans(news, olds, settings());
      const recordsOfMember = (key: string) => {
        const plan = plans.get(key);
        return plan === undefined ? {} : recordsOf(memberOutputs(olds, key), plan);
      };
      const records = withMemberRecords({ ids: olds["ids"] }, recordsOfMember);
      const { outs } = await update(id, olds, effectiveSetInputs(news, plans)).catch(recordOnFailure(pick(records, [internal.override, internal.handPauseSeen])));
      return { outs: withMemberRecords(outs, recordsOfMember) };
    },
  };
}
