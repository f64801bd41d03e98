/**
 * Which object of a stack an override is about: `web` (a monitor or heartbeat the program names
 * so) or `fleet[web]` (a set's member), found in the stack's exported state, with what the state
 * records of it (its id, the inputs the last deploy declared, its outputs). Pure, so that a name the
 * stack lacks is refused before anything runs. The deployed state decides, not the checkout: an
 * object the program no longer declares is still found, and still paused.
 */
import { groupOf, recordedMembers } from "../../schema/members.js";
import { isRecord } from "../../schema/naming.js";
import { editDistance } from "../../schema/rule-messages.js";
import { PAUSABLE_KINDS } from "../../provider/pauses.js";
import { UsageError } from "../command/usage.js";
import { ownResources } from "../project/state.js";
import { globToRegExp } from "../project/select.js";

type Values = Record<string, unknown>;

/** An object whose pause state an operator can set, as the state records it. */
export interface OverrideTarget {
  /** As the user writes it and every message names it: `web`, `fleet[web]`. */
  name: string;
  urn: string;
  /** The set's member key. */
  member?: string;
  /** The resource's kind: `Monitor`, `Heartbeat`, `MonitorSet`. */
  kind: string;
  /** The object's own kind, whose calls pause it: `Monitor`, `Heartbeat` (a set's member is a `Monitor`). */
  objectKind: string;
  /** Its id in the service. */
  id: string;
  /** What the last deploy declared of it (`paused`, `pauses`). */
  inputs: Values;
  /** What the state records of it, as a single resource of its kind records it. */
  outputs: Values;
}

/** Every object of the exported state an override can pause, single objects and each set's members. */
export function pausableObjects(exported: unknown): OverrideTarget[] {
  const targets: OverrideTarget[] = [];
  for (const { urn, kind, name, id, inputs, outputs } of ownResources(exported)) {
    if (PAUSABLE_KINDS.includes(kind)) {
      if (id !== undefined) targets.push({ name, urn, kind, objectKind: kind, id, inputs, outputs });
      continue;
    }
    const group = groupOf(kind);
    if (group === undefined || !PAUSABLE_KINDS.includes(group.member.kind)) continue;
    const members = inputs[group.membersField];
    const declared: Values = isRecord(members) ? members : {};
    for (const [key, member] of recordedMembers(group, outputs)) {
      const memberInputs = declared[key];
      targets.push({ name: `${name}[${key}]`, urn, member: key, kind, objectKind: group.member.kind, id: member.id, inputs: isRecord(memberInputs) ? memberInputs : {}, outputs: member.values });
    }
  }
  return targets;
}

/** The object `name` of `stack`; a name the stack lacks is a usage error naming the stack and the closest names it has. */
export function findTarget(exported: unknown, stack: string, name: string): OverrideTarget {
  const objects = pausableObjects(exported);
  const found = objects.find((object) => object.name === name);
  if (found !== undefined) return found;
  const close = closeNames(name, objects.map((object) => object.name));
  const hint = objects.length === 0 ? "it has no monitor or heartbeat" : close.length > 0 ? `did you mean ${close.join(", ")}?` : `its monitors and heartbeats: ${listed(objects.map((object) => object.name))}`;
  throw new UsageError(`stack ${stack} has no monitor, heartbeat or set member named ${JSON.stringify(name)}: ${hint}`);
}

/** The objects of a stack whose name matches the glob `pattern` (`web`, `fleet[*]`, `*`). */
export function matchingTargets(exported: unknown, pattern: string): OverrideTarget[] {
  const regExp = globToRegExp(pattern);
  return pausableObjects(exported).filter((object) => regExp.test(object.name));
}

/** The names closest to `name` (at most three): typos, another case, a set member written without its set. */
export function closeNames(name: string, names: readonly string[]): string[] {
  const lower = name.toLowerCase();
  return names
    .map((candidate) => ({ candidate, distance: candidate.toLowerCase().endsWith(`[${lower}]`) ? 0 : editDistance(candidate.toLowerCase(), lower) }))
    .filter(({ candidate, distance }) => distance <= Math.max(2, Math.floor(candidate.length / 3)))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}

function listed(names: readonly string[]): string {
  return names.length <= 10 ? names.join(", ") : `${names.slice(0, 10).join(", ")} and ${names.length - 10} more`;
}
