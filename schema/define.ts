/**
 * The one place a resource kind is declared: a definition holds everything that differs between
 * kinds, each field with all its facts on its own line ({@link field}); generic code derives the
 * rest. The conventions it relies on are in docs/architecture.md (Definitions).
 */
import { z } from "zod";
import { toSnakeCase } from "./naming.js";
import { type VariantFields, type VariantIssue, unwrapOnce, uuid } from "./rules.js";

/** A field of the API, addressed by its camelCase input name. */
export type FieldName<S extends z.ZodObject> = Extract<keyof z.input<S>, string>;

/** Every fact about one field (input or server output), kept next to its schema. */
export interface FieldFacts {
  /** What the field means, for the docs, the JSON Schema and the SDK's JSDoc. */
  description: string;
  /**
   * The API's name for the field when it is not the snake_case of the input name. With several,
   * the first is sent and any of them is read (servers that return the field under another name).
   */
  apiName?: string | readonly [string, ...string[]];
  /** What the service applies when the field is left out; removing the field from a program sends it. */
  default?: unknown;
  /** What the spec does not show about this field and the definition assumes (its name, rule or default). */
  assumption?: string;
  /** A change cannot be applied in place: the object is replaced. */
  replaceOnChange?: true;
  /** Kept encrypted in state, inputs and outputs alike, and never shown in messages. */
  secret?: true;
  /** The API never returns it; read keeps the value from state so it never shows as drift. */
  writeOnly?: true;
  /**
   * For a write-only field: the input whose presence on an object shows that this one is set too
   * (a password with its user name). Tools that read objects the service holds (the importer)
   * declare a value for it then.
   */
  setWith?: string;
  /** Server output the API returns only once (e.g. at creation); read keeps it from state. */
  returnedOnce?: true;
  /**
   * Steers the provider (a monitor's `pauses`): never sent to the service nor read from it, and
   * not compared by diff; what it asks for is applied through other fields (`paused`).
   */
  providerOnly?: true;
}

const FACTS = "field";

/**
 * What every kind assumes of its list operation (the spec shows no list item's fields): refresh
 * reads many objects of a kind from list pages instead of one GET each, and falls back to the GET
 * for an item that lacks a field the state records.
 */
export const LIST_ITEMS_ASSUMPTION =
  "a list item carries the same fields as a GET of the object: a refresh of many objects reads them from list pages and, where the kind has a GET by id, reads by id an object whose list item lacks a field the state records";

/**
 * Attaches a field's facts to its schema. The description (with the default, when there is one)
 * becomes the schema's own, so every generated artifact reads the same text.
 *
 *   intervalSeconds: field(wholeNumber(10).optional(), { description: "Seconds between checks.", default: 60, assumption: "default not shown" }),
 */
export function field<T extends z.ZodType>(schema: T, facts: FieldFacts): T {
  const defaultText = facts.default === undefined ? "" : ` Default: ${JSON.stringify(facts.default)} (applied by the service).`;
  const meta: Record<string, unknown> = { description: `${facts.description}${defaultText}`, [FACTS]: facts };
  if (facts.default !== undefined) meta["default"] = facts.default;
  return schema.meta(meta) as T;
}

/** The facts {@link field} attached to a schema (or to a schema it wraps); none for a plain schema, or for no schema. */
export function factsOf(schema: z.ZodType | undefined): FieldFacts | undefined {
  for (let current: z.ZodType | undefined = schema; current !== undefined; current = unwrapOnce(current)) {
    const facts = current.meta()?.[FACTS];
    if (facts !== undefined) return facts as FieldFacts;
  }
  return undefined;
}

/** The names a field may have in the API, the one sent first. */
export function apiNamesOf(inputName: string, schema: z.ZodType | undefined): readonly string[] {
  const declared = factsOf(schema)?.apiName;
  if (declared === undefined) return [toSnakeCase(inputName)];
  return typeof declared === "string" ? [declared] : declared;
}

/** An HTTP call of an association. Paths use `{id}` for the object's id and `{value}` for an item. */
export interface Call {
  method: "POST" | "PUT" | "DELETE";
  path: string;
  /** The JSON body, when the call takes one. */
  body?: (id: string, value: unknown) => Record<string, unknown>;
}

/**
 * An association or state that the API changes through its own endpoints rather than the
 * object's create/update body. Used only where the spec offers no body field for the same thing.
 * Leaving the field out leaves the association unmanaged; removing a field that was set resets it
 * (toggle off, empty set, document defaults).
 */
export type Association =
  /** A boolean driven by two calls, e.g. `paused` (pause/resume) or `archived` (archive/unarchive). */
  | { kind: "toggle"; on: Call; off: Call }
  /** A set of ids attached one by one, e.g. a monitor's notification channels. */
  | {
      kind: "set";
      /** GET, paginated: the attached objects (their `id` is the item). */
      list: { path: string };
      add: Call;
      remove: Call;
    }
  /** A nested document with its own GET and PUT, e.g. a client's portal settings. */
  | { kind: "document"; get: { path: string }; put: { path: string } };

/** How destroy removes an object, and which error statuses mean there is nothing left to remove. */
export interface Deletion {
  method: "DELETE" | "POST";
  /** `{id}` is the object's id; `{<inputName>}` placeholders are filled from its properties. */
  path: string;
  alreadyGone: number[];
  /** The state the deletion leaves the object in, when it stays readable (an archived client): it then counts as gone. */
  leaves?: { field: string; value: unknown };
  /** What the spec does not show about the deletion, when anything. */
  assumption?: string;
}

/** The variants of a kind: the input that selects one, its value when left out, and each variant's own fields. */
export interface Variants<F extends string> {
  field: F;
  default: string;
  fields: Record<string, VariantFields<F>>;
}

/** What a kind's author writes: everything about a field is in its {@link field} facts. */
export interface ResourceSpec<S extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  /** SDK class name and the last part of the Pulumi type token (`pulumi-nodejs:dynamic/monitoring:<kind>`). */
  kind: string;
  /** One paragraph for the reference docs. */
  description: string;
  /** What the spec does not show about the kind as a whole (e.g. its field names), when anything. */
  assumption?: string;
  /**
   * Collection path, e.g. `/monitors`, or `/clients/{clientId}/share-links` for nested kinds: a
   * `{<inputName>}` placeholder is filled from that input, which is then not sent in bodies.
   */
  path: string;
  /**
   * How to read one object: by `GET path/{id}`, or by scanning the paginated list (no GET by id).
   * Either way, a refresh of many objects reads them from list pages, which relies on
   * {@link LIST_ITEMS_ASSUMPTION}.
   */
  readBy: "get" | "list";
  /** `PATCH` sends only changed fields; `PUT` sends the whole object; `none` means every change replaces. */
  updateMethod: "PATCH" | "PUT" | "none";
  /** Defaults to `DELETE path/{id}`, where 404 means already deleted. */
  deletion?: Deletion;
  /** camelCase inputs, each declared with {@link field}. Field-level rules only; cross-field rules go in `refine`. */
  inputs: S;
  /**
   * Cross-field rules (e.g. a tcp monitor needs tcpHost and tcpPort), reported per field. `field`
   * may be a dotted path into a nested object (`config.address`). Runs once every field passed its
   * own rules.
   */
  refine?(inputs: z.output<S>, issue: (field: string, message: string) => void): void;
  /**
   * Cross-field rules the spec does not show and this package assumes (which settings a channel
   * kind needs): never enforced. Check warns about a setting that belongs to another variant
   * (`misplaced`); the importer declares a placeholder for a missing write-only setting (`missing`).
   * Runs, like `refine`, once every field passed its own rules.
   */
  assumedRules?(inputs: z.output<S>, issue: (field: string, message: string, found: VariantIssue) => void): void;
  /**
   * Fields that apply only to some values of one input (a monitor's type): `refine` enforces the
   * table with `checkVariantFields`, and the SDK types the inputs as a union over the values, so
   * that a missing required field of a variant fails to compile.
   */
  variants?: Variants<FieldName<S>>;
  /** Input fields driven by their own endpoints instead of the object body. */
  associations: Partial<Record<FieldName<S>, Association>>;
  /**
   * Where the template of the client an object lives in keeps defaults for this kind: the client's
   * kind (its `templateId` names the template), the template's kind and its input holding the
   * defaults, keyed by this kind's input names. Inside such a client, a field the program stops
   * setting is sent with the template's value, before the field's `default` fact.
   */
  templateDefaults?: { client: AnyResourceDefinition; template: AnyResourceDefinition; field: string };
  /** Server fields exposed as outputs, camelCase, each declared with {@link field}. Values come from the API object. */
  outputs: O;
}

/** A kind as the generic code sees it: the spec plus the field lists derived from the facts. */
export interface ResourceDefinition<S extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject>
  extends ResourceSpec<S, O> {
  /** Fields whose change cannot be applied in place (with `updateMethod: "none"`, every field). */
  readonly replaceOnChanges: FieldName<S>[];
  /** Fields kept secret in state (inputs and outputs of the same name). */
  readonly secrets: FieldName<S>[];
  /** Fields the API never returns; read keeps them from state so they never show as drift. */
  readonly writeOnly: FieldName<S>[];
  /** Server outputs stored encrypted. */
  readonly secretOutputs: Extract<keyof z.output<O>, string>[];
  /** Server outputs the API returns only once (e.g. a signing secret at creation): read keeps them from state. */
  readonly keepFromState: Extract<keyof z.output<O>, string>[];
  /** Inputs that steer the provider and are no field of the API (`pauses`). */
  readonly providerOnly: FieldName<S>[];
}

/** A definition whose schema types are erased, as the generic engine sees it. */
export type AnyResourceDefinition = ResourceDefinition<z.ZodObject, z.ZodObject>;

export function defineResource<S extends z.ZodObject, O extends z.ZodObject>(spec: ResourceSpec<S, O>): ResourceDefinition<S, O> {
  const withFact = <K extends string>(shape: Record<string, z.ZodType>, fact: keyof FieldFacts): K[] =>
    Object.entries(shape)
      .filter(([, schema]) => factsOf(schema)?.[fact] !== undefined)
      .map(([name]) => name as K);
  const inputs = spec.inputs.shape as Record<string, z.ZodType>;
  const outputs = spec.outputs.shape as Record<string, z.ZodType>;
  return {
    ...spec,
    replaceOnChanges: withFact(inputs, "replaceOnChange"),
    secrets: withFact(inputs, "secret"),
    writeOnly: withFact(inputs, "writeOnly"),
    secretOutputs: withFact(outputs, "secret"),
    keepFromState: withFact(outputs, "returnedOnce"),
    providerOnly: withFact(inputs, "providerOnly"),
  };
}

/**
 * Inputs every kind accepts besides its API fields. They steer the provider and are never sent
 * to the API nor compared by diff.
 */
export const providerInputs = z.object({
  adoptId: uuid
    .optional()
    .describe(
      "Id of an existing object to take over instead of creating one: the first deployment reads it and " +
        "converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is " +
        "the way to bring objects created elsewhere under management. Ignored after creation.",
    ),
});
