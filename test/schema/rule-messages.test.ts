/**
 * The one vocabulary of rule messages (schema/rule-messages.ts), for rules no definition phrases
 * itself: a zod schema and the JSON Schema generated from it refuse the same value in the same
 * words, so check (zod) and the YAML loader (ajv, then zod) cannot drift apart when a definition
 * gains a rule. The rows of test/support/bad-values.ts hold the same for the definitions' fields.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileSchema, jsonSchemaOf } from "../../schema/json-schema.js";
import { ruleOfSchemaError, ruleOfZodIssue } from "../../schema/rule-messages.js";

const rows: [string, z.ZodType, unknown, string][] = [
  ["a string too long", z.string().max(5), "abcdefg", "must be at most 5 characters long"],
  ["a string too short", z.string().min(3), "ab", "must be at least 3 characters long"],
  ["an empty string", z.string().min(1), "", "must not be empty"],
  ["a number below its minimum", z.number().min(1), 0, "must be at least 1"],
  ["a number above its maximum", z.number().max(10), 11, "must be at most 10"],
  ["a number not above an exclusive minimum", z.number().positive(), 0, "must be more than 0"],
  ["a number not below an exclusive maximum", z.number().lt(10), 10, "must be less than 10"],
  ["a number not a multiple", z.number().multipleOf(5), 7, "must be a multiple of 5"],
  ["a list too short", z.array(z.string()).min(2), ["a"], "must have at least 2 items"],
  ["a list too long", z.array(z.string()).max(1), ["a", "b"], "must have at most 1 item"],
  ["a value outside an enumeration", z.enum(["low", "high"]), "urgent", "must be one of low, high"],
  ["a value other than a literal", z.literal("on"), "off", "must be one of on"],
  ["a string against a pattern", z.string().regex(/^[a-z]+$/), "A1", "must match ^[a-z]+$"],
  ["a fraction for a whole number", z.int(), 1.5, "must be a whole number"],
  ["a string for a number", z.number(), "1", "must be a number"],
  ["a number for a string", z.string(), 1, "must be a string"],
  ["a string for true or false", z.boolean(), "yes", "must be true or false"],
  ["a string for a list", z.array(z.string()), "a", "must be a list"],
  ["a list for a mapping", z.object({ a: z.string() }), ["a"], "must be a mapping"],
  ["a string for a mapping of any keys", z.record(z.string(), z.string()), "a", "must be a mapping"],
];

describe("a value a rule refuses reads the same from zod and from the JSON Schema", () => {
  it.each(rows)("%s", (_name, schema, value, rule) => {
    const zodIssue = z.object({ field: schema }).strict().safeParse({ field: value }, { error: ruleOfZodIssue }).error?.issues[0];
    const validate = compileSchema(jsonSchemaOf(z.object({ field: schema }).strict(), "input"));
    expect(validate({ field: value })).toBe(false);
    expect({ zod: zodIssue?.message, jsonSchema: validate.errors?.map(ruleOfSchemaError)[0] }).toEqual({ zod: rule, jsonSchema: rule });
  });

  it.each([
    ["a field left out", { other: "x" }, "is required"],
    ["an unknown field, with the known one it likely meant", { field: "x", fields: "y" }, "unknown field (did you mean field?)"],
  ])("%s", (_name, value, rule) => {
    const validate = compileSchema(jsonSchemaOf(z.object({ field: z.string(), other: z.string().optional() }).strict(), "input"));
    expect(validate(value)).toBe(false);
    expect(validate.errors?.map(ruleOfSchemaError)).toEqual([rule]);
  });
});
