/**
 * A fleet run of one Pulumi verb: the shared stack first (last for destroy), then the clients at
 * most `--parallel` at a time, each through the Automation API and followed by its engine events;
 * locks of dead runs taken over, Ctrl-C handled, and the report written at the end.
 */
import { type ConfigMap, type LocalWorkspace, type PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { basename } from "node:path";
import { createInterface } from "node:readline/promises";
import { EXIT } from "../../command/exit.js";
import type { CommandIO } from "../../command/io.js";
import { UsageError } from "../../command/usage.js";
import { backendUrlOf, openLockStore } from "../runners/backend.js";
import { stacksAtOnce } from "../runners/budget.js";
import { createDisplay, type Display } from "./display.js";
import { StackEvents } from "./events.js";
import { inProcessRunner } from "./in-process.js";
import type { LockPolicy, TakenOverLock } from "../runners/lease.js";
import type { LockStore, StackPath } from "../runners/lock-store.js";
import { PostgresLockStore } from "../runners/postgres-lock-store.js";
import { describeLock, lockHolderOf } from "../runners/lock.js";
import { type LockLoop, runUnderLock, StackLockedError } from "../runners/lock-loop.js";
import { abortOnceListening, type EngineVerb, MUTATING, operate, RUNS_PROGRAM } from "./operations.js";
import type { FleetOptions } from "../options.js";
import { DRY_RUN_KEY, type FleetProject, readStackSettings } from "../../project/project.js";
import { commandErrorMessage } from "../../project/errors.js";
import { describeSetting, settingBlamedIn } from "../../../provider/http/setting-error.js";
import { CONFIG_NAMESPACE } from "../../../provider/config.js";
import { exitCodeOf, type FleetReport, hasChanges, noChanges, type StackReport } from "../../report/fleet.js";
import { renderDriftMarkdown } from "../../report/markdown.js";
import { renderTable } from "../../report/table.js";
import { configValue, createRunConfigDir, withConfigValues } from "./run-config.js";
import { stackOutputs } from "../../project/state.js";
import { runBounded, type Settled } from "../../../provider/concurrency.js";
import { formatShard } from "../runners/shard.js";
import { type FleetTargets, type StackTarget, withSharedBudget } from "../targets.js";
import { type FleetRunSettings, fleetRunEnvironment, withFleetRunSettings } from "../../../provider/fleet-run-settings.js";
import { withEnvironment } from "../../project/workspace.js";
import { type Fingerprint, sharedValuesOf } from "../affected/fingerprint.js";
import { type DeployRecords, deployRecordsOf } from "../affected/records.js";
import { recordPath, selectAffected, stateTimeOf } from "../affected/select.js";
import { stackState } from "../runners/stack-state.js";

/** A stack of the run, with its program when that runs in the fleet's process. */
interface Target extends StackTarget {
  program?: PulumiFn;
}

interface RunningStack {
  stack: Stack;
  abort: AbortController;
}

export class FleetRun {
  readonly #stopStarting = new AbortController();
  /** Aborted once a stack fails on a setting every stack shares: the others would fail the same way. */
  readonly #settingFailed = new AbortController();
  #settingFailure: string | undefined;
  /**
   * What the fleet keeps beside the state, opened once per run: the leases of verbs that lock
   * stacks (lease.ts), and the records of deploys, on the same connection.
   */
  #store: LockStore | undefined;
  readonly #running = new Map<string, RunningStack>();
  /** Reports of the stacks done so far, for a report made before every phase has ended. */
  readonly #finished = new Map<string, StackReport>();
  /** Resolves on a second Ctrl-C: stop waiting for the interrupted operations. */
  readonly #abandon: Promise<void>;
  #stopWaiting: () => void = () => {};
  #interrupts = 0;
  #display: Display | undefined;
  /** The records of successful deploys (../affected/records.ts), on backends that keep them. */
  #records: DeployRecords | undefined;
  /** The backend the records and leases live beside, asked once per run (a `pulumi whoami` when nothing names it). */
  #backendUrl: string | undefined;
  /** Each stack's fingerprint now, for the record of its up. */
  #fingerprints = new Map<string, Fingerprint>();
  /** What affected each stack that runs. */
  readonly #because = new Map<string, string>();

  constructor(
    private readonly options: FleetOptions,
    private readonly verb: EngineVerb,
    private readonly project: FleetProject,
    private readonly workspace: LocalWorkspace,
    private readonly io: CommandIO,
  ) {
    this.#abandon = new Promise((resolve) => (this.#stopWaiting = resolve));
  }

  /** `sharedBlocker`: why a destroy must leave the shared stack alone, if it must. */
  async run(targets: FleetTargets, sharedBlocker: string | undefined): Promise<number> {
    const { shard } = this.options;
    const runner = !RUNS_PROGRAM.has(this.verb) ? undefined : this.options.isolated ? ({ inProcess: false, reason: "--isolated" } as const) : inProcessRunner(this.project);
    const program = runner?.inProcess ? { program: runner.program } : {};
    const clients: Target[] = targets.clients.map((target) => ({ ...target, ...program }));
    const { shared, sharedSource } = targets;
    if (!(await this.#confirmed(clients.length, shared))) {
      this.io.stderr.write("Confirmation declined; nothing was changed.\n");
      return EXIT.failed;
    }

    const atOnce = stacksAtOnce(this.options.parallel, clients.length);
    const report: FleetReport = {
      verb: this.verb,
      project: this.project.name,
      parallel: atOnce,
      interrupted: false,
      stacks: [],
    };
    if (shard !== undefined) report.shard = formatShard(shard);
    if (runner !== undefined) report.programs = runner.inProcess ? "in the fleet process" : `in a process per stack: ${runner.reason}`;

    const order = shared === undefined ? clients : this.verb === "destroy" ? [...clients, shared] : [shared, ...clients];
    this.#display = createDisplay(this.io.stderr, order.map((target) => target.label), { json: this.options.json });
    // One budget for the whole run (the runners of a split each have their share): each stack's
    // operation hands its address on in the run's settings (#runStack).
    const { use } = await withSharedBudget(targets.budget, (budget) => this.#runPhases(report, order, clients, atOnce, shared, sharedSource, sharedBlocker, budget));
    if (use !== undefined) report.rateLimit = { budget: targets.budget!, ...use };
    this.io.stdout.write(this.options.json ? `${JSON.stringify(report, null, 2)}\n` : this.options.markdown ? renderDriftMarkdown(report) : `\n${renderTable(report)}`);
    return exitCodeOf(report);
  }

  /** Every stack in its turn: the shared stack first (last for destroy), the clients `atOnce` at a time. */
  async #runPhases(
    report: FleetReport,
    order: readonly Target[],
    clients: readonly Target[],
    atOnce: number,
    shared: Target | undefined,
    sharedSource: Target | undefined,
    sharedBlocker: string | undefined,
    budget: string | undefined,
  ): Promise<void> {
    const runConfig = await createRunConfigDir();
    const backendUrl = (this.#backendUrl = await backendUrlOf(this.project, this.workspace));
    const keepsRecords = this.verb === "up" || this.verb === "destroy" || this.verb === "preview";
    if (MUTATING.has(this.verb) || keepsRecords) this.#store = await openLockStore(backendUrl).catch(() => undefined);
    if (keepsRecords) this.#records = deployRecordsOf(this.#store);
    const noMoreStarts = AbortSignal.any([this.#stopStarting.signal, this.#settingFailed.signal]);
    const onInterrupt = (): void => this.#interrupt();
    this.io.signals.on("SIGINT", onInterrupt);
    const settings: FleetRunSettings = budget === undefined ? {} : { budget };
    try {
      const execute = async (target: Target, sharedConfig?: ConfigMap): Promise<StackReport> => {
        const stackReport = await this.#runStack(target, sharedConfig, runConfig.write, settings);
        this.#finished.set(target.label, stackReport);
        return stackReport;
      };
      const runClients = async (sharedConfig?: ConfigMap): Promise<StackReport[]> => {
        const { run, skipped } = await this.#choose(report, clients, sharedConfig, budget, noMoreStarts);
        const ran = this.#settle(run, await runBounded(run, atOnce, (target) => execute(target, sharedConfig), noMoreStarts));
        // The report keeps the project's order, skipped stacks among those that ran.
        const byLabel = new Map([...ran, ...skipped].map((stack) => [stack.stack, stack]));
        return clients.map((target) => byLabel.get(target.label)!);
      };

      const phases = (async (): Promise<void> => {
        if (this.verb === "destroy") {
          report.stacks.push(...(await runClients()));
          if (shared !== undefined) report.stacks.push(await this.#destroySharedLast(shared, report.stacks, sharedBlocker, execute));
          return;
        }
        if (shared !== undefined) {
          // Judged as a client is, on its own program and settings: it reads no shared outputs.
          const { run, skipped } = await this.#choose(report, [shared], undefined, budget, noMoreStarts);
          report.stacks.push(...skipped, ...this.#settle(run, await runBounded(run, 1, (target) => execute(target), noMoreStarts)));
        }
        report.stacks.push(...(await runClients(sharedSource !== undefined && RUNS_PROGRAM.has(this.verb) ? await this.#sharedConfig(sharedSource) : undefined)));
      })();
      await Promise.race([phases, this.#abandon]);
      if (this.#interrupts > 1) report.stacks = this.#abandoned(order);
    } finally {
      this.io.signals.off("SIGINT", onInterrupt);
      this.#display?.close();
      await runConfig.dispose();
      await this.#store?.close().catch(() => undefined);
    }
    report.interrupted = this.#interrupts > 0;
  }

  /**
   * up and preview: the stacks of one project (the clients, or the shared stack) this run runs,
   * the others reported skipped with why (../affected/select.ts); every stack under `--all`, and
   * where the backend keeps no records of deploys. Each stack's fingerprint is kept for the record
   * its successful up writes.
   */
  async #choose(report: FleetReport, clients: readonly Target[], sharedConfig: ConfigMap | undefined, budget: string | undefined, stop: AbortSignal): Promise<{ run: Target[]; skipped: StackReport[] }> {
    if (!RUNS_PROGRAM.has(this.verb) || clients.length === 0) return { run: [...clients], skipped: [] };
    const records = this.#records;
    if (records === undefined) {
      report.selection = "all: this backend keeps no records of deploys (file:// and postgres:// backends do), so every stack runs";
      return { run: [...clients], skipped: [] };
    }
    const all = this.options.all === true;
    let selection;
    try {
      selection = await selectAffected(clients, { options: this.options, project: this.project, records, sharedValues: await sharedValuesOf(sharedConfig), all, budget, stop });
    } catch (error) {
      // What cannot be judged runs: a stack skipped wrongly is the one mistake this must not make.
      report.selection = `all: the stacks affected could not be told (${commandErrorMessage(error)})`;
      return { run: [...clients], skipped: [] };
    }
    report.selection = all ? "all" : "affected";
    for (const [label, fingerprint] of selection.fingerprints) this.#fingerprints.set(label, fingerprint);
    const run: Target[] = [];
    const skipped: StackReport[] = [];
    for (const { target, affected, reason } of selection.judged) {
      if (affected) {
        this.#because.set(target.label, reason);
        run.push(target);
        continue;
      }
      this.#display?.update(target.label, { state: "skipped", note: reason });
      const stackReport: StackReport = { stack: target.label, role: target.role, result: "skipped", counts: noChanges(), durationMs: 0, note: reason };
      this.#finished.set(target.label, stackReport);
      skipped.push(stackReport);
    }
    return { run, skipped };
  }

  async #confirmed(clientCount: number, shared: Target | undefined): Promise<boolean> {
    if (!MUTATING.has(this.verb) || this.verb === "refresh" || this.options.yes) return true;
    const what = `${this.verb} ${clientCount} stack${clientCount === 1 ? "" : "s"} of project ${this.project.name}${shared ? ` and the shared stack ${shared.label}` : ""}`;
    if (!this.io.stdin.isTTY) throw new UsageError(`${what}: pass --yes to confirm when not running in a terminal`);
    const prompt = createInterface({ input: this.io.stdin, output: this.io.stderr as NodeJS.WritableStream });
    try {
      return /^y(es)?$/i.test((await prompt.question(`About to ${what}. Continue? [y/N] `)).trim());
    } finally {
      prompt.close();
    }
  }

  /**
   * The shared stack's outputs as client configuration (`fleet.shared.outputs`). They are written
   * into each client's Pulumi.<stack>.yaml, so that a plain `pulumi up -s <client>` deploys what
   * the fleet deploys.
   */
  async #sharedConfig(shared: Target): Promise<ConfigMap | undefined> {
    const mapping = this.project.shared?.outputs ?? {};
    if (Object.keys(mapping).length === 0) return undefined;
    let outputs;
    try {
      outputs = await stackOutputs(await Stack.select(shared.name, shared.workspace));
    } catch {
      // Not deployed (yet): the clients keep the configuration they have.
      return undefined;
    }
    const config: ConfigMap = {};
    for (const [output, key] of Object.entries(mapping)) {
      const value = outputs[output];
      if (value === undefined) continue;
      config[key] = { value: typeof value.value === "string" ? value.value : JSON.stringify(value.value), secret: value.secret };
    }
    return config;
  }

  /** Destroyed only after every client stack was, since they use what it holds. */
  async #destroySharedLast(
    shared: Target,
    clients: readonly StackReport[],
    blocker: string | undefined,
    execute: (target: Target) => Promise<StackReport>,
  ): Promise<StackReport> {
    const skip = (note: string): StackReport => {
      this.#display?.update(shared.label, { state: "not started", note });
      return { stack: shared.label, role: "shared", result: "not started", counts: noChanges(), durationMs: 0, note };
    };
    if (blocker !== undefined) return skip(blocker);
    if (clients.some((client) => client.result !== "succeeded")) return skip("not every client stack was destroyed");
    if (this.#stopStarting.signal.aborted) return skip("interrupted before its turn");
    return execute(shared);
  }

  /**
   * `settings` reach the stack's provider host, which the Pulumi CLI starts, in the environment of
   * the CLI commands its operation runs, and a program run in this process directly.
   */
  async #runStack(target: Target, sharedConfig: ConfigMap | undefined, writeConfig: (stack: string, text: string) => Promise<string>, settings: FleetRunSettings): Promise<StackReport> {
    const startedAt = Date.now();
    const events = new StackEvents();
    const show = (): void => this.#display?.update(target.label, { state: "running", step: events.step, counts: events.counts, startedAt });
    show();
    const abort = new AbortController();
    const takenOver: TakenOverLock[] = [];
    let lockNote: string | undefined;
    const because = this.#because.get(target.label);
    const base = (): Pick<StackReport, "stack" | "role" | "takenOver" | "affected"> => ({
      stack: target.label,
      role: target.role,
      ...(because === undefined ? {} : { affected: because }),
      ...(takenOver.length > 0 ? { takenOver } : {}),
    });
    // A stack's record of its last successful up goes when an up or destroy of it starts, and an up that succeeds writes it again.
    const records = this.verb === "up" || this.verb === "destroy" ? this.#records : undefined;
    let stack: Stack | undefined;
    /** An operation of this run was started on the stack: only then may an interrupted one be left to cancel. */
    let operated = false;
    try {
      const selected = await Stack.select(target.name, withEnvironment(target.workspace, fleetRunEnvironment(settings)));
      stack = selected;
      this.#running.set(target.label, { stack, abort });
      if (sharedConfig !== undefined) await passOn(stack, target, sharedConfig);
      const configFile = this.options.dryRun ? await writeConfig(target.label, await this.#runSettings(target)) : undefined;
      const stackPath: StackPath = { project: target.project.name, stack: basename(target.name) };
      const loop: LockLoop = {
        store: MUTATING.has(this.verb) ? this.#store : undefined,
        stack: stackPath,
        policy: this.#lockPolicy(),
        waitUntil: startedAt + (this.options.waitLockMs ?? 0),
        signal: AbortSignal.any([abort.signal, this.#stopStarting.signal]),
        onJudging: (holder) => this.#display?.update(target.label, { state: "running", step: `judging: ${describeLock(holder)}`, counts: events.counts, startedAt }),
        onWaiting: (holder) => this.#display?.update(target.label, { state: "running", step: `waiting: ${describeLock(holder)}`, counts: events.counts, startedAt }),
      };
      await runUnderLock(
        loop,
        async (afterTakeover) => {
          // Ctrl-C came while this stack was getting ready (its settings written, its lock judged):
          // no operation starts.
          if (this.#stopStarting.signal.aborted) throw new Error("interrupted before its operation started");
          // After a lock is taken over, `up` and `destroy` read the service first whatever --no-refresh says: the dead run may have changed objects.
          const recover = afterTakeover && (this.verb === "up" || this.verb === "destroy");
          const operation = abortOnceListening(abort.signal);
          try {
            await records?.drop(recordPath(target));
            operated = true;
            await operate(selected, this.verb, {
              onEvent: (event) => {
                operation.listening();
                events.observe(event);
                show();
              },
              signal: operation.signal,
              refresh: this.options.refresh || recover,
              clearPendingCreates: recover,
              ...(configFile ? { configFile } : {}),
              ...(target.program ? { program: inRun(settings, target.program) } : {}),
            });
          } finally {
            operation.dispose();
          }
        },
        takenOver,
      ).catch((error: unknown) => {
        if (error instanceof StackLockedError) lockNote = error.why;
        throw error;
      });
      const fingerprint = this.#fingerprints.get(target.label);
      // A record not written costs the next run this stack's run, nothing worse: no failure for it.
      if (records !== undefined && this.verb === "up" && fingerprint !== undefined) await this.#record(records, target, fingerprint).catch(() => undefined);
      const counts = events.summary ?? events.counts;
      const result = this.verb === "preview" ? (hasChanges(counts) ? "changes" : "no changes") : "succeeded";
      const durationMs = Date.now() - startedAt;
      this.#display?.update(target.label, { state: "done", result, counts, durationMs });
      return { ...base(), result, counts, durationMs };
    } catch (error) {
      const durationMs = Date.now() - startedAt;
      const counts = events.summary ?? events.counts;
      const lock = lockHolderOf(error);
      if (lock !== undefined) {
        // Never `pulumi cancel` here: on a DIY backend it deletes every lock of the stack, the holder's too.
        this.#display?.update(target.label, { state: "failed", error: describeLock(lock), durationMs });
        return { ...base(), result: "locked", counts, durationMs, lock, ...(lockNote === undefined ? {} : { lockNote }) };
      }
      if (this.#interrupts > 0 && stack !== undefined) {
        // With no operation of ours started, a lock on the stack is another run's: `pulumi cancel` would delete it.
        if (MUTATING.has(this.verb) && operated) await cancelUpdate(stack);
        this.#display?.update(target.label, { state: "failed", error: "interrupted", durationMs });
        return { ...base(), result: "interrupted", counts, durationMs };
      }
      const message = events.firstError() ?? commandErrorMessage(error);
      this.#display?.update(target.label, { state: "failed", error: message, durationMs });
      await this.#noteSettingFailure(target, message);
      return { ...base(), result: "failed", counts, durationMs, error: message };
    } finally {
      this.#running.delete(target.label);
    }
  }

  /** Records the up that succeeded, with the time its state now has: a later write by another run makes the stack affected again. */
  async #record(records: DeployRecords, target: Target, fingerprint: Fingerprint): Promise<void> {
    const backend = this.#store instanceof PostgresLockStore ? this.#store.backend : undefined;
    const state = await stackState(target.workspace, target.project.name, target.name, this.#backendUrl, backend);
    await records.write(recordPath(target), { fingerprint, stateTime: stateTimeOf(state), deployedAt: new Date().toISOString() });
  }

  #lockPolicy(): LockPolicy {
    const { staleLockAfterMs, breakLocksOlderThanMs, pidCheck } = this.options;
    return { staleAfterMs: staleLockAfterMs, pidCheck, ...(breakLocksOlderThanMs === undefined ? {} : { breakOlderThanMs: breakLocksOlderThanMs }) };
  }

  /**
   * A stack failed on a setting that cannot work (nothing answers at the URL, the key refused, not
   * the API): when the value is not the stack's own (the environment, or Pulumi.yaml's project
   * configuration), every other stack would fail the same way, so none starts any more.
   */
  async #noteSettingFailure(target: Target, message: string): Promise<void> {
    const failure = settingBlamedIn(message, target.name);
    if (failure === undefined || this.#settingFailure !== undefined) return;
    if (failure.source.startsWith(`${CONFIG_NAMESPACE}:`)) {
      const own = await readStackSettings(target.project, target.name).catch(() => "");
      if (configValue(own, `${CONFIG_NAMESPACE}:${failure.setting}`) !== undefined) return;
    }
    this.#settingFailure = `${target.label} failed on ${describeSetting(failure.setting, failure.source)}, which the other stacks share: fix it and run again`;
    this.#settingFailed.abort();
  }

  /** The stack's settings for this run with `monitoring:dryRun: true` (`fleet preview --dry-run`). */
  async #runSettings(target: Target): Promise<string> {
    return withConfigValues(await readStackSettings(target.project, target.name), { [DRY_RUN_KEY]: "true" });
  }

  #settle(targets: readonly Target[], results: readonly Settled<StackReport>[]): StackReport[] {
    return targets.map((target, index) => {
      const result = results[index];
      if (result?.status === "fulfilled") return result.value;
      const note = result?.status === "rejected" ? String(result.reason) : (this.#settingFailure ?? "interrupted before its turn");
      this.#display?.update(target.label, { state: "not started", note });
      return { stack: target.label, role: target.role, result: "not started", counts: noChanges(), durationMs: 0, note };
    });
  }

  /** After a second Ctrl-C: what finished, and every other stack as interrupted or not started. */
  #abandoned(order: readonly Target[]): StackReport[] {
    return order.map(
      (target) =>
        this.#finished.get(target.label) ?? {
          stack: target.label,
          role: target.role,
          result: this.#running.has(target.label) ? "interrupted" : "not started",
          counts: noChanges(),
          durationMs: 0,
        },
    );
  }

  #interrupt(): void {
    this.#interrupts += 1;
    if (this.#interrupts === 1) {
      this.io.stderr.write("\nInterrupted: no further stack starts; cancelling the running operations. Press Ctrl-C again to stop waiting for them.\n");
      this.#stopStarting.abort();
      // In a terminal, Ctrl-C has already reached the Pulumi CLI processes (they share the
      // foreground process group) and they are stopping after their current steps; a second
      // SIGINT would make them terminate abruptly. Elsewhere, the signal reached only this process.
      if (!this.io.stdin.isTTY) for (const { abort } of this.#running.values()) abort.abort();
      return;
    }
    this.io.stderr.write("\nNo longer waiting: cancelling the updates still running.\n");
    void Promise.all([...this.#running.values()].map(({ stack }) => (MUTATING.has(this.verb) ? cancelUpdate(stack) : undefined))).finally(() => this.#stopWaiting());
  }
}

/** Writes the shared stack's outputs into a client's configuration where it holds other values. */
async function passOn(stack: Stack, target: Target, sharedConfig: ConfigMap): Promise<void> {
  const settings = await readStackSettings(target.project, target.name);
  // A secret cannot be compared with its ciphertext, so it is always written.
  const stale = Object.entries(sharedConfig).filter(([key, value]) => value.secret || configValue(settings, key) !== value.value);
  if (stale.length > 0) await stack.setAllConfig(Object.fromEntries(stale));
}

/** Asks the backend to end the stack's update, releasing its lock; fine when none is running. */
async function cancelUpdate(stack: Stack): Promise<void> {
  try {
    await stack.cancel();
  } catch {
    // No update in progress: the CLI stopped cleanly.
  }
}

/** `program`, run in this process, with `settings` as its run's. */
const inRun =
  (settings: FleetRunSettings, program: PulumiFn): PulumiFn =>
  () =>
    withFleetRunSettings(settings, program);
