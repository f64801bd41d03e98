/**
 * `fleet drift` (and `drift`, the same narrowed to one stack): every checked stack compared with
 * the service, with no Pulumi engine run. Each stack's state is read (cli/fleet/runners/stack-state.ts: the
 * backend's file, or its PostgreSQL rows, all the stacks' in one query; else `pulumi stack export`); each account's lists are read once for all its
 * stacks (./account-lists.ts: `all_clients=true`, every page, when the stacks live in several
 * clients); each stack's resources are read from them as the provider's read would read them,
 * with the association reads the spec has no list for (./stack-refresh.ts); and the findings are
 * judged as before (./stack-findings.ts), the objects no stack manages found in the same lists
 * (./check.ts). The report, its formats and its exit status are those of every fleet verb.
 */
import { type Deployment, type LocalWorkspace, Stack, type StackSummary, type StepEventMetadata } from "@pulumi/pulumi/automation";
import { basename } from "node:path";
import { ApiClient } from "../../provider/http/client.js";
import { type ProviderSettings, resolveSettings, stackConfigKeyName } from "../../provider/config.js";
import { runBounded } from "../../provider/concurrency.js";
import type { CommandIO } from "../command/io.js";
import type { FleetOptions } from "../fleet/options.js";
import { backendUrlOf } from "../fleet/runners/backend.js";
import { limiterWithin, stacksAtOnce } from "../fleet/runners/budget.js";
import { formatShard } from "../fleet/runners/shard.js";
import { createDisplay, type Display } from "../fleet/stacks/display.js";
import { type FleetTargets, type StackTarget, withSharedBudget } from "../fleet/targets.js";
import { commandErrorMessage } from "../project/errors.js";
import type { FleetProject } from "../project/project.js";
import { plainSettingsOf, stackSettingsOf } from "../project/settings.js";
import { fleetWorkspace } from "../project/workspace.js";
import { exitCodeOf, type FleetReport, noChanges, type StackReport } from "../report/fleet.js";
import { renderDriftMarkdown } from "../report/markdown.js";
import { renderTable } from "../report/table.js";
import { AccountLists, listsToRead } from "./account-lists.js";
import type { Findings } from "./changes.js";
import { type CheckedStack, type ManagingProject, ScopeReads, unmanagedObjects, type UnmanagedResult } from "./check.js";
import { type PauseSettings } from "./changes.js";
import { pauseSettingsFrom, stackFindings } from "./stack-findings.js";
import { refreshSteps } from "./stack-refresh.js";
import { type RecordedResource as StateResource, stateResources } from "../project/state.js";
import { targetStates } from "../fleet/runners/stack-state.js";

/** A checked stack once its state and settings are read. */
interface ReadStack {
  target: StackTarget;
  startedAt: number;
  resources: StateResource[];
  settings: ProviderSettings;
  /** `${apiUrl}\0${apiKey}`: stacks of one account share its lists. */
  account: string;
  /** The instant a deploy would take for now and `monitoring:handPauses`, as the stack's provider reads them. */
  pauses: PauseSettings;
  /** Judges the stack's steps (./stack-findings.ts). */
  judge: (steps: readonly StepEventMetadata[]) => Promise<Findings>;
}

/** What a stack's failure looks like in the report and on the display. */
function failedReport(target: StackTarget, startedAt: number, error: unknown, display: Display): StackReport {
  const durationMs = Date.now() - startedAt;
  const message = commandErrorMessage(error);
  display.update(target.label, { state: "failed", error: message, durationMs });
  return { stack: target.label, role: target.role, result: "failed", counts: noChanges(), durationMs, error: message };
}

/**
 * The changes a refresh would count for these findings, as the engine's refresh counts them: an
 * object whose declared fields or managed pause state differ, or a set with a member deleted (an
 * update); an object gone (a delete).
 */
function countsOf(findings: Findings, deleted: number): StackReport["counts"] {
  const updated = new Set(findings.drift.filter((object) => object.drift === "deleted" ? object.type === "MonitorSet" : object.fields.some((field) => field.declared) || object.paused?.managed === true).map((object) => object.urn));
  return { ...noChanges(), update: updated.size, delete: deleted };
}

export async function runFleetDrift(options: FleetOptions, project: FleetProject, workspace: LocalWorkspace, targets: FleetTargets, listed: readonly StackSummary[] | undefined, io: CommandIO): Promise<number> {
  const order = targets.shared === undefined ? targets.clients : [targets.shared, ...targets.clients];
  const atOnce = stacksAtOnce(options.parallel, targets.clients.length);
  const report: FleetReport = { verb: "drift", project: project.name, parallel: atOnce, interrupted: false, stacks: [] };
  if (options.shard !== undefined) report.shard = formatShard(options.shard);
  const display = createDisplay(io.stderr, order.map((target) => target.label), { json: options.json });
  const stop = new AbortController();
  const onInterrupt = (): void => {
    io.stderr.write("\nInterrupted: no further stack starts.\n");
    report.interrupted = true;
    stop.abort();
  };
  io.signals.on("SIGINT", onInterrupt);
  try {
    const check: Check = { options, project, workspace, listed, display, stop: stop.signal, atOnce };
    const { result, use } = await withSharedBudget(targets.budget, (budget) => checkStacks(order, { ...check, budget }));
    const byLabel = new Map(result.map((stack) => [stack.stack, stack]));
    report.stacks = order.map((target) => {
      const done = byLabel.get(target.label);
      if (done !== undefined) return done;
      display.update(target.label, { state: "not started", note: "interrupted before its turn" });
      return { stack: target.label, role: target.role, result: "not started", counts: noChanges(), durationMs: 0, note: "interrupted before its turn" };
    });
    if (use !== undefined) report.rateLimit = { budget: targets.budget!, ...use };
  } finally {
    io.signals.off("SIGINT", onInterrupt);
    display.close();
  }
  io.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : options.markdown ? renderDriftMarkdown(report) : `\n${renderTable(report)}`);
  return exitCodeOf(report);
}

export interface Check {
  options: FleetOptions;
  project: FleetProject;
  workspace: LocalWorkspace;
  listed: readonly StackSummary[] | undefined;
  display: Display;
  /** Aborted by Ctrl-C: no further stack starts. */
  stop: AbortSignal;
  atOnce: number;
  /** The address of the run's rate budget, when it has one. */
  budget?: string | undefined;
  /** false: only the stacks' own objects, not those in their scope that no stack manages (a deploy does nothing about them). */
  unmanaged?: boolean;
  /** Each stack's state and pause settings as read, for a caller that judges more than drift from them (cli/fleet/affected/select.ts). */
  onRead?: (target: StackTarget, state: Deployment, pauses: PauseSettings) => void;
}

/** The reports of the stacks checked (those Ctrl-C left out are missing). */
export async function checkStacks(order: readonly StackTarget[], check: Check): Promise<StackReport[]> {
  const { options, display, stop } = check;
  const reports = new Map<string, StackReport>();
  // Reading states and settings is local work (files, rows read ahead, or a CLI run each on other backends): --parallel at a time.
  const backends = new Map<string, Promise<string | undefined>>();
  const backendOf = (target: StackTarget): Promise<string | undefined> => {
    let url = backends.get(target.project.dir);
    if (url === undefined) backends.set(target.project.dir, (url = backendUrlOf(target.project, target.workspace)));
    return url;
  };
  const stateOf = targetStates(order, backendOf);
  const read = await runBounded(order, Math.max(1, options.parallel), async (target): Promise<ReadStack | undefined> => {
    const startedAt = Date.now();
    display.update(target.label, { state: "running", step: "reading its state", counts: noChanges(), startedAt });
    try {
      const [state, source, plain] = await Promise.all([
        stateOf(target),
        stackSettingsOf(target.project, target.name, target.workspace),
        plainSettingsOf(target.project, target.name),
      ]);
      const pauses = pauseSettingsFrom(plain);
      // Before the service's settings are resolved: a stack with none may still be judged on its state.
      check.onRead?.(target, state, pauses);
      const settings = resolveSettings(source, process.env, stackConfigKeyName(basename(target.name)));
      const stack = await Stack.select(target.name, target.workspace);
      display.update(target.label, { state: "running", step: "reading the service", counts: noChanges(), startedAt });
      return { target, startedAt, resources: stateResources(state), settings, account: `${settings.apiUrl}\0${settings.apiKey}`, pauses, judge: stackFindings(stack, Promise.resolve(plain)) };
    } catch (error) {
      reports.set(target.label, failedReport(target, startedAt, error, display));
      return undefined;
    }
  }, stop);
  const stacks = read.flatMap((outcome) => (outcome.status === "fulfilled" && outcome.value !== undefined ? [outcome.value] : []));

  // Each account's lists, once for all its stacks.
  const accounts = new Map<string, { lists: AccountLists; api: ApiClient; reading: Promise<void> }>();
  for (const stack of stacks) {
    if (accounts.has(stack.account)) continue;
    const { apiUrl, maxRequestsPerSecond, ...connection } = stack.settings;
    const api = new ApiClient({ baseUrl: apiUrl, ...connection, rateLimiter: limiterWithin(check.budget, maxRequestsPerSecond) });
    const lists = new AccountLists(api);
    const ofAccount = stacks.filter((other) => other.account === stack.account).map((other) => other.resources);
    const reading = lists.read(listsToRead(ofAccount), Math.max(1, options.parallel));
    reading.catch(() => undefined);
    accounts.set(stack.account, { lists, api, reading });
  }
  try {
    const checked: CheckedStack[] = [];
    await runBounded(stacks, check.atOnce * READS_PER_STACK_SLOT, async (stack) => {
      const { target, startedAt } = stack;
      const account = accounts.get(stack.account)!;
      try {
        await account.reading;
        const steps = await refreshSteps(stack.resources, account.lists, stack.pauses);
        const findings = await stack.judge(steps);
        const deleted = steps.filter((step) => step.op === "delete").length;
        const result = findings.drift.length > 0 ? "drifted" : "in sync";
        const counts = countsOf(findings, deleted);
        const durationMs = Date.now() - startedAt;
        display.update(target.label, { state: "done", result, counts, durationMs });
        reports.set(target.label, { stack: target.label, role: target.role, result, counts, durationMs, drift: findings.drift, known: findings.known, overrides: findings.holds });
        checked.push({ ...target, resources: stack.resources });
      } catch (error) {
        reports.set(target.label, failedReport(target, startedAt, error, display));
      }
    }, stop);
    if (!stop.aborted && check.unmanaged !== false) await addUnmanaged(reports, checked, stacks, accounts, check);
  } finally {
    await Promise.all([...accounts.values()].map(({ api }) => api.close()));
  }
  return [...reports.values()];
}

/**
 * Stacks whose association reads run at once, per stack of `--parallel`: the reads are requests
 * waiting on the service, not work of this process, and the client's rate limit paces them.
 */
const READS_PER_STACK_SLOT = 4;

/** The check's second half: the objects in each checked stack's scope that no stack manages, from the account's lists. */
async function addUnmanaged(reports: Map<string, StackReport>, checked: readonly CheckedStack[], stacks: readonly ReadStack[], accounts: ReadonlyMap<string, { lists: AccountLists }>, check: Check): Promise<void> {
  const { project } = check;
  const settingsOf = new Map(stacks.map((stack) => [stack.target.label, stack.settings]));
  const reads = new ScopeReads(check.options.parallel, {
    settingsOf: async (target) => settingsOf.get(target.label)!,
    known: (settings) => accounts.get(`${settings.apiUrl}\0${settings.apiKey}`)?.lists.known,
    ...(check.budget === undefined ? {} : { budget: check.budget }),
  });
  const managing: ManagingProject[] = [{ workspace: check.workspace, stacks: [], ...(check.listed === undefined ? {} : { listed: check.listed }) }];
  if (project.shared !== undefined && project.shared.dir !== project.dir) managing.push({ workspace: await fleetWorkspace(project.shared.dir), stacks: [] });
  for (const other of project.drift.managedBy) managing.push({ workspace: await fleetWorkspace(other.dir), stacks: other.stacks });
  let found: UnmanagedResult;
  try {
    found = await unmanagedObjects(checked, managing, project.drift.ignore, check.options.parallel, reads);
  } catch (error) {
    found = new Map(checked.map((target) => [target.label, error as Error]));
  } finally {
    await reads.close();
  }
  for (const [label, unmanaged] of found) {
    const stack = reports.get(label);
    if (stack === undefined) continue;
    if (unmanaged instanceof Error) {
      Object.assign(stack, { result: "failed", error: `unmanaged objects not read: ${commandErrorMessage(unmanaged)}` });
      continue;
    }
    stack.unmanaged = unmanaged;
    if (unmanaged.length > 0) stack.result = "drifted";
  }
}
