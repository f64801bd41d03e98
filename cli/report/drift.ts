/**
 * The drift report of `pulumi-monitoring drift` and `fleet drift`, from the fleet's report of a
 * drift run: per stack, what the next deploy puts back, what it keeps, what was deleted, what was
 * paused and what no stack manages. Written as a table (the fleet's, ../fleet/report.ts), as
 * markdown for a CI job to post, or as JSON (the report itself).
 */
import type { FleetReport, StackReport } from "./fleet.js";
import type { DriftedObject, FieldChange } from "../drift/changes.js";
import type { UnmanagedObject } from "../drift/unmanaged.js";

/** One finding of a stack, as a row of a section. */
interface Finding {
  stack: string;
  object: DriftedObject;
  field?: FieldChange;
}

interface Sections {
  paused: Finding[];
  putBack: Finding[];
  kept: Finding[];
  deleted: Finding[];
  unmanaged: Array<{ stack: string; object: UnmanagedObject }>;
}

const HEADINGS = {
  paused: ["Paused by hand", "No checks and no alerts while paused."],
  putBack: ["Declared fields changed by hand", "The next deploy puts them back."],
  kept: ["Fields the program leaves out, changed by hand", "The next deploy keeps them: declare a field to manage it."],
  deleted: ["Deleted by hand", "The next deploy creates them again."],
  unmanaged: [
    "Unmanaged objects",
    "In the stack's scope and managed by no stack: adopt one by declaring it with its adoptId, or leave it out with `drift.ignore` in Pulumi.yaml.",
  ],
} as const;

export const DRIFT_COLUMNS = ["stack", "put back", "kept", "deleted", "paused", "unmanaged", "duration", "result"] as const;

/** The drift columns of a stack's row (before duration and result). */
export function driftCounts(stack: StackReport): string[] {
  const sections = sectionsOf([stack]);
  return [sections.putBack, sections.kept, sections.deleted, sections.paused, sections.unmanaged].map((rows) => String(rows.length));
}

function sectionsOf(stacks: readonly StackReport[]): Sections {
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

function pauseOutcome(object: DriftedObject): string {
  return object.paused?.declared ? "the next deploy resumes it" : "the program leaves `paused` out, so the next deploy keeps it paused (declare `paused: false` to resume it on every deploy)";
}

const withId = (object: { id?: string | undefined }): string => (object.id === undefined ? "" : ` (id ${object.id})`);

/** The drift sections under the fleet's table: lines, each section headed, empty when in sync. */
export function driftLines(report: FleetReport): string[] {
  const sections = sectionsOf(report.stacks);
  const lines: string[] = [];
  const section = (key: keyof Sections, rows: string[]): void => {
    if (rows.length === 0) return;
    const [title, note] = HEADINGS[key];
    lines.push("", `${title}. ${note}`, ...rows);
  };
  section("paused", sections.paused.map(({ stack, object }) => `  ${stack}: ${object.type} ${object.name}${withId(object)}: PAUSED; ${pauseOutcome(object)}`));
  const fieldLine = ({ stack, object, field }: Finding): string =>
    `  ${stack}: ${object.type} ${object.name}: ${field?.field} ${formatValue(field?.recorded)} -> ${formatValue(field?.actual)}`;
  section("putBack", sections.putBack.map(fieldLine));
  section("kept", sections.kept.map(fieldLine));
  section("deleted", sections.deleted.map(({ stack, object }) => `  ${stack}: ${object.type} ${object.name}${withId(object)}`));
  section(
    "unmanaged",
    sections.unmanaged.flatMap(({ stack, object }) => [
      `  ${stack}: ${describeUnmanaged(object)}`,
      ...object.adopt.split("\n").map((line) => `      ${line}`),
    ]),
  );
  return lines;
}

/** `Monitor "Stray" (id …, in client …)`. */
function describeUnmanaged(object: UnmanagedObject): string {
  return `${object.kind} ${JSON.stringify(object.name)} (id ${object.id}${object.clientId === undefined ? ", outside any client" : `, in client ${object.clientId}`})`;
}

/** The report as markdown, for a CI job to post as a comment or an issue. */
export function renderMarkdown(report: FleetReport): string {
  const drifted = report.stacks.filter((stack) => stack.result === "drifted").length;
  const failed = report.stacks.filter((stack) => stack.result === "failed");
  const lines = [
    `## Drift in \`${report.project}\`: ${drifted === 0 && failed.length === 0 ? "in sync" : `${drifted} of ${report.stacks.length} stacks drifted`}`,
    "",
    table(
      ["stack", "put back", "kept", "deleted", "paused", "unmanaged", "result"],
      report.stacks.map((stack) => [stack.stack, ...driftCounts(stack), stack.result]),
    ),
  ];
  if (failed.length > 0) lines.push("", "### Failures", "", ...failed.map((stack) => `- ${cell(stack.stack)}: ${cell(stack.error ?? "failed without an error message")}`));
  const sections = sectionsOf(report.stacks);
  const section = (key: keyof Sections, header: string[], rows: string[][], after: string[] = []): void => {
    if (rows.length === 0) return;
    const [title, note] = HEADINGS[key];
    lines.push("", `### ${title}`, "", note, "", table(header, rows), ...after);
  };
  section(
    "paused",
    ["stack", "kind", "name", "id", "next deploy"],
    sections.paused.map(({ stack, object }) => [stack, object.type, object.name, code(object.id ?? ""), object.paused?.declared ? "resumes it" : "keeps it paused: the program leaves `paused` out"]),
  );
  const fieldRow = ({ stack, object, field }: Finding): string[] => [stack, object.type, object.name, code(field?.field ?? ""), code(formatValue(field?.recorded)), code(formatValue(field?.actual))];
  section("putBack", ["stack", "kind", "name", "field", "recorded", "now"], sections.putBack.map(fieldRow));
  section("kept", ["stack", "kind", "name", "field", "recorded", "now"], sections.kept.map(fieldRow));
  section("deleted", ["stack", "kind", "name", "id"], sections.deleted.map(({ stack, object }) => [stack, object.type, object.name, code(object.id ?? "")]));
  section(
    "unmanaged",
    ["stack", "kind", "name", "id", "client"],
    sections.unmanaged.map(({ stack, object }) => [stack, object.kind, object.name, code(object.id), object.clientId === undefined ? "none" : code(object.clientId)]),
    ["", "```ts", ...sections.unmanaged.map(({ object }) => object.adopt), "```"],
  );
  return `${lines.join("\n")}\n`;
}

function table(header: readonly string[], rows: readonly string[][]): string {
  return [header, header.map(() => "---"), ...rows].map((row) => `| ${row.map(cell).join(" | ")} |`).join("\n");
}

/** Text safe in a table cell: no line breaks, no column separators. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

/** Inline code that survives backticks in the value. */
function code(text: string): string {
  if (text === "") return "";
  const fence = text.includes("`") ? "``" : "`";
  return `${fence}${text.includes("`") ? ` ${text} ` : text}${fence}`;
}
