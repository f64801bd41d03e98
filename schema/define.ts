/**
 * The one place a resource kind is declared.
 *
 * A definition holds everything that differs between kinds: the zod input schema (with
 * `.describe()` docs), the API path, which fields replace on change, which are secret or
 * write-only, the server fields worth exposing, and the extra calls (pause, attach, ...) that carry
 * declarative associations. Generic code derives the rest: check, diff, CRUD, the SDK class types,
 * the JSON Schema of YAML files and the reference docs.
 *
 * Conventions the generic code relies on instead of per-kind lists:
 * - API field names are the snake_case of the camelCase input names, at every depth.
 * - Lists whose order carries no meaning are declared with `setOf()` (schema/rules.ts).
 * - Defaults the service applies are documented with `serverDefault()`; zod `.default()` is used
 *   only where the provider itself fills the value in (e.g. a nested document's fields).
 */
import { z } from "zod";

/** A field of the API, addressed by its camelCase input name. */
export type FieldName<S extends z.ZodObject> = Extract<keyof z.input<S>, string>;

/** An HTTP call of an association. Paths use `{id}` for the object's id and `{value}` for an item. */
export interface Call {
  method: "POST" | "PUT" | "DELETE";
  path: string;
  /** The JSON body, when the call takes one. */
  body?: (id: string, value: unknown) => Record<string, unknown>;
}

/**
 * An association or state that the API changes through its own endpoints rather than the
 * object's create/update body. Leaving the field out leaves the association unmanaged; removing a
 * field that was set resets it (toggle off, empty set, reference cleared, document defaults).
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
  /** A single reference set and cleared by dedicated calls, e.g. a monitor's escalation policy. */
  | {
      kind: "reference";
      set: Call;
      clear: Call;
      /** Whether create sends it in the create body (then only updates use set/clear). */
      sentOnCreate: boolean;
    }
  /** A nested document with its own GET and PUT, e.g. a client's portal settings. */
  | { kind: "document"; get: { path: string }; put: { path: string } };

/** How destroy removes an object, and which error statuses mean there is nothing left to remove. */
export interface Deletion {
  method: "DELETE" | "POST";
  /** `{id}` is the object's id; `{<inputName>}` placeholders are filled from its properties. */
  path: string;
  alreadyGone: number[];
}

export interface ResourceDefinition<S extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  /** SDK class name and the last part of the Pulumi type token (`pulumi-nodejs:dynamic/monitoring:<kind>`). */
  kind: string;
  /** One paragraph for the reference docs. */
  description: string;
  /** Scope names an API key needs to manage this kind (for the README's table). */
  scopes: string[];
  /**
   * Collection path, e.g. `/monitors`, or `/clients/{clientId}/share-links` for nested kinds: a
   * `{<inputName>}` placeholder is filled from that input, which is then not sent in bodies.
   */
  path: string;
  /** How to read one object: by `GET path/{id}`, or by scanning the paginated list (no GET by id). */
  readBy: "get" | "list";
  /** `PATCH` sends only changed fields; `PUT` sends the whole object; `none` means every change replaces. */
  updateMethod: "PATCH" | "PUT" | "none";
  /** Defaults to `DELETE path/{id}`, where 404 means already deleted. */
  deletion?: Deletion;
  /** camelCase inputs. Field-level rules only; cross-field rules go in `refine`. */
  inputs: S;
  /**
   * Cross-field rules (e.g. a tcp monitor needs tcpHost and tcpPort), reported per field. `field`
   * may be a dotted path into a nested object (`config.address`). Runs once every field passed its
   * own rules.
   */
  refine?(inputs: z.output<S>, issue: (field: string, message: string) => void): void;
  /** Fields whose change cannot be applied in place (with `updateMethod: "none"`, every field). */
  replaceOnChanges: FieldName<S>[];
  /** Fields kept secret in state (inputs and outputs of the same name). */
  secrets: FieldName<S>[];
  /** Fields the API never returns; read keeps them from state so they never show as drift. */
  writeOnly: FieldName<S>[];
  /** Input fields driven by their own endpoints instead of the object body. */
  associations: Partial<Record<FieldName<S>, Association>>;
  /** Server fields exposed as outputs, camelCase, with docs. Values come from the API object. */
  outputs: O;
  /** Server outputs stored encrypted. */
  secretOutputs: Extract<keyof z.output<O>, string>[];
  /** Server outputs the API returns only once (e.g. a signing secret at creation): read keeps them from state. */
  keepFromState: Extract<keyof z.output<O>, string>[];
}

/** A definition whose schema types are erased, as the generic engine sees it. */
export type AnyResourceDefinition = ResourceDefinition<z.ZodObject, z.ZodObject>;

export function defineResource<S extends z.ZodObject, O extends z.ZodObject>(
  definition: ResourceDefinition<S, O>,
): ResourceDefinition<S, O> {
  return definition;
}

/**
 * Inputs every kind accepts besides its API fields. They steer the provider and are never sent
 * to the API nor compared by diff.
 */
export const providerInputs = z.object({
  adoptId: z
    .uuid({ error: "must be a UUID" })
    .optional()
    .describe(
      "Id of an existing object to take over instead of creating one: the first deployment reads it and " +
        "converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is " +
        "the way to bring objects created elsewhere under management. Ignored after creation.",
    ),
});
