/**
 * Reading a monitoring file (`monitoring.yaml`, shape in schema/json-schema.ts) without Pulumi:
 * the text becomes declarations, or a MonitoringYamlError that lists every problem of the file
 * at once, each as `file:line:column: path: rule`.
 *
 * Checks, in order: YAML syntax; `${env:NAME}` references in secret fields; the JSON Schema
 * generated from the definitions (validated by ajv: structure, types, unknown fields, field
 * rules); the definitions' zod field rules, which phrase the messages and state rules JSON Schema
 * cannot (time zones, URL schemes); the definitions' cross-field rules; and references by name.
 * Messages are worded by schema/rule-messages.ts, as check's at preview are, so a bad value reads
 * the same in a file and in a program.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { type Document, LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument } from "yaml";
import { z } from "zod";
import { type AnyResourceDefinition } from "../schema/define.js";
import {
  ENVIRONMENT_REFERENCE,
  type FileSection,
  MONITOR_SETS_SECTION,
  compileSchema,
  entryInputs,
  fileSections,
  hasDisplayName,
  monitoringFileSchema,
  referenceByIdField,
  referenceByNameField,
} from "../schema/json-schema.js";
import type { FileKind } from "../schema/file-kinds.js";
import { membersOf, monitorSet } from "../schema/members.js";
import { isRecord } from "../schema/naming.js";
import { parseFieldValue, ruleOfSchemaError } from "../schema/rule-messages.js";
import { unwrap } from "../schema/rules.js";

/** A reference by name to another entry of the file, standing in for that object's id. */
export class EntryReference {
  constructor(
    readonly section: string,
    readonly name: string,
  ) {}
}

/** One entry of the file (or one monitor set), ready to become a resource. */
export interface Declaration {
  kind: FileKind | "MonitorSet";
  section: string;
  /** The entry's key: how other entries reference it, and the base of its Pulumi resource name. */
  name: string;
  /**
   * The kind's camelCase inputs as the file sets them, `name` defaulted to the key and secrets read
   * from the environment; fields holding ids hold EntryReferences until the loader creates their targets.
   * A monitor set's are `{ monitors: { <key>: <a monitor's inputs> } }`.
   */
  inputs: Record<string, unknown>;
}

export interface MonitoringFile {
  declarations: Declaration[];
}

export interface FileIssue {
  file: string;
  line: number;
  column: number;
  /** Where in the file's data, e.g. `monitors.api.notificationChannels[1]`; empty for the file as a whole. */
  path: string;
  rule: string;
}

export function formatIssue({ file, line, column, path, rule }: FileIssue): string {
  return path === "" ? `${file}:${line}:${column}: ${rule}` : `${file}:${line}:${column}: ${path}: ${rule}`;
}

export class MonitoringYamlError extends Error {
  override readonly name = "MonitoringYamlError";

  constructor(
    readonly file: string,
    readonly issues: readonly FileIssue[],
  ) {
    const count = issues.length === 1 ? "1 error" : `${issues.length} errors`;
    super(`${file} is not a valid monitoring file (${count}):\n${issues.map((issue) => `  ${formatIssue(issue)}`).join("\n")}`);
  }
}

export interface ParseOptions {
  /** Where `${env:NAME}` references are read from. Defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

type Path = (string | number)[];

/** Whether an issue is about a value (pointed at the value) or about a field being there or not (pointed at its key). */
type Subject = "value" | "field";

/**
 * Parses and validates a monitoring file. Pure: reads nothing but `text` and the environment
 * variables the file references, calls no API, creates no resource.
 */
export function parseMonitoringYaml(text: string, fileName: string, options: ParseOptions = {}): MonitoringFile {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const issues = new IssueCollector(fileName, document, lineCounter);
  for (const error of document.errors) issues.atOffset(error.pos[0], error.message);
  issues.throwIfAny();
  const data: unknown = document.toJS() ?? {};

  const environment = readEnvironmentReferences(data, options.env ?? process.env, issues);
  issues.useEnvironment(environment);
  for (const error of validateAgainstSchema(data)) issues.schemaError(error, data);

  const declarations: Declaration[] = [];
  const sets = new Map<string, Record<string, Record<string, unknown>>>();
  const standInId = standInIds();
  for (const { section, key, entry, path, set } of entriesOf(data)) {
    const declaration = declare(section, key, entry);
    checkFieldRules(path, declaration.inputs, section.definition, standInId, issues);
    if (set === undefined) declarations.push(declaration);
    else sets.set(set, { ...sets.get(set), [key]: declaration.inputs });
  }
  for (const [name, monitors] of sets) declarations.push({ kind: "MonitorSet", section: MONITOR_SETS_SECTION, name, inputs: { monitors } });
  checkReferences(declarations, issues);

  issues.throwIfAny();
  return { declarations };
}

interface Entry {
  /** The section whose kind the entry is: `monitors` for the monitors of a set too. */
  section: FileSection;
  key: string;
  entry: Record<string, unknown>;
  /** Where the entry is in the file: `[section, key]`, or `[monitorSets, set, monitors, key]`. */
  path: Path;
  /** The monitor set the entry belongs to, if any. */
  set?: string;
}

/** The entries whose section and value are mappings, monitors of sets included; the schema reports the others. */
function entriesOf(data: unknown): Entry[] {
  if (!isRecord(data)) return [];
  const mappings = (value: unknown) => (isRecord(value) ? Object.entries(value).filter((pair): pair is [string, Record<string, unknown>] => isRecord(pair[1])) : []);
  const entries: Entry[] = fileSections.flatMap((section) =>
    mappings(data[section.name]).map(([key, entry]) => ({ section, key, entry, path: [section.name, key] })),
  );
  for (const [set, declared] of mappings(data[MONITOR_SETS_SECTION])) {
    // The set's members, as every other part of the package sees them (schema/members.ts).
    for (const { key, definition, values } of membersOf(monitorSet.kind, declared)) {
      const section = fileSections.find((candidate) => candidate.definition === definition);
      if (key === undefined || section === undefined || !isRecord(values)) continue;
      entries.push({ section, key, entry: values, path: [MONITOR_SETS_SECTION, set, monitorSet.membersField, key], set });
    }
  }
  return entries;
}

// ---------------------------------------------------------------------------------------------
// Environment references

interface EnvironmentReferences {
  /** Paths whose value was read from the environment, with the variable's name. */
  resolved: Map<string, string>;
  /** Paths whose variable is not set: their value is a placeholder that no other rule should judge. */
  unresolved: Path[];
}

/** Replaces `${env:NAME}` in secret fields by the variable's value, in place; reports it anywhere else. */
function readEnvironmentReferences(
  data: unknown,
  env: Readonly<Record<string, string | undefined>>,
  issues: IssueCollector,
): EnvironmentReferences {
  const result: EnvironmentReferences = { resolved: new Map(), unresolved: [] };

  const visit = (value: unknown, path: Path, section: FileSection, secret: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item, index) => visit(item, [...path, index], section, secret));
    if (isRecord(value)) {
      for (const [key, item] of Object.entries(value)) value[key] = visit(item, [...path, key], section, secret);
      return value;
    }
    const variable = typeof value === "string" ? ENVIRONMENT_REFERENCE.exec(value)?.[1] : undefined;
    if (variable === undefined) return value;
    if (!secret) {
      const { secrets } = section.definition;
      const secretFields = secrets.length === 0 ? `${section.name} have none` : `of ${section.name}: ${secrets.join(", ")}`;
      issues.environment(path, `\${env:...} is read only in secret fields (${secretFields})`);
      return value;
    }
    const resolved = env[variable];
    if (resolved === undefined) {
      issues.environment(path, `environment variable ${variable} is not set`);
      result.unresolved.push(path);
      return value;
    }
    result.resolved.set(pathKey(path), variable);
    return resolved;
  };

  for (const { section, entry, path } of entriesOf(data)) {
    const secrets: readonly string[] = section.definition.secrets;
    for (const [field, value] of Object.entries(entry)) {
      entry[field] = visit(value, [...path, field], section, secrets.includes(field));
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// JSON Schema

let validateFile: ValidateFunction | undefined;

function validateAgainstSchema(data: unknown): ErrorObject[] {
  // The loader validates values as the program will use them, secrets read from the environment.
  validateFile ??= compileSchema(monitoringFileSchema({ environmentReferences: false }));
  return validateFile(data) ? [] : (validateFile.errors ?? []);
}

// ---------------------------------------------------------------------------------------------
// Declarations and the definitions' rules

function declare(section: FileSection, key: string, entry: Record<string, unknown>): Declaration {
  const { definition } = section;
  const inputs = toInputs(entryInputs(definition), entry) as Record<string, unknown>;
  if (hasDisplayName(definition) && inputs.name === undefined) inputs.name = key;
  return { kind: definition.kind as FileKind, section: section.name, name: key, inputs };
}

/**
 * The file's form of a value turned into the inputs' form, following the zod schema: reference
 * fields get their input names and EntryReferences in place of the names.
 */
function toInputs(schema: z.ZodType, value: unknown): unknown {
  const inner = unwrapAll(schema);
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.map((item) => toInputs(inner.element as z.ZodType, item));
  }
  if (!(inner instanceof z.ZodObject) || !isRecord(value)) return value;
  const shape = inner.shape as Record<string, z.ZodType>;
  return Object.fromEntries(
    Object.entries(value).map(([field, item]) => {
      const reference = referenceByNameField(field);
      if (reference === undefined || !(reference.idField in shape)) {
        const fieldSchema = shape[field];
        return [field, fieldSchema === undefined ? item : toInputs(fieldSchema, item)];
      }
      const toReference = (name: unknown) => (typeof name === "string" ? new EntryReference(reference.section, name) : name);
      return [reference.idField, Array.isArray(item) ? item.map(toReference) : toReference(item)];
    }),
  );
}

function unwrapAll(schema: z.ZodType): z.ZodType {
  const inner = unwrap(schema);
  return inner === schema ? schema : unwrapAll(inner);
}

/**
 * Runs the definition's zod rules field by field, then its cross-field rules on the fields that
 * passed. References hold stand-in ids: the loader passes real ids, so only list rules (at least
 * one, no repeats) concern them here, and a distinct stand-in per name keeps "no repeats" true to the names.
 */
function checkFieldRules(
  entryPath: Path,
  declaredInputs: Record<string, unknown>,
  definition: AnyResourceDefinition,
  standInId: (reference: EntryReference) => string,
  issues: IssueCollector,
): void {
  const inputs = replaceReferences(declaredInputs, standInId) as Record<string, unknown>;
  const passed: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(entryInputs(definition).shape as Record<string, z.ZodType>)) {
    const result = parseFieldValue(schema, inputs[field]);
    if (result.success) {
      if (result.data !== undefined) passed[field] = result.data;
      continue;
    }
    for (const issue of result.error.issues) {
      // Unknown fields are the schema's to report: it names the field the key was meant to be.
      if (issue.code !== "unrecognized_keys") issues.fieldRule([...entryPath, ...toFilePath([field, ...issue.path])], issue.message);
    }
  }
  definition.refine?.(passed, (field, message) => issues.crossField(entryPath, [...entryPath, ...toFilePath(field.split("."))], message));
}

/** An input path (`steps`, 0, `notificationChannelIds`) as the file writes it. */
function toFilePath(path: readonly PropertyKey[]): Path {
  return path.map((segment) =>
    typeof segment === "number" ? segment : (referenceByIdField(String(segment))?.nameField ?? String(segment)),
  );
}

/** Valid ids, one per referenced entry. */
function standInIds(): (reference: EntryReference) => string {
  const ids = new Map<string, string>();
  return ({ section, name }) => {
    const key = JSON.stringify([section, name]);
    let id = ids.get(key);
    if (id === undefined) {
      id = `00000000-0000-4000-8000-${ids.size.toString(16).padStart(12, "0")}`;
      ids.set(key, id);
    }
    return id;
  };
}

/** A copy of `value` with every EntryReference replaced. */
export function replaceReferences(value: unknown, replace: (reference: EntryReference) => unknown): unknown {
  if (value instanceof EntryReference) return replace(value);
  if (Array.isArray(value)) return value.map((item) => replaceReferences(item, replace));
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceReferences(item, replace)]));
  }
  return value;
}

function checkReferences(declarations: readonly Declaration[], issues: IssueCollector): void {
  const declared = new Map<string, string[]>();
  for (const { section, name } of declarations) declared.set(section, [...(declared.get(section) ?? []), name]);

  const visit = (value: unknown, path: Path): void => {
    if (value instanceof EntryReference) {
      const names = declared.get(value.section) ?? [];
      if (!names.includes(value.name)) {
        const known = names.length === 0 ? `no ${value.section} are declared` : `declared: ${names.join(", ")}`;
        issues.reference(path, `no entry named "${value.name}" under ${value.section} (${known})`);
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, index]));
    } else if (isRecord(value)) {
      for (const [key, item] of Object.entries(value)) visit(item, [...path, ...toFilePath([key])]);
    }
  };
  for (const { section, name, inputs } of declarations) visit(inputs, [section, name]);
}

// ---------------------------------------------------------------------------------------------
// Issues and where they are in the text

/**
 * What found an issue. One issue is reported per path: schema errors about a value take the
 * definition's phrasing of the same problem, and cross-field rules speak only about entries whose
 * own fields are right.
 */
type Source = "syntax" | "environment" | "schema-structure" | "schema-value" | "field-rule" | "cross-field" | "reference";

interface PendingIssue {
  path: Path;
  /** The entry a cross-field issue is about. */
  entry?: Path;
  subject: Subject;
  rule: string;
  source: Source;
  /** Where a syntax error is; other issues are located by their path. */
  offset?: number;
}

class IssueCollector {
  private readonly issues: PendingIssue[] = [];
  private placeholders: Path[] = [];
  /** Variable names by the path whose value was read from them. */
  private variables = new Map<string, string>();

  constructor(
    private readonly file: string,
    private readonly document: Document,
    private readonly lineCounter: LineCounter,
  ) {}


  /**
   * Values whose variable is not set are placeholders: only that is reported there. Issues about a
   * value read from a variable name the variable (the value itself is never shown).
   */
  useEnvironment({ resolved, unresolved }: EnvironmentReferences): void {
    this.variables = resolved;
    this.placeholders = unresolved;
  }

  atOffset(offset: number, rule: string): void {
    this.issues.push({ path: [], subject: "value", rule, source: "syntax", offset });
  }

  environment(path: Path, rule: string): void {
    this.issues.push({ path, subject: "value", rule, source: "environment" });
  }

  schemaError(error: ErrorObject, data: unknown): void {
    const params = error.params as Record<string, unknown>;
    const at = instancePath(error.instancePath, data);
    const rule = ruleOfSchemaError(error);
    if (error.keyword === "required") {
      this.issues.push({ path: [...at, String(params.missingProperty)], subject: "field", rule, source: "schema-structure" });
    } else if (error.keyword === "additionalProperties") {
      this.issues.push({ path: [...at, String(params.additionalProperty)], subject: "field", rule, source: "schema-structure" });
    } else {
      // A value of the wrong type too: where the definition phrases the field's rule (`must be a
      // UUID` for 5), that is what check says at preview, so the file says it as well.
      this.issues.push({ path: at, subject: "value", rule, source: "schema-value" });
    }
  }

  fieldRule(path: Path, rule: string): void {
    this.issues.push({ path, subject: "value", rule, source: "field-rule" });
  }

  crossField(entry: Path, path: Path, rule: string): void {
    this.issues.push({ path, entry, subject: "field", rule, source: "cross-field" });
  }

  reference(path: Path, rule: string): void {
    this.issues.push({ path, subject: "value", rule, source: "reference" });
  }

  throwIfAny(): void {
    const issues = this.collect();
    if (issues.length > 0) throw new MonitoringYamlError(this.file, issues);
  }

  /** One issue per path, sorted by position. */
  private collect(): FileIssue[] {
    const bySource = (...sources: Source[]) =>
      this.issues.filter(
        (issue) =>
          sources.includes(issue.source) &&
          (issue.source === "environment" || !this.placeholders.some((placeholder) => isPrefix(placeholder, issue.path))),
      );
    const fieldRules = new Map<string, string>();
    for (const { path, rule } of bySource("field-rule")) {
      if (!fieldRules.has(pathKey(path))) fieldRules.set(pathKey(path), rule);
    }

    const found = new Map<string, PendingIssue>();
    const add = (issue: PendingIssue) => {
      const key = issue.offset === undefined ? pathKey(issue.path) : `@${issue.offset}`;
      if (!found.has(key)) found.set(key, issue);
    };
    bySource("syntax", "environment").forEach(add);
    for (const issue of bySource("schema-structure", "schema-value")) {
      add(issue.source === "schema-value" ? { ...issue, rule: fieldRules.get(pathKey(issue.path)) ?? issue.rule } : issue);
    }
    // Rules JSON Schema cannot state (time zones, URL schemes), where the schema saw nothing wrong.
    const schemaFound = [...found.values()];
    for (const issue of bySource("field-rule")) {
      const overlaps = schemaFound.some((other) => isPrefix(other.path, issue.path) || isPrefix(issue.path, other.path));
      if (!overlaps) add(issue);
    }
    const fieldIssues = [...found.values()];
    const entryHasIssue = (entry: Path) => fieldIssues.some((other) => isPrefix(entry, other.path));
    // Cross-field rules would misread an entry whose own fields are wrong (a bad monitorType reads as http).
    bySource("cross-field").filter((issue) => !entryHasIssue(issue.entry ?? issue.path)).forEach(add);
    bySource("reference").forEach(add);

    return [...found.values()].map((issue) => this.locate(issue)).sort((a, b) => a.line - b.line || a.column - b.column);
  }

  private locate(issue: PendingIssue): FileIssue {
    const offset = issue.offset ?? this.offsetOf(issue.path, issue.subject);
    const { line, col } = this.lineCounter.linePos(offset);
    const variable = this.variables.get(pathKey(issue.path));
    return {
      file: this.file,
      line,
      column: col,
      path: formatPath(issue.path),
      rule: variable === undefined ? issue.rule : `${issue.rule} (value of \${env:${variable}})`,
    };
  }

  /** Where the node at `path` starts: its value, or its key for issues about the field itself. */
  private offsetOf(path: Path, subject: Subject): number {
    let node: unknown = this.document.contents;
    let key: unknown;
    for (const segment of path) {
      if (isAlias(node)) node = node.resolve(this.document);
      let next: { key: unknown; value: unknown } | undefined;
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
        if (pair !== undefined) next = { key: pair.key, value: pair.value };
      } else if (isSeq(node) && typeof segment === "number" && node.items[segment] !== undefined) {
        next = { key: node.items[segment], value: node.items[segment] };
      }
      // A missing field is reported at the key of the deepest part of the path that exists.
      if (next === undefined) return startOf(key) ?? startOf(node) ?? 0;
      ({ key, value: node } = next);
    }
    const preferred = subject === "field" ? [key, node] : [node, key];
    return startOf(preferred[0]) ?? startOf(preferred[1]) ?? 0;
  }
}

function startOf(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range?.[0];
}

/** An ajv instance path (`/monitors/api/regions/1`) as a path, numbers where the data has lists. */
function instancePath(pointer: string, data: unknown): Path {
  const path: Path = [];
  let value = data;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const index = Array.isArray(value) ? Number(segment) : undefined;
    path.push(index ?? segment);
    value = index === undefined ? (isRecord(value) ? value[segment] : undefined) : (value as unknown[])[index];
  }
  return path;
}

/** `monitors.api.notificationChannels[1]`; keys that are not plain words are quoted. */
function formatPath(path: Path): string {
  return path
    .map((segment, index) => {
      if (typeof segment === "number") return `[${segment}]`;
      if (!/^[A-Za-z0-9_-]+$/.test(segment)) return `[${JSON.stringify(segment)}]`;
      return index === 0 ? segment : `.${segment}`;
    })
    .join("");
}

function pathKey(path: Path): string {
  return JSON.stringify(path);
}

function isPrefix(prefix: Path, path: Path): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => segment === path[index]);
}
