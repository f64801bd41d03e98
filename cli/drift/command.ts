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
  - fields the program leaves out, changed by hand: the next deploy keeps them; once a deploy has
    kept one, it is listed as known ("kept by the deploy of <date>") and is no drift, until it is
    changed by hand again;
  - objects deleted by hand: the next deploy creates them again;
  - monitors and heartbeats paused by hand, flagged even when the program does not declare paused,
    with what the next deploy does under monitoring:handPauses ("paused by hand, seen at X: the
    next deploy keeps it until Y");
  - overrides and windows: an active override (who, why, until when) or a window in force ("the
    next deploy keeps it"), an override that has ended ("the next deploy resumes it"): no drift;
  - each monitor of a MonitorSet told on its own, as \`MonitorSet <set>[<key>]\` with its id;
  - unmanaged objects: in the stack's scope (its clients, or outside any client) and managed by no
    stack of the project, each with the declaration that adopts it (new mon.Kind("…", { adoptId, … })).
    Pulumi.yaml's \`drift:\` section names other projects whose stacks count as managing, and ids and
    name patterns to ignore (docs/reconcile-and-drift.md).
No Pulumi engine runs: the stack's state is read (its backend's file, else pulumi stack export), and
its client's lists in pages of 250, which show its objects and the unmanaged ones; the provider's own
read turns them into what a refresh would record, with each monitor's channels. Pauses are judged by the provider's pause plan at the instant a deploy would take (monitoring:now, else
PULUMI_MONITORING_NOW, else the clock) with the stack's monitoring:handPauses.
\`pulumi-monitoring fleet drift\` runs the same check over every stack of the project.

Options:
  --stack NAME   The stack to check (default: the project's selected stack)
  --cwd DIR      The Pulumi project directory (default: the current directory)
  --json         Write the report as JSON
  --markdown     Write the report as markdown, for a CI job to post as a comment or an issue
  -h, --help     Show this text

Exit status: 0 in sync (known fields, overrides and windows may be listed), 1 the check failed,
2 bad usage, 3 drift (a pause made by hand included) or unmanaged objects found.`;

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
