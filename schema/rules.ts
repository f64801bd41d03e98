/**
 * Field rules shared by several resource kinds, written once so that check, the JSON Schema of
 * YAML files and the reference docs all state them the same way. Each rule carries its own
 * message, in the words of schema/rule-messages.ts, so that a failure reads as a sentence about
 * the field ("must be a UUID").
 */
import { z } from "zod";
import { isRecord } from "./naming.js";
import { INSTANT_RULE, NO_REPEATS, formatRule, maximumRule, minLengthRule, minimumRule, typeRule } from "./rule-messages.js";

/**
 * Regions the emulator's default profile offers. The spec says only that monitor creation accepts
 * the regions the service offers and never lists them, so these are known values for completion and
 * docs, not a rule: check accepts any region unless the stack lists `monitoring:offeredRegions`.
 */
export const KNOWN_REGIONS = [
  "us-east-1",
  "us-west-2",
  "ca-central-1",
  "sa-east-1",
  "eu-west-1",
  "eu-central-1",
  "eu-north-1",
  "ap-south-1",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-northeast-1",
] as const;

/** Spec 2.4: the monitor types, with `http` the default. */
export const MONITOR_TYPES = ["http", "ping", "tcp", "dns"] as const;
/** Spec 2.4. */
export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Methods whose requests carry a body, so the only ones a monitor may send `requestBody` with. */
export const METHODS_WITH_BODY: readonly (typeof HTTP_METHODS)[number][] = ["POST", "PUT", "PATCH"];
/** Spec 2.4. */
export const ALERT_TYPES = ["keyword", "keyword_absence"] as const;
/** Spellings the spec does not show: known values, not rules. */
export const KNOWN_WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export const KNOWN_DNS_RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "NS", "TXT", "SRV", "CAA", "PTR", "SOA"] as const;
export const KNOWN_IP_VERSIONS = ["ipv4", "ipv6"] as const;
export const KNOWN_URGENCIES = ["low", "high"] as const;

/**
 * A value from a domain the spec leaves open (regions, weekday spelling, channel kinds, ...): any
 * non-empty string passes check, because a real server may accept values this package does not
 * know. The known values serve completion, the docs and the JSON Schema (`anyOf` known or string).
 * `domain` names a domain the stack configuration can close (`region`: `monitoring:offeredRegions`).
 */
export function openEnum(known: readonly string[], domain?: OpenDomain): z.ZodString {
  return z.string().min(1, { error: minLengthRule(1) }).meta({ knownValues: known, ...(domain === undefined ? {} : { domain }) });
}

/** Open domains that stack configuration may close, and the config key that does. */
export const CLOSABLE_DOMAINS = { region: "offeredRegions" } as const;
export type OpenDomain = keyof typeof CLOSABLE_DOMAINS;

/** The known values of an open domain, if the schema (or the one it wraps) is one. */
export function knownValuesOf(schema: z.ZodType): readonly string[] | undefined {
  const known = metadataOf(schema)["knownValues"];
  return Array.isArray(known) ? (known as string[]) : undefined;
}

export const region = openEnum(KNOWN_REGIONS, "region");

export const uuid = z.uuid({ error: formatRule("uuid") });

/** A reference to another object of the service by its id. */
export function idOf(what: string): z.ZodUUID {
  return uuid.describe(`Id (UUID) of ${what}.`);
}

export const port = z
  .int({ error: typeRule("int") })
  .min(1, { error: "must be a port from 1 to 65535" })
  .max(65535, { error: "must be a port from 1 to 65535" });

/** A whole number at least `minimum` (and at most `maximum`, when given). */
export function wholeNumber(minimum: number, maximum?: number): z.ZodInt {
  const atLeast = z.int({ error: typeRule("int") }).min(minimum, { error: minimumRule(minimum) });
  return maximum === undefined ? atLeast : atLeast.max(maximum, { error: maximumRule(maximum) });
}

export const timeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "must be a time of day as HH:MM (00:00 to 23:59)" });

/**
 * An IANA time zone name such as `Europe/Berlin` or `UTC`. `Intl.supportedValuesOf` lists only
 * canonical zones (it omits `UTC` and links such as `Asia/Calcutta`), so the runtime's own time zone
 * database decides. Intl also accepts UTC offsets (`+01:00`, `-0500`, also with a Unicode minus
 * sign), which hold no letter, unlike every zone name: that keeps them out.
 */
export const ianaTimeZone = z.string().refine(isIanaTimeZone, { error: "must be an IANA time zone such as Europe/Berlin" });

function isIanaTimeZone(name: string): boolean {
  if (!/[A-Za-z]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
  } catch {
    return false;
  }
  return true;
}

export const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
export const httpsUrl = z.url({ protocol: /^https$/, error: "must be an https URL" });
export const email = z.email({ error: formatRule("email") });
/** A phone number in E.164 form: `+`, country code and number, no spaces. */
export const e164PhoneNumber = z.string().regex(/^\+[1-9]\d{6,14}$/, { error: "must be a phone number in E.164 form such as +14155550100" });
export const hexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, { error: "must be a color as #RRGGBB" });
export const isoDateTime = z.iso.datetime({ offset: true, error: formatRule("datetime") });
export const nonEmpty = z.string().min(1, { error: minLengthRule(1) });

/** A moment the same in every time zone: ISO 8601 with its offset, `Z` or ±hh:mm (RFC 3339). */
export const instant = z.iso.datetime({ offset: true, error: INSTANT_RULE });

/**
 * Pause windows (`pauses` of a monitor or heartbeat): each from one instant to a later one, with a
 * reason. The provider reads them (provider/pause-plan.ts); the service never sees them.
 */
export const pauseWindows = z.array(
  z
    .object({
      from: instant.describe("When the window starts (ISO 8601 with an offset, e.g. `2030-11-28T22:00:00Z`): the first deploy from then on pauses the object."),
      to: instant.describe("When the window ends, after `from`: the first deploy from then on resumes the object."),
      reason: nonEmpty.describe("Why, shown by preview and up (`Black Friday freeze`)."),
    })
    .strict()
    .superRefine((window, context) => {
      if (Date.parse(window.to) <= Date.parse(window.from)) {
        context.addIssue({ code: "custom", path: ["to"], input: window.to, message: `must be after from (${window.from})` });
      }
    }),
);

/**
 * A list whose order carries no meaning: diff compares it as a set, and duplicates are refused.
 * The marker is the JSON Schema keyword `uniqueItems`, so generated schemas state it too.
 */
export function setOf<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .refine((items) => new Set(items.map((value) => JSON.stringify(value))).size === items.length, { error: NO_REPEATS })
    .meta({ uniqueItems: true });
}

/** Whether a field schema (possibly wrapped in optional/default/nullable) was built by {@link setOf}. */
export function isSetSchema(schema: z.ZodType): boolean {
  return metadataOf(schema).uniqueItems === true;
}

/** The metadata of a schema merged with that of the schemas it wraps (outermost wins). */
export function metadataOf(schema: z.ZodType): Record<string, unknown> {
  const inner = unwrapOnce(schema);
  return { ...(inner === undefined ? {} : metadataOf(inner)), ...(schema.meta() ?? {}) };
}

/** The schema inside any optional/nullable/default wrappers. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let inner = unwrapOnce(current); inner !== undefined; inner = unwrapOnce(current)) current = inner;
  return current;
}

/** The schema one optional/nullable/default wrapper inside, or undefined when `schema` wraps none. */
export function unwrapOnce(schema: z.ZodType): z.ZodType | undefined {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return schema.unwrap() as z.ZodType;
  }
  return undefined;
}

/**
 * A nested object whose keys the spec does not show (a channel's settings, a policy step): the
 * keys declared are the ones this package knows, with their rules; any other key passes check, is
 * sent as written (no renaming) and read back as the server writes it, and preview warns about it,
 * since it may be a typo. `assumption` says what is assumed, for the docs. The TypeScript type stays
 * closed, so that editors still catch typos; the JSON Schema of YAML files accepts other keys.
 */
export function openObject<S extends z.ZodRawShape>(shape: S, assumption: string): z.ZodObject<S, z.core.$strict> {
  return z.object(shape).loose().meta({ openKeys: assumption }) as unknown as z.ZodObject<S, z.core.$strict>;
}

/** What an {@link openObject} assumes about its keys, if the schema (or the one it wraps) is one. */
export function openKeysOf(schema: z.ZodType): string | undefined {
  // Only openObject sets the key, always to its assumption.
  return metadataOf(schema)["openKeys"] as string | undefined;
}

/**
 * Keys that `value` holds and the open objects of `schema` do not declare, at any depth, as paths
 * below `path` (`config.teamId`, `steps[1].escalateTo`). Closed objects are check's to refuse.
 */
export function undeclaredKeys(schema: z.ZodType, value: unknown, path: string): string[] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((item, index) => undeclaredKeys(inner.element as z.ZodType, item, `${path}[${index}]`));
  }
  if (!(inner instanceof z.ZodObject) || !isRecord(value)) return [];
  const shape = inner.shape as Record<string, z.ZodType>;
  const own = openKeysOf(schema) === undefined ? [] : Object.keys(value).filter((key) => !(key in shape)).map((key) => `${path}.${key}`);
  return [...own, ...Object.entries(shape).flatMap(([key, fieldSchema]) => undeclaredKeys(fieldSchema, value[key], `${path}.${key}`))];
}

/** Fields owned by one variant of a kind (a monitor type, a channel kind). */
export interface VariantFields<F extends string> {
  required: readonly F[];
  optional: readonly F[];
}

/** What {@link checkVariantFields} found about a field: a required one is missing, or one of another variant is set. */
export type VariantIssue = "missing" | "misplaced";

/**
 * Reports the `required` fields of `variant` that are missing, and every field set that belongs
 * only to other variants (e.g. `tcpHost` on an http monitor). `noun` names the kind in plural.
 */
export function checkVariantFields<F extends string>(
  table: Record<string, VariantFields<F>>,
  variant: string,
  noun: string,
  isSet: (field: F) => boolean,
  issue: (field: F, message: string, found: VariantIssue) => void,
): void {
  const own = table[variant];
  // A variant this package does not know (a channel kind added by the service) has rules it cannot know.
  if (own === undefined) return;
  const ownFields = new Set<F>([...own.required, ...own.optional]);
  for (const field of own.required) {
    if (!isSet(field)) issue(field, `is required for ${variant} ${noun}`, "missing");
  }
  const owners = new Map<F, string[]>();
  for (const [name, fields] of Object.entries(table)) {
    for (const field of [...fields.required, ...fields.optional]) owners.set(field, [...(owners.get(field) ?? []), name]);
  }
  for (const [field, variants] of owners) {
    if (!ownFields.has(field) && isSet(field)) {
      issue(field, `applies only to ${variants.join(" and ")} ${noun}, not ${variant}`, "misplaced");
    }
  }
}
