/**
 * What a drift run found, by section: what the next deploy puts back, what it keeps, what was
 * deleted, what was paused and what no stack manages; the table and the markdown show the same.
 */
import type { DriftedObject, FieldChange } from "../drift/changes.js";
import type { UnmanagedObject } from "../drift/unmanaged.js";
import type { StackReport } from "./fleet.js";

/** One finding of a stack, as a row of a section. */
export interface Finding {
  stack: string;
  object: DriftedObject;
  field?: FieldChange;
}

export interface Sections {
  paused: Finding[];
  putBack: Finding[];
  kept: Finding[];
  deleted: Finding[];
  unmanaged: Array<{ stack: string; object: UnmanagedObject }>;
}

export const HEADINGS = {
  paused: ["Paused by hand", "No checks and no alerts while paused."],
  putBack: ["Declared fields changed by hand", "The next deploy puts them back."],
  kept: ["Fields the program leaves out, changed by hand", "The next deploy keeps them: declare a field to manage it."],
  deleted: ["Deleted by hand", "The next deploy creates them again."],
  unmanaged: [
    "Unmanaged objects",
    "In the stack's scope and managed by no stack: adopt one by declaring it with its adoptId, or leave it out with `drift.ignore` in Pulumi.yaml.",
  ],
} as const;

/** The drift columns of a stack's row (before duration and result). */
export function driftCounts(stack: StackReport): string[] {
  const sections = sectionsOf([stack]);
  return [sections.putBack, sections.kept, sections.deleted, sections.paused, sections.unmanaged].map((rows) => String(rows.length));
}

export function sectionsOf(stacks: readonly StackReport[]): Sections {
  const sections: Sections = { paused: [], putBack: [], kept: [], deleted: [], unmanaged: [] };
  for (const stack of stacks) {
    for (const object of stack.drift ?? []) {
      if (object.drift === "deleted") sections.deleted.push({ stack: stack.stack, object });
      if (object.paused !== undefined) sections.paused.push({ stack: stack.stack, object });
      for (const field of object.fields) (field.declared ? sections.putBack : sections.kept).push({ stack: stack.stack, object, field });
    }
    for (const object of stack.unmanaged ?? []) sections.unmanaged.push({ stack: stack.stack, object });
  }
  return sections;
}

/** A value as a drift line shows it: JSON, shortened when long. */
export function formatValue(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
