/**
 * Which object of a stack an override is about: `web` (a monitor or heartbeat the program names
 * so) or `fleet[web]` (a set's member), found in the stack's exported state. Pure, so that a name
 * the stack lacks is refused before anything runs.
 */
import { membersOf } from "../../schema/members.js";
import { isRecord } from "../../schema/naming.js";
import { editDistance } from "../../schema/rule-messages.js";
import { PAUSABLE_KINDS } from "../../provider/pauses.js";
import { UsageError } from "../command/usage.js";
import { globToRegExp } from "../project/select.js";

/** An object that can be paused, as the override run aims at it. */
export interface OverrideTarget {
  /** As the user writes it: `web`, `fleet[web]`. */
  name: string;
  urn: string;
  /** The set's member key. */
  member?: string;
  /** `Monitor`, `Heartbeat`, `MonitorSet`. */
  kind: string;
}

const SET_KINDS = ["MonitorSet"];

/** Every object of the exported state an override can pause, single objects and each set's members. */
export function pausableObjects(exported: unknown): OverrideTarget[] {
  const deployment = isRecord(exported) && isRecord(exported["deployment"]) ? exported["deployment"] : undefined;
  const resources = Array.isArray(deployment?.["resources"]) ? deployment["resources"] : [];
  const targets: OverrideTarget[] = [];
  for (const resource of resources) {
    if (!isRecord(resource) || typeof resource["urn"] !== "string" || typeof resource["type"] !== "string") continue;
    const urn = resource["urn"];
    const kind = resource["type"].slice(resource["type"].lastIndexOf(":") + 1);
    const name = urn.slice(urn.lastIndexOf("::") + 2);
    if (PAUSABLE_KINDS.includes(kind)) targets.push({ name, urn, kind });
    else if (SET_KINDS.includes(kind) && isRecord(resource["outputs"])) {
      for (const member of membersOf(kind, resource["outputs"])) {
        if (member.key !== undefined) targets.push({ name: `${name}[${member.key}]`, urn, member: member.key, kind });
      }
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
