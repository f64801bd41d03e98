/**
 * The fields a program leaves out, as the provider last wrote them (`__leftOutAsWritten`), so that
 * drift still tells a value changed by hand after a deploy kept it. Why only the fields that moved
 * are kept is in docs/architecture.md (Left-out fields as written).
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
