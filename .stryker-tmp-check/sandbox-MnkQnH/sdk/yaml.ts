/**
 * Loading a monitoring file (`monitoring.yaml`) into a Pulumi program: one call validates the
 * whole file (sdk/yaml-parse.ts) and creates a resource per entry, wiring references by name to
 * the referenced resources' ids.
 */
// @ts-nocheck

import { readFileSync } from "node:fs";
import type * as pulumi from "@pulumi/pulumi";
import type { FileKind, SectionName } from "../schema/file-kinds.js";
import { MONITOR_SETS_SECTION, fileSections } from "../schema/json-schema.js";
// The package root defines the classes and re-exports this module. The cycle is harmless: the
// classes are only read when a file is loaded, after both modules have finished loading.
import * as sdk from "./index.js";
import { type Declaration, EntryReference, parseMonitoringYaml, replaceReferences } from "./yaml-parse.js";

export { EntryReference, MonitoringYamlError, formatIssue, parseMonitoringYaml } from "./yaml-parse.js";
export type { Declaration, FileIssue, MonitoringFile, ParseOptions } from "./yaml-parse.js";

export interface LoadMonitoringYamlOptions {
  /** The client (agency partition) every entry is created in; outside any client when left out. */
  clientId?: pulumi.Input<string>;
  /**
   * Put before every Pulumi resource name (not before display names), so that one program can load
   * the same file more than once, e.g. once per client.
   */
  namePrefix?: string;
  /** Options for every resource created, e.g. `{ parent }` or `{ protect: true }`. */
  resourceOptions?: pulumi.CustomResourceOptions;
}

/** The created resources: for every section of the file, its entries' resources by entry name. */
export type DeclaredResources = {
  [Kind in FileKind as SectionName<Kind>]: Record<string, InstanceType<(typeof sdk)[Kind]>>;
} & {
  /** The monitor sets, one `MonitorSet` resource per set name. */
  monitorSets: Record<string, sdk.MonitorSet>;
};

type DeclaredResource = InstanceType<(typeof sdk)[FileKind | "MonitorSet"]>;

/**
 * Validates the monitoring file at `path` and declares its entries as resources. Throws a
 * MonitoringYamlError listing every problem of the file before any resource is declared.
 */
export function loadMonitoringYaml(path: string, options: LoadMonitoringYamlOptions = {}): DeclaredResources {
  const { declarations } = parseMonitoringYaml(readFileSync(path, "utf8"), path);
  const created = new Map<Declaration, DeclaredResource>();
  const declarationOf = (reference: EntryReference): Declaration => {
    const found = declarations.find(({ section, name }) => section === reference.section && name === reference.name);
    // parseMonitoringYaml has checked every reference; a miss here is a bug of the loader.
    if (found === undefined) throw new Error(`internal error: ${reference.section}.${reference.name} is referenced but not declared`);
    return found;
  };

  // References are resolved by creating their targets first; the kinds cannot reference each other in a cycle.
  const create = (declaration: Declaration): DeclaredResource => {
    const existing = created.get(declaration);
    if (existing !== undefined) return existing;
    const inputs = replaceReferences(declaration.inputs, (reference) => create(declarationOf(reference)).id) as Record<string, unknown>;
    if (options.clientId !== undefined) inputs.clientId = options.clientId;
    const resourceClass = sdk[declaration.kind];
    // The inputs passed the kind's schema and rules in parseMonitoringYaml, which TypeScript cannot follow.
    const resource = new resourceClass(`${options.namePrefix ?? ""}${declaration.name}`, inputs as never, options.resourceOptions);
    created.set(declaration, resource);
    return resource;
  };

  const sections = [...fileSections.map(({ name }) => name), MONITOR_SETS_SECTION];
  const declared = Object.fromEntries(sections.map((name) => [name, {}])) as Record<string, Record<string, DeclaredResource>>;
  for (const declaration of declarations) {
    (declared[declaration.section] as Record<string, DeclaredResource>)[declaration.name] = create(declaration);
  }
  return declared as DeclaredResources;
}
