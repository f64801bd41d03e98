/** The one argument parser of the commands: Node's `parseArgs`, its refusals turned into usage errors. */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { UsageError } from "./usage.js";

/** Every command answers `--help` and `-h`. */
const helpOption = { help: { type: "boolean", short: "h" } } as const satisfies ParseArgsOptionsConfig;

export type CommandOptions = ParseArgsOptionsConfig;

/** The parsed values of `options`, `help` included. */
export type OptionValues<T extends CommandOptions> = ReturnType<typeof parseArgs<{ args: string[]; options: T & typeof helpOption; allowPositionals: true }>>["values"];

export interface CommandLine<T extends CommandOptions> {
  values: OptionValues<T>;
  /** The words that are not options (the fleet's verb); empty for a command that takes none. */
  positionals: string[];
}

/** Parses `argv`; an unknown option, a missing value or a word the command does not take is a {@link UsageError}. */
export function parseCommandLine<const T extends CommandOptions>(argv: readonly string[], options: T, allowPositionals = false): CommandLine<T> {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: { ...options, ...helpOption }, allowPositionals, strict: true });
    return { values: values as OptionValues<T>, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A value that must be a positive number (`--timeout`, `--max-rps`); `what` ends the message. */
export function positiveNumber(option: string, text: string, what = "a positive number"): number {
  const value = Number(text);
  if (!(value > 0) || !Number.isFinite(value)) throw new UsageError(`${option} must be ${what}, got ${text}`);
  return value;
}
