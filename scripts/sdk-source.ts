/**
 * The SDK's TypeScript (sdk/generated/*.ts), written from the resource definitions so that a
 * program's editor and compiler see plain, documented interfaces and classes instead of types
 * computed from zod schemas (whose generics leak into hovers and errors, and whose declaration
 * files do not compile in a stock `pulumi new typescript` project).
 *
 * Per kind, one module holds:
 * - `<Kind>Args`: every input as `pulumi.Input<…>` (deep: items of lists and fields of nested
 *   objects too), optional where the schema is, plus `adoptId`. A kind with `variants` (a
 *   monitor's type) gets one interface per variant and `<Kind>Args` is their union, so a variant
 *   missing one of its required fields does not compile.
 * - nested objects as named interfaces: `<Kind><Field>Args` for inputs, `<Kind><Field>` for outputs;
 * - the class, which hands everything to sdk/runtime.ts and declares a `pulumi.Output` per input
 *   and server field;
 * - for kinds with a lookup, `get<Kind>` and its result type.
 * Every property carries the facts of its field (schema/define.ts `field()`) as JSDoc.
 */
import { z } from "zod";
import { type AnyResourceDefinition, apiNamesOf, factsOf, providerInputs } from "../schema/define.js";
import { definitions } from "../schema/index.js";
import { humanKind, lowerFirst } from "../schema/json-schema.js";
import { knownValuesOf, metadataOf } from "../schema/rules.js";

export const SDK_DIRECTORY = "sdk/generated";

/** Kinds a program can look up by id or name (`getMonitor`, ...). */
const LOOKUP_KINDS: readonly string[] = ["Monitor", "Client", "NotificationChannel", "EscalationPolicy"];

const GENERATED_NOTE = "// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.";

/** `EscalationPolicy` → `escalation-policy.ts`. */
export function moduleName(kind: string): string {
  return `${kind.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}.ts`;
}

/** Every generated file, keyed by its path from the repository root. */
export function renderSdk(): Map<string, string> {
  const files = new Map<string, string>();
  for (const definition of definitions) files.set(`${SDK_DIRECTORY}/${moduleName(definition.kind)}`, new KindModule(definition).render());
  const index = definitions.map(({ kind }) => `export * from "./${moduleName(kind).replace(/\.ts$/, ".js")}";`);
  files.set(`${SDK_DIRECTORY}/index.ts`, [GENERATED_NOTE, ...index, ""].join("\n"));
  return files;
}

type Side = "input" | "output";
type Schema = z.ZodType;

interface Property {
  name: string;
  type: string;
  optional: boolean;
  docs: string[];
  readonly?: boolean;
}

class KindModule {
  private readonly declarations: string[] = [];
  private readonly declared = new Set<string>();
  private readonly noun: string;

  constructor(private readonly definition: AnyResourceDefinition) {
    this.noun = lowerFirst(humanKind(definition.kind));
  }

  render(): string {
    const { kind } = this.definition;
    const usesLookup = LOOKUP_KINDS.includes(kind);
    const sections = [
      this.renderArgs(),
      this.renderClass(),
      ...(usesLookup ? [this.renderLookup()] : []),
      ...this.declarations,
    ];
    const imports = [
      'import * as pulumi from "@pulumi/pulumi";',
      ...(usesLookup ? ['import { type LookupQuery, lookupObject } from "../lookups.js";'] : []),
      'import { resourceArguments } from "../runtime.js";',
    ];
    return [GENERATED_NOTE, ...imports, "", sections.join("\n\n"), ""].join("\n");
  }

  // -------------------------------------------------------------------------------------------
  // Args

  private renderArgs(): string {
    const { kind, variants } = this.definition;
    const shape = this.inputShape();
    const property = (name: string, required = false): Property => {
      const schema = shape[name] as Schema;
      return { name, type: `pulumi.Input<${this.typeOf(schema, "input", name)}>`, optional: !required && isOptional(schema, "input"), docs: this.fieldDocs(name, schema) };
    };
    const intro = `The arguments of the {@link ${kind}} resource: ${this.definition.description}`;
    if (variants === undefined) {
      return renderInterface(`${kind}Args`, [intro], Object.keys(shape).map((name) => property(name)));
    }
    const owned = new Set(Object.values(variants.fields).flatMap(({ required, optional }) => [...required, ...optional]));
    const common = Object.keys(shape).filter((name) => !owned.has(name) && name !== variants.field);
    const commonName = `${kind}CommonArgs`;
    const parts = [
      renderInterface(commonName, [`The arguments every {@link ${kind}} takes, whatever its \`${variants.field}\`.`], common.map((name) => property(name))),
    ];
    // The default variant comes last, in the union and in the file: when an object literal without
    // the selecting field fits no variant, the compiler explains the mismatch against the union's last
    // type (the one it met last), which is then the variant the literal stands for: an http monitor
    // missing its url, rather than a dns monitor missing its type.
    const variantOrder = Object.entries(variants.fields).sort(([a], [b]) => Number(a === variants.default) - Number(b === variants.default));
    const variantNames = variantOrder.map(([value]) => `${pascal(value)}${kind}Args`);
    for (const [value, { required, optional }] of variantOrder) {
      const name = `${pascal(value)}${kind}Args`;
      const isDefault = value === variants.default;
      const selector: Property = {
        name: variants.field,
        // A plain value, not an Input: the compiler picks the variant's interface by it.
        type: JSON.stringify(value),
        optional: isDefault,
        docs: [
          ...this.fieldDocs(variants.field, shape[variants.field] as Schema),
          "",
          `\`${JSON.stringify(value)}\` selects the arguments of {@link ${name}}. Given as a plain value (not an Output), as it decides which arguments apply.`,
        ],
      };
      const own = [selector, ...required.map((field) => property(field, true)), ...optional.map((field) => property(field))];
      const selectedBy = `\`${variants.field}\` \`${JSON.stringify(value)}\`${isDefault ? " or left out" : ""}`;
      const docs = [`The arguments of ${withArticle(this.noun)} of type \`${value}\` (${selectedBy}).`];
      parts.push(renderInterface(name, docs, own, commonName));
    }
    parts.unshift(`/**\n * ${intro}\n *\n * One interface per \`${variants.field}\`, each with the fields that type needs.\n */\nexport type ${kind}Args = ${variantNames.join(" | ")};`);
    return parts.join("\n\n");
  }

  /** The kind's API inputs and the provider's (`adoptId`). */
  private inputShape(): Record<string, Schema> {
    return { ...this.definition.inputs.shape, ...providerInputs.shape } as Record<string, Schema>;
  }

  // -------------------------------------------------------------------------------------------
  // Class

  private renderClass(): string {
    const { kind, description, assumption } = this.definition;
    const fields = [
      ...Object.entries(this.definition.inputs.shape as Record<string, Schema>),
      ...Object.entries(this.definition.outputs.shape as Record<string, Schema>),
    ];
    const members = fields.map(([name, schema]) => {
      const optional = isOptional(schema, "output");
      const type = this.typeOf(schema, "output", name);
      return [
        renderDocs(this.fieldDocs(name, schema), "  "),
        `  declare public readonly ${name}: pulumi.Output<${optional ? `${type} | undefined` : type}>;`,
      ].join("\n");
    });
    const classDocs = [description, ...(assumption === undefined ? [] : ["", `Assumption: ${assumption}.`])];
    const constructorDocs = [
      `Declares ${withArticle(this.noun)}.`,
      "",
      this.definition.description,
      "",
      "@param name The unique name of the resource.",
      `@param args The arguments of the ${this.noun}.`,
      "@param opts A bag of options that control this resource's behavior.",
    ];
    return [
      renderDocs(classDocs, ""),
      `export class ${kind} extends pulumi.dynamic.Resource {`,
      members.join("\n\n"),
      "",
      renderDocs(constructorDocs, "  "),
      `  constructor(name: string, args: ${kind}Args, opts?: pulumi.CustomResourceOptions) {`,
      `    super(...resourceArguments(${JSON.stringify(kind)}, name, args, opts));`,
      "  }",
      "}",
    ].join("\n");
  }

  // -------------------------------------------------------------------------------------------
  // Lookup

  private renderLookup(): string {
    const { kind, secrets, secretOutputs } = this.definition;
    const secret = new Set<string>([...secrets, ...secretOutputs]);
    const fields = [
      ...Object.entries(this.definition.inputs.shape as Record<string, Schema>),
      ...Object.entries(this.definition.outputs.shape as Record<string, Schema>),
    ];
    const properties: Property[] = [
      { name: "id", type: "string", optional: false, docs: [`The ${this.noun}'s id.`], readonly: true },
      ...fields.map(([name, schema]) => {
        const type = this.typeOf(schema, "output", name);
        return { name, type: secret.has(name) ? `pulumi.Output<${type}>` : type, optional: true, docs: this.fieldDocs(name, schema), readonly: true };
      }),
    ];
    const resultName = `Get${kind}Result`;
    const result = renderInterface(
      resultName,
      [`${pascal(withArticle(this.noun))} found by {@link get${kind}}: its fields as the service returns them, associations included. Secret fields come as secret Outputs, so that exporting them keeps them encrypted in state.`],
      properties,
    );
    const lookup = [
      renderDocs(
        [
          `Finds ${withArticle(this.noun)} managed elsewhere, by id or by exact name (among the objects of one client, or outside any client).`,
          "The connection comes from the stack configuration (`monitoring:apiUrl`, `monitoring:apiKey`) or MONITORING_API_URL / MONITORING_API_KEY.",
        ],
        "",
      ),
      `export function get${kind}(query: LookupQuery): Promise<${resultName}> {`,
      `  return lookupObject<${resultName}>(${JSON.stringify(kind)}, query);`,
      "}",
    ].join("\n");
    return `${lookup}\n\n${result}`;
  }

  // -------------------------------------------------------------------------------------------
  // Types and docs

  /** The TypeScript type of a schema on one side, declaring interfaces for its nested objects. */
  private typeOf(schema: Schema, side: Side, name: string): string {
    const known = knownValuesOf(schema);
    if (known !== undefined) return openUnion(known);
    const def = schema._zod.def as { type: string; innerType?: Schema; element?: Schema; entries?: Record<string, string> };
    switch (def.type) {
      case "optional":
      case "default":
        return this.typeOf(def.innerType as Schema, side, name);
      case "string":
        return "string";
      case "number":
        return "number";
      case "boolean":
        return "boolean";
      case "enum":
        return Object.values(def.entries ?? {}).map((value) => JSON.stringify(value)).join(" | ");
      case "array": {
        const item = this.typeOf(def.element as Schema, side, singular(name));
        if (side === "input") return `pulumi.Input<${item}>[]`;
        return item.includes("|") ? `(${item})[]` : `${item}[]`;
      }
      case "object":
        return this.declareObject(schema as z.ZodObject, side, name);
      default:
        throw new Error(`${this.definition.kind}.${name}: the SDK generator does not know zod's "${def.type}"`);
    }
  }

  /** Declares the interface of a nested object (once per side) and returns its name. */
  private declareObject(schema: z.ZodObject, side: Side, field: string): string {
    const base = `${this.definition.kind}${pascal(field)}`;
    const name = side === "input" ? `${base}Args` : base;
    if (this.declared.has(name)) return name;
    this.declared.add(name);
    const properties = Object.entries(schema.shape as Record<string, Schema>).map(([property, propertySchema]) => {
      const type = this.typeOf(propertySchema, side, `${field}${pascal(property)}`);
      return {
        name: property,
        type: side === "input" ? `pulumi.Input<${type}>` : type,
        optional: isOptional(propertySchema, side),
        docs: this.fieldDocs(property, propertySchema),
      };
    });
    const docs = [`${pascal(withArticle(humanWords(base)))} ${side === "input" ? "as given to the provider" : "as the provider reports it"}.`];
    this.declarations.push(renderInterface(name, docs, properties));
    return name;
  }

  /** Every fact of a field, in the order a reader asks for them. */
  private fieldDocs(name: string, schema: Schema): string[] {
    const facts = factsOf(schema);
    const description = facts?.description ?? (metadataOf(schema)["description"] as string | undefined);
    if (description === undefined) throw new Error(`${this.definition.kind}.${name} has no description`);
    const notes: string[] = [];
    if (facts?.default !== undefined) notes.push(`Default: \`${JSON.stringify(facts.default)}\` (applied by the service).`);
    const providerDefault = defaultOf(schema);
    if (providerDefault !== undefined) notes.push(`Default: \`${JSON.stringify(providerDefault)}\` (applied by the provider).`);
    const replaces = facts?.replaceOnChange === true || (this.definition.updateMethod === "none" && name in this.definition.inputs.shape);
    if (replaces) notes.push(`Changing it replaces the ${this.noun}.`);
    if (facts?.secret === true) notes.push("Secret: kept encrypted in state and never shown in messages.");
    if (facts?.writeOnly === true) notes.push("Write-only: the service never returns it; the value is kept from state.");
    if (facts?.returnedOnce === true) notes.push("Returned by the service only at creation; the value is kept from state.");
    if (name in providerInputs.shape || facts?.providerOnly === true) {
      notes.push("Steers the provider: never sent to the service.");
    } else {
      const [sent, ...alsoRead] = apiNamesOf(name, schema);
      const aliases = alsoRead.length === 0 ? "" : ` (also read as ${alsoRead.map((alias) => `\`${alias}\``).join(", ")})`;
      notes.push(`API field: \`${sent}\`${aliases}.`);
    }
    if (facts?.assumption !== undefined) notes.push(`Assumption (not shown by the spec): ${facts.assumption}.`);
    // One paragraph each: editors render JSDoc as markdown, where single line breaks run together.
    return [description, ...notes.flatMap((note) => ["", note])];
  }
}

function isOptional(schema: Schema, side: Side): boolean {
  const type = schema._zod.def.type;
  return type === "optional" || (side === "input" && type === "default");
}

/** The value a zod `.default()` fills in (the provider's own defaults, in nested documents). */
function defaultOf(schema: Schema): unknown {
  const def = schema._zod.def as { type: string; defaultValue?: unknown };
  return def.type === "default" ? def.defaultValue : undefined;
}

/** Known values completed by editors, while any other string still compiles. */
function openUnion(known: readonly string[]): string {
  return [...known.map((value) => JSON.stringify(value)), "(string & {})"].join(" | ");
}

function renderInterface(name: string, docs: string[], properties: Property[], base?: string): string {
  const body = properties.map((property) =>
    [
      renderDocs(property.docs, "  "),
      `  ${property.readonly === true ? "readonly " : ""}${property.name}${property.optional ? "?" : ""}: ${property.type};`,
    ].join("\n"),
  );
  return [renderDocs(docs, ""), `export interface ${name}${base === undefined ? "" : ` extends ${base}`} {`, body.join("\n\n"), "}"].join("\n");
}

function renderDocs(lines: string[], indent: string): string {
  const body = lines.map((line) => (line === "" ? `${indent} *` : `${indent} * ${line.replaceAll("*/", "*\\/")}`));
  return [`${indent}/**`, ...body, `${indent} */`].join("\n");
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}

function pascal(name: string): string {
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** `steps` → `step`, `requestHeaders` → `requestHeader`: the name of one item of a list. */
function singular(name: string): string {
  return name.endsWith("s") ? name.slice(0, -1) : name;
}

/** `ClientPortalSettings` → `client portal settings`. */
function humanWords(name: string): string {
  return humanKind(name).toLowerCase();
}
