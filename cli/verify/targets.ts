/**
 * What `pulumi-monitoring verify` verifies in one stack, from its state: monitors (a set's too),
 * webhook subscriptions and notification channels, with what the program declares about each;
 * and which of them the last deploy created or changed (the provider's `__changedAt` stamp inside
 * the window of the stack's last update).
 */
import { internal } from "../../provider/fields.js";
import { isRecord } from "../../schema/naming.js";
import { kindOfTypeToken } from "../../schema/type-token.js";
import type { RecordedResource } from "../project/state.js";
import { MONITOR_SET_KIND } from "../../provider/monitor-set.js";
import { memberName } from "../../schema/members.js";

/** What verify does with each kind: run a check, send a test delivery, send a test notification. */
export type TargetKind = "Monitor" | "WebhookSubscription" | "NotificationChannel";

export interface Target {
  kind: TargetKind;
  /** The resource's name in the program; a set's monitor is `set.monitors["key"]`. */
  name: string;
  id: string;
  /** The client the object lives in; absent outside any client. */
  clientId?: string;
  /** Monitors: the program declares `paused: true` (verify skips it and resumes nothing). */
  declaredPaused?: boolean;
  /** Monitors: the channels the program attaches, when it declares them. */
  channelIds?: string[];
  /** Monitors: the escalation policy the program attaches, if any. */
  escalationPolicyId?: string;
}

/** The time window of a deploy, from the stack's history. */
export interface DeployWindow {
  startMs: number;
  endMs: number;
}

/** The history's start time has whole seconds; the end gets the same slack. */
const HISTORY_PRECISION_MS = 1000;

/** The last `pulumi up` of a stack's history (newest first), or undefined when it has none. */
export function lastDeploy(history: ReadonlyArray<{ kind: string; startTime: Date | string; endTime?: Date | string }>): DeployWindow | undefined {
  const update = history.find((entry) => entry.kind === "update");
  if (update === undefined) return undefined;
  const startMs = new Date(update.startTime).getTime();
  const endMs = update.endTime === undefined ? Date.now() : new Date(update.endTime).getTime();
  return { startMs: startMs - HISTORY_PRECISION_MS, endMs: endMs + HISTORY_PRECISION_MS };
}

/**
 * The objects of the state that verify looks at: every one (`window` undefined, `--all`), or
 * those the deploy of `window` created or changed.
 */
export function targetsOf(resources: readonly RecordedResource[], window?: DeployWindow): Target[] {
  const targets: Target[] = [];
  for (const resource of resources) {
    const kind = kindOfTypeToken(resource.type);
    if (kind === undefined || resource.id === undefined || resource.id === "") continue;
    const name = resource.urn.slice(resource.urn.lastIndexOf("::") + 2);
    const inputs = resource.inputs ?? {};
    const outputs = resource.outputs ?? {};
    if (window !== undefined && !changedIn(resource, window)) continue;
    if (kind === "Monitor") targets.push(monitorTarget(name, resource.id, inputs, outputs));
    else if (kind === "WebhookSubscription" || kind === "NotificationChannel") targets.push({ kind, name, id: resource.id, ...clientOf(outputs["clientId"] ?? inputs["clientId"]) });
    else if (kind === MONITOR_SET_KIND) targets.push(...setMonitors(name, inputs, outputs));
  }
  return targets;
}

/** The monitors of every kind a stack records, whatever the last deploy did: the routes a test alert can take. */
export function allMonitors(resources: readonly RecordedResource[]): Target[] {
  return targetsOf(resources).filter((target) => target.kind === "Monitor");
}

function changedIn(resource: RecordedResource, window: DeployWindow): boolean {
  const within = (time: unknown): boolean => {
    if (typeof time !== "string") return false;
    const ms = Date.parse(time);
    return ms >= window.startMs && ms <= window.endMs;
  };
  const stamp = resource.outputs?.[internal.changedAt];
  if (stamp !== undefined) return within(stamp);
  return within(resource.created) || within(resource.modified);
}

function monitorTarget(name: string, id: string, inputs: Record<string, unknown>, outputs: Record<string, unknown>): Target {
  const target: Target = { kind: "Monitor", name, id, ...clientOf(outputs["clientId"] ?? inputs["clientId"]) };
  if (inputs["paused"] === true) target.declaredPaused = true;
  const channels = inputs["notificationChannelIds"];
  if (Array.isArray(channels)) target.channelIds = channels.filter((channel): channel is string => typeof channel === "string");
  const policy = inputs["escalationPolicyId"] ?? outputs["escalationPolicyId"];
  if (typeof policy === "string" && policy !== "") target.escalationPolicyId = policy;
  return target;
}

/** A set's monitors, each under `set.monitors["key"]`; a change to the set counts for each of them. */
function setMonitors(name: string, inputs: Record<string, unknown>, outputs: Record<string, unknown>): Target[] {
  const ids = isRecord(outputs["ids"]) ? outputs["ids"] : {};
  const declared = isRecord(inputs["monitors"]) ? inputs["monitors"] : {};
  const recorded = isRecord(outputs["monitors"]) ? outputs["monitors"] : {};
  return Object.entries(ids).flatMap(([key, id]) => {
    if (typeof id !== "string") return [];
    const monitorInputs = isRecord(declared[key]) ? declared[key] : {};
    const monitorOutputs = isRecord(recorded[key]) ? recorded[key] : {};
    return [monitorTarget(memberName(name, key), id, { clientId: inputs["clientId"], ...monitorInputs }, monitorOutputs)];
  });
}

function clientOf(clientId: unknown): { clientId?: string } {
  return typeof clientId === "string" && clientId !== "" ? { clientId: clientId.toLowerCase() } : {};
}
