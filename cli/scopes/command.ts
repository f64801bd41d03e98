/**
 * `pulumi-monitoring scopes`: the scopes each command needs for a stack, computed from the route
 * table the HTTP client uses (cli/scopes/needs.ts), and with `--check`, proof with GETs only that
 * the configured key holds them (cli/scopes/check.ts).
 */
import { defineCommand } from "../command/command.js";
import { EXIT } from "../command/exit.js";
import { UsageError } from "../command/usage.js";
import type { CommandIO } from "../command/io.js";
import { readProject } from "../project/project.js";
import { chosenStack, STACK_OPTIONS } from "../project/stack.js";
import { fleetWorkspace } from "../project/workspace.js";
import { type Proof, proveKeyHolds } from "./check.js";
import { COMMANDS, type ScopesReport, scopesFor } from "./needs.js";
import { readStack } from "./stack.js";

export const USAGE = `Usage: pulumi-monitoring scopes [options]

Lists the scopes an API key needs for each command on one stack: preview (with refresh), up,
refresh, destroy, drift, verify, verify --alerts, pause, resume, apply-due and import, their union,
and the operations (method and path, as the spec's tables list them) behind each scope. It reads
the stack's program as it stands (a preview without refresh) and its state; it sends no request to
the service.

With --check, it proves with GETs only that the stack's key holds every scope of the union: for
each scope, a GET of a made-up id on a route that needs it (404: held, 403: missing). Each missing
scope is named with the commands and operations that need it. Nothing is written.

Options:
  --stack NAME   The stack (default: the project's selected stack)
  --cwd DIR      The Pulumi project directory (default: the current directory)
  --json         Write { "commands": {...}, "all": [...], "operations": {...} } (with --check, also "check")
  --check        Prove that the configured key (monitoring:apiKey or MONITORING_API_KEY) holds every scope
  --key-env NAME With --check: prove the key in environment variable NAME instead, e.g. a new key
                 before it replaces the configured one (a rotation); {stack} in NAME stands for the
                 stack's name in capitals (NEW_KEY_{stack}: NEW_KEY_ACME for acme)
  -h, --help     Show this text

Exit status: 0 done (with --check: every scope held), 1 the stack could not be read or checked,
2 bad usage, 3 (--check) a scope is missing.`;

/** `found` (3) is a missing scope under --check. */
export const SCOPES_EXIT = { ...EXIT, missing: EXIT.found } as const;

export interface ScopesOptions {
  cwd: string;
  stack: string;
  json: boolean;
  check: boolean;
  /** With check: the environment variable whose key is proven instead of the configured one. */
  keyEnv?: string;
}

export const scopes = defineCommand({
  name: "scopes",
  usage: USAGE,
  options: { ...STACK_OPTIONS, json: { type: "boolean" }, check: { type: "boolean" }, "key-env": { type: "string" } },
  async run({ values }, io) {
    const cwd = values.cwd ?? process.cwd();
    const keyEnv = values["key-env"];
    if (keyEnv !== undefined && !values.check) throw new UsageError("--key-env goes with --check");
    return run({ cwd, stack: await chosenStack(cwd, values.stack), json: values.json ?? false, check: values.check ?? false, ...(keyEnv === undefined ? {} : { keyEnv }) }, io);
  },
});

export async function run(options: ScopesOptions, io: Pick<CommandIO, "stdout" | "stderr">): Promise<number> {
  let report: ScopesReport;
  let proofs: Proof[] | undefined;
  try {
    const [workspace, project] = await Promise.all([fleetWorkspace(options.cwd), readProject(options.cwd)]);
    const view = await readStack(workspace, project, options.stack, options.keyEnv);
    report = scopesFor(view.contents);
    if (options.check) {
      proofs = await proveKeyHolds(await view.settings(), report.all);
    }
  } catch (error) {
    io.stderr.write(`pulumi-monitoring scopes: ${(error as Error).message}\n`);
    return SCOPES_EXIT.failed;
  }
  io.stdout.write(options.json ? `${JSON.stringify({ ...report, ...(proofs === undefined ? {} : { check: proofs.map(proofJson) }) }, null, 2)}\n` : renderReport(`stack ${options.stack}`, report, proofs));
  if (proofs === undefined) return SCOPES_EXIT.ok;
  if (proofs.some((proof) => proof.verdict === "failed")) return SCOPES_EXIT.failed;
  return proofs.some((proof) => proof.verdict === "missing") ? SCOPES_EXIT.missing : SCOPES_EXIT.ok;
}

export function proofJson(proof: Proof): Record<string, unknown> {
  return "route" in proof ? { scope: proof.scope, verdict: proof.verdict, request: `GET ${proof.route.path}`, status: proof.status } : proof;
}

/** The text report for `whose` (`stack acme`): per command its scopes, then per scope the operations behind it, then the check. */
export function renderReport(whose: string, report: ScopesReport, proofs?: readonly Proof[]): string {
  const lines = [`Scopes an API key needs for ${whose}:`, ""];
  const width = Math.max(...COMMANDS.map((name) => name.length));
  for (const name of COMMANDS) lines.push(`  ${name.padEnd(width)}  ${report.commands[name].join(", ") || "(none)"}`);
  lines.push(`  ${"all".padEnd(width)}  ${report.all.join(", ") || "(none)"}`, "", "Operations behind each scope:");
  for (const [scope, needs] of Object.entries(report.operations)) {
    lines.push(`  ${scope}`);
    for (const need of needs) {
      const optional = need.optionalIn.length === 0 ? "" : `; sent by ${need.optionalIn.join(", ")} too, which do without it`;
      lines.push(`    ${need.request}  (${need.does.join(", ")}; ${need.commands.length === 0 ? "needed by no command" : `needed by ${need.commands.join(", ")}`}${optional})`);
    }
  }
  if (report.unscoped.length > 0) lines.push("", `Operations the spec lists without a scope (any valid key): ${report.unscoped.join(", ")}`);
  if (proofs !== undefined) lines.push("", ...renderCheck(report, proofs));
  return `${lines.join("\n")}\n`;
}

/** The check's lines: each scope held, missing (with the commands and operations of `report` that need it) or unproven. */
export function renderCheck(report: ScopesReport, proofs: readonly Proof[], key = "the configured key", needers = "the stack"): string[] {
  const missing = proofs.filter((proof) => proof.verdict === "missing");
  const lines = [`Check of ${key} (GETs only; a made-up id answers 404 when the scope is held, 403 when not):`];
  for (const proof of proofs) {
    if (proof.verdict === "held") lines.push(`  held     ${proof.scope}  (GET ${proof.route.path} answered ${proof.status})`);
    else if (proof.verdict === "missing") {
      const needs = report.operations[proof.scope] ?? [];
      const commands = COMMANDS.filter((name) => report.commands[name].includes(proof.scope));
      lines.push(`  MISSING  ${proof.scope}  (GET ${proof.route.path} answered 403): needed by ${commands.join(", ")} for ${needs.filter((need) => need.commands.length > 0).map((need) => `${need.request} (${need.does.join(", ")})`).join("; ")}`);
    } else if ("reason" in proof) lines.push(`  ${proof.verdict === "unprovable" ? "unproven" : "FAILED  "} ${proof.scope}  (${proof.reason})`);
  }
  lines.push(missing.length === 0 ? `The key holds every scope ${needers} needs.` : `The key lacks ${missing.length} scope(s): ${missing.map((proof) => proof.scope).join(", ")}.`);
  return lines;
}
