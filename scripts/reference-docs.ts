/**
 * The reference docs (docs/reference/*.md), generated from the resource definitions: one page per
 * kind and an index. Examples come from the example monitoring file, so they are validated by the
 * same tests as any other monitoring file.
 */
import { posix } from "node:path";
import { isMap, isScalar, parseDocument } from "yaml";
import { MonitoringYamlError, parseMonitoringYaml } from "../sdk/yaml-parse.js";
import { type AnyResourceDefinition, type Association, LIST_ITEMS_ASSUMPTION, apiNamesOf, factsOf, providerInputs } from "../schema/define.js";
import { definitions } from "../schema/index.js";
import { groups } from "../schema/members.js";
import { dryRunOperation, groupOperationsOf, operationsOf, scopesOf } from "../schema/operations.js";
import {
  ENVIRONMENT_REFERENCE,
  type JsonSchema,
  LOADER_SET_FIELDS,
  MONITOR_SETS_SECTION,
  fileSections,
  hasDisplayName,
  humanKind,
  jsonSchemaOf,
  lowerFirst,
  referenceByIdField,
  referenceByNameField,
} from "../schema/json-schema.js";

export const REFERENCE_DIRECTORY = "docs/reference";
export const PACKAGE_NAME = "pulumi-monitoring";
/** Where a project that installed the package finds the JSON Schema of monitoring files (package.json `files` ships it). */
export const SHIPPED_SCHEMA_PATH = `node_modules/${PACKAGE_NAME}/schema/monitoring.schema.json`;

/** A monitoring file whose entries serve as the examples of the kinds it declares. */
export interface ExampleFile {
  /** Path from the repository root, e.g. `examples/yaml/monitoring.yaml`. */
  path: string;
  text: string;
}

/** Every page, keyed by its path from the repository root. */
export function renderReferenceDocs(example: ExampleFile): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set(`${REFERENCE_DIRECTORY}/README.md`, renderIndex());
  for (const definition of definitions) {
    pages.set(`${REFERENCE_DIRECTORY}/${pageName(definition.kind)}`, renderPage(definition, example));
  }
  return pages;
}

/** `ClientShareLink` → `client-share-link.md`. */
export function pageName(kind: string): string {
  return `${kind.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}.md`;
}

const GENERATED_NOTE =
  "<!-- Generated from the resource definitions by `npm run build && npm run generate` (scripts/generate.ts). Do not edit. -->";

// ---------------------------------------------------------------------------------------------
// Index

function renderIndex(): string {
  const kinds = definitions.map((definition) => {
    const section = fileSectionOf(definition);
    return row([
      `[${definition.kind}](${pageName(definition.kind)})`,
      firstSentence(definition.description),
      section === undefined ? "—" : code(section),
      scopesText(definition),
    ]);
  });
  const sections = fileSections.map(
    ({ name, definition }) => `- ${code(name)}: ${lowerFirst(humanKind(definition.kind))} entries ([${definition.kind}](${pageName(definition.kind)}))`,
  );
  const references = fileSections.flatMap(({ definition }) =>
    nameReferences(definition).map((reference) => `- ${definition.kind} ${reference}`),
  );
  const secrets = fileSections.flatMap(({ definition }) => definition.secrets.map((field) => `${definition.kind} ${code(field)}`));
  return [
    GENERATED_NOTE,
    "",
    "# Reference",
    "",
    "Every resource kind of the provider, with its inputs, outputs, API calls and the scopes an API key needs.",
    "",
    table(["Kind", "What it is", "`monitoring.yaml` section", "Scopes"], kinds),
    "",
    "## Monitoring files",
    "",
    "A team can declare its monitoring in a YAML file instead of TypeScript and load it with one call:",
    "",
    "```ts",
    `import * as mon from "${PACKAGE_NAME}";`,
    "",
    'const declared = mon.loadMonitoringYaml("monitoring.yaml", { clientId, namePrefix });',
    "declared.monitors.storefront; // the Monitor resource of the entry `storefront`",
    "```",
    "",
    "Both options are optional. `clientId` creates every entry inside that client (agency partition); " +
      "`namePrefix` is put before every Pulumi resource name, so one program can load the same file " +
      "more than once (e.g. once per client). The result holds every section below, each mapping entry names " +
      "to the created resources (empty when the file has no such section).",
    "",
    "The file has one section per kind, each mapping entry names to that kind's inputs:",
    "",
    ...sections,
    `- ${code(MONITOR_SETS_SECTION)}: monitor sets, each one \`MonitorSet\` resource (many monitors as one Pulumi resource, ` +
      "for stacks of hundreds or thousands of monitors; see [MonitorSet](../monitor-set.md)): " +
      `${code("<set name>: { monitors: { <key>: <monitor entry> } }")}, each monitor written as an entry of ${code("monitors")}, ` +
      `with the same rules, references by name and default ${code("name")} (its key). ` +
      `The result maps set names to the resources under ${code(MONITOR_SETS_SECTION)}.`,
    "",
    "An entry's name (its key) identifies it in references and is its Pulumi resource name (after `namePrefix`); " +
      "for kinds with a display name it is also the default `name`. Inputs are those of the kind's page, " +
      `except that ${LOADER_SET_FIELDS.map(code).join(", ")} comes from the loader's options and that entries reference each ` +
      "other by name instead of id:",
    "",
    ...references,
    "",
    "Secrets do not belong in the file. Any string inside a secret field " +
      `(${secrets.join(", ")}) may be written ${code("${env:NAME}")}: the loader reads the environment variable NAME ` +
      "when the program runs (an unset variable is an error). Pulumi keeps these fields encrypted in state.",
    "",
    "Loading validates the whole file before any resource is created or any API call is made: the JSON Schema " +
      "[schema/monitoring.schema.json](../../schema/monitoring.schema.json), every field rule and cross-field rule " +
      "of the kinds, and every reference by name. All problems are reported together, one per line, as " +
      "`file:line:column: path: rule`. This file:",
    "",
    "```yaml",
    INVALID_EXAMPLE.trimEnd(),
    "```",
    "",
    "fails to load with:",
    "",
    "```",
    loadError(INVALID_EXAMPLE),
    "```",
    "",
    "Editors that use yaml-language-server (e.g. VS Code with the YAML extension) check the file, complete " +
      "fields and show their descriptions as you type when its first line points at the schema the package ships. " +
      "In a project that installed the package, with the file next to `node_modules`:",
    "",
    "```yaml",
    `# yaml-language-server: $schema=${SHIPPED_SCHEMA_PATH}`,
    "```",
    "",
    "A complete file: [examples/yaml/monitoring.yaml](../../examples/yaml/monitoring.yaml).",
    "",
  ].join("\n");
}

const INVALID_EXAMPLE = `notificationChannels:
  ops-email: { kind: email, config: { address: ops@example.com } }
monitors:
  homepage:
    url: https://example.com
    intervalSecs: 60
    notificationChannels: [ops-email, pager]
  database:
    monitorType: tcp
    tcpHost: db.internal.example.com
  api:
    url: https://api.example.com
    intervalSeconds: 5
`;

/** The message loading `text` fails with, as the loader reports it. */
function loadError(text: string): string {
  try {
    parseMonitoringYaml(text, "monitoring.yaml", { env: {} });
  } catch (error) {
    if (error instanceof MonitoringYamlError) return error.message;
    throw error;
  }
  throw new Error("the invalid example of the reference docs loads without errors");
}

// ---------------------------------------------------------------------------------------------
// Pages

function renderPage(definition: AnyResourceDefinition, example: ExampleFile): string {
  const section = fileSectionOf(definition);
  return [
    GENERATED_NOTE,
    "",
    `# ${definition.kind}`,
    "",
    definition.description,
    "",
    "## Example",
    "",
    ...(section === undefined ? minimalExample(definition) : fileExample(definition, section, example)),
    "## Inputs",
    "",
    inputsTable(definition),
    "",
    "## Outputs",
    "",
    outputsTable(definition),
    "",
    ...associationsSection(definition),
    "## API",
    "",
    ...apiLines(definition).map((line) => `- ${line}`),
    "",
    ...operationsSection(definition),
    ...assumptionsSection(definition),
    ...(section === undefined ? [] : fileSection(definition, section)),
  ].join("\n");
}

interface InputRow {
  /** `steps[].delayMinutes` */
  path: string;
  /** The field's own name, `delayMinutes`. */
  name: string;
  /** The top-level input it belongs to, `steps`. */
  topLevel: string;
  schema: JsonSchema;
  required: boolean;
}

/** Every field at every depth, parents before their fields. */
function inputRows(schema: JsonSchema, prefix = "", topLevel?: string): InputRow[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).flatMap(([name, property]) => {
    const path = `${prefix}${name}`;
    const own: InputRow = { path, name, topLevel: topLevel ?? name, schema: property, required: required.has(name) };
    const items = property.items as JsonSchema | undefined;
    const nested =
      property.type === "object"
        ? inputRows(property, `${path}.`, own.topLevel)
        : items?.type === "object"
          ? inputRows(items, `${path}[].`, own.topLevel)
          : [];
    return [own, ...nested];
  });
}

function inputsTable(definition: AnyResourceDefinition): string {
  const replacing = new Set<string>(definition.updateMethod === "none" ? Object.keys(definition.inputs.shape) : definition.replaceOnChanges);
  const secrets = new Set<string>(definition.secrets);
  const writeOnly = new Set<string>(definition.writeOnly);
  const associations = new Set(Object.keys(definition.associations));
  const providerOwn = new Set<string>([...Object.keys(providerInputs.shape), ...definition.providerOnly]);
  const rows = inputRows(jsonSchemaOf(definition.inputs.extend(providerInputs.shape), "input")).map((input) => {
    const topLevel = input.path === input.topLevel;
    const association = associations.has(input.path);
    const notes = [
      association ? "Applied through its own endpoints (see Associations)." : "",
      providerOwn.has(input.path) ? "Read by the provider; never sent to the API." : "",
      topLevel && !association && !providerOwn.has(input.path) && !input.required && !replacing.has(input.path)
        ? clearingNote(definition, input.path)
        : "",
    ].filter((note) => note !== "");
    return row([
      code(input.path),
      topLevel && !providerOwn.has(input.path) ? apiNamesOf(input.path, definition.inputs.shape[input.path] as never).map(code).join(" or ") : "",
      typeText(input.schema),
      input.required ? "yes" : "",
      input.schema.default === undefined ? "" : code(JSON.stringify(input.schema.default)),
      replacing.has(input.topLevel) ? "replaces" : "",
      [secrets.has(input.topLevel) ? "secret" : "", writeOnly.has(input.topLevel) ? "write-only" : ""].filter(Boolean).join(", "),
      [descriptionOf(input.schema), ...notes].join(" "),
    ]);
  });
  return table(["Input", "API name", "Type", "Required", "Default", "On change", "Secret", "Description"], rows);
}

/** What the provider sends when a program stops setting the field. */
function clearingNote(definition: AnyResourceDefinition, field: string): string {
  const schema = definition.inputs.shape[field] as never;
  const fallback = factsOf(schema)?.default;
  if (definition.updateMethod === "none") return "";
  return fallback === undefined
    ? "Removing it from a program sends `null`, which clears it."
    : `Removing it from a program sends its default, ${code(JSON.stringify(fallback))}.`;
}

/** Every assumption the definition marks: of the kind, then field by field. */
function assumptionsSection(definition: AnyResourceDefinition): string[] {
  const shape = { ...definition.inputs.shape, ...definition.outputs.shape } as Record<string, never>;
  const fields = Object.entries(shape).flatMap(([field, schema]) => {
    const assumption = factsOf(schema)?.assumption;
    return assumption === undefined ? [] : [`- ${code(field)}: ${assumption}.`];
  });
  return [
    "## Assumptions",
    "",
    "What the service's published interface does not show, and this kind assumes. None of it makes `preview` refuse a " +
      "value a server might accept; a server that disagrees answers with an error naming the input.",
    "",
    ...(definition.assumption === undefined ? [] : [`- The kind: ${definition.assumption}.`]),
    `- Its list: ${LIST_ITEMS_ASSUMPTION}.`,
    ...fields,
    "",
  ];
}

function outputsTable(definition: AnyResourceDefinition): string {
  const secret = new Set<string>(definition.secretOutputs);
  const keptFromState = new Set<string>(definition.keepFromState);
  const rows = [
    row([code("id"), "string (uuid)", "", "The object's id, assigned by the service."]),
    ...inputRows(jsonSchemaOf(definition.outputs, "output")).map((output) =>
      row([
        code(output.path),
        typeText(output.schema),
        secret.has(output.topLevel) ? "secret" : "",
        [
          descriptionOf(output.schema),
          keptFromState.has(output.topLevel) ? "The service returns it only once; the provider keeps it in state." : "",
        ]
          .filter(Boolean)
          .join(" "),
      ]),
    ),
  ];
  return table(["Output", "Type", "Secret", "Description"], rows);
}

function associationsSection(definition: AnyResourceDefinition): string[] {
  const entries = Object.entries(definition.associations) as [string, Association][];
  if (entries.length === 0) return [];
  return [
    "## Associations",
    "",
    "These inputs are applied through their own endpoints rather than the object's body. Leaving one out " +
      "leaves it unmanaged; removing one that was set resets it (toggle off, empty set, document defaults).",
    "",
    ...entries.map(([field, association]) => `- ${code(field)}: ${associationText(association)}`),
    "",
  ];
}

function associationText(association: Association): string {
  switch (association.kind) {
    case "toggle":
      return `\`true\` calls ${call(association.on)}, \`false\` calls ${call(association.off)}.`;
    case "set":
      return (
        `a set of ids, read with ${code(`GET ${association.list.path}`)}; each id added calls ${call(association.add)}, ` +
        `each id removed calls ${call(association.remove)}.`
      );
    case "document":
      return `a document read with ${code(`GET ${association.get.path}`)} and written with ${code(`PUT ${association.put.path}`)}.`;
  }
}

function call({ method, path }: { method: string; path: string }): string {
  return code(`${method} ${path}`);
}

function apiLines(definition: AnyResourceDefinition): string[] {
  const one = `${definition.path}/{id}`;
  const deletion = definition.deletion ?? { method: "DELETE", path: one, alreadyGone: [404] };
  const update = {
    PATCH: `${call({ method: "PATCH", path: one })} with the changed fields`,
    PUT: `${call({ method: "PUT", path: one })} with every field`,
    none: "none: every change replaces the object",
  }[definition.updateMethod];
  return [
    `Create: ${call({ method: "POST", path: definition.path })}`,
    definition.readBy === "get"
      ? `Read: ${call({ method: "GET", path: one })}`
      : `Read: by scanning ${call({ method: "GET", path: definition.path })} (the API has no read by id)`,
    `Update: ${update}`,
    `Delete: ${call(deletion)} (status ${deletion.alreadyGone.join(" or ")} means already deleted)`,
    `Scopes an API key needs: ${scopesText(definition)}`,
  ];
}

/**
 * The table of the scopes each kind needs, for the guide at `guidePath` (between its `scopes:start`
 * and `scopes:end` markers), linking each kind to its reference page relative to the guide.
 */
export function renderScopesTable(guidePath: string): string {
  const pages = posix.relative(posix.dirname(guidePath), REFERENCE_DIRECTORY);
  const rows = definitions.map((definition) => row([`[${definition.kind}](${pages}/${pageName(definition.kind)})`, scopesText(definition)]));
  return table(["Kind", "Scopes an API key needs to manage it"], rows);
}

function scopesText(definition: AnyResourceDefinition): string {
  const scopes = scopesOf(operationsOf(definition));
  return scopes.length === 0 ? "none beyond a valid key" : scopes.map(code).join(", ");
}

/** Each operation the provider sends for the kind, with the scope the spec lists for it (schema/routes.ts). */
function operationsSection(definition: AnyResourceDefinition): string[] {
  const extra = [...(dryRunOperation.kind === definition.kind ? [dryRunOperation] : []), ...groups.filter((group) => group.member === definition).flatMap(groupOperationsOf)];
  const rows = [...operationsOf(definition), ...extra].map((entry) =>
    row([`${entry.kind === definition.kind ? "" : `${entry.kind}: `}${entry === dryRunOperation ? "dry run (a preview with `monitoring:dryRun`)" : entry.action}${entry.field === undefined ? "" : ` (${code(entry.field)})`}`, call(entry.route), entry.route.scope === null ? "none listed (any valid key)" : code(entry.route.scope), entry.route.section]),
  );
  return [
    "## Operations and scopes",
    "",
    "Every request the provider sends for this kind, with the scope the spec lists for it: a key without it gets 403 there. `pulumi-monitoring scopes` adds them up for a stack.",
    "",
    table(["Operation", "Request", "Scope", "Spec"], rows),
    "",
  ];
}

/** How a monitoring file writes each input that holds ids: `` `escalationPolicyId` is written `escalationPolicy`: ... `` */
function nameReferences(definition: AnyResourceDefinition): string[] {
  return inputRows(jsonSchemaOf(definition.inputs, "input")).flatMap((input) => {
    const reference = referenceByIdField(input.name);
    if (reference === undefined) return [];
    const written = input.path.replace(/[^.\]]+$/, reference.nameField);
    const what = reference.many ? "names of entries" : "the name of an entry";
    return [`${code(input.path)} is written ${code(written)}: ${what} under ${code(reference.section)}.`];
  });
}

function fileSection(definition: AnyResourceDefinition, section: string): string[] {
  const differences = [
    `The entry's key names it in references and is its Pulumi resource name` +
      (hasDisplayName(definition) ? "; it is also the default `name`." : "."),
    ...nameReferences(definition),
    ...LOADER_SET_FIELDS.filter((field) => field in definition.inputs.shape).map(
      (field) => `${code(field)} is not written per entry: the loader's \`${field}\` option sets it for every entry.`,
    ),
    ...definition.secrets.map((field) => `Any string in ${code(field)} may be written \`\${env:NAME}\` to read it from the environment.`),
  ];
  return [
    "## In a monitoring file",
    "",
    `Declared under ${code(`${section}:`)} in a [monitoring file](README.md#monitoring-files), with these differences from the inputs above:`,
    "",
    ...differences.map((line) => `- ${line}`),
    "",
  ];
}

// ---------------------------------------------------------------------------------------------
// Examples

function fileExample(definition: AnyResourceDefinition, section: string, example: ExampleFile): string[] {
  const document = parseDocument(example.text);
  const pair = isMap(document.contents)
    ? document.contents.items.find((item) => isScalar(item.key) && item.key.value === section)
    : undefined;
  const entries = document.toJS()?.[section] as Record<string, Record<string, unknown>> | undefined;
  const start = (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0];
  const end = (pair?.value as { range?: [number, number, number] } | null | undefined)?.range?.[1];
  if (start === undefined || end === undefined || entries === undefined) {
    throw new Error(`${example.path} has no ${section} section: the reference page of ${definition.kind} takes its example from there`);
  }
  const yamlText = example.text.slice(example.text.lastIndexOf("\n", start) + 1, end).trimEnd();
  const statements = Object.entries(entries).map(([key, entry]) => {
    const inputs = hasDisplayName(definition) && entry.name === undefined ? { name: key, ...entry } : entry;
    return construct(definition.kind, key, toSdkForm(inputs));
  });
  return [
    `From [${example.path}](../../${example.path}):`,
    "",
    "```yaml",
    yamlText,
    "```",
    "",
    "The same in TypeScript:",
    "",
    typescriptBlock(statements),
    "",
  ];
}

/** Without a monitoring-file example (kinds a file does not declare): the required inputs only. */
function minimalExample(definition: AnyResourceDefinition): string[] {
  const schema = jsonSchemaOf(definition.inputs, "input");
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const inputs = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)
      .filter(([field]) => required.has(field))
      .map(([field, property]) => [field, sampleValue(field, property)]),
  );
  return ["The required inputs:", "", typescriptBlock([construct(definition.kind, "example", inputs)]), ""];
}

/** A value that passes a field's rules: an id of another resource, or a value of the field's type. */
function sampleValue(field: string, schema: JsonSchema): unknown {
  const kind = definitions.find((definition) => `${lowerFirst(definition.kind)}Id` === field)?.kind;
  if (kind !== undefined) return new Code(`${lowerFirst(kind)}.id`);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const byFormat: Record<string, string> = { email: "ops@example.com", uri: "https://example.com", "date-time": "2030-01-31T12:00:00Z" };
  switch (schema.type) {
    case "string":
      return byFormat[String(schema.format)] ?? "example";
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    default:
      return {};
  }
}

/** Source code shown as is in a TypeScript example. */
class Code {
  constructor(readonly text: string) {}
}

/** A file entry's values as SDK inputs: references become the referenced resource's `id`, environment references `process.env`. */
function toSdkForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toSdkForm);
  if (typeof value === "string") {
    const variable = ENVIRONMENT_REFERENCE.exec(value)?.[1];
    return variable === undefined ? value : new Code(`process.env.${variable}`);
  }
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([field, item]) => {
      const reference = referenceByNameField(field);
      if (reference === undefined) return [field, toSdkForm(item)];
      const id = (name: unknown) => new Code(`${variableName(String(name))}.id`);
      return [reference.idField, Array.isArray(item) ? item.map(id) : id(item)];
    }),
  );
}

interface Statement {
  text: string;
  declares: string;
  uses: string[];
}

function construct(kind: string, key: string, inputs: unknown): Statement {
  const variable = variableName(key);
  const uses = [...typescript(inputs, "").matchAll(/\b([A-Za-z_$][\w$]*)\.id\b/g)].map((match) => match[1] as string);
  return { text: `const ${variable} = new mon.${kind}(${JSON.stringify(key)}, ${typescript(inputs, "")});`, declares: variable, uses };
}

function typescriptBlock(statements: Statement[]): string {
  const declared = new Set(statements.map(({ declares }) => declares));
  const elsewhere = [...new Set(statements.flatMap(({ uses }) => uses))].filter((name) => !declared.has(name));
  return [
    "```ts",
    `import * as mon from "${PACKAGE_NAME}";`,
    ...(elsewhere.length === 0 ? [] : [`// Declared elsewhere, as on their kinds' pages: ${elsewhere.join(", ")}.`]),
    "",
    ...statements.map(({ text }) => text),
    "```",
  ].join("\n");
}

/** `checkout-on-call` → `checkoutOnCall`. */
function variableName(key: string): string {
  return key.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function typescript(value: unknown, indent: string): string {
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) {
    const items = value.map((item) => typescript(item, `${indent}  `));
    const inline = `[${items.join(", ")}]`;
    return inline.length <= 80 && !inline.includes("\n") ? inline : `[\n${items.map((item) => `${indent}  ${item},`).join("\n")}\n${indent}]`;
  }
  if (typeof value === "object" && value !== null) {
    const fields = Object.entries(value).map(([key, item]) => {
      const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
      return `${name}: ${typescript(item, `${indent}  `)}`;
    });
    const inline = fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
    if (indent !== "" && inline.length <= 80 && !inline.includes("\n")) return inline;
    return `{\n${fields.map((field) => `${indent}  ${field},`).join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Text

function fileSectionOf(definition: AnyResourceDefinition): string | undefined {
  return fileSections.find((section) => section.definition === definition)?.name;
}

function typeText(schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(typeText).join(" or ");
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => code(String(value))).join(", ")}`;
  const min = schema.minimum as number | undefined;
  const max = schema.maximum as number | undefined;
  const range = min !== undefined && max !== undefined ? `, ${min} to ${max}` : min !== undefined ? `, at least ${min}` : max !== undefined ? `, at most ${max}` : "";
  switch (schema.type) {
    case "string": {
      const format = schema.format === undefined ? "" : ` (${String(schema.format)})`;
      const length =
        schema.minLength !== undefined && schema.minLength === schema.maxLength
          ? `, ${String(schema.minLength)} characters`
          : schema.minLength === 1
            ? ", not empty"
            : "";
      return `string${format}${length}`;
    }
    case "integer":
      return `whole number${range}`;
    case "number":
      return `number${range}`;
    case "boolean":
      return "boolean";
    case "array": {
      const count =
        schema.minItems !== undefined && schema.maxItems !== undefined
          ? `, ${String(schema.minItems)} to ${String(schema.maxItems)} items`
          : schema.minItems !== undefined
            ? `, at least ${String(schema.minItems)}`
            : "";
      const items = (schema.items ?? {}) as JsonSchema;
      const itemText = Array.isArray(items.enum) ? items.enum.map((value) => code(String(value))).join(", ") : typeText(items);
      return `${schema.uniqueItems === true ? "set" : "list"} of ${itemText}${count}`;
    }
    case "object":
      return "object";
    default:
      return "any";
  }
}

function descriptionOf(schema: JsonSchema): string {
  return typeof schema.description === "string" ? schema.description : "";
}

function firstSentence(text: string): string {
  return /^.*?\.(\s|$)/.exec(text)?.[0].trim() ?? text;
}

function code(text: string): string {
  return `\`${text}\``;
}

function row(cells: string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, "\\|")).join(" | ")} |`;
}

function table(header: string[], rows: string[]): string {
  return [row(header), row(header.map(() => "---")), ...rows].join("\n");
}
