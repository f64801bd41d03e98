/**
 * What a refresh found about one object, told the way the next deploy will treat it: a field the
 * program declares is put back, a field it leaves out keeps the value set by hand, an object
 * deleted by hand is created again, and a pause made by hand is flagged whatever the program says.
 * Built from the recorded and refreshed outputs of a refresh step (`metadata.old` / `metadata.new`);
 * which inputs the program set is what the provider recorded in `__declaredInputs`.
 */
// @ts-nocheck

import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { isDeepStrictEqual } from "node:util";
import type { AnyResourceDefinition } from "../../schema/define.js";
import { definitions } from "../../schema/index.js";
import { declaredInputs } from "../../provider/diff.js";
import { inputFields, isInternal } from "../../provider/fields.js";

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
  /** The resource's name in the program, e.g. `acme-root`. */
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
 * The drift a refresh step shows, or undefined when the object is as the program wants it. A
 * paused object counts whenever the program does not declare `paused: true`, also when an earlier
 * refresh recorded the pause: with `paused` left out, every deploy keeps it, and nobody is told.
 */
export function driftOf(metadata: StepEventMetadata): DriftedObject | undefined {
  const id = metadata.old?.id ?? metadata.new?.id;
  const object = { type: shortType(metadata.type), name: nameOf(metadata.urn), urn: metadata.urn, ...(id ? { id } : {}) };
  if (metadata.op === "delete") return { ...object, drift: "deleted", fields: [] };
  const recorded = metadata.old?.outputs ?? {};
  const declared = declaredInputs(recorded).includes(PAUSED);
  const paused = metadata.new?.outputs?.[PAUSED] === true && !(declared && recorded[PAUSED] === true);
  // A change to a field the program leaves out comes as a `same` step (the provider's diff ignores
  // it), so every step's outputs are compared, not only those of updates.
  const fields = changedFields(metadata).filter((change) => !(paused && change.field === PAUSED));
  if (fields.length === 0 && !paused) return undefined;
  return { ...object, drift: "changed", fields, ...(paused ? { paused: { declared } } : {}) };
}

/** Kind, then name: the engine refreshes objects in parallel, so events arrive in any order. */
export function byObject(a: DriftedObject, b: DriftedObject): number {
  return a.type.localeCompare(b.type, "en") || a.name.localeCompare(b.name, "en");
}

/**
 * The fields whose values differ between the recorded and the refreshed outputs: the kind's inputs
 * (server outputs such as a status follow the object and are no change), secrets masked.
 */
export function changedFields(metadata: StepEventMetadata): FieldChange[] {
  const recorded = metadata.old?.outputs ?? {};
  const actual = metadata.new?.outputs ?? {};
  const definition = definitionOfType(metadata.type);
  const declared = declaredInputs(recorded);
  const candidates = definition === undefined ? [...new Set([...Object.keys(recorded), ...Object.keys(actual)])] : inputFields(definition);
  return candidates
    .filter((field) => !isInternal(field) && !isDeepStrictEqual(recorded[field], actual[field]))
    .sort()
    .map((field) => {
      const secret = definition?.secrets.includes(field) === true;
      const shown = (value: unknown): unknown => (secret && value !== undefined ? SECRET : value);
      return { field, recorded: shown(recorded[field]), actual: shown(actual[field]), declared: declared.includes(field) };
    });
}

function definitionOfType(type: string): AnyResourceDefinition | undefined {
  const kind = shortType(type);
  return definitions.find((definition) => definition.kind === kind);
}
