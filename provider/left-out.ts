/**
 * The fields a program leaves out, as the provider last wrote them. A deploy keeps a value set by
 * hand in such a field, and the refresh before it records that value, so the recorded outputs
 * alone stop showing that anyone changed it: drift would call the stack in sync while the service
 * runs with a value nobody declared. So each object's outputs keep, under `__leftOutAsWritten`,
 * the value a left-out field had when the provider last wrote the object's declaration of it (at
 * create: the service's answer), for each such field whose value has moved from it since. A read
 * carries it on, a write of other fields too; a field back at its written value drops out, and a
 * field the program declares (or stops declaring, which writes it) is written afresh.
 *
 * Only the fields that moved are kept, rather than every left-out field: drift learns the same,
 * and the state stays as it was for every object nobody touched (a set of 1,000 monitors pays
 * nothing). Secrets and write-only values are never kept. It is an internal property: diff never
 * compares it, so it causes no change and no replacement. A set keeps it per member, by key
 * (schema/members.ts), through the same functions.
 */
import type { AnyResourceDefinition } from "../schema/define.js";
import { isRecord } from "../schema/naming.js";
import { declaredInputs, sameInputValue } from "./diff.js";
import { associationOf, inputFields, internal, pathFields } from "./fields.js";

type Values = Record<string, unknown>;

/** The input fields whose written value is kept: those the object itself carries, no secret, no write-only value. */
function keptFields(definition: AnyResourceDefinition): string[] {
  const inPath = pathFields(definition);
  return inputFields(definition).filter((field) => {
    const association = associationOf(definition, field);
    if (association !== undefined && association.kind !== "toggle") return false;
    return !definition.secrets.includes(field) && !definition.writeOnly.includes(field) && !inPath.includes(field);
  });
}

/**
 * What the provider last wrote to `field` of the object whose outputs are `recorded`: the value
 * kept when it moved since, else the recorded one. `null` stands for a field the service left out.
 */
export function writtenValue(recorded: Values, field: string): unknown {
  const kept = recorded[internal.leftOutAsWritten];
  return isRecord(kept) && field in kept ? kept[field] : recorded[field];
}

/**
 * `after` (the outputs of a read or a write of the object) with the written values of the fields
 * left out both in `before` (its outputs until then; `undefined` for an object just created or
 * adopted) and in `after` that no longer hold them.
 */
export function withLeftOutAsWritten(definition: AnyResourceDefinition, before: Values | undefined, after: Values): Values {
  const { [internal.leftOutAsWritten]: _dropped, ...outputs } = after;
  if (before === undefined) return outputs;
  const declared = new Set([...declaredInputs(before), ...declaredInputs(after)]);
  const kept: Values = {};
  for (const field of keptFields(definition)) {
    if (declared.has(field)) continue;
    const written = writtenValue(before, field) ?? null;
    if (!sameInputValue(definition, field, after[field], written)) kept[field] = written;
  }
  return Object.keys(kept).length === 0 ? outputs : { ...outputs, [internal.leftOutAsWritten]: kept };
}
