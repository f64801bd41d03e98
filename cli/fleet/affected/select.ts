/**
 * Which stacks a `fleet up` or `fleet preview` runs: those the change affects, the client stacks
 * and the shared stack alike (each judged with the stacks of its own project). A stack is
 * affected, and runs, when any of these holds; otherwise it is skipped and the report says why:
 * - no successful `up` of it is recorded (./records.ts, beside a file or PostgreSQL backend's
 *   state; on other backends cli/fleet/stacks/run.ts runs every stack without asking): never
 *   deployed by the fleet, or its last run failed, was interrupted or was killed (the record goes
 *   when a run starts);
 * - its fingerprint differs from the one recorded (./fingerprint.ts): its program, package.json,
 *   lockfile or pulumi-monitoring version, its settings file, or the shared outputs it reads;
 * - its state holds pending operations, or was written since the recorded deploy (a `pulumi up`
 *   by hand, `apply-due`, `fleet refresh`, `pause`): what the last fleet deploy left is not all;
 * - a pause or resume is due in it at now (cli/apply-due/due.ts, from its state);
 * - the fleet's one read of the service (cli/drift/fleet-drift.ts: each account's lists once, no
 *   engine) finds its objects differ from its state, or cannot check it; a stack whose state
 *   holds no object of this package has nothing there to differ: its check does not count (it
 *   may have no API settings at all).
 * The cheap tests come first: only the stacks they leave are read from the service.
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { dueInState } from "../../apply-due/due.js";
import { checkStacks } from "../../drift/fleet-drift.js";
import type { FleetProject } from "../../project/project.js";
import { readStackSettings } from "../../project/project.js";
import { ownResources } from "../../project/state.js";
import type { StackReport } from "../../report/fleet.js";
import { isRecord } from "../../../schema/naming.js";
import type { FleetOptions } from "../options.js";
import type { Display } from "../stacks/display.js";
import type { StackTarget } from "../targets.js";
import { changedParts, type Fingerprint, programFingerprint, stackFingerprint } from "./fingerprint.js";
import type { DeployRecord, DeployRecords } from "./records.js";

/** A stack and why it runs, or why not. */
export interface Judged<T extends StackTarget> {
  target: T;
  affected: boolean;
  reason: string;
}

export interface Selection<T extends StackTarget> {
  /** Every client in the order given, each with its verdict. */
  judged: Array<Judged<T>>;
  /** Each client's fingerprint now, recorded after its up succeeds. */
  fingerprints: Map<string, Fingerprint>;
}

export interface SelectionContext {
  options: FleetOptions;
  project: FleetProject;
  records: DeployRecords;
  /** The shared stack's outputs handed to the clients, configuration key → value. */
  sharedValues: Readonly<Record<string, string>>;
  /** Run every stack (`--all`): still fingerprinted, for the records. */
  all: boolean;
  /** The address of the run's rate budget. */
  budget: string | undefined;
  stop: AbortSignal;
}

/** The stack's path in the backend's records: `<project>/<stack>`. */
export const recordPath = (target: StackTarget): { project: string; stack: string } => ({ project: target.project.name, stack: target.name.split("/").pop()! });

/** Nothing drawn: the selection's reads are not the stacks' runs. */
const SILENT: Display = { update: () => undefined, close: () => undefined };

/** `clients`: stacks of one project. */
export async function selectAffected<T extends StackTarget>(clients: readonly T[], context: SelectionContext): Promise<Selection<T>> {
  const { options, project, sharedValues } = context;
  const [first] = clients;
  if (first === undefined) return { judged: [], fingerprints: new Map() };
  const program = await programFingerprint(first.project);
  const fingerprints = new Map<string, Fingerprint>();
  const verdicts = new Map<string, { affected: boolean; reason: string }>();
  const recorded = new Map<string, DeployRecord>();
  // The records of all the stacks in one read (one query on PostgreSQL), not one per stack.
  const records = await context.records.readAll(first.project.name, clients.map((target) => recordPath(target).stack));
  await Promise.all(
    clients.map(async (target) => {
      const settings = await readStackSettings(target.project, target.name);
      const record = records.get(recordPath(target).stack);
      const fingerprint = stackFingerprint(program, settings, sharedValues);
      fingerprints.set(target.label, fingerprint);
      if (context.all) return verdicts.set(target.label, { affected: true, reason: "--all" });
      if (record === undefined) return verdicts.set(target.label, { affected: true, reason: "no successful deploy recorded (never deployed by the fleet, or its last run failed or was interrupted)" });
      const changed = changedParts(record.fingerprint, fingerprint);
      if (changed.length > 0) return verdicts.set(target.label, { affected: true, reason: changed.join("; ") });
      recorded.set(target.label, record);
      return undefined;
    }),
  );

  // The stacks left: their states, and the service, read once for all of them.
  const candidates = clients.filter((target) => !verdicts.has(target.label));
  if (candidates.length > 0) {
    const fromState = new Map<string, string>();
    /** The stacks whose state holds no object of this package: the service has nothing of theirs to compare. */
    const withoutObjects = new Set<string>();
    const reports = await checkStacks(candidates, {
      options,
      project,
      workspace: candidates[0]!.workspace,
      listed: undefined,
      display: SILENT,
      stop: context.stop,
      atOnce: Math.max(1, options.parallel),
      budget: context.budget,
      unmanaged: false,
      onRead: (target, state, pauses) => {
        const why = stateReason(state, recorded.get(target.label)!, dueInState(state, pauses.now, pauses.handPauses).map((change) => change.reason));
        if (why !== undefined) fromState.set(target.label, why);
        if (ownResources(state).length === 0) withoutObjects.add(target.label);
      },
    });
    const byLabel = new Map(reports.map((report) => [report.stack, report]));
    for (const target of candidates) {
      const why = fromState.get(target.label) ?? (withoutObjects.has(target.label) ? undefined : serviceReason(byLabel.get(target.label)));
      const record = recorded.get(target.label)!;
      const service = withoutObjects.has(target.label) ? "no object of this package in its state" : "in sync with the service";
      verdicts.set(target.label, why !== undefined ? { affected: true, reason: why } : { affected: false, reason: `unchanged since its deploy at ${record.deployedAt}, ${service}, nothing due` });
    }
  }
  return { judged: clients.map((target) => ({ target, ...verdicts.get(target.label)! })), fingerprints };
}

/** Why the stack's state makes it affected, if it does. */
export function stateReason(state: Deployment, record: DeployRecord, due: readonly string[]): string | undefined {
  const deployment = isRecord(state.deployment) ? state.deployment : {};
  const pending = Array.isArray(deployment["pending_operations"]) ? deployment["pending_operations"].length : 0;
  if (pending > 0) return `its state holds ${pending} pending operation${pending === 1 ? "" : "s"} of an interrupted run`;
  const time = stateTimeOf(state);
  if (time !== record.stateTime) return `its state was written since its last fleet deploy (at ${time ?? "an unknown time"})`;
  if (due.length > 0) return `a pause or resume is due now (${[...new Set(due)].join(", ")})`;
  return undefined;
}

/** Why the service read makes the stack affected, if it does. */
function serviceReason(report: StackReport | undefined): string | undefined {
  if (report === undefined) return "not checked against the service (interrupted)";
  if (report.result === "drifted") {
    const objects = (report.drift ?? []).map((object) => `${object.type} ${object.name} ${object.drift}`);
    return `its objects differ on the service: ${objects.join(", ")}`;
  }
  if (report.result === "failed") return `its check against the service failed: ${report.error ?? "no message"}`;
  return undefined;
}

/** The state's `manifest.time`: the CLI writes it with every change of the state. */
export function stateTimeOf(state: Deployment): string | undefined {
  const deployment = isRecord(state.deployment) ? state.deployment : {};
  const manifest = deployment["manifest"];
  return isRecord(manifest) && typeof manifest["time"] === "string" ? manifest["time"] : undefined;
}
