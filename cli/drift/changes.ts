/**
 * What a refresh found about one object, told the way the next deploy will treat it: a field the
 * program declares is put back, a field it leaves out keeps the value set by hand (known once a
 * deploy kept it), an object deleted by hand is created again, a pause made by hand is flagged
 * under `monitoring:handPauses`, and a pause an override or a window holds is told, not drift. The
 * pause state is judged by the provider's own plan (provider/pause-plan.ts) at the deploy's instant.
 * Built from the recorded and refreshed state of a refresh step (`metadata.old` / `metadata.new`).
 *
 * Each member of a resource (schema/members.ts) is told on its own: a single resource is its own
 * member; each monitor of a `MonitorSet` is an entry named by the set and its key
 * (`MonitorSet fleet[api]`), with its id, told exactly as a single `Monitor`.
 */
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import type { AnyResourceDefinition } from "../../schema/define.js";
import { groupOf, type Member, membersOf } from "../../schema/members.js";
import { declaredInputs, sameInputValue } from "../../provider/diff.js";
import { inputFields, internal, isInternal } from "../../provider/fields.js";
import { writtenValue } from "../../provider/left-out.js";
import { recordedOverride } from "../../provider/overrides.js";
import type { HandPauses, PausePlan } from "../../provider/pause-plan.js";
import { PAUSABLE_KINDS, planOf } from "../../provider/pauses.js";

/** How a value the report must not show is shown. */
export const SECRET = "[secret]";

export interface FieldChange {
  field: string;
  /** As recorded in the stack's state (a field the program leaves out: as the provider last wrote it); `"[secret]"` for secrets. */
  recorded: unknown;
  /** As the service has it now; `"[secret]"` for secrets. */
  actual: unknown;
  /** The program sets the field: the next deploy puts the recorded value back. Else it keeps the new one. */
  declared: boolean;
}

/** Who an entry is about. */
export type ObjectName = Pick<DriftedObject, "type" | "name" | "urn" | "id">;

/** What the next deploy does with an object's pause state. */
export type NextDeploy = "keeps" | "pauses" | "resumes" | "leaves";

export interface DriftedObject {
  /** The kind, e.g. `Monitor`. */
  type: string;
  /** The resource's name in the program, e.g. `acme-root`; a set's member adds its key: `fleet[api]`. */
  name: string;
  urn: string;
  /** The object's id in the service. */
  id?: string;
  /** `changed`: fields differ; `deleted`: the object is gone from the service. */
  drift: "changed" | "deleted";
  /** The changed fields, pause state excepted (see `paused`); known ones (a deploy kept them) are not here. */
  fields: FieldChange[];
  /** Paused by hand, and what the next deploy does with it. */
  paused?: HandPause;
}

/**
 * A pause made by hand. `managed`: the program declares `paused` or `pauses`, so
 * `monitoring:handPauses` (`rule`) decides; else deploys leave the pause state alone. `seen`: when
 * a refresh of a deploy first saw it (absent: none has yet, the next deploy's refresh starts its
 * clock); `until`: when a duration rule stops keeping it.
 */
export interface HandPause {
  managed: boolean;
  nextDeploy: "keeps" | "resumes";
  rule?: string;
  seen?: string;
  until?: string;
}

/** A left-out field changed by hand whose value a deploy's refresh already recorded: every deploy keeps it, and it is no drift. */
export interface KnownField extends ObjectName {
  field: string;
  /** As the provider last wrote it. */
  recorded: unknown;
  /** As the service has it, and the state records it. */
  actual: unknown;
  /** The last operation on the stack, which recorded or kept the value (cli/drift/stack-findings.ts). */
  keptBy?: { operation: "deploy" | "refresh"; at: string };
}

/**
 * A pause that an override or a window holds, or an override that has ended: told, never drift.
 * `until`: the override's or the window's end.
 */
export interface PauseHold extends ObjectName {
  cause: "override" | "window" | "ended override";
  reason: string;
  /** Who recorded the override. */
  by?: string;
  until: string;
  nextDeploy: NextDeploy;
}

/** What one refresh step shows. */
export interface Findings {
  drift: DriftedObject[];
  known: KnownField[];
  holds: PauseHold[];
}

/** What the pause plan needs besides the object: the deploy's instant and `monitoring:handPauses`. */
export interface PauseSettings {
  now: number;
  handPauses: HandPauses;
}

/** The field a pause by hand changes (monitors and heartbeats). */
const PAUSED = "paused";

/** `pulumi-nodejs:dynamic/monitoring:Monitor` → `Monitor`. */
export function shortType(type: string): string {
  return type.split(/[:/]/).pop() ?? type;
}

/** The resource's name: what follows the last `::` of its URN. */
export function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/**
 * What a refresh step shows, one entry per member of the resource and finding: its drift (not as
 * the program wants it, or paused by hand), its known left-out fields, and the pause an override or
 * a window holds. A pause made by hand counts whenever nothing declared or recorded asks for it, also
 * when an earlier refresh recorded it: the deploys may keep it, and somebody should know.
 */
export function findingsOf(metadata: StepEventMetadata, settings: PauseSettings): Findings {
  const kind = shortType(metadata.type);
  const name = nameOf(metadata.urn);
  const recorded = metadata.old?.outputs ?? {};
  const actual = metadata.new?.outputs ?? {};
  const inputs = metadata.old?.inputs ?? {};
  const findings: Findings = { drift: [], known: [], holds: [] };
  const add = (found: Findings): void => {
    findings.drift.push(...found.drift);
    findings.known.push(...found.known);
    findings.holds.push(...found.holds);
  };
  if (groupOf(kind) === undefined) {
    const id = metadata.old?.id ?? metadata.new?.id;
    const [member] = membersOf(kind, recorded);
    const object = { type: kind, name, urn: metadata.urn, ...(id ? { id } : {}) };
    if (metadata.op === "delete") findings.drift.push({ ...object, drift: "deleted", fields: [] });
    else add(memberFindings(object, member?.definition, { inputs, recorded, actual }, settings));
    return findings;
  }
  // A member gone from the refreshed outputs was deleted by hand: the set's next deploy makes it again.
  // A set deleted as a whole has no refreshed outputs (the engine reports a refresh as "delete" exactly
  // when it read no new state), so every member is gone.
  const now = new Map(membersOf(kind, actual).map((member) => [member.key, member]));
  const declared = new Map(membersOf(kind, inputs).map((member) => [member.key, member.values]));
  for (const member of membersOf(kind, recorded) as Member[]) {
    const object = { type: kind, name: `${name}[${member.key}]`, urn: metadata.urn, ...(member.id ? { id: member.id } : {}) };
    const current = now.get(member.key);
    if (current === undefined) findings.drift.push({ ...object, drift: "deleted", fields: [] });
    else add(memberFindings(object, member.definition, { inputs: declared.get(member.key) ?? {}, recorded: member.values, actual: current.values }, settings));
  }
  return findings;
}

/** One object's inputs as recorded, its outputs as recorded and as refreshed. */
interface States {
  inputs: Record<string, unknown>;
  recorded: Record<string, unknown>;
  actual: Record<string, unknown>;
}

/** What one object (a resource, or a member of a set) shows between its recorded and refreshed state. */
function memberFindings(object: ObjectName, definition: AnyResourceDefinition | undefined, states: States, settings: PauseSettings): Findings {
  const { recorded, actual } = states;
  const plan = definition !== undefined && PAUSABLE_KINDS.includes(definition.kind) ? planOf(states.inputs, actual, settings) : undefined;
  const hold = plan === undefined ? undefined : holdOf(object, plan, actual);
  // An override that ended paused the object: the plan says what the next deploy does, no hand did.
  const paused = plan === undefined || hold !== undefined ? undefined : handPauseOf(plan, recorded, actual, settings.handPauses);
  // A change to a field the program leaves out comes as a `same` step (the provider's diff ignores
  // it), so every step's outputs are compared, not only those of updates. The pause state an
  // override or a window holds, or a pause by hand, is told on its own.
  const told = hold !== undefined || paused !== undefined;
  const changes = changedFields(definition, recorded, actual).filter((change) => !(told && change.field === PAUSED));
  const known = changes.filter((change) => isKnown(definition, change, recorded, actual));
  const fields = changes.filter((change) => !known.includes(change));
  const drifted = fields.length > 0 || paused !== undefined;
  return {
    drift: drifted ? [{ ...object, drift: "changed", fields, ...(paused === undefined ? {} : { paused }) }] : [],
    known: known.map(({ field, recorded: written, actual: now }) => ({ ...object, field, recorded: written, actual: now })),
    holds: hold === undefined ? [] : [hold],
  };
}

/**
 * A changed field whose refreshed value the recorded state already holds: a left-out field (a
 * declared one is compared with the recorded value itself) that the provider last wrote otherwise,
 * and whose change by hand a refresh recorded (a deploy's, which kept it). A value changed again
 * since differs from the recorded one: drift again.
 */
function isKnown(definition: AnyResourceDefinition | undefined, change: FieldChange, recorded: Record<string, unknown>, actual: Record<string, unknown>): boolean {
  return sameInputValue(definition, change.field, actual[change.field], recorded[change.field]);
}

/** What the next deploy does with a pause state: `paused` as the plan wants it, `held` as the service holds it. */
function nextDeployOf(paused: boolean, held: boolean): NextDeploy {
  if (paused === held) return paused ? "keeps" : "leaves";
  return paused ? "pauses" : "resumes";
}

/** The pause an active override or a window in force holds, or an override that has ended and is still recorded. */
function holdOf(object: ObjectName, plan: PausePlan, actual: Record<string, unknown>): PauseHold | undefined {
  const held = actual[PAUSED] === true;
  const { why } = plan;
  if (why.kind === "override") return { ...object, cause: "override", reason: why.reason, by: why.by, until: why.until, nextDeploy: nextDeployOf(true, held) };
  if (why.kind === "window") return { ...object, cause: "window", reason: why.reason, until: why.until, nextDeploy: nextDeployOf(true, held) };
  const ended = recordedOverride(actual);
  if (ended === undefined) return undefined;
  // An ended override makes the plan manage the pause state: it is never "unmanaged".
  return { ...object, cause: "ended override", reason: ended.reason, by: ended.by, until: ended.until, nextDeploy: nextDeployOf(plan.paused === true, held) };
}

/**
 * A pause made by hand: paused in the service while neither the program's `paused: true`, an
 * override nor a window asks for it. What the next deploy does is the plan's.
 */
function handPauseOf(plan: PausePlan, recorded: Record<string, unknown>, actual: Record<string, unknown>, rule: HandPauses): HandPause | undefined {
  if (actual[PAUSED] !== true || (plan.why.kind === "declared" && plan.paused === true)) return undefined;
  if (plan.paused === "unmanaged") return { managed: false, nextDeploy: "keeps" };
  const seen = recorded[internal.handPauseSeen];
  const since = typeof seen === "string" ? seen : undefined;
  const until = rule.rule === "for" && since !== undefined ? new Date(Date.parse(since) + rule.ms).toISOString() : undefined;
  return {
    managed: true,
    nextDeploy: plan.paused ? "keeps" : "resumes",
    rule: rule.rule === "for" ? rule.text : rule.rule,
    ...(since === undefined ? {} : { seen: since }),
    ...(until === undefined ? {} : { until }),
  };
}

/** Kind, then name: the engine refreshes objects in parallel, so events arrive in any order. */
export function byObject(a: ObjectName, b: ObjectName): number {
  return a.type.localeCompare(b.type, "en") || a.name.localeCompare(b.name, "en");
}

/**
 * The fields whose values differ between the recorded and the refreshed outputs: the kind's inputs
 * (server outputs such as ids and statuses follow the object and are no change), secrets masked.
 * A field the program leaves out is compared from what the provider last wrote to it
 * (provider/left-out.ts): a value changed by hand that a deploy kept, and so recorded, is still
 * a change, which {@link findingsOf} tells as known until the program declares the field.
 */
export function changedFields(definition: AnyResourceDefinition | undefined, recorded: Record<string, unknown>, actual: Record<string, unknown>): FieldChange[] {
  const declared = declaredInputs(recorded);
  const candidates = definition === undefined ? [...new Set([...Object.keys(recorded), ...Object.keys(actual)])] : inputFields(definition);
  const before = (field: string): unknown => (declared.includes(field) ? recorded[field] : writtenValue(recorded, field));
  return candidates
    .filter((field) => !isInternal(field) && !sameInputValue(definition, field, actual[field], before(field)))
    .sort()
    .map((field) => {
      const secret = definition?.secrets.includes(field) === true;
      const shown = (value: unknown): unknown => (secret && value !== undefined ? SECRET : value);
      return { field, recorded: shown(before(field)), actual: shown(actual[field]), declared: declared.includes(field) };
    });
}
