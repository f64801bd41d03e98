/**
 * The words of every rule message, so that a bad value reads the same whichever layer finds it:
 * check at preview (provider/check.ts, with zod), the YAML loader (sdk/yaml-parse.ts, with the
 * JSON Schema and ajv, then zod), and the definitions where they phrase a rule themselves
 * (schema/rules.ts, schema/resources). Each message completes a sentence about the field:
 * `intervalSeconds: must be at least 10`. Here, in schema/, because every one of those layers may
 * import schema/ and none may import another.
 */
import type { ErrorObject } from "ajv";
import type { z } from "zod";

export const IS_REQUIRED = "is required";
export const NO_REPEATS = "must not list the same value twice";
export const INSTANT_RULE = "must be an ISO 8601 instant with an offset (Z or ±hh:mm), such as 2030-01-31T12:00:00Z";

/** Type names of zod (`int`, `record`, `set`) and of JSON Schema (`integer`, `object`, `null`) as the user reads them. */
const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  integer: "a whole number",
  boolean: "true or false",
  array: "a list",
  set: "a list",
  // A YAML file calls it a mapping; in a program it is an object whose keys are names.
  object: "a mapping",
  record: "a mapping",
  null: "empty",
};

/** Formats of zod (`url`, `datetime`) and of JSON Schema (`uri`, `date-time`) as the user reads them. */
const FORMAT_NAMES: Record<string, string> = {
  uuid: "a UUID",
  email: "an email address",
  url: "a URL",
  uri: "a URL",
  datetime: "an ISO-8601 date and time such as 2030-01-31T12:00:00Z",
  "date-time": "an ISO-8601 date and time such as 2030-01-31T12:00:00Z",
};

export function typeRule(type: string): string {
  return `must be ${TYPE_NAMES[type] ?? `a ${type}`}`;
}

/** A number's lower bound; `inclusive: false` for a bound the value must exceed. */
export function minimumRule(bound: number | bigint, inclusive = true): string {
  return inclusive ? `must be at least ${bound}` : `must be more than ${bound}`;
}

export function maximumRule(bound: number | bigint, inclusive = true): string {
  return inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
}

export function multipleOfRule(divisor: number | bigint): string {
  return `must be a multiple of ${divisor}`;
}

export function minLengthRule(length: number): string {
  return length === 1 ? "must not be empty" : `must be at least ${length} characters long`;
}

export function maxLengthRule(length: number): string {
  return `must be at most ${length} characters long`;
}

/** A list's lower bound; a mapping's counts `entry`s. */
export function minItemsRule(count: number, noun: "item" | "entry" = "item"): string {
  return `must have at least ${count} ${plural(count, noun)}`;
}

export function maxItemsRule(count: number, noun: "item" | "entry" = "item"): string {
  return `must have at most ${count} ${plural(count, noun)}`;
}

export function oneOfRule(values: readonly unknown[]): string {
  return `must be one of ${values.map(String).join(", ")}`;
}

export function formatRule(format: string): string {
  return `must be ${FORMAT_NAMES[format] ?? `a valid ${format}`}`;
}

export function patternRule(pattern: string): string {
  return `must match ${pattern}`;
}

/**
 * The rule for a field a schema does not know, naming the known field the key most likely meant:
 * the same name in another case (`interval_seconds`), a typo (`intervalSecs`), or the tail of a
 * longer name (`channels` for `notificationChannels`).
 */
export function unknownFieldRule(key: string, known: readonly string[]): string {
  const lower = key.toLowerCase();
  const bare = (name: string) => name.replace(/[_-]/g, "");
  const sameName = known.find((name) => bare(name.toLowerCase()) === bare(lower));
  const byDistance = known
    .map((name) => ({ name, distance: editDistance(name.toLowerCase(), lower) }))
    .filter(({ name, distance }) => distance <= Math.max(1, Math.floor(name.length / 4)))
    .sort((a, b) => a.distance - b.distance);
  const bySuffix = lower.length >= 4 ? known.find((name) => name.toLowerCase().endsWith(lower)) : undefined;
  const suggestion = sameName ?? byDistance[0]?.name ?? bySuffix;
  return suggestion === undefined ? "unknown field" : `unknown field (did you mean ${suggestion}?)`;
}

/**
 * The message of a zod issue whose schema phrases none: pass it as `error` to `safeParse`. Keys a
 * strict object does not know are left to the caller, which knows the keys the object does.
 */
export function ruleOfZodIssue(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.input === undefined) return IS_REQUIRED;
  switch (issue.code) {
    case "invalid_type":
      return typeRule(issue.expected);
    case "too_small":
      if (issue.origin === "string") return minLengthRule(Number(issue.minimum));
      if (issue.origin === "array" || issue.origin === "set") return minItemsRule(Number(issue.minimum));
      return minimumRule(issue.minimum, issue.inclusive !== false);
    case "too_big":
      if (issue.origin === "string") return maxLengthRule(Number(issue.maximum));
      if (issue.origin === "array" || issue.origin === "set") return maxItemsRule(Number(issue.maximum));
      return maximumRule(issue.maximum, issue.inclusive !== false);
    case "not_multiple_of":
      return multipleOfRule(issue.divisor);
    case "invalid_value":
      return oneOfRule(issue.values);
    case "invalid_format": {
      if (issue.format !== "regex") return formatRule(issue.format);
      // zod's regex check always reports its pattern, as a literal (`/^a$/i`); JSON Schema writes
      // the source (`^a$`): what lies between the first slash and the last.
      const literal = issue.pattern as string;
      return patternRule(literal.slice(1, literal.lastIndexOf("/")));
    }
  }
  // Other issues (unknown keys, refinements without words of their own): zod's words.
  return undefined;
}

/**
 * Parses `value` by a field's schema, every message in these words: what the definition phrases
 * itself, else {@link ruleOfZodIssue}. Issues carry the value they refuse (`input`).
 */
export function parseFieldValue<T extends z.ZodType>(schema: T, value: unknown): z.ZodSafeParseResult<z.output<T>> {
  return schema.safeParse(value, { reportInput: true, error: ruleOfZodIssue });
}

/** The message of a JSON Schema error found by ajv (compiled with `verbose`, for the known fields of an object). */
export function ruleOfSchemaError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const limit = params.limit as number;
  switch (error.keyword) {
    case "type":
      return typeRule(String(params.type));
    case "required":
      return IS_REQUIRED;
    case "additionalProperties": {
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return unknownFieldRule(String(params.additionalProperty), known);
    }
    case "minimum":
    case "exclusiveMinimum":
      return minimumRule(limit, error.keyword === "minimum");
    case "maximum":
    case "exclusiveMaximum":
      return maximumRule(limit, error.keyword === "maximum");
    case "multipleOf":
      return multipleOfRule(params.multipleOf as number);
    case "minLength":
      return minLengthRule(limit);
    case "maxLength":
      return maxLengthRule(limit);
    case "minItems":
      return minItemsRule(limit);
    case "maxItems":
      return maxItemsRule(limit);
    case "minProperties":
      return minItemsRule(limit, "entry");
    case "maxProperties":
      return maxItemsRule(limit, "entry");
    case "uniqueItems":
      return NO_REPEATS;
    case "enum":
      return oneOfRule(params.allowedValues as unknown[]);
    case "const":
      return oneOfRule([params.allowedValue]);
    case "format":
      return formatRule(String(params.format));
    case "pattern":
      return patternRule(String(params.pattern));
    default:
      return error.message ?? `breaks the rule ${error.keyword}`;
  }
}

function plural(count: number, noun: "item" | "entry"): string {
  if (count === 1) return noun;
  return noun === "entry" ? "entries" : "items";
}

/** The Levenshtein distance between `a` and `b`: how close a mistyped name is to a known one. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
