/**
 * `pulumi-monitoring pause`, `resume` and `overrides`: an operator's pause with an end, sent to the
 * service and recorded in the stack's state (cli/overrides/writes.ts), ended early, and listed.
 * Every input is checked against the stack's state first, so a refused command sends and writes
 * nothing; the deployed state decides what a name means, never the checkout's program.
 */
import { internal } from "../../provider/fields.js";
import { planOf, recordsAfterPlan } from "../../provider/pauses.js";
import { describeTakenOver } from "../fleet/runners/lease.js";
import { fleetWorkspace } from "../project/workspace.js";
import { joinedValues } from "../command/args.js";
import { defineCommand } from "../command/command.js";
import { EXIT } from "../command/exit.js";
import type { CommandIO } from "../command/io.js";
import { UsageError } from "../command/usage.js";
import { type FleetProject, operatorProject } from "../project/project.js";
import { chosenStack, STACK_OPTIONS } from "../project/stack.js";
import { actorOf, type PauseAsked, pauseAsked, untilOf, VALUED_OPTIONS } from "./request.js";
import { type OverrideRow, overridesInState } from "./records.js";
import { readStackState, type StackState } from "./run.js";
import { findTarget, type OverrideTarget } from "./targets.js";
import { applyPauseChanges, type PauseChange } from "./writes.js";

const PAUSE_USAGE = `Usage: pulumi-monitoring pause <resource> (--for DURATION | --until INSTANT) --reason TEXT [options]

Pauses a monitor, a heartbeat or a set's member now and records an override in the stack's state:
every deploy (up, fleet up, refresh, preview), from any runner of the stack, keeps it paused until
the end, and the first deploy after the end resumes it. It sends the one pause call and records the
override in the stack's state; nothing else of the service or the state is changed, and the
stack's program is not run: the object is found in the deployed state, whatever the checkout
declares (it works from a directory with no program, given --stack and the backend).

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

Ends the override of a monitor, a heartbeat or a set's member early: it drops the record and
sends the one resume call (none when a window or a declared \`paused: true\` in the deployed
program asks for the pause). A name with no override is refused, and nothing is written.

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

/** The pause of the object `name` of a stack until the end asked for; refuses before anything is sent. */
export function pauseChange(state: StackState, stack: string, name: string, asked: PauseAsked, by: string): PauseChange {
  const target = findTarget(state.exported, stack, name);
  const override = { until: untilOf(asked, state.now), reason: asked.reason, by, at: new Date(state.now).toISOString() };
  // A hand pause's sighting stays while it would keep the object paused once the override ends.
  const { handPauseSeen } = recordsAfterPlan(target.outputs, planWithoutOverride(state, target));
  return { target, write: true, override, ...(handPauseSeen === undefined ? {} : { handPauseSeen }) };
}

/**
 * The end of the override of the object `name` of a stack: the record dropped, and the resume call
 * unless the deployed program or a window wants the object paused without it. A name with no
 * override is refused.
 */
export function resumeChange(state: StackState, stack: string, name: string): PauseChange {
  const target = findTarget(state.exported, stack, name);
  if (!overridesInState(state.exported, state.now).some((row) => rowName(row) === target.name)) {
    throw new UsageError(`${target.name} of stack ${stack} has no override to end (pulumi-monitoring overrides lists them)`);
  }
  const plan = planWithoutOverride(state, target);
  const { handPauseSeen } = recordsAfterPlan(target.outputs, plan);
  const paused = plan.paused === true;
  return { target, ...(paused && target.outputs["paused"] === true ? {} : { write: paused }), ...(handPauseSeen === undefined ? {} : { handPauseSeen }) };
}

function planWithoutOverride(state: StackState, target: OverrideTarget) {
  const { [internal.override]: _override, ...outputs } = target.outputs;
  return planOf(target.inputs, outputs, state);
}

/** `web`, `fleet[web]`: a row's object as the commands name it. */
export const rowName = (row: OverrideRow): string => (row.member === undefined ? row.resource : `${row.resource}[${row.member}]`);

/** What a pause or resume did in one stack: a line per lock taken over and per object done; what failed, if anything did. */
export interface OverridesDone {
  lines: string[];
  failure?: string;
}

/**
 * Sends and records `changes` in one stack: the lines that say whose dead runs' locks it took
 * over, then what was done to each object, and the failure naming each object whose call failed,
 * or the state that could not be written.
 */
export async function recordOverrides(project: FleetProject, stack: string, changes: readonly PauseChange[], budget?: string): Promise<OverridesDone> {
  const workspace = await fleetWorkspace(project.dir);
  const { outcomes, takenOver, unrecorded } = await applyPauseChanges({ project, stack, workspace, ...(budget === undefined ? {} : { budget }) }, changes);
  const failed = outcomes.filter((outcome) => outcome.error !== undefined);
  const lines = [...takenOver.map((lock) => `took over ${describeTakenOver(lock)}`), ...outcomes.filter((outcome) => outcome.error === undefined).map(({ change }) => doneLine(stack, change, unrecorded))];
  if (failed.length === 0 && unrecorded === undefined) return { lines };
  const why = [...failed.map(({ change, error }) => `${change.target.kind} ${change.target.name}: ${error}`), ...(unrecorded === undefined ? [] : [`the state could not be written: ${unrecorded}`])];
  return { lines, failure: `stack ${stack}: ${why.join("; ")}` };
}

/** Prints what was done, then fails with what was not. */
function report({ lines, failure }: OverridesDone, io: CommandIO): number {
  io.stdout.write(lines.map((line) => `${line}\n`).join(""));
  if (failure !== undefined) throw new Error(failure);
  return EXIT.ok;
}

/** What a pause or resume did, as the next deploy will see it. */
function doneLine(stack: string, { target, write, override }: PauseChange, unrecorded: string | undefined): string {
  const recorded = unrecorded === undefined ? "" : " (the service holds it; the state does not record it yet: run the command again)";
  if (override !== undefined) return `Paused ${target.kind} ${target.name} in stack ${stack} until ${override.until} for '${override.reason}', by ${override.by}: deploys keep it paused until then.${recorded}`;
  const how = write === false ? "resumed it" : write === true ? "paused it, as the deployed program asks" : "it stays paused, as the deployed program asks";
  return `Ended the override of ${target.kind} ${target.name} in stack ${stack}: ${how}.${recorded}`;
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
    const project = await operatorProject(cwd, stack);
    const change = pauseChange(await readStackState(project, stack, io.env), stack, name, asked, await actorOf(io.env, cwd));
    return report(await recordOverrides(project, stack, [change]), io);
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
    const project = await operatorProject(cwd, stack);
    const change = resumeChange(await readStackState(project, stack, io.env), stack, name);
    return report(await recordOverrides(project, stack, [change]), io);
  },
});

export const overrides = defineCommand({
  name: "overrides",
  usage: OVERRIDES_USAGE,
  options: { ...STACK_OPTIONS, json: { type: "boolean" } },
  async run({ values }, io) {
    const cwd = values.cwd ?? process.cwd();
    const stack = await chosenStack(cwd, values.stack);
    const state = await readStackState(await operatorProject(cwd, stack), stack, io.env);
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
