/**
 * What mutation testing covers (`npm run test:mutation`, docs/testing.md): the code that decides
 * what a deploy does, with the score each file must keep. stryker.config.mjs takes its `mutate`
 * list from here and scripts/mutation.ts its thresholds and the inputs of the committed baseline.
 *
 * Kept free of the project's own imports and of TypeScript-only syntax, so that Stryker's config
 * loads it as it is (Node strips the types).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

export interface MutationTarget {
  /** From the repository root. */
  file: string;
  /**
   * Only these top-level functions and classes (`Class` or `Class.method`) are mutated, for a file
   * whose other code is not a deploy decision (the HTTP client's transport); absent, the whole file.
   */
  declarations?: readonly string[];
  /** The lowest score this file may have, in percent, where it is held to more than {@link FILE_THRESHOLD}. */
  threshold?: number;
}

/** The lowest mutation score, in percent, of each listed file (unless its target sets its own) and of all of them together. */
export const FILE_THRESHOLD = 85;
export const TOTAL_THRESHOLD = 90;

export const MUTATION_TARGETS: readonly MutationTarget[] = [
  // What changes and what replaces: diff and the equality it compares with, for a single resource
  // and for each member of a MonitorSet (the one engine: diffGroup, memberChanges), and which
  // fields are compared and replace.
  { file: "provider/diff.ts" },
  { file: "provider/fields.ts", declarations: ["isInternal", "inputFields", "replaceFields"] },
  // Bad input at preview: the rules, the field definitions and the exact messages.
  { file: "provider/check.ts" },
  { file: "schema/rules.ts" },
  { file: "schema/rule-messages.ts" },
  { file: "schema/define.ts" },
  // How drift is classified for the report.
  { file: "cli/drift/changes.ts" },
  // Whether a deploy pauses or resumes an object, why, what time brings next, and what preview says of it.
  { file: "provider/pause-plan.ts", threshold: 100 },
  // Which override an object's outputs record: a damaged one pauses nothing.
  { file: "provider/overrides.ts", threshold: 100 },
  // Which pauses and resumes apply-due finds due in a stack's state, and the ended overrides it drops.
  { file: "cli/apply-due/due.ts", threshold: 100 },
  // How long: the one grammar of durations (monitoring:handPauses, pause --for, the fleet's options).
  { file: "provider/duration.ts" },
  // When a request is repeated, how long it waits, how fast requests start, what an answer says about the rate.
  { file: "provider/http/retry.ts", declarations: ["retryDecision", "jitteredBackoff", "parseRetryAfter", "attemptFailure"] },
  { file: "provider/http/rate-limit.ts", declarations: ["rateSignal", "RateLimiter"] },
  { file: "provider/http/responses.ts", declarations: ["isSuccess"] },
  { file: "provider/http/client.ts", declarations: ["ApiClient.request", "ApiClient.#send"] },
  // Which scopes an API key needs for each command on a stack: a scope too few fails a deploy, one
  // too many is a key that holds more than it should, so every rule of it is proven.
  { file: "cli/scopes/needs.ts", threshold: 100 },
];

/**
 * Stryker's `mutate` patterns: a file, or `file:startLine-endLine` per declaration. Fails naming the
 * declaration when one is gone (renamed or moved), so that the list follows the code.
 */
export function mutatePatterns(root: string): string[] {
  return MUTATION_TARGETS.flatMap((target) =>
    target.declarations === undefined ? [target.file] : target.declarations.map((name) => `${target.file}:${lineRange(root, target.file, name)}`),
  );
}

function lineRange(root: string, file: string, name: string): string {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), "utf8"), ts.ScriptTarget.Latest, true);
  const [outer, member] = name.split(".");
  let found: ts.Node | undefined;
  for (const statement of source.statements) {
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name?.text === outer) {
      found = member === undefined ? statement : memberOf(statement, member);
    }
  }
  if (found === undefined) {
    throw new Error(`scripts/mutation-targets.ts: ${file} has no ${name} any more; update the declarations to mutate`);
  }
  const line = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  return `${line(found.getStart(source))}-${line(found.getEnd())}`;
}

function memberOf(node: ts.Node, name: string): ts.Node | undefined {
  if (!ts.isClassDeclaration(node)) return undefined;
  return node.members.find((item) => item.name !== undefined && (ts.isIdentifier(item.name) || ts.isPrivateIdentifier(item.name)) && item.name.text === name);
}
