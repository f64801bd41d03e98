/**
 * The verify report as a table, JSON, JUnit XML (one test case per object, named by its resource
 * name) and the markdown of a GitHub job summary, all made from the same entries, so they agree
 * on each verdict.
 */
import { cell, table } from "../report/markdown.js";
import { allEntries, countsOf, type VerifyEntry, type VerifyReport } from "./report.js";

/** The JSON report: per stack, one entry per object with its verdict and what the server said. */
export function renderJson(report: VerifyReport): string {
  const counts = countsOf(allEntries(report).map(({ entry }) => entry));
  return `${JSON.stringify({ project: report.project, ...(report.shard === undefined ? {} : { shard: report.shard }), ...counts, stacks: report.stacks }, null, 2)}\n`;
}

/** The table: one row per object, the stack column when there are several stacks, then errors and notes. */
export function renderTable(report: VerifyReport): string {
  const several = report.stacks.length > 1;
  const header = [...(several ? ["stack"] : []), "resource", "kind", "id", "verdict", "why"];
  const rows = allEntries(report).map(({ stack, entry }) => [...(several ? [stack] : []), entry.name, entry.kind, entry.id, entry.verdict, oneLine(entry.reason, 110)]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]): string => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ").trimEnd();
  const lines: string[] = [];
  if (rows.length > 0) lines.push(line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line));
  for (const stack of report.stacks) {
    if (stack.error !== undefined) lines.push("", `${stack.stack}: not verified: ${stack.error}`);
    if (stack.entries.length === 0 && stack.error === undefined) lines.push("", `${stack.stack}: nothing to verify in ${stack.scope === "all" ? "the stack" : "what its last deploy created or changed (--all verifies every object)"}.`);
    for (const note of stack.notes ?? []) lines.push("", `${several ? `${stack.stack}: ` : ""}${note}`);
  }
  const counts = countsOf(allEntries(report).map(({ entry }) => entry));
  lines.push("", `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped.`);
  return `${lines.join("\n").replace(/^\n/, "")}\n`;
}

/**
 * JUnit XML as CI systems read it: a test suite per stack, a test case per object named by its
 * resource name (class name `<stack>.<kind>`), `<failure>` with the server's detail, `<error>` for
 * an object that could not be verified, `<skipped>` for a declared-paused monitor.
 */
export function renderJunit(report: VerifyReport): string {
  const suites = report.stacks.map((stack) => {
    const counts = countsOf(stack.entries);
    const errors = stack.entries.filter((entry) => entry.error).length + (stack.error === undefined ? 0 : 1);
    const seconds = (ms: number): string => (ms / 1000).toFixed(3);
    const cases = stack.entries.map((entry) => {
      const open = `    <testcase classname="${xml(`${stack.stack}.${entry.kind}`)}" name="${xml(entry.name)}" time="${seconds(entry.durationMs)}">`;
      const detail = xmlText(detailText(entry));
      if (entry.verdict === "skipped") return `${open}\n      <skipped message="${xml(entry.reason)}"/>\n    </testcase>`;
      if (entry.verdict === "failed") {
        const element = entry.error ? "error" : "failure";
        return `${open}\n      <${element} message="${xml(entry.reason)}" type="${entry.error ? "not verified" : entry.kind}">${detail}</${element}>\n    </testcase>`;
      }
      return `${open}\n      <system-out>${detail}</system-out>\n    </testcase>`;
    });
    if (stack.error !== undefined) cases.push(`    <testcase classname="${xml(stack.stack)}" name="${xml(stack.stack)}" time="0.000">\n      <error message="${xml(stack.error)}" type="not verified"/>\n    </testcase>`);
    const time = seconds(Math.max(0, ...stack.entries.map((entry) => entry.durationMs)));
    const failures = stack.entries.filter((entry) => entry.verdict === "failed" && !entry.error).length;
    const tests = stack.entries.length + (stack.error === undefined ? 0 : 1);
    return [`  <testsuite name="${xml(stack.stack)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${counts.skipped}" time="${time}">`, ...cases, "  </testsuite>"].join("\n");
  });
  const entries = allEntries(report).map(({ entry }) => entry);
  const errors = entries.filter((entry) => entry.error).length + report.stacks.filter((stack) => stack.error !== undefined).length;
  const failures = entries.filter((entry) => entry.verdict === "failed" && !entry.error).length;
  const skipped = entries.filter((entry) => entry.verdict === "skipped").length;
  const tests = entries.length + report.stacks.filter((stack) => stack.error !== undefined).length;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xml(`pulumi-monitoring verify ${report.project}`)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}

/** The markdown of a job summary (GITHUB_STEP_SUMMARY): the counts, what failed by name, then every verdict. */
export function renderMarkdown(report: VerifyReport): string {
  const entries = allEntries(report);
  const counts = countsOf(entries.map(({ entry }) => entry));
  const broken = report.stacks.filter((stack) => stack.error !== undefined);
  const failed = entries.filter(({ entry }) => entry.verdict === "failed");
  const title = failed.length === 0 && broken.length === 0 ? "all passed" : `${failed.length} failed${broken.length > 0 ? `, ${broken.length} stack(s) not verified` : ""}`;
  const several = report.stacks.length > 1;
  const lines = [`## Verify \`${report.project}\`${report.shard === undefined ? "" : ` (shard ${report.shard})`}: ${title}`, "", `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped.`];
  if (failed.length > 0 || broken.length > 0) {
    lines.push("", "### Failed", "");
    for (const { stack, entry } of failed) lines.push(`- ${several ? `${cell(stack)}: ` : ""}**${cell(entry.name)}** (${entry.kind} \`${entry.id}\`): ${cell(entry.reason)}`);
    for (const stack of broken) lines.push(`- ${cell(stack.stack)}: not verified: ${cell(stack.error ?? "")}`);
  }
  if (entries.length > 0) {
    lines.push("", table([...(several ? ["stack"] : []), "resource", "kind", "verdict", "why"], entries.map(({ stack, entry }) => [...(several ? [stack] : []), entry.name, entry.kind, entry.verdict, oneLine(entry.reason, 200)])));
  }
  return `${lines.join("\n")}\n`;
}

/** The server's detail of an entry, for a JUnit body: its reason, then what the server answered. */
function detailText(entry: VerifyEntry): string {
  return entry.details === undefined || Object.keys(entry.details).length === 0 ? entry.reason : `${entry.reason}\n${JSON.stringify(entry.details, null, 2)}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/** Text safe in an element's body; characters XML 1.0 forbids are dropped. */
function xmlText(text: string): string {
  return text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** Text safe in a double-quoted attribute. */
function xml(text: string): string {
  return xmlText(text).replace(/"/g, "&quot;").replace(/\n/g, "&#10;");
}
