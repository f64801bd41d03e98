#!/usr/bin/env node
/**
 * `pulumi-monitoring <command> ...`: the package's command line. Each command is one module built
 * with defineCommand (cli/command/command.ts), registered here with one line and loaded when run.
 */
import type { Command } from "./command/command.js";
import { exitOnceWritten } from "./command/exit.js";

const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  "apply-due": { summary: "apply the pauses and resumes due now, and nothing else (for a job every 15 minutes)", load: async () => (await import("./apply-due/command.js")).applyDueCommand },
  drift: { summary: "check one stack for changes made outside Pulumi and for objects no stack manages", load: async () => (await import("./drift/command.js")).drift },
  fleet: { summary: "preview, deploy and check drift across every client stack of a project", load: async () => (await import("./fleet/command.js")).fleet },
  import: { summary: "write a Pulumi program that adopts an existing account", load: async () => (await import("./import/main.js")).importCommand },
  overrides: { summary: "list the overrides (pauses with an end) recorded in a stack's state", load: async () => (await import("./overrides/command.js")).overrides },
  pause: { summary: "pause a monitor or heartbeat now, until an end, with a reason; every deploy keeps it paused", load: async () => (await import("./overrides/command.js")).pause },
  resume: { summary: "end an override early: resume the object", load: async () => (await import("./overrides/command.js")).resume },
  scopes: { summary: "list the scopes an API key needs for each command on a stack; --check proves the key holds them", load: async () => (await import("./scopes/command.js")).scopes },
  verify: { summary: "prove that what the last deploy created or changed works: checks, test deliveries, test alerts", load: async () => (await import("./verify/command.js")).verify },
};

const USAGE = `Usage: pulumi-monitoring <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
  .join("\n")}

Run \`pulumi-monitoring <command> --help\` for a command's options.`;

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    process.stderr.write(`pulumi-monitoring: unknown command ${JSON.stringify(name)}\n\n${USAGE}\n`);
    return 2;
  }
  return (await command.load()).run(rest);
}

void main(process.argv.slice(2)).then(exitOnceWritten);
