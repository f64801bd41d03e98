/**
 * What the generic code derives from a definition: which inputs go into which request body,
 * which replace, which are internal. Nothing here is specific to a kind.
 */
import type { AnyResourceDefinition } from "../schema/define.js";
import { DECLARED_INPUTS, HAND_PAUSE_SEEN, LEFT_OUT_AS_WRITTEN, OVERRIDE } from "../schema/members.js";

/** Properties the provider keeps in inputs and outputs for itself; never sent, never compared. */
export const internal = {
  /** Pulumi's serialized provider. */
  provider: "__provider",
  /** The input names the user set, so diff can tell "removed" from "never set". */
  declaredInputs: DECLARED_INPUTS,
  /** In outputs: what the provider last wrote of the left-out fields that moved since (provider/left-out.ts). */
  leftOutAsWritten: LEFT_OUT_AS_WRITTEN,
  /** In outputs: an operator's override of the pause state, `{ until, reason, by, at }` (provider/overrides.ts). */
  override: OVERRIDE,
  /** In outputs: when a refresh first saw a pause made by hand (provider/pauses.ts). */
  handPauseSeen: HAND_PAUSE_SEEN,
  /** The resource's URN, set by the SDK: names the resource in messages and seeds the create idempotency key. */
  urn: "__urn",
  /** The kind, in outputs: read and delete get only outputs and dispatch on it. */
  kind: "__kind",
  /**
   * The stack, in outputs: a refresh or destroy that runs without the program hands the provider
   * only outputs and the settings the last deploy recorded, so this names the stack whose
   * configuration now it reads instead (provider/settings-now.ts).
   */
  stack: "__stack",
  /**
   * In outputs: fingerprints of the `monitoring:` secrets of the configuration the provider last
   * ran with (provider/settings-now.ts, `SettingsSeen`), never their values: a refresh or destroy
   * handed the recorded settings tells by them, without the CLI, whether those are still the
   * configuration now.
   */
  settingsSeen: "__settingsSeen",
  /**
   * In outputs: when a create or update last wrote the object (ISO time), kept by reads. A refresh
   * also changes the state's own `modified` time (a monitor's status moved), so this is how
   * `pulumi-monitoring verify` tells what a deploy itself created or changed.
   */
  changedAt: "__changedAt",
} as const;

export function isInternal(key: string): boolean {
  return key.startsWith("__");
}

/** The kind's API and association inputs, in declaration order: not those that only steer the provider (`pauses`). */
export function inputFields(definition: AnyResourceDefinition): string[] {
  const providerOnly: readonly string[] = definition.providerOnly;
  return Object.keys(definition.inputs.shape).filter((field) => !providerOnly.includes(field));
}

/** Inputs named by `{placeholder}` in the collection path (e.g. a share link's `clientId`). */
export function pathFields(definition: AnyResourceDefinition): string[] {
  return [...definition.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
}

/** Inputs whose change replaces the object: every one when the kind cannot be updated. */
export function replaceFields(definition: AnyResourceDefinition): string[] {
  return definition.updateMethod === "none" ? inputFields(definition) : definition.replaceOnChanges;
}

/** Inputs that travel in the object's own body (create, and a PUT sends all of them): not the path's, not associations. */
export function objectBodyFields(definition: AnyResourceDefinition): string[] {
  const inPath = pathFields(definition);
  return inputFields(definition).filter((field) => associationOf(definition, field) === undefined && !inPath.includes(field));
}

/** Body inputs an update can change in place: a change to one of them takes a PATCH or PUT. */
export function updateBodyFields(definition: AnyResourceDefinition): string[] {
  const replacing = replaceFields(definition);
  return objectBodyFields(definition).filter((field) => !replacing.includes(field));
}

export function associationOf(definition: AnyResourceDefinition, field: string) {
  return (definition.associations as Record<string, AnyResourceDefinition["associations"][string]>)[field];
}

/** Fills `{id}`, `{value}` and `{<inputName>}` placeholders of an API path. */
export function fillPath(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (typeof value !== "string" || value === "") throw new Error(`cannot build ${template}: ${name} is not known`);
    return encodeURIComponent(value);
  });
}
