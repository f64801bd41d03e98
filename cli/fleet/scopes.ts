/**
 * `fleet scopes` and `--check-scopes`: the scopes the fleet's stacks need (per command, the union
 * over the shared stack and the client stacks), and proof with GETs only that each distinct key
 * holds what the stacks using it need. A fleet may use one key or one per client: each key is
 * checked once, and a missing scope is named with the stacks that need it.
 */
import { mapBounded } from "../../provider/concurrency.js";
import type { ProviderSettings } from "../../provider/config.js";
import { EXIT } from "../command/exit.js";
import type { CommandIO } from "../command/io.js";
import { type Proof, proveKeyHolds } from "../scopes/check.js";
import { proofJson, renderCheck, renderReport, SCOPES_EXIT } from "../scopes/command.js";
import { type ScopesReport, scopesFor, unionOf } from "../scopes/needs.js";
import { readStack } from "../scopes/stack.js";
import type { CheckedVerb, FleetOptions } from "./options.js";
import { stacksAtOnce } from "./runners/budget.js";
import type { FleetTargets } from "./targets.js";

interface StackScopes {
  label: string;
  report: ScopesReport;
  /** Read for a check only. */
  settings: () => Promise<ProviderSettings>;
}

/** One distinct key (service and key), the stacks that use it, what they need of it, and the proof. */
export interface KeyCheck {
  /** Where its stacks take it from: `MONITORING_API_KEY`, `monitoring:apiKey of stack acme`. */
  from: string[];
  stacks: string[];
  /** Per scope it must hold, the stacks that need it. */
  neededBy: Record<string, string[]>;
  /** The union of its stacks' reports, for the commands and operations behind a missing scope. */
  report: ScopesReport;
  proofs: Proof[];
}

/** Each stack of the run (the shared stack first) with its scopes and its connection settings; no request is sent. */
async function scopesOfStacks({ shared, clients }: FleetTargets, parallel: number, keyEnv?: string): Promise<StackScopes[]> {
  const targets = shared === undefined ? clients : [shared, ...clients];
  return mapBounded(targets, stacksAtOnce(parallel, targets.length), async (target) => {
    try {
      const view = await readStack(target.workspace, target.project, target.name, keyEnv);
      return { label: target.label, report: scopesFor(view.contents), settings: view.settings };
    } catch (error) {
      throw new Error(`${target.label}: ${(error as Error).message}`);
    }
  });
}

/** Checks each distinct key once, against the scopes `needs` picks of the reports of the stacks that use it. */
async function checkKeys(stacks: readonly StackScopes[], needs: (report: ScopesReport) => readonly string[], parallel: number): Promise<KeyCheck[]> {
  const byKey = new Map<string, Array<{ label: string; report: ScopesReport; settings: ProviderSettings }>>();
  const settled = await mapBounded(stacks, stacksAtOnce(parallel, stacks.length), async (stack) => ({
    ...stack,
    settings: await stack.settings().catch((error: unknown) => {
      throw new Error(`${stack.label}: ${(error as Error).message}`);
    }),
  }));
  for (const stack of settled) {
    const key = JSON.stringify([stack.settings.apiUrl, stack.settings.apiKey]);
    byKey.set(key, [...(byKey.get(key) ?? []), stack]);
  }
  return Promise.all(
    [...byKey.values()].map(async (users) => {
      const neededBy: Record<string, string[]> = {};
      for (const user of users) for (const scope of needs(user.report)) (neededBy[scope] ??= []).push(user.label);
      const scopes = Object.keys(neededBy).sort();
      return {
        from: [...new Set(users.map((user) => user.settings.sources.apiKey))],
        stacks: users.map((user) => user.label),
        neededBy: Object.fromEntries(scopes.map((scope) => [scope, neededBy[scope]!])),
        report: unionOf(users.map((user) => user.report)),
        proofs: await proveKeyHolds(users[0]!.settings, scopes),
      };
    }),
  );
}

function exitOf(checks: readonly KeyCheck[]): number {
  const verdicts = checks.flatMap((check) => check.proofs.map((proof) => proof.verdict));
  if (verdicts.includes("failed")) return SCOPES_EXIT.failed;
  return verdicts.includes("missing") ? SCOPES_EXIT.missing : SCOPES_EXIT.ok;
}

/** The check of one key: its lines as `scopes --check` writes them, then the stacks behind each missing scope. */
function renderKeyCheck(check: KeyCheck): string[] {
  const key = `the key of ${check.from.join(" and ")} (used by ${check.stacks.join(", ")})`;
  const lines = renderCheck(check.report, check.proofs, key, "its stacks");
  for (const proof of check.proofs) if (proof.verdict === "missing") lines.push(`  ${proof.scope} is needed by stack(s) ${check.neededBy[proof.scope]!.join(", ")}`);
  return lines;
}

const keyCheckJson = (check: KeyCheck) => ({ from: check.from, stacks: check.stacks, neededBy: check.neededBy, check: check.proofs.map(proofJson) });

/** `fleet scopes [--json] [--check]`: the union over the run's stacks, each stack's own `all`, and with --check each key's proof. */
export async function runFleetScopes(options: FleetOptions, targets: FleetTargets, io: CommandIO): Promise<number> {
  const stacks = await scopesOfStacks(targets, options.parallel, options.keyEnv);
  const union = unionOf(stacks.map((stack) => stack.report));
  const checks = options.check ? await checkKeys(stacks, (report) => report.all, options.parallel) : undefined;
  if (options.json) {
    const perStack = Object.fromEntries(stacks.map((stack) => [stack.label, stack.report.all]));
    io.stdout.write(`${JSON.stringify({ ...union, stacks: perStack, ...(checks === undefined ? {} : { keys: checks.map(keyCheckJson) }) }, null, 2)}\n`);
  } else {
    const perStack = ["", "Every scope of each stack:", ...stacks.map((stack) => `  ${stack.label}  ${stack.report.all.join(", ") || "(none)"}`)];
    const checked = (checks ?? []).flatMap((check) => ["", ...renderKeyCheck(check)]);
    io.stdout.write(`${renderReport(`the fleet's ${stacks.length} stack(s)`, union).trimEnd()}\n${[...perStack, ...checked].join("\n")}\n`);
  }
  return checks === undefined ? SCOPES_EXIT.ok : exitOf(checks);
}

/**
 * `--check-scopes`: before a verb runs anything, each distinct key is proven to hold the scopes
 * that verb needs for the stacks that use it (one GET per scope and key). Undefined when every key
 * holds them; else the check is written to stderr and the run's exit status (1) comes back.
 */
export async function checkScopesBefore(verb: CheckedVerb, options: FleetOptions, targets: FleetTargets, io: CommandIO): Promise<number | undefined> {
  const checks = await checkKeys(await scopesOfStacks(targets, options.parallel), (report) => report.commands[verb], options.parallel);
  const requests = checks.reduce((sum, check) => sum + check.proofs.filter((proof) => "route" in proof).length, 0);
  if (exitOf(checks) === SCOPES_EXIT.ok) {
    io.stderr.write(`Scopes checked before ${verb}: ${checks.length} key(s) hold every scope their stacks need (${requests} GET(s)).\n`);
    return undefined;
  }
  io.stderr.write(`${checks.flatMap((check) => [...renderKeyCheck(check), ""]).join("\n")}Nothing was run: ${verb} needs these scopes (--check-scopes).\n`);
  return EXIT.failed;
}
