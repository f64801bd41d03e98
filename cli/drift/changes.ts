/**
 * What a refresh found about one object, told the way the next deploy will treat it: a field the
 * program declares is put back, a field it leaves out keeps the value set by hand, an object
 * deleted by hand is created again, and a pause made by hand is flagged whatever the program says.
 * Built from the recorded and refreshed outputs of a refresh step (`metadata.old` / `metadata.new`);
 * which inputs the program set is what the provider recorded in `__declaredInputs`.
 *
 * Each member of a resource (schema/members.ts) is told on its own: a single resource is its own
 * member; each monitor of a `MonitorSet` is an entry named by the set and its key
 * (`MonitorSet fleet[api]`), with its id, told exactly as a single `Monitor`.
 */
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import type { AnyResourceDefinition } from "../../schema/define.js";
import { groupOf, type Member, membersOf } from "../../schema/members.js";
import { declaredInputs, sameInputValue } from "../../provider/diff.js";
import { inputFields, isInternal } from "../../provider/fields.js";
import { writtenValue } from "../../provider/left-out.js";

/** How a value the report must not show is shown. */
export const SECRET = "[secret]";

export interface FieldChange {
  field: string;
  /** As recorded in the stack's state; `"[secret]"` for secrets. */
  recorded: unknown;
  /** As the service has it now; `"[secret]"` for secrets. */
  actual: unknown;
  /** The program sets the field: the next deploy puts the recorded value back. Else it keeps the new one. */
  declared: boolean;
}

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
  /** The changed fields, pause state excepted (see `paused`). */
  fields: FieldChange[];
  /**
   * Paused by hand: `declared` when the program sets `paused` (the next deploy resumes it), else
   * the next deploy leaves it paused.
   */
  paused?: { declared: boolean };
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
 * The drift a refresh step shows, one entry per member of the resource that is not as the program
 * wants it; none when all are. A paused object counts whenever the program does not declare
 * `paused: true`, also when an earlier refresh recorded the pause: with `paused` left out, every
 * deploy keeps it, and nobody is told.
 */
export function driftOf(metadata: StepEventMetadata): DriftedObject[] {
  const kind = shortType(metadata.type);
  const name = nameOf(metadata.urn);
  const recorded = metadata.old?.outputs ?? {};
  const actual = metadata.new?.outputs ?? {};
  if (groupOf(kind) === undefined) {
    const id = metadata.old?.id ?? metadata.new?.id;
    const [member] = membersOf(kind, recorded);
    const object = { type: kind, name, urn: metadata.urn, ...(id ? { id } : {}) };
    if (metadata.op === "delete") return [{ ...object, drift: "deleted", fields: [] }];
    const drift = memberDrift(object, member?.definition, recorded, actual);
    return drift === undefined ? [] : [drift];
  }
  // A member gone from the refreshed outputs was deleted by hand: the set's next deploy makes it again.
  // A set deleted as a whole has no refreshed outputs (the engine reports a refresh as "delete" exactly
  // when it read no new state), so every member is gone.
  const now = new Map(membersOf(kind, actual).map((member) => [member.key, member]));
  return membersOf(kind, recorded).flatMap((member: Member) => {
    const object = { type: kind, name: `${name}[${member.key}]`, urn: metadata.urn, ...(member.id ? { id: member.id } : {}) };
    const current = now.get(member.key);
    if (current === undefined) return [{ ...object, drift: "deleted" as const, fields: [] }];
    const drift = memberDrift(object, member.definition, member.values, current.values);
    return drift === undefined ? [] : [drift];
  });
}

/** How one object (a resource, or a member of a set) drifted between its recorded and refreshed outputs; undefined when it did not. */
function memberDrift(
  object: Pick<DriftedObject, "type" | "name" | "urn" | "id">,
  definition: AnyResourceDefinition | undefined,
  recorded: Record<string, unknown>,
  actual: Record<string, unknown>,
): DriftedObject | undefined {
  const declared = declaredInputs(recorded).includes(PAUSED);
  const paused = actual[PAUSED] === true && !(declared && recorded[PAUSED] === true);
  // A change to a field the program leaves out comes as a `same` step (the provider's diff ignores
  // it), so every step's outputs are compared, not only those of updates.
  const fields = changedFields(definition, recorded, actual).filter((change) => !(paused && change.field === PAUSED));
  if (fields.length === 0 && !paused) return undefined;
  return { ...object, drift: "changed", fields, ...(paused ? { paused: { declared } } : {}) };
}

/** Kind, then name: the engine refreshes objects in parallel, so events arrive in any order. */
export function byObject(a: DriftedObject, b: DriftedObject): number {
  return a.type.localeCompare(b.type, "en") || a.name.localeCompare(b.name, "en");
}

/**
 * The fields whose values differ between the recorded and the refreshed outputs: the kind's inputs
 * (server outputs such as ids and statuses follow the object and are no change), secrets masked.
 * A field the program leaves out is compared from what the provider last wrote to it
 * (provider/left-out.ts): a value changed by hand that a deploy kept, and so recorded, is still
 * told as changed by hand and kept, on every check until the program declares the field.
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
