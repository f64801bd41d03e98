/**
 * From the objects of an account to the declarations of a program: names, references between
 * objects, secrets as placeholders, defaults left out so that the first `pulumi up` changes
 * nothing (docs/architecture.md, "The command line"). Pure: the same objects always give the same
 * plan, whatever order the API listed them in.
 */
import { z } from "zod";
import { type AnyResourceDefinition, factsOf } from "../../schema/define.js";
import { isSetSchema, openKeysOf, unwrap } from "../../schema/rules.js";
import { humanKind } from "../../schema/json-schema.js";
import { check } from "../../provider/check.js";
import { canonical } from "../../provider/diff.js";
import { resetValue } from "../../provider/reader.js";
import { associationOf } from "../../provider/fields.js";
import { isRecord } from "../../schema/naming.js";
import { NameRegistry, camelOf, displayTextOf, slugOf } from "./names.js";
import type { AccountContents, AccountObject } from "./read.js";
import { dependencyOrder, referencedDefinition, upperFirst } from "./references.js";

/** An input that names another declared object: the program writes its id as a reference. */
export class Reference {
  constructor(readonly target: Declaration) {}
}

/** A secret the program reads from stack config (TypeScript) or the environment (monitoring file). */
export class Placeholder {
  constructor(
    /** Stack config key, camelCase (`checkoutApiAuthPassword`). */
    readonly key: string,
    readonly declaration: Declaration,
    /** Where in the inputs, e.g. `credentials.webhookUrl`. */
    readonly path: string,
    /** `write-only`: the service did not return it; `returned`: the service shows it, the program keeps it out of source. */
    readonly origin: "write-only" | "returned",
  ) {}

  /** `CHECKOUT_API_AUTH_PASSWORD`. */
  get environmentVariable(): string {
    return (this.key.match(/[A-Z]?[a-z]+|[0-9]+|[A-Z]+(?![a-z])/g) ?? [this.key]).join("_").toUpperCase();
  }
}

export interface Declaration {
  definition: AnyResourceDefinition;
  id: string;
  /** Pulumi resource name and monitoring-file entry key. */
  name: string;
  /** Variable of the generated program. */
  variable: string;
  /** The client the object lives in, as the service reports its id. */
  clientId?: string;
  /** `adoptId` first, then the kind's inputs in the definition's order; values may hold References and Placeholders. */
  inputs: Record<string, unknown>;
}

export interface ImportPlan {
  /** In dependency order of their kinds, then by display text, then by id. */
  declarations: Declaration[];
  placeholders: Placeholder[];
  /** What the plan left out or could not decide, for the person running the import. */
  notes: string[];
}

const CLIENT_FIELD = "clientId";

export function planImport({ objects, clients }: AccountContents): ImportPlan {
  const kindOrder = dependencyOrder();
  const sorted = [...objects].sort(
    (a, b) =>
      kindOrder.indexOf(a.definition) - kindOrder.indexOf(b.definition) ||
      compareText(displayTextOf(a.inputs) ?? "", displayTextOf(b.inputs) ?? "") ||
      compareText(a.id, b.id),
  );
  const clientsById = new Map(clients.map((client) => [client.id.toLowerCase(), client]));
  const names = new NameRegistry();
  // Objects outside any client name first, so that a name shared with a client's object stays
  // plain for them and the client's one gets the client's name (`website`, `website-acme`).
  const inClient = (object: AccountObject): boolean => object.inputs[CLIENT_FIELD] !== undefined;
  const namingOrder = [...sorted.filter((object) => !inClient(object)), ...sorted.filter(inClient)];
  const named = new Map(namingOrder.map((object) => [object, nameOf(object)]));
  const declarations = sorted.map((object) => named.get(object) as Declaration);

  function nameOf(object: AccountObject): Declaration {
    const clientId = object.inputs[CLIENT_FIELD];
    const client = typeof clientId === "string" ? clientsById.get(clientId.toLowerCase()) : undefined;
    const base = slugOf(displayTextOf(object.inputs) ?? "");
    const kindSlug = slugOf(humanKind(object.definition.kind));
    const clientSlug = client === undefined || object.definition === client.definition ? "" : slugOf(displayTextOf(client.inputs) ?? "");
    const alternatives = [clientSlug === "" ? "" : `${base}-${clientSlug}`, `${base}-${kindSlug}`];
    return {
      definition: object.definition,
      id: object.id,
      ...names.take(base, alternatives, kindSlug),
      ...(typeof clientId === "string" ? { clientId } : {}),
      inputs: {},
    };
  }

  const byId = new Map(declarations.map((declaration) => [declaration.id.toLowerCase(), declaration]));
  const placeholders: Placeholder[] = [];
  const notes: string[] = [];
  sorted.forEach((object, index) => {
    const declaration = declarations[index] as Declaration;
    const clientId = declaration.clientId;
    const templated = clientId !== undefined && clientsById.get(clientId.toLowerCase())?.inputs["templateId"] !== undefined;
    const converter = new Converter(declaration, byId, placeholders);
    declaration.inputs = { adoptId: object.id, ...converter.inputs(object, { keepDefaults: templated }) };
    notes.push(...leaveOutRefused(declaration, placeholders));
  });
  return { declarations, placeholders, notes };
}

class Converter {
  constructor(
    private readonly declaration: Declaration,
    private readonly byId: ReadonlyMap<string, Declaration>,
    private readonly placeholders: Placeholder[],
  ) {}

  inputs(object: AccountObject, options: { keepDefaults: boolean }): Record<string, unknown> {
    const { definition } = object;
    const required = writeOnlyRequired(definition, object.inputs);
    const inputs: Record<string, unknown> = {};
    for (const [field, schema] of Object.entries(definition.inputs.shape as Record<string, z.ZodType>)) {
      const value = object.inputs[field];
      const facts = factsOf(schema);
      if (facts?.writeOnly === true) {
        const placeholder = this.writeOnly(field, schema, object.inputs, required);
        if (placeholder !== undefined) inputs[field] = placeholder;
        continue;
      }
      if (value === undefined) continue;
      const association = associationOf(definition, field);
      if (association !== undefined && canonical(schema, value) === canonical(schema, resetValue(schema, association))) continue;
      if (!options.keepDefaults && facts?.default !== undefined && canonical(schema, value) === canonical(schema, facts.default)) continue;
      inputs[field] = this.value(field, schema, value, [field], facts?.secret === true);
    }
    return inputs;
  }

  /**
   * A write-only input (a secret the definition assumes the service never shows) becomes
   * placeholders, never a value: every string of it where the service returns it after all (some
   * servers show a channel's credentials), else one where the object presumably has it (its
   * `setWith` field is set), else one for each setting the kind is assumed to need (a Slack
   * channel's webhook URL).
   */
  private writeOnly(field: string, schema: z.ZodType, read: Record<string, unknown>, required: readonly string[]): unknown {
    if (read[field] !== undefined) return this.value(field, schema, read[field], [field], true);
    const setWith = factsOf(schema)?.setWith;
    if (setWith !== undefined && read[setWith] !== undefined) return this.placeholder([field], "write-only");
    const nested = required.filter((path) => path.startsWith(`${field}.`)).map((path) => path.slice(field.length + 1));
    if (nested.length === 0) return undefined;
    return Object.fromEntries(nested.sort().map((name) => [name, this.placeholder([field, name], "write-only")]));
  }

  private value(field: string, schema: z.ZodType, value: unknown, path: (string | number)[], secret: boolean): unknown {
    if (referencedDefinition(field) !== undefined) return this.reference(value);
    const inner = unwrap(schema);
    if (Array.isArray(value)) {
      const element = inner instanceof z.ZodArray ? (inner.element as z.ZodType) : z.unknown();
      const items = value.map((item, index) => this.value("", element, item, [...path, index], secret));
      return isSetSchema(schema) ? items.sort((a, b) => compareText(sortKey(a), sortKey(b))) : items;
    }
    if (isRecord(value) && inner instanceof z.ZodObject) {
      const result: Record<string, unknown> = {};
      for (const [key, fieldSchema] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
        const item = value[key];
        if (item === undefined) continue;
        const filled = fieldSchema.safeParse(undefined);
        // A value the provider's check fills in when it is left out.
        if (filled.success && filled.data !== undefined && canonical(fieldSchema, item) === canonical(fieldSchema, filled.data)) continue;
        result[key] = this.value(key, fieldSchema, item, [...path, key], secret);
      }
      // Keys of an open object this package does not know (a setting of another server) are declared as the server wrote them.
      if (openKeysOf(schema) !== undefined) {
        for (const [key, item] of Object.entries(value)) {
          if (!(key in inner.shape) && item !== undefined) result[key] = this.value(key, z.unknown(), item, [...path, key], secret);
        }
      }
      return result;
    }
    // Inside a secret the service returns (request headers), the values stay out of the program; names are no secret.
    if (secret && typeof value === "string" && field !== "name") return this.placeholder(path, "returned");
    return value;
  }

  private reference(value: unknown): unknown {
    if (Array.isArray(value)) {
      return value.map((item) => this.reference(item)).sort((a, b) => compareText(sortKey(a), sortKey(b)));
    }
    const target = typeof value === "string" ? this.byId.get(value.toLowerCase()) : undefined;
    return target === undefined ? value : new Reference(target);
  }

  private placeholder(path: readonly (string | number)[], origin: Placeholder["origin"]): Placeholder {
    const key = `${this.declaration.variable}${path.map((segment) => upperFirst(camelOf(String(segment)))).join("")}`;
    const placeholder = new Placeholder(key, this.declaration, formatPath(path), origin);
    this.placeholders.push(placeholder);
    return placeholder;
  }
}

/** Paths inside write-only inputs that the definition's assumed cross-field rules say this object needs. */
function writeOnlyRequired(definition: AnyResourceDefinition, read: Record<string, unknown>): string[] {
  const required: string[] = [];
  definition.assumedRules?.(read, (path, _message, found) => {
    if (found === "missing" && definition.writeOnly.some((field) => path.startsWith(`${field}.`))) required.push(path);
  });
  return required;
}

/**
 * Runs the provider's check on the declaration (references and placeholders standing in as valid
 * values) and leaves out the optional fields it refuses, so that the program previews cleanly.
 */
function leaveOutRefused(declaration: Declaration, placeholders: readonly Placeholder[]): string[] {
  const { definition, inputs } = declaration;
  const withPlaceholder = new Set(placeholders.filter((placeholder) => placeholder.declaration === declaration).map(({ path }) => topLevel(path)));
  const notes: string[] = [];
  const { failures } = check(definition, standIns(inputs) as Record<string, unknown>);
  for (const { reason } of failures) {
    const path = reason.slice(definition.kind.length + 1, reason.indexOf(": "));
    const field = topLevel(path);
    if (withPlaceholder.has(field)) continue;
    const schema = (definition.inputs.shape as Record<string, z.ZodType>)[field];
    const optional = schema !== undefined && schema.safeParse(undefined).success;
    if (optional && field in inputs) {
      delete inputs[field];
      notes.push(`${definition.kind} ${declaration.name}: left out ${path} (${reason.slice(reason.indexOf(": ") + 2)})`);
    } else {
      notes.push(`${definition.kind} ${declaration.name}: ${reason}; fix it in the program before the first deployment`);
    }
  }
  return notes;
}

function standIns(value: unknown): unknown {
  if (value instanceof Reference) return value.target.id;
  if (value instanceof Placeholder) return "placeholder";
  if (Array.isArray(value)) return value.map(standIns);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, standIns(item)]));
  return value;
}

function sortKey(value: unknown): string {
  if (value instanceof Reference) return value.target.variable;
  if (value instanceof Placeholder) return value.key;
  return JSON.stringify(value) ?? "";
}

function formatPath(path: readonly (string | number)[]): string {
  return path.map((segment, index) => (typeof segment === "number" ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join("");
}

function topLevel(path: string): string {
  return path.split(/[.[]/, 1)[0] as string;
}

/** Code-point order: the same on every machine, unlike a locale's. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
