/**
 * `pulumi-monitoring drift`: the drift check of one stack. It is `fleet drift` narrowed to that
 * stack, so both commands give the same report from the same code.
 */
import { defineCommand } from "../command/command.js";
import { UsageError } from "../command/usage.js";
import { runFleet } from "../fleet/command.js";
import { defaultFleetOptions } from "../fleet/options.js";
import { chosenStack, STACK_OPTIONS } from "../project/stack.js";

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

export const drift = defineCommand({
  name: "drift",
  usage: USAGE,
  options: { ...STACK_OPTIONS, json: { type: "boolean" }, markdown: { type: "boolean" } },
  async run({ values }, io) {
    if (values.json && values.markdown) throw new UsageError("--markdown and --json exclude each other");
    const cwd = values.cwd ?? process.cwd();
    const stack = await chosenStack(cwd, values.stack);
    // One stack, named as a --stack glob would name it; the shared stack is not run, its outputs still read.
    return runFleet({ ...defaultFleetOptions("drift", cwd), stacks: [stack], shared: false, json: values.json ?? false, markdown: values.markdown ?? false }, io);
  },
});
