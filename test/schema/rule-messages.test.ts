/**
 * The one vocabulary of rule messages (schema/rule-messages.ts), for rules no definition phrases
 * itself: a zod schema and the JSON Schema generated from it refuse the same value in the same
 * words, so check (zod) and the YAML loader (ajv, then zod) cannot drift apart when a definition
 * gains a rule. The rows of test/support/bad-values.ts hold the same for the definitions' fields.
 */
import { describe, expect, it } from "vitest";
import type { ErrorObject } from "ajv";
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
  ["a string against a pattern with a slash", z.string().regex(/^\d+\/\d+$/), "1-2", "must match ^\\d+\\/\\d+$"],
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

/** An error as ajv reports it (compiled with `verbose`), for the keyword and its params. */
const ajvError = (keyword: string, params: Record<string, unknown>, extra: Partial<ErrorObject> = {}): ErrorObject => ({
  keyword,
  params,
  instancePath: "/field",
  schemaPath: `#/properties/field/${keyword}`,
  ...extra,
});

describe("the message of each JSON Schema rule a YAML file can break", () => {
  it.each<[string, ErrorObject, string]>([
    ["a type", ajvError("type", { type: "integer" }), "must be a whole number"],
    ["a type without a name of its own", ajvError("type", { type: "bigint" }), "must be a bigint"],
    ["a required field", ajvError("required", { missingProperty: "url" }), "is required"],
    [
      "an unknown key, with the known one it likely meant",
      ajvError("additionalProperties", { additionalProperty: "intervalSecs" }, { parentSchema: { properties: { intervalSeconds: {}, url: {} } } }),
      "unknown field (did you mean intervalSeconds?)",
    ],
    ["an unknown key where no key is known", ajvError("additionalProperties", { additionalProperty: "colour" }), "unknown field"],
    ["an inclusive minimum", ajvError("minimum", { limit: 10, comparison: ">=" }), "must be at least 10"],
    ["an exclusive minimum", ajvError("exclusiveMinimum", { limit: 0, comparison: ">" }), "must be more than 0"],
    ["an inclusive maximum", ajvError("maximum", { limit: 86400, comparison: "<=" }), "must be at most 86400"],
    ["an exclusive maximum", ajvError("exclusiveMaximum", { limit: 100, comparison: "<" }), "must be less than 100"],
    ["a multiple", ajvError("multipleOf", { multipleOf: 5 }), "must be a multiple of 5"],
    ["an empty string", ajvError("minLength", { limit: 1 }), "must not be empty"],
    ["a string too short", ajvError("minLength", { limit: 3 }), "must be at least 3 characters long"],
    ["a string too long", ajvError("maxLength", { limit: 200 }), "must be at most 200 characters long"],
    ["a list of too few items", ajvError("minItems", { limit: 1 }), "must have at least 1 item"],
    ["a list of too many items", ajvError("maxItems", { limit: 3 }), "must have at most 3 items"],
    ["a mapping of too few entries", ajvError("minProperties", { limit: 1 }), "must have at least 1 entry"],
    ["a mapping of too few entries, in plural", ajvError("minProperties", { limit: 2 }), "must have at least 2 entries"],
    ["a mapping of too many entries", ajvError("maxProperties", { limit: 50 }), "must have at most 50 entries"],
    ["a mapping of one entry at most", ajvError("maxProperties", { limit: 1 }), "must have at most 1 entry"],
    ["a list with a repeated value", ajvError("uniqueItems", { i: 1, j: 0 }), "must not list the same value twice"],
    ["a value outside an enumeration", ajvError("enum", { allowedValues: ["low", "high"] }), "must be one of low, high"],
    ["a value other than a constant", ajvError("const", { allowedValue: "on" }), "must be one of on"],
    ["a format of its own name", ajvError("format", { format: "uuid" }), "must be a UUID"],
    ["a format of JSON Schema's name", ajvError("format", { format: "date-time" }), "must be an ISO-8601 date and time such as 2030-01-31T12:00:00Z"],
    ["a format without a name of its own", ajvError("format", { format: "hostname" }), "must be a valid hostname"],
    ["a pattern", ajvError("pattern", { pattern: "^#[0-9A-Fa-f]{6}$" }), "must match ^#[0-9A-Fa-f]{6}$"],
    ["a keyword without words of its own: ajv's", ajvError("if", { failingKeyword: "then" }, { message: 'must match "then" schema' }), 'must match "then" schema'],
    ["a keyword without words or message", ajvError("dependentRequired", {}), "breaks the rule dependentRequired"],
  ])("%s", (_title, error, rule) => {
    expect(ruleOfSchemaError(error)).toBe(rule);
  });
});

describe("the message of each zod issue no definition phrases", () => {
  it.each<[string, z.ZodType, unknown, string]>([
    ["a value left out, whatever its rule", z.string().min(3), undefined, "is required"],
    ["a list too short", z.array(z.string()).min(1), [], "must have at least 1 item"],
    ["a set too large", z.set(z.string()).max(1), new Set(["a", "b"]), "must have at most 1 item"],
    ["a number at its exclusive minimum", z.number().gt(0), 0, "must be more than 0"],
    ["a number at its exclusive maximum", z.number().lt(5), 5, "must be less than 5"],
    ["a regular expression with flags: its source", z.string().regex(/^[a-z]+$/i), "1", "must match ^[a-z]+$"],
    ["a URL", z.url(), "not a url", "must be a URL"],
    ["a date and time", z.iso.datetime(), "tomorrow", "must be an ISO-8601 date and time such as 2030-01-31T12:00:00Z"],
    ["a format without a name of its own", z.ipv4(), "1.2.3", "must be a valid ipv4"],
  ])("%s", (_title, schema, value, rule) => {
    expect(schema.safeParse(value, { reportInput: true, error: ruleOfZodIssue }).error?.issues[0]?.message).toBe(rule);
  });
});
