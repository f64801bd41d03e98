/**
 * `pulumi-monitoring verify`: proves after a deploy that what it created or changed works: each
 * monitor runs a check and must be UP once that check's result has landed, each webhook
 * subscription takes a test delivery, and with `--alerts` each notification channel gets one test.
 * `fleet verify` (runFleetVerify) does the same over the stacks of a fleet, in one report.
 */
import { type LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { appendFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseDuration } from "../command/args.js";
import { defineCommand } from "../command/command.js";
import { EXIT } from "../command/exit.js";
import type { CommandIO } from "../command/io.js";
import { type StackService, stackService } from "../fleet/service.js";
import { commandErrorMessage } from "../project/errors.js";
import { type FleetProject, readProject } from "../project/project.js";
import { exportedState, stateResources } from "../project/state.js";
import { chosenStack, STACK_OPTIONS } from "../project/stack.js";
import { fleetWorkspace } from "../project/workspace.js";
import { renderJson, renderJunit, renderMarkdown, renderTable } from "./render.js";
import { type StackVerification, type VerifyReport, verifyExitCode } from "./report.js";
import { verifyTargets } from "./run.js";
import { allMonitors, lastDeploy, targetsOf } from "./targets.js";

export const USAGE = `Usage: pulumi-monitoring verify [options]

Proves that what the stack's last deploy created or changed works, without changing it:
  - each monitor runs a check (POST /monitors/{id}/check) and passes when the service lists it UP
    once a result of that check has landed; DOWN, or no result within --timeout, fails it;
  - each webhook subscription takes a test delivery, reported as its deliveries list shows it;
  - with --alerts, each notification channel receives exactly one test notification: through a
    monitor's test alert (the route a real alert takes) where that reaches no channel twice, else
    the channel's own test. Off by default: a test notification may page a person.
Monitors the program declares paused are skipped (reported as skipped): nothing is resumed.
Requests go through the provider's HTTP client, with the stack's rate limit and retries.

Options:
  --stack NAME      The stack to verify (default: the project's selected stack)
  --cwd DIR         The Pulumi project directory (default: the current directory)
  --all             Verify every object of the stack, not only what the last deploy created or changed
  --alerts          Send each notification channel in scope one test notification
  --timeout DURATION How long to wait for a check's result or a delivery's outcome (default 120s; a
                    number alone is seconds)
  --json            Write the report as JSON (one entry per object: name, id, verdict, the server's details)
  --junit FILE      Also write the report as JUnit XML to FILE (one test case per object)
  -h, --help        Show this text

When GITHUB_STEP_SUMMARY is set, a markdown summary naming what failed is appended to that file.
\`pulumi-monitoring fleet verify\` verifies every stack of a fleet in one report.

Exit status: 0 everything passed, 1 could not verify (no connection, refused key, unreadable stack),
2 bad usage, 3 something failed.`;

/** What verify is asked to do, for one stack or a fleet. */
export interface VerifySettings {
  all: boolean;
  alerts: boolean;
  timeoutMs: number;
  /** Polling schedule (tests shorten it). */
  firstPollMs?: number;
  maxPollMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 120_000;

export const verify = defineCommand({
  name: "verify",
  usage: USAGE,
  options: { ...STACK_OPTIONS, all: { type: "boolean" }, alerts: { type: "boolean" }, timeout: { type: "string" }, json: { type: "boolean" }, junit: { type: "string" } },
  async run({ values }, io) {
    const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : parseDuration("--timeout", values.timeout);
    const cwd = resolve(values.cwd ?? process.cwd());
    const stack = await chosenStack(cwd, values.stack);
    let report: VerifyReport;
    try {
      const project = await readProject(cwd);
      const workspace = await fleetWorkspace(cwd);
      const settings: VerifySettings = { all: values.all ?? false, alerts: values.alerts ?? false, timeoutMs };
      report = { project: project.name, stacks: [await verifyStack(workspace, project, stack, stack, settings)] };
    } catch (error) {
      io.stderr.write(`pulumi-monitoring verify: ${commandErrorMessage(error)}\n`);
      return EXIT.failed;
    }
    return publishVerifyReport(report, { json: values.json ?? false, junit: values.junit, cwd }, io);
  },
});

/** Writes the report (stdout, JUnit file, job summary) and returns the exit status. */
export async function publishVerifyReport(report: VerifyReport, output: { json: boolean; junit?: string | undefined; cwd: string }, io: CommandIO): Promise<number> {
  io.stdout.write(output.json ? renderJson(report) : renderTable(report));
  if (output.junit !== undefined) await writeFile(resolve(output.cwd, output.junit), renderJunit(report));
  const summary = process.env["GITHUB_STEP_SUMMARY"];
  if (summary !== undefined && summary !== "") await appendFile(summary, renderMarkdown(report));
  return verifyExitCode(report);
}

/**
 * Verifies one stack: reads its state, its history (unless `--all`) and its configuration (the
 * service and key, as drift reads them), then its objects against the service, within the rate
 * budget at `budget` (`fleet verify`'s token server) when given, else the stack's own limit.
 * Never throws: a stack that cannot be verified says why.
 */
export async function verifyStack(workspace: LocalWorkspace, project: FleetProject, name: string, label: string, settings: VerifySettings, budget?: string): Promise<StackVerification> {
  const scope = settings.all ? "all" : "last deploy";
  let service: StackService | undefined;
  try {
    const stack = await Stack.select(name, workspace);
    // The service as the stack's configuration names it now, its refusals naming the stack.
    const [state, history, opened] = await Promise.all([
      exportedState(workspace, name),
      settings.all ? Promise.resolve([]) : stack.history(20, 1, false),
      stackService(project, name, workspace, budget).then((opened) => (service = opened)),
    ]);
    const resources = stateResources(state);
    const window = settings.all ? undefined : lastDeploy(history);
    if (!settings.all && window === undefined) return { stack: label, scope, entries: [], notes: ["The stack's history holds no deploy: --all verifies every object."] };
    const inScope = targetsOf(resources, window);
    const targets = settings.alerts ? inScope : inScope.filter((target) => target.kind !== "NotificationChannel");
    const notes: string[] = [];
    const untested = inScope.length - targets.length;
    if (untested > 0) notes.push(`${untested} notification channel(s) not tested: --alerts sends each one test notification.`);
    if (targets.length === 0) return { stack: label, scope, entries: [], ...(notes.length > 0 ? { notes } : {}) };

    const entries = await verifyTargets(opened.api, targets, allMonitors(resources), settings);
    return { stack: label, scope, entries, ...(notes.length > 0 ? { notes } : {}) };
  } catch (error) {
    return { stack: label, scope, entries: [], error: commandErrorMessage(error) };
  } finally {
    await service?.close();
  }
}
