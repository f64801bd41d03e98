/**
 * What the single-stack commands (`drift`, `verify`) share: their options are parsed, `--help`
 * answered and a usage error reported the same way, and the stack they act on is `--stack` or,
 * as with `pulumi`, the project's selected stack.
 */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { fleetWorkspace } from "../fleet/stacks/operations.js";
import type { FleetIO } from "../fleet/stacks/run.js";

/** The exit statuses the single-stack commands share (their own add what each finds: drift, failures). */
export const COMMAND_EXIT = { ok: 0, error: 1, usage: 2 } as const;

/** The options every single-stack command takes, beside its own. */
const commonOptions = {
  stack: { type: "string" },
  cwd: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsOptionsConfig;

/** The parsed values of a command's own options and the common ones. */
type CommandValues<T extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<{ args: string[]; options: T & typeof commonOptions }>>["values"];

export interface StackCommand {
  /** The name users type: `drift`, `verify`. */
  name: string;
  usage: string;
}

/** Writes a usage error as every command does, pointing at `--help`, and gives the usage exit status. */
export function usageError(command: StackCommand, io: FleetIO, message: string): number {
  io.stderr.write(`pulumi-monitoring ${command.name}: ${message}\nRun \`pulumi-monitoring ${command.name} --help\` for the options.\n`);
  return COMMAND_EXIT.usage;
}

/**
 * The command's options, or the exit status when there is nothing more to do: after `--help`
 * (its usage printed) or an option the command does not take (a usage error).
 */
export function parseCommandArgs<const T extends ParseArgsOptionsConfig>(
  command: StackCommand,
  argv: readonly string[],
  options: T,
  io: FleetIO,
): { values: CommandValues<T> } | { exit: number } {
  let values: CommandValues<T>;
  try {
    values = parseArgs({ args: [...argv], options: { ...options, ...commonOptions } }).values as CommandValues<T>;
  } catch (error) {
    return { exit: usageError(command, io, (error as Error).message) };
  }
  if ((values as { help?: boolean }).help) {
    io.stdout.write(`${command.usage}\n`);
    return { exit: COMMAND_EXIT.ok };
  }
  return { values };
}

/**
 * The stack to act on: the one named, else the project's selected stack. Undefined, with the
 * exit status already reported, when the project cannot be read or no stack is selected.
 */
export async function chosenStack(command: StackCommand, cwd: string, named: string | undefined, io: FleetIO): Promise<{ stack: string } | { exit: number }> {
  if (named !== undefined) return { stack: named };
  let selected: string | undefined;
  try {
    selected = (await (await fleetWorkspace(cwd)).stack())?.name;
  } catch (error) {
    io.stderr.write(`pulumi-monitoring ${command.name}: ${(error as Error).message.split("\n")[0]}\n`);
    return { exit: COMMAND_EXIT.error };
  }
  return selected === undefined ? { exit: usageError(command, io, "no stack is selected: pass --stack NAME") } : { stack: selected };
}
