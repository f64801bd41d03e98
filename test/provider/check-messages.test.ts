/**
 * The exact sentence check prints for each rule a value can break, as `pulumi preview` shows it:
 * `<Kind>.<path>: <rule> (got <value>)`. The kinds of the package phrase most rules in their own
 * schemas; the table below holds the wording check gives a field declared without one (a kind
 * added later with plain zod rules), then the rules about where a failure is reported, values
 * unknown during a preview at any depth, and when warnings are given.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { escalationPolicy, monitor, notificationChannel } from "../../schema/index.js";
import { defineResource, field } from "../../schema/define.js";
import { region } from "../../schema/rules.js";
import { UNKNOWN, check, containsUnknown } from "../../provider/check.js";

const ID = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";

/** A kind whose fields carry zod's plain rules, without messages of their own. */
const plain = defineResource({
  kind: "Plain",
  description: "A kind declared with plain zod rules.",
  path: "/plain",
  readBy: "get",
  updateMethod: "PATCH",
  inputs: z.object({
    label: field(z.string().min(3).max(5).optional(), { description: "A short text." }),
    count: field(z.number().min(1).max(10).optional(), { description: "A number in range." }),
    whole: field(z.int().optional(), { description: "A whole number." }),
    tags: field(z.array(z.string()).min(1).max(2).optional(), { description: "One or two tags." }),
    unique: field(z.set(z.string()).min(1).max(2).optional(), { description: "A set of one or two." }),
    color: field(z.enum(["red", "blue"]).optional(), { description: "An enumeration." }),
    contact: field(z.email().optional(), { description: "A format." }),
    enabled: field(z.boolean().optional(), { description: "A boolean." }),
    options: field(z.object({ depth: z.number() }).strict().optional(), { description: "A closed object." }),
    steps: field(z.array(z.object({ delay: z.number() }).strict()).optional(), { description: "A list of closed objects." }),
    layers: field(z.object({ inner: z.object({ depth: z.number() }).strict() }).optional(), { description: "A closed object in an object." }),
    pair: field(z.tuple([z.string(), z.object({ depth: z.number() }).strict()]).optional(), { description: "A tuple: a list that is not a ZodArray." }),
    byName: field(z.record(z.string(), z.object({ depth: z.number() }).strict()).optional(), { description: "A mapping: an object that is not a ZodObject." }),
    big: field(z.bigint().optional(), { description: "A type without a name of its own." }),
    even: field(z.number().refine((value) => value % 2 === 0).optional(), { description: "A rule without a message." }),
    token: field(z.string().max(4).optional(), { description: "A secret.", secret: true }),
  }),
  associations: {},
  outputs: z.object({}),
});

/** A kind with a single value of a domain the stack can close. */
const regional = defineResource({
  kind: "Regional",
  description: "A kind with one region.",
  path: "/regional",
  readBy: "get",
  updateMethod: "PATCH",
  inputs: z.object({
    home: field(region.optional(), { description: "One region." }),
    backup: field(region.nullable().optional(), { description: "Another, or null." }),
  }),
  associations: {},
  outputs: z.object({}),
});

const reasons = (news: Record<string, unknown>) => check(plain, news).failures.map(({ reason }) => reason);

describe("the message of each rule", () => {
  it.each([
    ["a string too short", { label: "ab" }, 'Plain.label: must be at least 3 characters long (got "ab")'],
    ["a string too long", { label: "abcdef" }, 'Plain.label: must be at most 5 characters long (got "abcdef")'],
    ["a number too small", { count: 0 }, "Plain.count: must be at least 1 (got 0)"],
    ["a number too large", { count: 11 }, "Plain.count: must be at most 10 (got 11)"],
    ["a list too short", { tags: [] }, "Plain.tags: must have at least 1 item"],
    ["a list too long", { tags: ["a", "b", "c"] }, "Plain.tags: must have at most 2 items"],
    ["a set too small", { unique: new Set() }, "Plain.unique: must have at least 1 item"],
    ["a set too large", { unique: new Set(["a", "b", "c"]) }, "Plain.unique: must have at most 2 items"],
    ["a value outside the enumeration", { color: "green" }, 'Plain.color: must be one of red, blue (got "green")'],
    ["a bad format", { contact: "ops" }, 'Plain.contact: must be an email address (got "ops")'],
    ["a string of the wrong type", { label: 12 }, "Plain.label: must be a string (got 12)"],
    ["a number of the wrong type", { count: "3" }, 'Plain.count: must be a number (got "3")'],
    ["a boolean of the wrong type", { enabled: "yes" }, 'Plain.enabled: must be true or false (got "yes")'],
    ["a list of the wrong type", { tags: "a" }, 'Plain.tags: must be a list (got "a")'],
    ["an object of the wrong type", { options: 1 }, "Plain.options: must be a mapping (got 1)"],
    ["an object given a list: the value is not shown", { options: [1] }, "Plain.options: must be a mapping"],
    ["null where a value is expected: shown", { label: null }, "Plain.label: must be a string (got null)"],
    ["a type without a name of its own", { big: "1" }, 'Plain.big: must be a bigint (got "1")'],
    ["a rule without a message: zod's", { even: 3 }, "Plain.even: Invalid input (got 3)"],
    ["a key a closed object does not have", { options: { depth: 1, width: 2 } }, "Plain.options.width: unknown field"],
    ["a key a closed object does not have, spelt like one it has", { options: { depth: 1, Depth: 2 } }, "Plain.options.Depth: unknown field (did you mean depth?)"],
    ["a key a closed object in an object does not have, spelt like one it has", { layers: { inner: { depth: 1, Depth: 2 } } }, "Plain.layers.inner.Depth: unknown field (did you mean depth?)"],
    ["a key a closed object in a list does not have, spelt like one it has", { steps: [{ delay: 1 }, { delay: 1, dellay: 2 }] }, "Plain.steps[1].dellay: unknown field (did you mean delay?)"],
    ["a key a closed object in a tuple does not have: no suggestion, tuples are not searched", { pair: ["a", { depth: 1, Depth: 2 }] }, "Plain.pair[1].Depth: unknown field"],
    ["a key a closed object in a mapping does not have: no suggestion, mappings are not searched", { byName: { a: { depth: 1, Depth: 2 } } }, "Plain.byName.a.Depth: unknown field"],
    ["a nested value of the wrong type", { options: { depth: "deep" } }, 'Plain.options.depth: must be a number (got "deep")'],
    ["a nested value missing", { options: {} }, "Plain.options.depth: is required"],
    ["a list item of the wrong type", { tags: ["a", 2] }, "Plain.tags[1]: must be a string (got 2)"],
    ["a secret: the rule without the value", { token: "s3cr3t-token" }, "Plain.token: must be at most 4 characters long"],
  ])("%s", (_title, news, reason) => {
    expect(reasons(news)).toEqual([reason]);
  });

  it("a whole number given a fraction", () => {
    expect(reasons({ whole: 1.5 })).toEqual(["Plain.whole: must be a whole number (got 1.5)"]);
  });

  it("a failure names its field as the property, except a secret one, which only the reason names", () => {
    expect(check(plain, { label: "ab", token: "s3cr3t-token" }).failures).toEqual([
      { property: "label", reason: 'Plain.label: must be at least 3 characters long (got "ab")' },
      { property: "", reason: "Plain.token: must be at most 4 characters long" },
    ]);
  });

  it("a required field left out", () => {
    expect(check(escalationPolicy, { steps: [{ delayMinutes: 0, notificationChannelIds: [ID] }] }).failures).toEqual([
      { property: "name", reason: "EscalationPolicy.name: is required" },
    ]);
  });
});

describe("one failure per field", () => {
  it("the first problem of a list item, then nothing more of the same field", () => {
    const { failures } = check(escalationPolicy, {
      name: "p",
      steps: [{ delayMinutes: -1, notificationChannelIds: ["x"] }, { delayMinutes: -2, notificationChannelIds: [] }],
    });
    expect(failures).toEqual([{ property: "steps[0].delayMinutes", reason: "EscalationPolicy.steps[0].delayMinutes: must be at least 0 (got -1)" }]);
  });

  it("the first problem inside an object, and each other field's own", () => {
    const { failures } = check(plain, { options: { depth: "a", width: 1 }, label: "x" });
    expect(failures.map(({ property }) => property)).toEqual(["label", "options.depth"]);
  });

  it("two unknown keys: each is a problem of its own", () => {
    const { failures } = check(monitor, { url: "https://x.io", colour: 1, shape: 2 });
    expect(failures.map(({ property }) => property)).toEqual(["colour", "shape"]);
  });
});

describe("values unknown during a preview", () => {
  it.each([
    ["a plain value", UNKNOWN, true],
    ["inside a list", ["a", UNKNOWN], true],
    ["inside an object", { a: { b: UNKNOWN } }, true],
    ["inside a list inside an object", { a: [1, UNKNOWN] }, true],
    ["none in a list", ["a", "b"], false],
    ["none in an object", { a: "b" }, false],
    ["a plain value", "a", false],
    ["nothing", undefined, false],
  ])("%s: %s", (_title, value, unknown) => {
    expect(containsUnknown(value)).toBe(unknown);
  });

  it("a list item not known yet leaves the whole list unchecked until it is", () => {
    const news = { name: "p", steps: [{ delayMinutes: UNKNOWN, notificationChannelIds: [ID] }] };
    expect(check(escalationPolicy, news)).toEqual({ failures: [], inputs: news, warnings: [] });
  });

  it("a nested setting not known yet leaves the object unchecked until it is", () => {
    const news = { name: "e", kind: "email", config: { address: UNKNOWN } };
    expect(check(notificationChannel, news)).toEqual({ failures: [], inputs: news, warnings: [] });
  });

  it("rules assumed across fields wait for every value, and so do their warnings", () => {
    const news = { name: UNKNOWN, kind: "pagerduty", config: { phoneNumber: "+14155550100" } };
    expect(check(notificationChannel, news)).toEqual({ failures: [], inputs: news, warnings: [] });
  });

  it("cross-field rules wait for every value", () => {
    expect(check(monitor, { monitorType: "tcp", tcpHost: UNKNOWN }).failures).toEqual([]);
    expect(check(monitor, { monitorType: "tcp", tcpHost: "h" }).failures).toEqual([
      { property: "tcpPort", reason: "Monitor.tcpPort: is required for tcp monitors" },
    ]);
  });
});

describe("what check returns", () => {
  it("the parsed inputs hold no key for a field left out", () => {
    const { inputs } = check(plain, { label: "abc", __urn: "urn:x" });
    expect(Object.keys(inputs).sort()).toEqual(["__urn", "label"]);
  });

  it("no warning while a rule fails: the failure comes first", () => {
    const result = check(notificationChannel, { name: "", kind: "slack", config: { channel: "#ops", threadTs: "1" } });
    expect(result.warnings).toEqual([]);
    expect(result.failures.map(({ property }) => property)).toEqual(["name"]);
  });

  it("a closed domain's value checked inside a list, and a value left out passes", () => {
    const closed = { region: ["eu-west-1", "us-east-1"] };
    expect(check(monitor, { url: "https://x.io", regions: ["eu-west-1", "mars-1"] }, closed).failures).toEqual([
      { property: "regions[1]", reason: 'Monitor.regions[1]: must be one of the regions in monitoring:offeredRegions (eu-west-1, us-east-1) (got "mars-1")' },
    ]);
    expect(check(monitor, { url: "https://x.io" }, closed).failures).toEqual([]);
  });

  it("a single closable value: checked when set, nothing when left out or null", () => {
    const closed = { region: ["eu-west-1"] };
    expect(check(regional, { home: "eu-west-1" }, closed).failures).toEqual([]);
    expect(check(regional, { home: "mars-1" }, closed).failures).toEqual([
      { property: "home", reason: 'Regional.home: must be one of the regions in monitoring:offeredRegions (eu-west-1) (got "mars-1")' },
    ]);
    expect(check(regional, {}, closed).failures).toEqual([]);
    expect(check(regional, { backup: null }, closed).failures).toEqual([]);
  });

  it("a valid value of every type passes, as parsed: tuples, sets and mappings are not looked into for closed domains", () => {
    const news = {
      label: "abc",
      count: 3,
      whole: 2,
      tags: ["a"],
      unique: new Set(["a"]),
      color: "red",
      contact: "ops@example.com",
      enabled: true,
      options: { depth: 1 },
      steps: [{ delay: 1 }],
      layers: { inner: { depth: 1 } },
      pair: ["a", { depth: 1 }],
      byName: { a: { depth: 1 } },
      big: 1n,
      even: 2,
      token: "t",
    };
    expect(check(plain, news, { region: ["eu-west-1"] })).toEqual({ inputs: news, failures: [], warnings: [] });
  });

  it("a field given as undefined is left out of the inputs, like one not given", () => {
    const { inputs } = check(plain, { label: "abc", count: undefined, __urn: "urn:x" });
    expect(Object.keys(inputs).sort()).toEqual(["__urn", "label"]);
  });
});
