/**
 * What every command shares, as one base: its options read by the one parser, `--help` answered,
 * a usage error and any other failure reported alike. A command is one module that exports
 * `defineCommand({...})`, registered in cli/main.ts with one line (docs/architecture.md).
 */
import { type CommandLine, type CommandOptions, parseCommandLine } from "./args.js";
import { EXIT } from "./exit.js";
import { type CommandIO, defaultIO } from "./io.js";
import { UsageError } from "./usage.js";

export interface CommandSpec<T extends CommandOptions> {
  /** As typed after `pulumi-monitoring`; the prefix of its messages. */
  name: string;
  /** The text of `--help`; for a command with verbs, the one its words ask for (the fleet's `up --help`). */
  usage: string | ((positionals: readonly string[]) => string);
  options: T;
  /** The command takes words besides its options (the fleet's verb). */
  positionals?: boolean;
  /** The line after a usage error, pointing at `--help`. */
  hint?: string;
  /** Does the work; throws a {@link UsageError} for bad usage, any other error for a failure (exit 1). */
  run(line: CommandLine<T>, io: CommandIO): Promise<number>;
}

export interface Command {
  /** Runs the command line `argv` (after the command's name) and returns the exit status. */
  run(argv: readonly string[], io?: CommandIO): Promise<number>;
}

export function defineCommand<const T extends CommandOptions>(spec: CommandSpec<T>): Command {
  const hint = spec.hint ?? `Run \`pulumi-monitoring ${spec.name} --help\` for the options.`;
  return {
    async run(argv, io = defaultIO()) {
      try {
        const line = parseCommandLine(argv, spec.options, spec.positionals);
        if ((line.values as { help?: boolean }).help) {
          io.stdout.write(`${typeof spec.usage === "string" ? spec.usage : spec.usage(line.positionals)}\n`);
          return EXIT.ok;
        }
        return await spec.run(line, io);
      } catch (error) {
        io.stderr.write(`pulumi-monitoring ${spec.name}: ${error instanceof Error ? error.message : String(error)}\n`);
        if (!(error instanceof UsageError)) return EXIT.failed;
        io.stderr.write(`${hint}\n`);
        return EXIT.usage;
      }
    },
  };
}
