#!/usr/bin/env node
/**
 * `pulumi-monitoring <command>`: the package's command line. Each command lives in its own
 * directory under cli/ and is also installed as a bin of its own (`pulumi-monitoring-import`).
 */
import { runImport } from "./import/main.js";

const COMMANDS: Record<string, { summary: string; run: (argv: readonly string[]) => Promise<number> }> = {
  import: { summary: "write a Pulumi program that adopts an existing account", run: runImport },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`);
  return `Usage: pulumi-monitoring <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nRun \`pulumi-monitoring <command> --help\` for a command's options.\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    process.stderr.write(`pulumi-monitoring: unknown command ${JSON.stringify(name)}\n\n${usage()}`);
    return 2;
  }
  return command.run(rest);
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
