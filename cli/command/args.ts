/** The one argument parser of the commands: Node's `parseArgs`, its refusals turned into usage errors. */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { durationMs } from "../../provider/duration.js";
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

/** A value that must be a duration (provider/duration.ts: `90s`, `5m`, `1h30m`; a number alone is seconds), in milliseconds. */
export function parseDuration(option: string, text: string): number {
  const value = durationMs(text, { bareSeconds: true });
  if (value === undefined) throw new UsageError(`${option} must be a duration such as 90s, 5m or 1h, got ${JSON.stringify(text)}`);
  return value;
}

/**
 * The command line with each of `options` followed by its value written as `--for=X`: a value that
 * starts with a dash (`--for -1h`) then reaches the option's own rule, not taken for an option.
 */
export function joinedValues(argv: readonly string[], options: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index] as string;
    const value = argv[index + 1];
    if (options.includes(word) && value !== undefined) {
      joined.push(`${word}=${value}`);
      index++;
    } else joined.push(word);
  }
  return joined;
}
