/**
 * Consistency of every definition: the lists a definition keeps name fields that exist, every
 * field is documented (docs and JSON Schema are generated from the descriptions), and the
 * schemas convert to JSON Schema.
 */
// @ts-nocheck

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AnyResourceDefinition, definitionOf, definitions, providerInputs } from "../../schema/index.js";
import { metadataOf, unwrap } from "../../schema/rules.js";
import { pathFields } from "../../provider/fields.js";

/** Paths of fields without a description, at any depth. */
function undocumented(shape: Record<string, z.ZodType>, prefix = ""): string[] {
  return Object.entries(shape).flatMap(([name, schema]) => {
    const path = `${prefix}${name}`;
    const own = metadataOf(schema).description === undefined && schema.description === undefined ? [path] : [];
    let inner = unwrap(schema);
    if (inner instanceof z.ZodArray) inner = unwrap(inner.element as z.ZodType);
    const nested = inner instanceof z.ZodObject ? undocumented(inner.shape as Record<string, z.ZodType>, `${path}.`) : [];
    return [...own, ...nested];
  });
}

const byKind = definitions.map((definition) => [definition.kind, definition] as [string, AnyResourceDefinition]);

describe.each(byKind)("%s", (_kind, definition) => {
  const inputs = Object.keys(definition.inputs.shape);
  const outputs = Object.keys(definition.outputs.shape);

  it("documents every input and output field", () => {
    expect(undocumented(definition.inputs.shape as Record<string, z.ZodType>)).toEqual([]);
    expect(undocumented(definition.outputs.shape as Record<string, z.ZodType>)).toEqual([]);
    expect(definition.description.length).toBeGreaterThan(40);
  });

  it("names only its own fields in its lists", () => {
    for (const field of [...definition.replaceOnChanges, ...definition.secrets, ...definition.writeOnly]) {
      expect(inputs).toContain(field);
    }
    for (const field of Object.keys(definition.associations)) expect(inputs).toContain(field);
    for (const field of [...definition.secretOutputs, ...definition.keepFromState]) expect(outputs).toContain(field);
    for (const field of pathFields(definition)) expect(definition.inputs.shape[field]?.safeParse(undefined).success).toBe(false);
  });

  it("keeps inputs, outputs and provider inputs apart", () => {
    const all = [...inputs, ...outputs, ...Object.keys(providerInputs.shape)];
    expect(new Set(all).size).toBe(all.length);
    expect(all).not.toContain("id");
  });

  it("converts to JSON Schema", () => {
    const schema = z.toJSONSchema(definition.inputs, { io: "input", unrepresentable: "any" });
    expect(Object.keys(schema.properties ?? {})).toEqual(inputs);
  });

  it("is found by its kind", () => {
    expect(definitionOf(definition.kind)).toBe(definition);
  });
});

it("has one definition per kind name", () => {
  const kinds = definitions.map((definition) => definition.kind);
  expect(new Set(kinds).size).toBe(kinds.length);
  expect(() => definitionOf("Monitr")).toThrow(/unknown resource kind "Monitr"; known kinds: Monitor, Heartbeat/);
});
