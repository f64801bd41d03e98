/**
 * The one place a resource kind is declared.
 *
 * A definition holds everything that differs between kinds: the zod input schema (with
 * `.describe()` docs), the API path and field names, which fields replace on change, which are
 * secret or write-only, the server fields worth exposing, and the extra calls (pause, attach, ...)
 * that carry declarative associations. Generic code derives the rest: check, diff, CRUD, the SDK
 * class types, the JSON Schema of YAML files and the reference docs.
 */
import type { z } from "zod";

/** A field of the API, addressed by its camelCase input name. */
export type FieldName<S extends z.ZodObject> = Extract<keyof z.input<S>, string>;

/**
 * An association or state that the API changes through its own endpoints rather than the
 * object's create/update body. Paths use `{id}` for the object's id and `{value}` for an item.
 */
export type Association =
  /** A boolean driven by two calls, e.g. `paused` (pause/resume) or `archived` (archive/unarchive). */
  | {
      kind: "toggle";
      on: { method: "POST" | "PUT"; path: string };
      off: { method: "POST" | "PUT"; path: string };
      /** How to read the current value from the API object (snake_case). */
      read: (apiObject: Record<string, unknown>) => boolean;
    }
  /** A set of ids attached one by one, e.g. a monitor's notification channels. */
  | {
      kind: "set";
      /** GET, paginated: the attached objects (their `id` is the item). */
      list: { path: string };
      add: { method: "POST" | "PUT"; path: string };
      remove: { method: "DELETE"; path: string };
    }
  /** A single reference set and cleared by dedicated calls, e.g. a monitor's escalation policy. */
  | {
      kind: "reference";
      set: { method: "POST" | "PUT"; path: string; body: (id: string, value: string) => Record<string, unknown> };
      clear: { method: "POST" | "PUT" | "DELETE"; path: string; body?: (id: string) => Record<string, unknown> };
      /** Read from the API object's field of the same (snake_case) name unless given. */
      read?: (apiObject: Record<string, unknown>) => string | null | undefined;
      /** Whether create may send it in the create body (then only updates use set/clear). */
      sentOnCreate: boolean;
    }
  /** A nested document with its own GET and PUT, e.g. a client's portal settings. */
  | {
      kind: "document";
      get: { path: string };
      put: { path: string };
    };

export interface ResourceDefinition<S extends z.ZodObject = z.ZodObject> {
  /** SDK class name and the last part of the Pulumi type token (`pulumi-nodejs:monitoring:<kind>`). */
  kind: string;
  /** One paragraph for the reference docs. */
  description: string;
  /** Scope names an API key needs to manage this kind (for the README's table). */
  scopes: string[];
  /** Collection path, e.g. `/monitors`, or `/clients/{clientId}/share-links` for nested kinds. */
  path: string;
  /** How to read one object: by `GET path/{id}`, or by scanning the paginated list (no GET by id). */
  readBy: "get" | "list";
  /** `PATCH` sends only changed fields; `PUT` sends the whole object; `none` means every change replaces. */
  updateMethod: "PATCH" | "PUT" | "none";
  /** camelCase inputs. Field-level rules only; cross-field rules go in `refine`. */
  inputs: S;
  /** Cross-field rules (e.g. a tcp monitor needs tcpHost and tcpPort), reported per field. */
  refine?: (inputs: z.output<S>, issue: (field: string, message: string) => void) => void;
  /** Fields whose change cannot be applied in place. */
  replaceOnChanges: FieldName<S>[];
  /** Fields kept secret in state (inputs and outputs of the same name). */
  secrets: FieldName<S>[];
  /** Fields the API never returns; read keeps them from state so they never show as drift. */
  writeOnly: FieldName<S>[];
  /** Unordered list fields, compared as sets. */
  sets: FieldName<S>[];
  /** Input fields driven by their own endpoints instead of the object body. */
  associations: Partial<Record<FieldName<S>, Association>>;
  /**
   * Server fields exposed as outputs, camelCase, with docs. Values come from the API object.
   * `keepFromState` fields are returned by the API only once (e.g. a signing secret at creation).
   */
  outputs: z.ZodObject;
  secretOutputs: string[];
  keepFromState: string[];
  /** API field names that are not the snake_case of the input name. */
  apiNames?: Partial<Record<FieldName<S>, string>>;
}

export function defineResource<S extends z.ZodObject>(definition: ResourceDefinition<S>): ResourceDefinition<S> {
  return definition;
}
