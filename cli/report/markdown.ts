/**
 * Reports as markdown, for a CI job to post as a comment, an issue or a job summary: drift's here,
 * verify's in cli/verify/render.ts, both with these tables and cells.
 */
import { describeHandPause, describeHold, describeKept, DRIFT_COUNT_TITLES, driftCounts, type Finding, formatValue, HEADINGS, type Sections, sectionsOf } from "./drift.js";
import type { FleetReport } from "./fleet.js";

/** The report as markdown, for a CI job to post as a comment or an issue. */
export function renderDriftMarkdown(report: FleetReport): string {
  const drifted = report.stacks.filter((stack) => stack.result === "drifted").length;
  const failed = report.stacks.filter((stack) => stack.result === "failed");
  const lines = [
    `## Drift in \`${report.project}\`: ${drifted === 0 && failed.length === 0 ? "in sync" : `${drifted} of ${report.stacks.length} stacks drifted`}`,
    "",
    table(
      ["stack", ...DRIFT_COUNT_TITLES, "result"],
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
    sections.paused.map(({ stack, object }) => [stack, object.type, object.name, code(object.id ?? ""), object.paused === undefined ? "" : describeHandPause(object.paused)]),
  );
  const fieldRow = ({ stack, object, field }: Finding): string[] => [stack, object.type, object.name, code(field?.field ?? ""), code(formatValue(field?.recorded)), code(formatValue(field?.actual))];
  section("putBack", ["stack", "kind", "name", "field", "recorded", "now"], sections.putBack.map(fieldRow));
  section("kept", ["stack", "kind", "name", "field", "recorded", "now"], sections.kept.map(fieldRow));
  section(
    "known",
    ["stack", "kind", "name", "field", "recorded", "now", "since"],
    sections.known.map(({ stack, object }) => [stack, object.type, object.name, code(object.field), code(formatValue(object.recorded)), code(formatValue(object.actual)), describeKept(object)]),
  );
  section("deleted", ["stack", "kind", "name", "id"], sections.deleted.map(({ stack, object }) => [stack, object.type, object.name, code(object.id ?? "")]));
  section(
    "overrides",
    ["stack", "kind", "name", "id", "pause"],
    sections.overrides.map(({ stack, object }) => [stack, object.type, object.name, code(object.id ?? ""), describeHold(object)]),
  );
  section(
    "unmanaged",
    ["stack", "kind", "name", "id", "client"],
    sections.unmanaged.map(({ stack, object }) => [stack, object.kind, object.name, code(object.id), object.clientId === undefined ? "none" : code(object.clientId)]),
    ["", "```ts", ...sections.unmanaged.map(({ object }) => object.adopt), "```"],
  );
  return `${lines.join("\n")}\n`;
}

export function table(header: readonly string[], rows: readonly string[][]): string {
  return [header, header.map(() => "---"), ...rows].map((row) => `| ${row.map(cell).join(" | ")} |`).join("\n");
}

/** Text safe in a table cell: no line breaks, no column separators. */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

/** Inline code that survives backticks in the value. */
export function code(text: string): string {
  if (text === "") return "";
  const fence = text.includes("`") ? "``" : "`";
  return `${fence}${text.includes("`") ? ` ${text} ` : text}${fence}`;
}
