/**
 * The members of a resource: the objects of the service it stands for, each with the definition
 * that checks, diffs, reads and writes it. A resource of a kind is its own single member; a group
 * (`MonitorSet`) is many members of one kind, by key, and only gathers them. The provider, drift,
 * the policy pack, the YAML loader and the importer take members from here, so a member of a set
 * goes through exactly the code a single resource of its kind goes through.
 */
import type { AnyResourceDefinition } from "./define.js";
import { definitions } from "./index.js";
import { isRecord } from "./naming.js";
import { monitor } from "./resources/monitor.js";

/** The output in which the provider records the input names the program set (a list; a map by key for a group). */
export const DECLARED_INPUTS = "__declaredInputs";
/**
 * The output in which the provider records, for the fields the program leaves out that moved since
 * it last wrote them, the value it wrote (provider/left-out.ts); a map by key for a group.
 */
export const LEFT_OUT_AS_WRITTEN = "__leftOutAsWritten";
/** The output in which the provider records an operator's override of the pause state (provider/overrides.ts); a map by key for a group. */
export const OVERRIDE = "__override";
/** The output in which the provider records when a refresh first saw a pause made by hand (provider/pauses.ts); a map by key for a group. */
export const HAND_PAUSE_SEEN = "__handPauseSeen";

/** A resource that is many members of one kind. */
export interface GroupDefinition {
  kind: string;
  member: AnyResourceDefinition;
  /** The input (and output) that holds each member's inputs (outputs) by key. */
  membersField: string;
  /** The group's inputs that every member takes unless it sets its own. */
  shared: readonly string[];
  /** The group's outputs that hold one field of each member by key: output name -> member field. */
  perMember: Readonly<Record<string, string>>;
  /** Per-member outputs recorded only when a member has a value: the state of a group nobody touched by hand stays as it was. */
  sparse: readonly string[];
}

export const monitorSet: GroupDefinition = {
  kind: "MonitorSet",
  member: monitor,
  membersField: "monitors",
  shared: ["clientId"],
  perMember: { ids: "id", statuses: "status", [DECLARED_INPUTS]: DECLARED_INPUTS, [LEFT_OUT_AS_WRITTEN]: LEFT_OUT_AS_WRITTEN, [OVERRIDE]: OVERRIDE, [HAND_PAUSE_SEEN]: HAND_PAUSE_SEEN },
  sparse: [LEFT_OUT_AS_WRITTEN, OVERRIDE, HAND_PAUSE_SEEN],
};

export const groups: readonly GroupDefinition[] = [monitorSet];

export function groupOf(kind: string): GroupDefinition | undefined {
  return groups.find((group) => group.kind === kind);
}

export interface Member {
  /** The member's key in its group; absent for a resource that is its own single member. */
  key?: string;
  definition: AnyResourceDefinition;
  /**
   * Its inputs, the group's shared ones included; or, from a group's outputs, its outputs as a
   * single resource of its kind records them (`status`, `__declaredInputs` and `__leftOutAsWritten` included).
   */
  values: Record<string, unknown>;
  /** Its id, when the values are outputs. */
  id?: string;
}

/** A member a group's outputs record: it exists, under its id. */
export type RecordedMember = Member & { key: string; id: string };

/** How a caller reads a field: the policy pack's read tells a value unknown at preview (not an object, so skipped). */
export type FieldReader = (object: object, field: string) => unknown;

export interface MembersOptions {
  read?: FieldReader;
  /** A member's values with a shared group input it does not set itself. */
  share?: (values: object, field: string, value: unknown) => object;
}

/** `monitors["api"]`: the path of a member's inputs in its group's inputs (check's failures, the JSON Schema). */
export function memberPath(group: GroupDefinition, key: string): string {
  return `${group.membersField}[${JSON.stringify(key)}]`;
}

/** `fleet[api]`: the one name every message, report and command gives the member `key` of the group resource `resource`. */
export function memberName(resource: string, key: string): string {
  return `${resource}[${key}]`;
}

/**
 * The members of a resource of `kind`, from its inputs or from its outputs; none for a kind of
 * another package. A member whose values are not an object (unknown at preview) is left out.
 */
export function membersOf(kind: string, values: object, options: MembersOptions = {}): Member[] {
  const group = groupOf(kind);
  if (group === undefined) {
    const definition = definitions.find((candidate) => candidate.kind === kind);
    return definition === undefined ? [] : [{ definition, values: values as Record<string, unknown> }];
  }
  const read = options.read ?? ((object: object, field: string) => (object as Record<string, unknown>)[field]);
  const maps = [group.membersField, ...Object.keys(group.perMember)].map((field) => [field, read(values, field)] as const);
  const keys = new Set(maps.flatMap(([, map]) => (isRecord(map) ? Object.keys(map) : [])));
  const members: Member[] = [];
  for (const key of keys) {
    const member = memberOf(group, values, key, read, options.share);
    if (member !== undefined) members.push(member);
  }
  return members;
}

/** One member of a group by key, from the group's inputs or outputs; undefined when it has no values. */
export function memberOf(group: GroupDefinition, values: object, key: string, read: FieldReader = (object, field) => (object as Record<string, unknown>)[field], share = withShared): Member | undefined {
  const entries = read(values, group.membersField);
  let member: object | undefined = isRecord(entries) ? (read(entries, key) as object | undefined) : undefined;
  const perMember: Record<string, unknown> = {};
  let id: string | undefined;
  for (const [output, field] of Object.entries(group.perMember)) {
    const map = read(values, output);
    const value = isRecord(map) ? map[key] : undefined;
    if (value === undefined) continue;
    if (field === "id") id = String(value);
    else perMember[field] = value;
  }
  if (member === undefined && id !== undefined) member = {};
  if (typeof member !== "object" || member === null || Array.isArray(member)) return undefined;
  for (const field of group.shared) {
    const shared = read(values, field);
    if (shared !== undefined && shared !== null && read(member, field) === undefined) member = share(member, field, shared);
  }
  const memberValues = Object.keys(perMember).length === 0 ? (member as Record<string, unknown>) : { ...member, ...perMember };
  return { key, definition: group.member, values: memberValues, ...(id === undefined ? {} : { id }) };
}

/**
 * The members a group's outputs record, by key: each with its id and its outputs as a single
 * resource of its kind records them. The group's shared outputs are not mixed in: a member
 * records its own (a member written before the group's `clientId` changed still holds the old one).
 */
export function recordedMembers(group: GroupDefinition, outputs: object): Map<string, RecordedMember> {
  const members = new Map<string, RecordedMember>();
  for (const key of keysOf(group, outputs)) {
    const member = memberOf(group, outputs, key, undefined, (values) => values);
    if (member?.id !== undefined) members.set(key, { ...member, key, id: member.id });
  }
  return members;
}

/**
 * The group's outputs that record `members`, with the group's shared inputs: what
 * {@link recordedMembers} reads back. A member's own values go under the members field, without
 * the per-member fields and without the provider's internal ones (`__`), which have outputs of
 * their own.
 */
export function groupOutputs(group: GroupDefinition, members: Iterable<RecordedMember>, inputs: object): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const field of group.shared) {
    const value = (inputs as Record<string, unknown>)[field];
    if (value !== undefined && value !== null) outputs[field] = value;
  }
  const perMember = Object.entries(group.perMember);
  const maps: Record<string, Record<string, unknown>> = Object.fromEntries([group.membersField, ...perMember.map(([output]) => output)].map((output) => [output, {}]));
  const ownFields = new Set(perMember.map(([, field]) => field));
  for (const { key, id, values } of members) {
    for (const [output, field] of perMember) {
      const value = field === "id" ? id : values[field];
      if (value !== undefined) (maps[output] as Record<string, unknown>)[key] = value;
    }
    (maps[group.membersField] as Record<string, unknown>)[key] = Object.fromEntries(Object.entries(values).filter(([field]) => !ownFields.has(field) && !field.startsWith("__")));
  }
  for (const [output, map] of Object.entries(maps)) {
    if (!(group.sparse.includes(output) && Object.keys(map).length === 0)) outputs[output] = map;
  }
  return outputs;
}

/** The keys a group's outputs record an id for. */
function keysOf(group: GroupDefinition, outputs: object): string[] {
  const idOutput = Object.entries(group.perMember).find(([, field]) => field === "id")?.[0] ?? "";
  const ids = (outputs as Record<string, unknown>)[idOutput];
  return isRecord(ids) ? Object.keys(ids) : [];
}

function withShared(values: object, field: string, value: unknown): object {
  return { ...values, [field]: value };
}
