/**
 * The shape of a monitoring file (`monitoring.yaml`) and its JSON Schema, both derived from the
 * resource definitions.
 *
 * A monitoring file has one section per kind that lives inside a team's (or a client's) account,
 * named after the kind in plural camelCase (`monitors`, `notificationChannels`, ...). A section maps
 * entry names to the kind's camelCase inputs, with two changes:
 * - References to other objects are written by name instead of id. By convention a field named
 *   `<kind>Id` or `<kind>Ids` (kind in camelCase, e.g. `escalationPolicyId`, `notificationChannelIds`)
 *   holds ids of that kind; in the file it becomes `<kind>` (one name, `escalationPolicy`) or the
 *   kind's section name (a list of names, `notificationChannels`), naming entries of that section.
 * - Fields the loader sets from its options (`clientId`) are not written per entry.
 * Secret fields accept `${env:NAME}` for any string inside them: the loader reads the environment
 * variable when the program runs, so secrets stay out of the file.
 */
// @ts-nocheck

import { Ajv, type ValidateFunction } from "ajv";
import { z } from "zod";
import { type AnyResourceDefinition, providerInputs } from "./define.js";
import { FILE_KINDS, lowerFirst, sectionName } from "./file-kinds.js";
import { definitions } from "./index.js";

export { FILE_KINDS, type FileKind, type SectionName, lowerFirst, sectionName } from "./file-kinds.js";

/** Inputs the loader sets for every entry from its options instead of reading them from the file. */
export const LOADER_SET_FIELDS = ["clientId"] as const;

/** `${env:NAME}`: a secret read from the environment variable NAME when the program runs. */
export const ENVIRONMENT_REFERENCE = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

export interface FileSection {
  name: string;
  definition: AnyResourceDefinition;
}

export const fileSections: readonly FileSection[] = definitions
  .filter((definition) => (FILE_KINDS as readonly string[]).includes(definition.kind))
  .map((definition) => ({ name: sectionName(definition.kind), definition }));

/** A field that holds ids of objects declared in the file, and how the file writes it. */
export interface ReferenceField {
  /** The input name, e.g. `notificationChannelIds`. */
  idField: string;
  /** The name in the file, e.g. `notificationChannels`. */
  nameField: string;
  /** The section whose entry names the file field holds. */
  section: string;
  /** Whether the field holds a list of ids rather than one. */
  many: boolean;
}

/**
 * The section of monitor sets (`MonitorSet`: many monitors as one resource): set names to
 * `{ monitors: { <key>: <monitor entry> } }`, each monitor written as an entry of `monitors`.
 */
export const MONITOR_SETS_SECTION = "monitorSets";

const referenceFields: readonly ReferenceField[] = FILE_KINDS.flatMap((kind) => [
  { idField: `${lowerFirst(kind)}Id`, nameField: lowerFirst(kind), section: sectionName(kind), many: false },
  { idField: `${lowerFirst(kind)}Ids`, nameField: sectionName(kind), section: sectionName(kind), many: true },
]);

/** The reference an input name stands for, if it follows the `<kind>Id(s)` convention. */
export function referenceByIdField(field: string): ReferenceField | undefined {
  return referenceFields.find((reference) => reference.idField === field);
}

/** The reference a field name of the file stands for, if any. */
export function referenceByNameField(field: string): ReferenceField | undefined {
  return referenceFields.find((reference) => reference.nameField === field);
}

const entryInputsByKind = new Map<string, z.ZodObject>();

/** Every input of a kind as an entry of the file holds them: its API inputs and the provider's, minus those the loader sets. */
export function entryInputs(definition: AnyResourceDefinition): z.ZodObject {
  let inputs = entryInputsByKind.get(definition.kind);
  if (inputs === undefined) {
    const loaderSet = Object.fromEntries(LOADER_SET_FIELDS.map((field) => [field, true] as const));
    inputs = definition.inputs.extend(providerInputs.shape).omit(loaderSet);
    entryInputsByKind.set(definition.kind, inputs);
  }
  return inputs;
}

/** Whether an entry's `name` input defaults to its key (every kind with a display name). */
export function hasDisplayName(definition: AnyResourceDefinition): boolean {
  return "name" in definition.inputs.shape;
}

export type JsonSchema = { [keyword: string]: unknown };

export interface MonitoringFileSchemaOptions {
  /**
   * Whether strings inside secret fields may be `${env:NAME}`. True for the published schema, which
   * checks files as written; false for the loader, which validates the values read from the environment.
   */
  environmentReferences: boolean;
}

const JSON_SCHEMA_DRAFT = "http://json-schema.org/draft-07/schema#";

export function monitoringFileSchema(options: MonitoringFileSchemaOptions): JsonSchema {
  return forEditors(fileSchema(options));
}

function fileSchema(options: MonitoringFileSchemaOptions): JsonSchema {
  const entries = Object.fromEntries(
    fileSections.map(({ definition }) => [definition.kind, entrySchema(definition, options)] as const),
  );
  return {
    $schema: JSON_SCHEMA_DRAFT,
    title: "Monitoring file (pulumi-monitoring)",
    description:
      "Monitors, heartbeats, alert routing and webhooks of one team, loaded into a Pulumi program by " +
      "`loadMonitoringYaml()`. Each section maps entry names to the kind's inputs; the name identifies the entry in " +
      "references and in the Pulumi resource name. Entries reference each other by name. See docs/reference/README.md.",
    type: "object",
    additionalProperties: false,
    properties: Object.fromEntries([
      ...fileSections.map(({ name, definition }) => [
        name,
        {
          description: `${definition.description} Maps entry names to ${lowerFirst(humanKind(definition.kind))} inputs.`,
          type: "object",
          additionalProperties: { $ref: `#/definitions/${definition.kind}` },
        },
      ]),
      [
        MONITOR_SETS_SECTION,
        {
          description: "Monitor sets, for stacks of hundreds or thousands of monitors. Maps set names to sets.",
          type: "object",
          additionalProperties: { $ref: "#/definitions/MonitorSet" },
        },
      ],
    ]),
    definitions: { ...entries, MonitorSet: monitorSetSchema() },
  };
}

/** One monitor set of the file: its monitors written as entries of `monitors`. */
function monitorSetSchema(): JsonSchema {
  return {
    title: "MonitorSet",
    description: "Many monitors as one Pulumi resource: created in batches, refreshed by list, one step and one state entry for the engine.",
    type: "object",
    additionalProperties: false,
    required: ["monitors"],
    properties: {
      monitors: {
        description: "The monitors of the set by key, each written as an entry of `monitors`. The key names a monitor in the set for good.",
        type: "object",
        minProperties: 1,
        additionalProperties: { $ref: "#/definitions/Monitor" },
      },
    },
  };
}

/**
 * The schema as editors and any draft-07 validator read it: every description also as
 * `markdownDescription`, which VS Code's YAML extension renders (code spans, links) where it shows
 * `description` as plain text; and no `uuid` format, which draft-07 does not define (zod's
 * pattern next to it states the same rule).
 */
function forEditors(schema: JsonSchema): JsonSchema {
  const transform = (node: JsonSchema): JsonSchema => {
    const { format, ...rest } = node;
    const result = format === "uuid" ? rest : node;
    return typeof result.description === "string" ? { ...result, markdownDescription: result.description } : result;
  };
  const definitionsOf = schema.definitions as Record<string, JsonSchema>;
  return mapSchema(
    { ...schema, definitions: Object.fromEntries(Object.entries(definitionsOf).map(([name, node]) => [name, mapSchema(node, transform)])) },
    transform,
  );
}

/**
 * Compiles a monitoring file schema with ajv in strict mode, checking the formats zod writes with
 * zod's own parsers. `markdownDescription` is an annotation for editors.
 */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true });
  ajv.addVocabulary(["markdownDescription"]);
  for (const [format, parser] of Object.entries(FORMATS)) ajv.addFormat(format, (value: string) => parser.safeParse(value).success);
  return ajv.compile(schema);
}

/** The draft-07 formats zod writes for the rules of schema/rules.ts. */
const FORMATS: Record<string, z.ZodType> = {
  email: z.email(),
  uri: z.url(),
  "date-time": z.iso.datetime({ offset: true }),
};

/** The published schema as committed in schema/monitoring.schema.json. */
export function renderMonitoringFileSchema(): string {
  return `${JSON.stringify(monitoringFileSchema({ environmentReferences: true }), null, 2)}\n`;
}

function entrySchema(definition: AnyResourceDefinition, options: MonitoringFileSchemaOptions): JsonSchema {
  const { required: generatedRequired, ...schema } = mapSchema(jsonSchemaOf(entryInputs(definition), "input"), toFileForm);
  const properties = schema.properties as Record<string, JsonSchema>;
  let required = (generatedRequired as string[] | undefined) ?? [];

  if (hasDisplayName(definition)) {
    properties.name = appendDescription(properties.name ?? {}, "Defaults to the entry's name (its key in this file).");
    required = required.filter((field) => field !== "name");
  }
  if (options.environmentReferences) {
    for (const field of definition.secrets) {
      const property = properties[field];
      if (property === undefined) continue;
      properties[field] = appendDescription(
        mapSchema(property, acceptEnvironmentReference),
        "Secret: any string in it may be written `${env:NAME}` to read it from the environment variable NAME when the program runs.",
      );
    }
  }
  return {
    title: definition.kind,
    description: definition.description,
    ...schema,
    ...(required.length > 0 ? { required } : {}),
  };
}

/**
 * The JSON Schema of one side of a zod object, without the bounds zod states for every integer
 * (±2^53-1), which say nothing to a reader.
 */
export function jsonSchemaOf(schema: z.ZodObject, io: "input" | "output"): JsonSchema {
  const { $schema: _draft, ...generated } = z.toJSONSchema(schema, { io, target: "draft-7", unrepresentable: "any" }) as JsonSchema;
  return mapSchema(generated, (node) => {
    // Field facts and domain names are for the generic code, not JSON Schema keywords.
    const { field: _facts, domain: _domain, knownValues, openKeys, ...result } = node;
    // An open object (schema/rules.ts `openObject`): keys it does not declare are the server's to judge.
    if (openKeys !== undefined) result.additionalProperties = true;
    if (result.maximum === Number.MAX_SAFE_INTEGER) delete result.maximum;
    if (result.minimum === Number.MIN_SAFE_INTEGER) delete result.minimum;
    if (!Array.isArray(knownValues)) return result;
    // An open domain: the known values for editors' completion, any other non-empty string allowed.
    const { description, default: fallback, ...value } = result;
    return {
      ...(description === undefined ? {} : { description }),
      ...(fallback === undefined ? {} : { default: fallback }),
      anyOf: [{ enum: knownValues }, value],
    };
  });
}

/** Applies `transform` to every subschema of `node` and then to `node`, innermost first. */
export function mapSchema(node: JsonSchema, transform: (node: JsonSchema) => JsonSchema): JsonSchema {
  const result: JsonSchema = { ...node };
  if (isSchema(result.items)) result.items = mapSchema(result.items, transform);
  if (isSchema(result.properties)) {
    result.properties = Object.fromEntries(
      Object.entries(result.properties as Record<string, JsonSchema>).map(([field, property]) => [field, mapSchema(property, transform)]),
    );
  }
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const branches = result[keyword];
    if (Array.isArray(branches)) result[keyword] = branches.map((branch: JsonSchema) => mapSchema(branch, transform));
  }
  return transform(result);
}

/** An object of the inputs as the file writes it: references by name, and no unknown fields but where the object is open. */
function toFileForm(node: JsonSchema): JsonSchema {
  if (node.type !== "object") return node;
  const renamed: Record<string, string> = {};
  const properties = Object.fromEntries(
    Object.entries((node.properties ?? {}) as Record<string, JsonSchema>).map(([field, property]) => {
      const reference = referenceByIdField(field);
      if (reference === undefined) return [field, property];
      renamed[field] = reference.nameField;
      return [reference.nameField, nameReferenceSchema(reference, property)];
    }),
  );
  const required = Array.isArray(node.required) ? { required: (node.required as string[]).map((field) => renamed[field] ?? field) } : {};
  return { ...node, properties, ...required, additionalProperties: node.additionalProperties === true };
}

function nameReferenceSchema(reference: ReferenceField, idSchema: JsonSchema): JsonSchema {
  const name: JsonSchema = { type: "string", minLength: 1 };
  if (!reference.many) {
    const { format: _uuid, pattern: _uuidPattern, ...rest } = idSchema;
    return appendDescription({ ...rest, ...name }, `In this file: the name of an entry under \`${reference.section}\`.`);
  }
  return appendDescription(
    { ...idSchema, items: { ...name, description: `Name of an entry under \`${reference.section}\`.` } },
    `In this file: names of entries under \`${reference.section}\`.`,
  );
}

/**
 * Lets a string inside a secret field be an environment reference (`${env:NAME}`) instead of the
 * value. The branch has no description of its own, so that editors show the field's.
 */
function acceptEnvironmentReference(node: JsonSchema): JsonSchema {
  if (node.type !== "string") return node;
  const { description, ...value } = node;
  const environmentReference = { type: "string", pattern: ENVIRONMENT_REFERENCE.source };
  return { ...(description === undefined ? {} : { description }), anyOf: [environmentReference, value] };
}

function appendDescription(node: JsonSchema, sentence: string): JsonSchema {
  const description = typeof node.description === "string" ? `${node.description} ${sentence}` : sentence;
  return { ...node, description };
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `NotificationChannel` → `Notification channel`. */
export function humanKind(kind: string): string {
  const words = kind.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}
