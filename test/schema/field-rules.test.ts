/**
 * The shared field rules and field facts as a kind's author uses them, one table per rule: which
 * values pass, the exact message of a value that does not, what a field's facts make of it (its
 * description and default, API name, replace, secret, write-only), how wrappers (optional, nullable,
 * default) are seen through, open objects and their undeclared keys, the fields of a kind's
 * variants, and the field a misspelled key most likely meant.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiNamesOf, defineResource, factsOf, field, providerInputs } from "../../schema/define.js";
import {
  checkVariantFields,
  e164PhoneNumber,
  email,
  hexColor,
  httpUrl,
  httpsUrl,
  idOf,
  isSetSchema,
  isoDateTime,
  knownValuesOf,
  metadataOf,
  nonEmpty,
  openEnum,
  openKeysOf,
  openObject,
  setOf,
  undeclaredKeys,
  unwrap,
  wholeNumber,
  type VariantIssue,
} from "../../schema/rules.js";
import { unknownFieldRule } from "../../schema/rule-messages.js";

/** The message a value gets, or `undefined` when it passes. */
const messageOf = (schema: z.ZodType, value: unknown): string | undefined => schema.safeParse(value).error?.issues[0]?.message;

describe("rules and their messages", () => {
  it.each([
    ["a whole number at least 10", wholeNumber(10), 10, undefined],
    ["below its minimum", wholeNumber(10), 9, "must be at least 10"],
    ["a fraction", wholeNumber(10), 10.5, "must be a whole number"],
    ["at its maximum", wholeNumber(0, 5), 5, undefined],
    ["above its maximum", wholeNumber(0, 5), 6, "must be at most 5"],
    ["no maximum unless given", wholeNumber(0), 1e9, undefined],
    ["an http URL", httpUrl, "http://x.io", undefined],
    ["an ftp URL where http(s) is needed", httpUrl, "ftp://x.io", "must be an http(s) URL"],
    ["an http URL where https is needed", httpsUrl, "http://x.io", "must be an https URL"],
    ["an https URL", httpsUrl, "https://x.io", undefined],
    ["an email address", email, "a@x.io", undefined],
    ["no email address", email, "a-x.io", "must be an email address"],
    ["a phone number in E.164", e164PhoneNumber, "+14155550100", undefined],
    ["a phone number with spaces", e164PhoneNumber, "+1 415 555 0100", "must be a phone number in E.164 form such as +14155550100"],
    ["a phone number too short", e164PhoneNumber, "+123456", "must be a phone number in E.164 form such as +14155550100"],
    ["a phone number starting with 0", e164PhoneNumber, "+0415555010", "must be a phone number in E.164 form such as +14155550100"],
    ["a color", hexColor, "#a0B1c2", undefined],
    ["a color of three digits", hexColor, "#abc", "must be a color as #RRGGBB"],
    ["a color with text around it", hexColor, "x#a0b1c2", "must be a color as #RRGGBB"],
    ["a date and time with an offset", isoDateTime, "2030-01-31T12:00:00+01:00", undefined],
    ["a date alone", isoDateTime, "2030-01-31", "must be an ISO-8601 date and time such as 2030-01-31T12:00:00Z"],
    ["an empty text", nonEmpty, "", "must not be empty"],
    ["an empty value of an open domain", openEnum(["a"]), "", "must not be empty"],
    ["an id", idOf("a channel"), "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b", undefined],
    ["no id", idOf("a channel"), "chan-1", "must be a UUID"],
    ["a set with a value twice", setOf(z.string()), ["a", "a"], "must not list the same value twice"],
    ["a set of objects with one twice", setOf(z.object({ a: z.number() })), [{ a: 1 }, { a: 1 }], "must not list the same value twice"],
    ["a set of distinct values", setOf(z.string()), ["a", "b"], undefined],
  ])("%s", (_title, schema, value, message) => {
    expect(messageOf(schema, value)).toBe(message);
  });

  it("an id names what it refers to", () => {
    expect(idOf("a notification channel").description).toBe("Id (UUID) of a notification channel.");
  });
});

describe("metadata seen through wrappers", () => {
  const wrapped = (schema: z.ZodType) => [schema, schema.optional(), schema.nullable(), schema.optional().default(undefined as never), schema.nullable().optional()] as z.ZodType[];

  it("a set is a set inside any wrapper, a plain list is not", () => {
    for (const schema of wrapped(setOf(z.string()))) expect(isSetSchema(schema)).toBe(true);
    for (const schema of wrapped(z.array(z.string()))) expect(isSetSchema(schema)).toBe(false);
  });

  it("the known values of an open domain, inside any wrapper; none for a plain text", () => {
    for (const schema of wrapped(openEnum(["a", "b"]))) expect(knownValuesOf(schema)).toEqual(["a", "b"]);
    expect(knownValuesOf(z.string())).toBeUndefined();
  });

  it("an open domain closable by configuration says so; one that is not says nothing", () => {
    expect(metadataOf(openEnum(["a"], "region"))).toMatchObject({ domain: "region" });
    expect(metadataOf(openEnum(["a"]))).not.toHaveProperty("domain");
  });

  it("the outer metadata wins over the inner", () => {
    const schema = z.string().meta({ note: "inner", kept: true }).optional().meta({ note: "outer" });
    expect(metadataOf(schema)).toMatchObject({ note: "outer", kept: true });
  });

  it("unwrap reaches the schema inside every wrapper, and leaves others as they are", () => {
    const inner = z.string();
    expect(unwrap(inner.optional().nullable().default("x"))).toBe(inner);
    const list = z.array(inner);
    expect(unwrap(list)).toBe(list);
  });

  it("the facts of a field, inside any wrapper; none for a plain schema", () => {
    const facts = { description: "A field.", secret: true as const };
    expect(factsOf(field(z.string(), facts).optional())).toMatchObject(facts);
    expect(factsOf(field(z.string(), facts).nullable())).toMatchObject(facts);
    expect(factsOf(field(z.string(), facts).default("x"))).toMatchObject(facts);
    expect(factsOf(field(z.string(), facts).nullable().optional())).toMatchObject(facts);
    expect(factsOf(z.string().optional())).toBeUndefined();
  });
});

describe("a field's facts", () => {
  it("a default is stated in the description and the schema's metadata, without being filled in", () => {
    const schema = field(z.int().optional(), { description: "Seconds.", default: 60 });
    expect(schema.description).toBe("Seconds. Default: 60 (applied by the service).");
    expect(metadataOf(schema)).toMatchObject({ default: 60 });
    expect(schema.parse(undefined)).toBeUndefined();
  });

  it("without a default: the description alone, and no default in the metadata", () => {
    const schema = field(z.string().optional(), { description: "A name." });
    expect(schema.description).toBe("A name.");
    expect(metadataOf(schema)).not.toHaveProperty("default");
  });

  it("a default that is false or zero is still a default", () => {
    expect(field(z.boolean().optional(), { description: "On.", default: false }).description).toBe("On. Default: false (applied by the service).");
  });

  it.each([
    ["intervalSeconds", undefined, ["interval_seconds"]],
    ["url", undefined, ["url"]],
    ["sslExpiryAlertDays", undefined, ["ssl_expiry_alert_days"]],
    ["requestTimeoutS", field(z.int(), { description: "t", apiName: "timeout" }), ["timeout"]],
    ["monitorType", field(z.string(), { description: "t", apiName: ["type", "monitor_type"] }), ["type", "monitor_type"]],
    ["tcpPort", field(z.int(), { description: "t" }), ["tcp_port"]],
  ] as const)("the API names of %s", (name, schema, names) => {
    expect(apiNamesOf(name, schema)).toEqual(names);
  });

  it("a kind's lists come from its fields' facts", () => {
    const kind = defineResource({
      kind: "Sample",
      description: "A kind.",
      path: "/samples",
      readBy: "get",
      updateMethod: "PATCH",
      inputs: z.object({
        plain: field(z.string(), { description: "Plain." }),
        owner: field(z.string(), { description: "Moves it.", replaceOnChange: true }),
        password: field(z.string().optional(), { description: "Secret.", secret: true, writeOnly: true }),
        token: field(z.string().optional(), { description: "Secret.", secret: true }),
        note: z.string().optional().describe("Without facts: in no list."),
        windows: field(z.array(z.string()).optional(), { description: "Steers the provider.", providerOnly: true }),
      }),
      associations: {},
      outputs: z.object({
        signingSecret: field(z.string(), { description: "Once.", secret: true, returnedOnce: true }),
        status: field(z.string(), { description: "State." }),
      }),
    });
    expect(kind).toMatchObject({
      kind: "Sample",
      replaceOnChanges: ["owner"],
      secrets: ["password", "token"],
      writeOnly: ["password"],
      secretOutputs: ["signingSecret"],
      keepFromState: ["signingSecret"],
      providerOnly: ["windows"],
    });
  });

  it("every kind accepts adoptId, a UUID", () => {
    expect(providerInputs.safeParse({ adoptId: "x" }).error?.issues[0]?.message).toBe("must be a UUID");
    expect(providerInputs.parse({})).toEqual({});
  });
});

describe("open objects", () => {
  const step = openObject({ delay: z.number(), target: openObject({ id: z.string() }, "target keys").optional() }, "step keys");
  const schema = z.array(step);

  it("accept and keep keys they do not declare, and say what they assume", () => {
    expect(step.parse({ delay: 1, extra: "x" })).toEqual({ delay: 1, extra: "x" });
    expect(openKeysOf(step.optional())).toBe("step keys");
    expect(openKeysOf(z.object({}))).toBeUndefined();
  });

  it("the undeclared keys at any depth, as paths", () => {
    const value = [{ delay: 1 }, { delay: 2, extra: 1, target: { id: "a", more: 2 } }];
    expect(undeclaredKeys(schema, value, "steps")).toEqual(["steps[1].extra", "steps[1].target.more"]);
  });

  it.each([
    ["a closed object's keys are check's to refuse", z.object({ a: z.number() }), { a: 1, b: 2 }],
    ["a value that is no object", step, "text"],
    ["null", step, null],
    ["a list where an object is declared", step, [{ extra: 1 }]],
    ["no value", step.optional(), undefined],
  ])("none: %s", (_title, target, value) => {
    expect(undeclaredKeys(target, value, "f")).toEqual([]);
  });
});

describe("the fields of a kind's variants", () => {
  type Field = "host" | "port" | "url" | "body";
  const table = {
    tcp: { required: ["host", "port"] as Field[], optional: [] as Field[] },
    http: { required: ["url"] as Field[], optional: ["body"] as Field[] },
    post: { required: ["url", "body"] as Field[], optional: [] as Field[] },
  };
  const issues = (variant: string, set: Field[]) => {
    const found: [Field, string, VariantIssue][] = [];
    checkVariantFields(table, variant, "monitors", (name) => set.includes(name), (name, message, kind) => found.push([name, message, kind]));
    return found;
  };

  it.each([
    ["every required field set", "tcp", ["host", "port"], []],
    ["a required field missing", "tcp", ["host"], [["port", "is required for tcp monitors", "missing"]]],
    ["a field of another variant", "tcp", ["host", "port", "url"], [["url", "applies only to http and post monitors, not tcp", "misplaced"]]],
    ["an optional field of its own", "http", ["url", "body"], []],
    ["a field of one other variant only", "http", ["url", "port"], [["port", "applies only to tcp monitors, not http", "misplaced"]]],
    ["a variant this package does not know: nothing", "udp", ["url", "host"], []],
  ] as const)("%s", (_title, variant, set, expected) => {
    expect(issues(variant, [...set])).toEqual(expected);
  });
});

describe("the field an unknown key most likely meant", () => {
  const known = ["intervalSeconds", "url", "notificationChannelIds", "regions", "name", "paused", "tcpPort"];

  it.each([
    ["interval_seconds", "unknown field (did you mean intervalSeconds?)"],
    ["interval-seconds", "unknown field (did you mean intervalSeconds?)"],
    ["INTERVALSECONDS", "unknown field (did you mean intervalSeconds?)"],
    ["TCP__PORT", "unknown field (did you mean tcpPort?)"],
    ["intervalSecs", "unknown field (did you mean intervalSeconds?)"],
    ["intervalSecond", "unknown field (did you mean intervalSeconds?)"],
    ["URL", "unknown field (did you mean url?)"],
    ["ur", "unknown field (did you mean url?)"],
    ["uri", "unknown field (did you mean url?)"],
    ["regons", "unknown field (did you mean regions?)"],
    ["regoins", "unknown field"],
    ["channelIds", "unknown field (did you mean notificationChannelIds?)"],
    ["port", "unknown field (did you mean tcpPort?)"],
    ["ids", "unknown field"],
    ["nam", "unknown field (did you mean name?)"],
    ["names", "unknown field (did you mean name?)"],
    ["pausd", "unknown field (did you mean paused?)"],
    ["color", "unknown field"],
    ["urlx2", "unknown field"],
  ])("%s: %s", (key, rule) => {
    expect(unknownFieldRule(key, known)).toBe(rule);
  });

  it("the closest of several near names, whatever their order", () => {
    expect(unknownFieldRule("requestTimeout", ["requestTimeoutMs", "requestTimeoutS"])).toBe("unknown field (did you mean requestTimeoutS?)");
    expect(unknownFieldRule("requestTimeout", ["requestTimeoutS", "requestTimeoutMs"])).toBe("unknown field (did you mean requestTimeoutS?)");
  });

  it("a near name before a longer name it ends", () => {
    expect(unknownFieldRule("regions", ["monitorRegions", "region"])).toBe("unknown field (did you mean region?)");
  });
});
