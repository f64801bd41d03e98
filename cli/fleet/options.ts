/** The command line of `pulumi-monitoring fleet` (also installed as `pulumi-monitoring-fleet`). */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";

export const USAGE = `Usage: pulumi-monitoring fleet <command> [options]
       pulumi-monitoring-fleet <command> [options]

Runs one Pulumi operation on every stack of a project (one stack per client), several at once,
sharing the API rate budget between them. Uses the Pulumi CLI on PATH and the backend it is
logged in to (or PULUMI_BACKEND_URL); secrets providers as for the CLI (PULUMI_CONFIG_PASSPHRASE).

Commands:
  preview    Show what \`up\` would change in each stack, after reading what the service holds
  up         Deploy each stack (asks for confirmation in a terminal unless --yes): read what the
             service holds first (a refresh), then put back what the program declares
  refresh    Record in each stack's state what the service holds now
  destroy    Delete each stack's resources (asks for confirmation in a terminal unless --yes);
             the shared stack goes last, and only when every client stack is destroyed with it
  drift      Check, without changing anything, which objects were changed outside Pulumi:
             per stack, each object and field, recorded value -> value in the service
  list       Print the selected stacks; with --json as a CI matrix: {"include":[{"stack":"acme"},...]}
  init       Create a stack for each spec file of the clients folder (clients/<stack>.yaml)
             that has none, and update the configuration of those whose spec changed

Options:
  --cwd DIR        The Pulumi project directory (default: the current directory)
  --stack GLOB     Only stacks whose name matches (repeatable; * and ? wildcards)
  --exclude GLOB   Leave out stacks whose name matches (repeatable)
  --parallel N     Stacks run at once (default: the number of cores, at most 8)
  --max-rps N      The API budget in requests per second, split evenly between the stacks running
                   at once, less one per stack in reserve for timing jitter
                   (default: monitoring:maxRequestsPerSecond of Pulumi.yaml's config)
  --no-shared      Do not run the shared stack named in Pulumi.yaml (fleet.shared); its current
                   outputs are still passed on to the client stacks
  --no-refresh     preview/up: do not read the service first (faster); a change made by hand then
                   stays until the program itself changes that object
  --isolated       Run each stack's program in a Node.js process of its own, as \`pulumi up\` does,
                   rather than once per stack inside the fleet's process (see "Programs" below)
  --clients DIR    init: the folder of client spec files (default: fleet.clients.dir, else clients)
  --json           Write the report (list: the matrix) as JSON on stdout instead of a table
  --yes, -y        up/destroy: do not ask for confirmation
  --help, -h       Show this text

The shared stack: when Pulumi.yaml has a \`fleet.shared\` section (dir, stack, outputs), that stack
runs first (last for destroy), and its outputs are written into each client stack's configuration
under the keys \`outputs\` names before the clients preview or deploy.

Programs: a Node.js project's program runs inside the fleet's own process, once per stack, so
that @pulumi/pulumi, TypeScript and the installed packages load once rather than for every stack.
The project's own modules run again for each stack, with that stack's configuration. Installed
packages are shared by the stacks, and the program's console output goes to its stack's engine
log. A project with another runtime, an ES module program, runtime.options.nodeargs or a
@pulumi/pulumi of its own runs each stack's program in a process of its own, as with --isolated.

Progress goes to stderr: one line per stack, redrawn in a terminal, one line per change otherwise.
Exit status: 0 success, 1 a stack failed, 2 bad usage, 3 drift found (drift), 130 interrupted.
Ctrl-C stops starting stacks and cancels running operations; the report names the stacks that were
interrupted and how to recover them.`;

export const VERBS = ["preview", "up", "refresh", "destroy", "drift", "list", "init"] as const;
export type FleetCommand = (typeof VERBS)[number];

export interface FleetOptions {
  command: FleetCommand;
  cwd: string;
  stacks: string[];
  exclude: string[];
  parallel: number;
  maxRps?: number;
  shared: boolean;
  /** preview/up read what the service holds first (a refresh), so that hand changes are put back. */
  refresh: boolean;
  /** Each stack's program in a process of its own (the CLI's way), never in the fleet's. */
  isolated: boolean;
  clients?: string;
  json: boolean;
  yes: boolean;
}

export class UsageError extends Error {}

/** At most 8 at once by default: beyond that the CLI processes mostly wait on each other. */
export const defaultParallel = (): number => Math.min(8, availableParallelism());

export function parseFleetArgs(argv: readonly string[], cwd: string): FleetOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        cwd: { type: "string" },
        stack: { type: "string", multiple: true },
        exclude: { type: "string", multiple: true },
        parallel: { type: "string" },
        "max-rps": { type: "string" },
        "no-shared": { type: "boolean" },
        "no-refresh": { type: "boolean" },
        isolated: { type: "boolean" },
        clients: { type: "string" },
        json: { type: "boolean" },
        yes: { type: "boolean", short: "y" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  const [command, ...extra] = positionals;
  if (command === undefined) throw new UsageError(`a command is required: ${VERBS.join(", ")}`);
  if (!(VERBS as readonly string[]).includes(command)) throw new UsageError(`unknown command ${JSON.stringify(command)}: expected one of ${VERBS.join(", ")}`);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}; stacks are chosen with --stack GLOB`);

  const options: FleetOptions = {
    command: command as FleetCommand,
    cwd: values.cwd ?? cwd,
    stacks: values.stack ?? [],
    exclude: values.exclude ?? [],
    parallel: defaultParallel(),
    shared: !values["no-shared"],
    refresh: !values["no-refresh"],
    isolated: values.isolated ?? false,
    json: values.json ?? false,
    yes: values.yes ?? false,
  };
  if (values.parallel !== undefined) {
    const parallel = Number(values.parallel);
    if (!Number.isInteger(parallel) || parallel < 1) throw new UsageError(`--parallel must be a whole number of at least 1, got ${values.parallel}`);
    options.parallel = parallel;
  }
  if (values["max-rps"] !== undefined) {
    const maxRps = Number(values["max-rps"]);
    if (!(maxRps > 0) || !Number.isFinite(maxRps)) throw new UsageError(`--max-rps must be a positive number, got ${values["max-rps"]}`);
    options.maxRps = maxRps;
  }
  if (values.clients !== undefined) options.clients = values.clients;
  return options;
}
