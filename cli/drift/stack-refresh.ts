/**
 * What a refresh of a stack would show, without a Pulumi engine: each resource of its state read
 * as the provider's read reads it (provider/reader.ts, a set's members through
 * provider/monitor-set.ts `readMembers`, the pause records through provider/pauses.ts), from the account's lists read once for every checked
 * stack (./account-lists.ts), and told as the engine's refresh step tells it (recorded state, read
 * state, `delete` when the object is gone), for ./changes.ts to judge. Only the association reads
 * the spec has no list for (a monitor's channels, a client's portal settings) are sent per object.
 *
 * The state is read as exported, secrets encrypted, and the engine's steps never show a secret
 * either: a value the state keeps secret (an encrypted value, or an output the resource names in
 * `additionalSecretOutputs`) is `[secret]` on both sides, recorded and read, as in the engine's
 * events. No secret is decrypted, and none read from the service is kept.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { definitions } from "../../schema/index.js";
import { monitorSet, recordedMembers } from "../../schema/members.js";
import { isRecord } from "../../schema/naming.js";
import { readMembers } from "../../provider/monitor-set.js";
import { type PauseSettings, withMemberPauses, withPauses } from "../../provider/pauses.js";
import type { Listed } from "../../provider/reader.js";
import type { AccountLists } from "./account-lists.js";
import { SECRET } from "./changes.js";
import { type RecordedResource as StateResource } from "../project/state.js";
import { kindOfTypeToken } from "../../schema/type-token.js";

type Values = Record<string, unknown>;

/** The key Pulumi marks an encrypted value with in a state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

const isSecretValue = (value: unknown): boolean => isRecord(value) && SECRET_SIGNATURE in value;

/**
 * `recorded` and `read` with every value the state keeps secret shown as `[secret]` on both sides:
 * an encrypted value of the state, at any depth, hides what the read found in its place.
 */
export function blindSecrets(recorded: unknown, read: unknown): [unknown, unknown] {
  if (isSecretValue(recorded)) return [SECRET, read === undefined ? undefined : SECRET];
  if (isRecord(recorded) && isRecord(read)) {
    const shown: [Values, Values] = [{}, { ...read }];
    for (const [key, value] of Object.entries(recorded)) [shown[0][key], shown[1][key]] = blindSecrets(value, read[key]);
    for (const key of Object.keys(shown[1])) if (shown[1][key] === undefined && !(key in read)) delete shown[1][key];
    return shown;
  }
  if (Array.isArray(recorded) && Array.isArray(read) && recorded.length === read.length) {
    const pairs = recorded.map((value, index) => blindSecrets(value, read[index]));
    return [pairs.map(([before]) => before), pairs.map(([, after]) => after)];
  }
  if (isRecord(recorded)) return [blindSecrets(recorded, {})[0], read];
  if (Array.isArray(recorded)) return [recorded.map((value) => blindSecrets(value, undefined)[0]), read];
  return [recorded, read];
}

/** The outputs `read` of a resource recorded as `resource`, shown as the engine's events show them. */
function shownOutputs(resource: StateResource, read: Values | undefined): { recorded: Values; read: Values | undefined } {
  const [recorded, after] = blindSecrets(resource.outputs ?? {}, read ?? {}) as [Values, Values];
  for (const field of resource.additionalSecretOutputs ?? []) {
    if (recorded[field] !== undefined) recorded[field] = SECRET;
    if (after[field] !== undefined) after[field] = SECRET;
  }
  return { recorded, read: read === undefined ? undefined : after };
}

/** A read-only provider of one kind, as the pause wrappers take one: a drift check writes nothing. */
function readingProvider(read: (id: string, props: Values) => Promise<{ id?: string; props?: Values }>): pulumi.dynamic.ResourceProvider {
  return { read: (id, props) => read(id, props ?? {}), create: () => Promise.reject(new Error("a drift check creates nothing")) };
}

/** What the pause wrappers read by: the stack's instant and `monitoring:handPauses`, and no override or "pauses only" run. */
export type ReadSettings = PauseSettings;

/**
 * The outputs a refresh would record for `resource`, read from `lists` through the same pause
 * wrappers as the provider's read (provider/pauses.ts: the override and the hand pause's first
 * sighting carried on); no id when the object is gone (the engine drops it from the state).
 * Resources of other packages are not read.
 */
export async function readResource(resource: StateResource, lists: AccountLists, settings: ReadSettings): Promise<{ id?: string; props?: Values } | "not ours"> {
  const outputs = resource.outputs ?? {};
  const kind = kindOfTypeToken(resource.type);
  if (kind === monitorSet.kind) {
    const member = lists.reader(monitorSet.member);
    const readSet = async (_id: string, props: Values) => {
      const found = new Map<string, Listed>();
      await Promise.all([...recordedMembers(monitorSet, props).values()].map(async ({ id, values }) => found.set(id.toLowerCase(), await lists.find(monitorSet.member, id, values, true))));
      return { id: resource.id ?? "", props: await readMembers(props, (id) => found.get(id.toLowerCase()) ?? "absent", (recorded, state, listed) => member.read(recorded.id, state, listed)) };
    };
    return withMemberPauses(readingProvider(readSet), () => settings).read!(resource.id ?? "", outputs);
  }
  const definition = definitions.find((candidate) => candidate.kind === kind);
  if (definition === undefined || resource.id === undefined || resource.id === "") return "not ours";
  const reader = lists.reader(definition);
  const readOne = async (id: string, props: Values) => reader.read(id, props, await lists.find(definition, id, props));
  return withPauses(definition.kind, readingProvider(readOne), () => settings).read!(resource.id, outputs);
}

/**
 * The refresh steps of a stack's resources of this package, as the engine's refresh events carry
 * them: `delete` for an object gone, else `same` (the judge compares the outputs itself).
 */
export async function refreshSteps(resources: readonly StateResource[], lists: AccountLists, settings: ReadSettings): Promise<StepEventMetadata[]> {
  const steps = await Promise.all(
    resources.map(async (resource): Promise<StepEventMetadata | undefined> => {
      const read = await readResource(resource, lists, settings);
      if (read === "not ours") return undefined;
      const gone = read.id === undefined || read.props === undefined;
      const shown = shownOutputs(resource, gone ? undefined : read.props);
      const old = { type: resource.type, urn: resource.urn, id: resource.id ?? "", inputs: resource.inputs ?? {}, outputs: shown.recorded };
      return {
        op: gone ? "delete" : "same",
        urn: resource.urn,
        type: resource.type,
        provider: "",
        old: old as never,
        ...(shown.read === undefined ? {} : { new: { ...old, outputs: shown.read } as never }),
      };
    }),
  );
  return steps.filter((step): step is StepEventMetadata => step !== undefined);
}
