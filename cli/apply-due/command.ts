/**
 * `pulumi-monitoring apply-due`: the pauses and resumes due at now in one stack, and nothing else,
 * for a job scheduled every few minutes (cli/apply-due/run.ts; `fleet apply-due` for many stacks).
 */
import { parseDuration } from "../command/args.js";
import { defineCommand } from "../command/command.js";
import { operatorProject } from "../project/project.js";
import { chosenStack, STACK_OPTIONS } from "../project/stack.js";
import { fleetWorkspace } from "../project/workspace.js";
import { applyDue } from "./run.js";

export const USAGE = `Usage: pulumi-monitoring apply-due [options]

Applies the pauses and resumes that are due at now in one stack, and writes nothing else: a
window of \`pauses\` that started or ended, an override that ended, a pause made by hand whose
time (monitoring:handPauses) ended. Meant for a job scheduled every 15 minutes.

It reads the stack's state (no request to the service) and finds what is due compared with what
the state records, from the inputs the last deploy recorded. With nothing due it sends no request
and writes nothing. Otherwise it sends exactly those pause and resume calls, reads each outcome (from
the call's answer, else one read of the object), and records them in the stack's state in one
write; it never runs the stack's program, so other changes wait for the next deploy. An override
that has ended is dropped from the state. It prints the requests sent beside the minimum, one call
per due pause or resume. Now is monitoring:now or PULUMI_MONITORING_NOW when set, else the clock.

Options:
  --stack NAME   The stack (default: the project's selected stack)
  --cwd DIR      The Pulumi project directory (default: the current directory)
  --wait-lock DURATION
                 When a deploy holds the stack's lock, retry for up to this long (90s, 5m; a
                 number alone is seconds) instead of reporting it as locked (default: not at all)
  --json         Write { "stacks": [{ "stack", "due": [{ "object", "paused"?, "reason", "done",
                 "error"? }], "result", "error"? }], "requests", "minimum" } instead of lines;
                 result is nothing due, applied, failed or locked
  -h, --help     Show this text

Exit status: 0 done (or nothing due), 1 a change due did not happen or is not recorded (a stack
that could not be read, a refused call, a live lock past --wait-lock), 2 bad usage.`;

export const applyDueCommand = defineCommand({
  name: "apply-due",
  usage: USAGE,
  options: { ...STACK_OPTIONS, "wait-lock": { type: "string" }, json: { type: "boolean" } },
  async run({ values }, io) {
    const cwd = values.cwd ?? process.cwd();
    const name = await chosenStack(cwd, values.stack);
    const [project, workspace] = await Promise.all([operatorProject(cwd, name), fleetWorkspace(cwd)]);
    const waitLockMs = values["wait-lock"] === undefined ? 0 : parseDuration("--wait-lock", values["wait-lock"]);
    return applyDue([{ label: name, name, role: "client", project, workspace }], { atOnce: 1, budget: project.budget, waitLockMs, json: values.json ?? false }, io);
  },
});
