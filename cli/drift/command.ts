/**
 * `pulumi-monitoring drift`: the drift check of one stack. It is `fleet drift` narrowed to that
 * stack, so both commands give the same report from the same code.
 */
import { type FleetIO, runFleet } from "../fleet/stacks/run.js";
import { chosenStack, parseCommandArgs } from "../project/stack.js";

export const USAGE = `Usage: pulumi-monitoring drift [options]

Checks one stack, without changing anything, for what was done outside Pulumi, and says what the
next deploy does about each finding:
  - declared fields changed by hand, old -> new: the next deploy puts them back;
  - fields the program leaves out, changed by hand: the next deploy keeps them;
  - objects deleted by hand: the next deploy creates them again;
  - monitors and heartbeats paused by hand, flagged even when the program does not declare paused;
  - each monitor of a MonitorSet told on its own, as \`MonitorSet <set>[<key>]\` with its id;
  - unmanaged objects: in the stack's scope (its clients, or outside any client) and managed by no
    stack of the project, each with the declaration that adopts it (new mon.Kind("…", { adoptId, … })).
    Pulumi.yaml's \`drift:\` section names other projects whose stacks count as managing, and ids and
    name patterns to ignore (docs/reconcile-and-drift.md).
The stack's objects are read by a refresh preview; the unmanaged ones in list pages of 250.
\`pulumi-monitoring fleet drift\` runs the same check over every stack of the project.

Options:
  --stack NAME   The stack to check (default: the project's selected stack)
  --cwd DIR      The Pulumi project directory (default: the current directory)
  --json         Write the report as JSON
  --markdown     Write the report as markdown, for a CI job to post as a comment or an issue
  -h, --help     Show this text

Exit status: 0 in sync, 1 the check failed, 2 bad usage, 3 drift or unmanaged objects found.`;

const defaultIO = (): FleetIO => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, signals: process });

export async function runDrift(argv: readonly string[], io: FleetIO = defaultIO()): Promise<number> {
  const command = { name: "drift", usage: USAGE };
  const parsed = parseCommandArgs(command, argv, { json: { type: "boolean" }, markdown: { type: "boolean" } }, io);
  if ("exit" in parsed) return parsed.exit;
  const { values } = parsed;
  const cwd = values.cwd ?? process.cwd();
  const chosen = await chosenStack(command, cwd, values.stack, io);
  if ("exit" in chosen) return chosen.exit;
  const format = [...(values.json ? ["--json"] : []), ...(values.markdown ? ["--markdown"] : [])];
  return runFleet(["drift", "--cwd", cwd, "--stack", chosen.stack, "--no-shared", ...format], io);
}
