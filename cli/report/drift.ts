/**
 * What a drift run found, by section: what the next deploy puts back, what it keeps, what a deploy
 * already kept, what was deleted, what was paused by hand, what overrides and windows hold and what
 * no stack manages; the table and the markdown show the same, in the same sentences.
 */
import type { DriftedObject, FieldChange, HandPause, KnownField, NextDeploy, PauseHold } from "../drift/changes.js";
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
  known: Array<{ stack: string; object: KnownField }>;
  deleted: Finding[];
  overrides: Array<{ stack: string; object: PauseHold }>;
  unmanaged: Array<{ stack: string; object: UnmanagedObject }>;
}

export const HEADINGS = {
  paused: ["Paused by hand", "No checks and no alerts while paused."],
  putBack: ["Declared fields changed by hand", "The next deploy puts them back."],
  kept: ["Fields the program leaves out, changed by hand", "The next deploy keeps them: declare a field to manage it."],
  known: [
    "Known: fields the program leaves out, kept by a deploy",
    "Not drift: every deploy keeps them; a new change by hand is drift again. Declare a field to manage it.",
  ],
  deleted: ["Deleted by hand", "The next deploy creates them again."],
  overrides: ["Overrides and windows", "Pauses recorded in the state or declared in the program: not drift."],
  unmanaged: [
    "Unmanaged objects",
    "In the stack's scope and managed by no stack: adopt one by declaring it with its adoptId, or leave it out with `drift.ignore` in Pulumi.yaml.",
  ],
} as const;

/** The drift columns of a stack's row (before duration and result). */
export function driftCounts(stack: StackReport): string[] {
  const sections = sectionsOf([stack]);
  return [sections.putBack, sections.kept, sections.known, sections.deleted, sections.paused, sections.overrides, sections.unmanaged].map((rows) => String(rows.length));
}

/** The titles of the count columns, in {@link driftCounts}' order. */
export const DRIFT_COUNT_TITLES = ["put back", "kept", "known", "deleted", "paused", "overrides", "unmanaged"] as const;

export function sectionsOf(stacks: readonly StackReport[]): Sections {
  const sections: Sections = { paused: [], putBack: [], kept: [], known: [], deleted: [], overrides: [], unmanaged: [] };
  for (const stack of stacks) {
    for (const object of stack.drift ?? []) {
      if (object.drift === "deleted") sections.deleted.push({ stack: stack.stack, object });
      if (object.paused !== undefined) sections.paused.push({ stack: stack.stack, object });
      for (const field of object.fields) (field.declared ? sections.putBack : sections.kept).push({ stack: stack.stack, object, field });
    }
    for (const object of stack.known ?? []) sections.known.push({ stack: stack.stack, object });
    for (const object of stack.overrides ?? []) sections.overrides.push({ stack: stack.stack, object });
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

/** `2030-11-28 22:00 UTC`: a report is read later than it is made, so an instant always shows its date. */
export function formatReportInstant(at: string): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const NEXT_DEPLOY: Record<NextDeploy, string> = {
  keeps: "the next deploy keeps it",
  pauses: "the next deploy pauses it",
  resumes: "the next deploy resumes it",
  leaves: "it is active again: the next deploy drops the record",
};

/**
 * What a pause made by hand is and what the next deploy does with it:
 * `paused by hand, seen at 2030-… UTC: the next deploy keeps it until 2030-… UTC (monitoring:handPauses 4h)`.
 */
export function describeHandPause(paused: HandPause): string {
  if (!paused.managed) return "paused by hand; the program leaves `paused` out, so the next deploy keeps it (declare `paused: false` to resume it on every deploy)";
  const seen = paused.seen === undefined ? "paused by hand, not seen by a deploy yet" : `paused by hand, seen at ${formatReportInstant(paused.seen)}`;
  const rule = `(monitoring:handPauses ${paused.rule})`;
  if (paused.nextDeploy === "resumes") return `${seen}: the next deploy resumes it ${rule}`;
  if (paused.until !== undefined) return `${seen}: the next deploy keeps it until ${formatReportInstant(paused.until)} ${rule}`;
  return `${seen}: the next deploy keeps it${paused.rule === "keep" ? "" : `, for ${paused.rule} from its refresh`} ${rule}`;
}

/** `override by alice for 'incident 42' until 2030-… UTC: the next deploy keeps it`, `paused for 'freeze' until …: …`. */
export function describeHold(hold: PauseHold): string {
  const until = formatReportInstant(hold.until);
  const what =
    hold.cause === "window" ? `paused for '${hold.reason}' until ${until}` : `override by ${hold.by} for '${hold.reason}' ${hold.cause === "override" ? "until" : "ended"} ${until}`;
  return `${what}: ${NEXT_DEPLOY[hold.nextDeploy]}`;
}

/** `kept by the deploy of 2030-… UTC`, `recorded by the refresh of …`, or `kept by a deploy` when the stack's history does not say. */
export function describeKept(known: KnownField): string {
  if (known.keptBy === undefined) return "kept by a deploy";
  const at = formatReportInstant(known.keptBy.at);
  return known.keptBy.operation === "deploy" ? `kept by the deploy of ${at}` : `recorded by the refresh of ${at}, kept by every deploy`;
}
