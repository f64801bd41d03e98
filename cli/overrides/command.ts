/**
 * `pulumi-monitoring pause`, `resume` and `overrides`: an operator's pause with an end, recorded in
 * the stack's state by one targeted run (cli/overrides/run.ts), ended early, and listed. Every
 * input is checked against the stack's state before the run, so a refused command writes nothing.
 */
import { type OverrideRequest, type OverrideRow, overridesInState } from "../../provider/overrides.js";
import { joinedValues } from "../command/args.js";
import { defineCommand } from "../command/command.js";
import { EXIT } from "../command/exit.js";
import type { CommandIO } from "../command/io.js";
import { UsageError } from "../command/usage.js";
import { type FleetProject, readProject } from "../project/project.js";
import { chosenStack, STACK_OPTIONS } from "../project/stack.js";
import { actorOf, type PauseAsked, pauseAsked, untilOf, VALUED_OPTIONS } from "./request.js";
import { type OverrideWork, readStackState, runOverrides, type StackState } from "./run.js";
import { findTarget, type OverrideTarget } from "./targets.js";

const PAUSE_USAGE = `Usage: pulumi-monitoring pause <resource> (--for DURATION | --until INSTANT) --reason TEXT [options]

Pauses a monitor, a heartbeat or a set's member now and records an override in the stack's state:
every deploy (up, fleet up, refresh, preview), from any runner of the stack, keeps it paused until
the end, and the first deploy after the end resumes it. One targeted run (pulumi up --target) sends
the pause call and records the override; nothing else of the stack is changed.

<resource> is the program's name of the object (web), or a set's member (fleet[web]).

Options:
  --for DURATION   How long from now: 2h, 90m, 1d, 1h30m
  --until INSTANT  Until when: an ISO 8601 instant with an offset (2030-11-28T22:00:00Z)
  --reason TEXT    Why (not empty); deploys, drift and \`overrides\` show it
  --stack NAME     The stack (default: the project's selected stack)
  --cwd DIR        The Pulumi project directory (default: the current directory)
  -h, --help       Show this text

The author is PULUMI_MONITORING_ACTOR, else GITHUB_ACTOR, else GITLAB_USER_LOGIN, else git's
user.name, else the system user. "Now" is the deploys' clock: monitoring:now, else
PULUMI_MONITORING_NOW, else the system clock.
Exit status: 0 recorded, 1 the run failed, 2 bad usage (nothing written).`;

const RESUME_USAGE = `Usage: pulumi-monitoring resume <resource> [options]

Ends the override of a monitor, a heartbeat or a set's member early: one targeted run drops the
record and resumes the object (unless a window in code or a declared \`paused: true\` asks for the
pause). A name with no override is refused, and nothing is written.

Options:
  --stack NAME   The stack (default: the project's selected stack)
  --cwd DIR      The Pulumi project directory (default: the current directory)
  -h, --help     Show this text

Exit status: 0 ended, 1 the run failed, 2 bad usage (nothing written).`;

const OVERRIDES_USAGE = `Usage: pulumi-monitoring overrides [options]

Lists the overrides recorded in the stack's state: resource, member, who, why, until when, and
whether each is active (deploys keep the object paused) or has ended (the next deploy resumes it).
Reads the state only; sends no request to the service.

Options:
  --json         Write { "stack": ..., "overrides": [...] }
  --stack NAME   The stack (default: the project's selected stack)
  --cwd DIR      The Pulumi project directory (default: the current directory)
  -h, --help     Show this text`;

/** The object `name` of a stack to pause, with the request that pauses it; refuses before anything runs. */
export function pauseRequest(state: StackState, stack: string, name: string, asked: PauseAsked, by: string): { target: OverrideTarget; request: OverrideRequest } {
  const target = findTarget(state.exported, stack, name);
  return { target, request: { urn: target.urn, ...memberOf(target), until: untilOf(asked, state.now), reason: asked.reason, by } };
}

/** The object `name` of a stack and the request that ends its override; a name with none is refused. */
export function resumeRequest(state: StackState, stack: string, name: string): { target: OverrideTarget; request: OverrideRequest } {
  const target = findTarget(state.exported, stack, name);
  if (!overridesInState(state.exported, state.now).some((row) => rowName(row) === target.name)) {
    throw new UsageError(`${target.name} of stack ${stack} has no override to end (pulumi-monitoring overrides lists them)`);
  }
  return { target, request: { urn: target.urn, ...memberOf(target), end: true } };
}

const memberOf = (target: OverrideTarget) => (target.member === undefined ? {} : { member: target.member });

/** `web`, `fleet[web]`: a row's object as the commands name it. */
export const rowName = (row: OverrideRow): string => (row.member === undefined ? row.resource : `${row.resource}[${row.member}]`);

/**
 * Records the overrides of `work` in one run of the stack: the lines that say whose dead runs'
 * locks it took over, then what was done to each object.
 */
export async function recordOverrides(project: FleetProject, stack: string, work: readonly OverrideWork[], budgetAddress?: string): Promise<string[]> {
  const takenOver = await runOverrides(project, stack, work, budgetAddress);
  return [...takenOver, ...work.map(({ target, request }) => doneLine(stack, target, request))];
}

/** What a recorded pause or resume prints. */
function doneLine(stack: string, target: OverrideTarget, request: OverrideRequest): string {
  if ("end" in request) return `Ended the override of ${target.kind} ${target.name} in stack ${stack}: resumed unless a window or the program asks for the pause.`;
  return `Paused ${target.kind} ${target.name} in stack ${stack} until ${request.until} for '${request.reason}', by ${request.by}: deploys keep it paused until then.`;
}

/** The one object a single-stack command names. */
function resourceOf(positionals: readonly string[]): string {
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? "name the resource: web, or a set's member fleet[web]" : `one resource at a time, got ${positionals.join(" ")}`);
  return positionals[0] as string;
}

const pauseCommand = defineCommand({
  name: "pause",
  usage: PAUSE_USAGE,
  options: { ...STACK_OPTIONS, for: { type: "string" }, until: { type: "string" }, reason: { type: "string" } },
  positionals: true,
  async run({ values, positionals }, io) {
    const name = resourceOf(positionals);
    const asked = pauseAsked(values);
    const cwd = values.cwd ?? process.cwd();
    const stack = await chosenStack(cwd, values.stack);
    const project = await readProject(cwd);
    const { target, request } = pauseRequest(await readStackState(project, stack, io.env), stack, name, asked, await actorOf(io.env, cwd));
    io.stdout.write((await recordOverrides(project, stack, [{ target, request }])).map((line) => `${line}\n`).join(""));
    return EXIT.ok;
  },
});

/** `--for -1h` reaches its rule rather than being taken for an option. */
export const pause = { run: (argv: readonly string[], io?: CommandIO) => pauseCommand.run(joinedValues(argv, VALUED_OPTIONS), io) };

export const resume = defineCommand({
  name: "resume",
  usage: RESUME_USAGE,
  options: STACK_OPTIONS,
  positionals: true,
  async run({ values, positionals }, io) {
    const name = resourceOf(positionals);
    const cwd = values.cwd ?? process.cwd();
    const stack = await chosenStack(cwd, values.stack);
    const project = await readProject(cwd);
    const { target, request } = resumeRequest(await readStackState(project, stack, io.env), stack, name);
    io.stdout.write((await recordOverrides(project, stack, [{ target, request }])).map((line) => `${line}\n`).join(""));
    return EXIT.ok;
  },
});

export const overrides = defineCommand({
  name: "overrides",
  usage: OVERRIDES_USAGE,
  options: { ...STACK_OPTIONS, json: { type: "boolean" } },
  async run({ values }, io) {
    const cwd = values.cwd ?? process.cwd();
    const stack = await chosenStack(cwd, values.stack);
    const state = await readStackState(await readProject(cwd), stack, io.env);
    const rows = overridesInState(state.exported, state.now);
    io.stdout.write(values.json ? `${JSON.stringify({ stack, overrides: rows }, null, 2)}\n` : renderOverrides([{ stack, rows }]));
    return EXIT.ok;
  },
});

/** The overrides of one or more stacks as a table, one line per override. */
export function renderOverrides(stacks: ReadonlyArray<{ stack: string; rows: readonly OverrideRow[] }>): string {
  const lines = stacks.flatMap(({ stack, rows }) => rows.map((row) => [stack, rowName(row), row.state, row.until, row.by, row.reason]));
  if (lines.length === 0) return `No override recorded in ${stacks.length === 1 ? `stack ${stacks[0]?.stack}` : `the ${stacks.length} stacks`}.\n`;
  const table = [["STACK", "RESOURCE", "STATE", "UNTIL", "BY", "REASON"], ...lines];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((line) => (line[column] as string).length)));
  return table.map((line) => line.map((cell, column) => (column === line.length - 1 ? cell : cell.padEnd(widths[column] as number))).join("  ")).join("\n") + "\n";
}
