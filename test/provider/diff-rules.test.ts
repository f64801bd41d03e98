/**
 * The rules of diff one by one, each row a case where breaking the rule changes what the next
 * deploy does (an update found or missed, a replacement decided or not): removed fields, values
 * unknown at preview, ordered lists and sets at every depth, keys the server adds to open objects,
 * letter case of ids, key order, null, and which fields decide a replacement. Mutation testing
 * (docs/testing.md) holds these rows to the code: each one fails when its rule is broken.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AnyResourceDefinition } from "../../schema/index.js";
import { clientShareLink, escalationPolicy, monitor, notificationChannel } from "../../schema/index.js";
import { defineResource, field } from "../../schema/define.js";
import { openObject, setOf, uuid } from "../../schema/rules.js";
import { UNKNOWN } from "../../provider/check.js";
import { canonical, changedFields, declaredInputs, diff } from "../../provider/diff.js";

const A = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const B = "7a1e2b3c-4d5e-4f60-8172-93a4b5c6d7e8";

/** Outputs as create/update/read record them: service values, the declared input names, internals. */
function recorded(values: Record<string, unknown>, declared: string[]): Record<string, unknown> {
  return { ...values, __declaredInputs: declared, __provider: "exports.handler = old;" };
}

/** What the user sees in the preview: whether anything changes and which fields force a replacement. */
type Outcome = { changes: boolean; replaces: string[] };
const UPDATE: Outcome = { changes: true, replaces: [] };
const NONE: Outcome = { changes: false, replaces: [] };

type Row = [string, AnyResourceDefinition, Record<string, unknown>, Record<string, unknown>, Outcome, string[]];

const step = (channels: string[], extra: Record<string, unknown> = {}) => ({ delayMinutes: 0, notificationChannelIds: channels, urgency: "high", ...extra });

const rows: Row[] = [
  // A field the program stops setting is a change; one it never set is not, whatever the service holds.
  ["a field removed from the program: update", monitor, recorded({ url: "https://x.io", keyword: "ok" }, ["url", "keyword"]), { url: "https://x.io" }, UPDATE, ["keyword"]],
  ["a field removed as null: update", monitor, recorded({ url: "https://x.io", keyword: "ok" }, ["url", "keyword"]), { url: "https://x.io", keyword: null }, UPDATE, ["keyword"]],
  ["a field never set, filled in by the service: no change", monitor, recorded({ url: "https://x.io", keyword: "ok" }, ["url"]), { url: "https://x.io" }, NONE, []],
  ["a field never set, filled in by the service, and null in the program: no change", monitor, recorded({ url: "https://x.io", keyword: "ok" }, ["url"]), { url: "https://x.io", keyword: null }, NONE, []],
  [
    "a replace-on-change field removed from the program: replace",
    monitor,
    recorded({ url: "https://x.io", clientId: A }, ["url", "clientId"]),
    { url: "https://x.io" },
    { changes: true, replaces: ["clientId"] },
    ["clientId"],
  ],
  // A value not known yet at preview may change: it is a change, never compared.
  [
    "a value unknown at preview, whatever the state holds: update",
    monitor,
    recorded({ url: "https://x.io", escalationPolicyId: UNKNOWN }, ["url", "escalationPolicyId"]),
    { url: "https://x.io", escalationPolicyId: UNKNOWN },
    UPDATE,
    ["escalationPolicyId"],
  ],
  [
    "a value unknown inside a list at preview: update",
    monitor,
    recorded({ url: "https://x.io", notificationChannelIds: [A, UNKNOWN] }, ["url", "notificationChannelIds"]),
    { url: "https://x.io", notificationChannelIds: [A, UNKNOWN] },
    UPDATE,
    ["notificationChannelIds"],
  ],
  [
    "an unknown replace-on-change value: replace",
    monitor,
    recorded({ url: "https://x.io", clientId: A }, ["url", "clientId"]),
    { url: "https://x.io", clientId: UNKNOWN },
    { changes: true, replaces: ["clientId"] },
    ["clientId"],
  ],
  // Ordered lists compare item by item; sets (setOf) without order, at any depth.
  [
    "an ordered list of steps in another order: update",
    escalationPolicy,
    recorded({ name: "p", steps: [step([A]), step([B])] }, ["name", "steps"]),
    { name: "p", steps: [step([B]), step([A])] },
    UPDATE,
    ["steps"],
  ],
  [
    "an ordered list of plain values in another order: update",
    monitor,
    recorded({ url: "https://x.io", requestHeaders: [{ name: "a", value: "1" }, { name: "b", value: "2" }] }, ["url", "requestHeaders"]),
    { url: "https://x.io", requestHeaders: [{ name: "b", value: "2" }, { name: "a", value: "1" }] },
    UPDATE,
    ["requestHeaders"],
  ],
  [
    "a set of channels in another order inside one step: no change",
    escalationPolicy,
    recorded({ name: "p", steps: [step([A, B])] }, ["name", "steps"]),
    { name: "p", steps: [step([B, A])] },
    NONE,
    [],
  ],
  [
    "an ordered list newly set: update",
    monitor,
    recorded({ url: "https://x.io" }, ["url"]),
    { url: "https://x.io", requestHeaders: [{ name: "a", value: "1" }] },
    UPDATE,
    ["requestHeaders"],
  ],
  [
    "a key the service does not show inside a closed object (a header): update, only open objects leave the server keys of its own",
    monitor,
    recorded({ url: "https://x.io", requestHeaders: [{ name: "a", value: "1", id: "h1" }] }, ["url", "requestHeaders"]),
    { url: "https://x.io", requestHeaders: [{ name: "a", value: "1" }] },
    UPDATE,
    ["requestHeaders"],
  ],
  [
    "a list one item longer: update",
    escalationPolicy,
    recorded({ name: "p", steps: [step([A])] }, ["name", "steps"]),
    { name: "p", steps: [step([A]), step([B])] },
    UPDATE,
    ["steps"],
  ],
  // Keys a server adds inside an open object belong to the server, at any depth; keys the program sets are compared.
  [
    "a key the server added inside a step of the ordered list: no change",
    escalationPolicy,
    recorded({ name: "p", steps: [step([A], { escalateTo: "lead" })] }, ["name", "steps"]),
    { name: "p", steps: [step([A])] },
    NONE,
    [],
  ],
  [
    "a key the program sets inside a step, changed on the server: update",
    escalationPolicy,
    recorded({ name: "p", steps: [step([A], { escalateTo: "lead" })] }, ["name", "steps"]),
    { name: "p", steps: [step([A], { escalateTo: "cto" })] },
    UPDATE,
    ["steps"],
  ],
  [
    "an open object newly set: update",
    notificationChannel,
    recorded({ name: "c", kind: "slack" }, ["name", "kind"]),
    { name: "c", kind: "slack", config: { channel: "#ops" } },
    UPDATE,
    ["config"],
  ],
  [
    "a list under a key the program adds to an open object, the same on the server: no change",
    notificationChannel,
    recorded({ name: "c", kind: "slack", config: { channel: "#ops", mentions: ["@a", "@b"] } }, ["name", "kind", "config"]),
    { name: "c", kind: "slack", config: { channel: "#ops", mentions: ["@a", "@b"] } },
    NONE,
    [],
  ],
  [
    "a known key of an open object removed from the program: update",
    notificationChannel,
    recorded({ name: "c", kind: "slack", config: { channel: "#ops" } }, ["name", "kind", "config"]),
    { name: "c", kind: "slack", config: {} },
    UPDATE,
    ["config"],
  ],
  [
    "a known key of an open object changed on the server: update",
    notificationChannel,
    recorded({ name: "c", kind: "slack", config: { channel: "#ops", workspace: "T1" } }, ["name", "kind", "config"]),
    { name: "c", kind: "slack", config: { channel: "#dev" } },
    UPDATE,
    ["config"],
  ],
  // Ids come back in any letter case (spec 2.6): the same id is no change, another id is.
  [
    "an id in capitals on the server: no change",
    monitor,
    recorded({ url: "https://x.io", escalationPolicyId: A.toUpperCase() }, ["url", "escalationPolicyId"]),
    { url: "https://x.io", escalationPolicyId: A },
    NONE,
    [],
  ],
  [
    "a replace-on-change id in capitals on the server: no replacement",
    monitor,
    recorded({ url: "https://x.io", clientId: A.toUpperCase() }, ["url", "clientId"]),
    { url: "https://x.io", clientId: A },
    NONE,
    [],
  ],
  [
    "ids in capitals inside a set: no change",
    monitor,
    recorded({ url: "https://x.io", notificationChannelIds: [B.toUpperCase(), A.toUpperCase()] }, ["url", "notificationChannelIds"]),
    { url: "https://x.io", notificationChannelIds: [A, B] },
    NONE,
    [],
  ],
  [
    "an id the server returned as a number: update, not a failure",
    monitor,
    recorded({ url: "https://x.io", escalationPolicyId: 42 }, ["url", "escalationPolicyId"]),
    { url: "https://x.io", escalationPolicyId: A },
    UPDATE,
    ["escalationPolicyId"],
  ],
  [
    "a name that differs in letter case only: update (only ids ignore case)",
    monitor,
    recorded({ url: "https://x.io", name: "Web" }, ["url", "name"]),
    { url: "https://x.io", name: "web" },
    UPDATE,
    ["name"],
  ],
  // Key order and null carry no meaning.
  [
    "the keys of a nested object in another order: no change",
    notificationChannel,
    recorded({ name: "c", kind: "webhook", config: { url: "https://x.io/h", method: "POST" } }, ["name", "kind", "config"]),
    { name: "c", kind: "webhook", config: { method: "POST", url: "https://x.io/h" } },
    NONE,
    [],
  ],
  [
    "a nested key null on the server and absent in the program: no change",
    notificationChannel,
    recorded({ name: "c", kind: "slack", config: { channel: "#ops", workspace: null } }, ["name", "kind", "config"]),
    { name: "c", kind: "slack", config: { channel: "#ops" } },
    NONE,
    [],
  ],
  // Which fields replace: every field of a kind that cannot be updated, only the marked ones otherwise.
  [
    "a field of a kind without update: replace, naming only the changed field",
    clientShareLink,
    recorded({ clientId: A, label: "board", expiresAt: "2030-01-01T00:00:00Z" }, ["clientId", "label", "expiresAt"]),
    { clientId: A, label: "wall", expiresAt: "2030-01-01T00:00:00Z" },
    { changes: true, replaces: ["label"] },
    ["label"],
  ],
  [
    "an update and a replacement at once: replace naming the replace-on-change field only",
    monitor,
    recorded({ url: "https://x.io", name: "a", clientId: A }, ["url", "name", "clientId"]),
    { url: "https://x.io", name: "b", clientId: B },
    { changes: true, replaces: ["clientId"] },
    ["clientId", "name"],
  ],
];

describe("diff rules", () => {
  it.each(rows)("%s", (_title, definition, olds, news, outcome, fields) => {
    expect(diff(definition, olds, news)).toEqual({ ...outcome, deleteBeforeReplace: false });
    expect(changedFields(definition, olds, news).sort()).toEqual(fields);
  });
});

describe("the inputs recorded as declared", () => {
  it.each([
    ["the names recorded", { __declaredInputs: ["url", "name"] }, ["url", "name"]],
    ["nothing recorded (state written before the list existed)", {}, []],
    ["a record that is not a list", { __declaredInputs: "url" }, []],
    ["entries that are not names are dropped", { __declaredInputs: ["url", 3, null] }, ["url"]],
  ])("%s", (_title, outputs, names) => {
    expect(declaredInputs(outputs)).toEqual(names);
  });
});

describe("canonical: one text for equal values", () => {
  const kind = defineResource({
    kind: "Sample",
    description: "A kind for the equality rules.",
    path: "/samples",
    readBy: "get",
    updateMethod: "PATCH",
    inputs: z.object({
      id: field(uuid.optional(), { description: "An id." }),
      ids: field(setOf(uuid).optional(), { description: "Ids, order free." }),
      ordered: field(z.array(z.string()).optional(), { description: "Order matters." }),
      nested: field(openObject({ ids: setOf(uuid).optional(), note: z.string().optional() }, "keys not shown").optional(), { description: "A nested object." }),
    }),
    associations: {},
    outputs: z.object({}),
  });
  const schema = (name: string) => (kind.inputs.shape as Record<string, z.ZodType>)[name] as z.ZodType;

  it.each([
    ["an id in any letter case", "id", A.toUpperCase(), A, true],
    ["a text that is not an id keeps its case", "ordered", ["Ab"], ["ab"], false],
    ["a set in any order and letter case", "ids", [B.toUpperCase(), A], [A, B], true],
    ["an ordered list in another order", "ordered", ["a", "b"], ["b", "a"], false],
    ["a set nested in an object", "nested", { ids: [B, A], note: "n" }, { note: "n", ids: [A, B.toUpperCase()] }, true],
    ["null and absent nested keys", "nested", { note: null }, {}, true],
    ["null and absent values", "id", null, undefined, true],
    ["a nested key that differs", "nested", { note: "a" }, { note: "b" }, false],
  ])("%s: equal %s", (_title, name, left, right, equal) => {
    expect(canonical(schema(name), left) === canonical(schema(name), right)).toBe(equal);
  });

  it("absent is a value of its own, unlike an empty list or object", () => {
    expect(canonical(schema("ordered"), undefined)).toBe("undefined");
    expect(canonical(schema("ordered"), [])).toBe("[]");
    expect(canonical(schema("nested"), {})).toBe("{}");
  });
});

describe("a kind the service cannot update", () => {
  const immutable = defineResource({
    kind: "Immutable",
    description: "A kind without an update operation, none of its fields marked replace-on-change.",
    path: "/immutable",
    readBy: "get",
    updateMethod: "none",
    inputs: z.object({ label: field(z.string(), { description: "A label." }), note: field(z.string().optional(), { description: "A note." }) }),
    associations: {},
    outputs: z.object({}),
  });

  it("replaces the object for a change to any field, naming the changed one", () => {
    expect(diff(immutable, recorded({ label: "a", note: "n" }, ["label", "note"]), { label: "b", note: "n" })).toEqual({ changes: true, replaces: ["label"], deleteBeforeReplace: false });
  });
});
