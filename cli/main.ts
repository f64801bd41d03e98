#!/usr/bin/env node
/**
 * `pulumi-monitoring <command> ...`: the package's command line. Each command lives in its own
 * module and is registered here with one line.
 */
import { runDrift } from "./drift/command.js";
import { runFleet } from "./fleet/stacks/run.js";
import { runImport } from "./import/main.js";
import { runVerify } from "./verify/command.js";

interface Command {
  summary: string;
  run(argv: readonly string[]): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  drift: { summary: "check one stack for changes made outside Pulumi and for objects no stack manages", run: runDrift },
  fleet: { summary: "preview, deploy and check drift across every client stack of a project", run: runFleet },
  import: { summary: "write a Pulumi program that adopts an existing account", run: runImport },
  verify: { summary: "prove that what the last deploy created or changed works: checks, test deliveries, test alerts", run: runVerify },
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
  const command = COMMANDS[name];
  if (command === undefined) {
    process.stderr.write(`pulumi-monitoring: unknown command ${JSON.stringify(name)}\n\n${USAGE}\n`);
    return 2;
  }
  return command.run(rest);
}

// Exit explicitly: a command may leave child processes it gave up waiting for.
void main(process.argv.slice(2)).then((code) => process.exit(code));
