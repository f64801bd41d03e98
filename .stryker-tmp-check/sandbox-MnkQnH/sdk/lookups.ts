/**
 * Lookups of objects managed elsewhere, by id or by name, for use in Pulumi programs (or any
 * script). They read the connection from the stack configuration (`monitoring:apiUrl`,
 * `monitoring:apiKey`) or the MONITORING_API_URL / MONITORING_API_KEY environment variables.
 * The typed functions (`getMonitor`, ...) are generated per kind (sdk/generated) and call
 * {@link lookupObject}.
 */
// @ts-nocheck

import * as pulumi from "@pulumi/pulumi";
import type { AnyResourceDefinition } from "../schema/define.js";
import { definitionOf } from "../schema/index.js";
import { CONFIG_NAMESPACE } from "../provider/config.js";
import { ResourceEngine } from "../provider/engine.js";
import { apiClientFor } from "../provider/index.js";
import { isRecord } from "../provider/naming.js";

/** By id; or by exact name, among the objects of one client (`clientId`) or outside any client. */
export type LookupQuery = { id: string } | { name: string; clientId?: string };

const api = () => apiClientFor((key) => pulumi.runtime.getConfig(`${CONFIG_NAMESPACE}:${key}`));

/**
 * The object of `kind` the query finds: its fields camelCase, associations included, plus its id.
 * The kind's secret fields come as secret `Output`s, so that a program exporting them keeps them
 * encrypted in state. `Result` is the kind's generated result type (`GetMonitorResult`, ...).
 */
export async function lookupObject<Result extends { id: string }>(kind: string, query: LookupQuery): Promise<Result> {
  const definition = definitionOf(kind);
  const id = "id" in query ? query.id : await idByName(definition, query.name, query.clientId);
  const found = await new ResourceEngine(definition, api).lookup(id);
  if (found === undefined) throw new Error(`No ${definition.kind} with id ${id}`);
  const secret = new Set<string>([...definition.secrets, ...definition.secretOutputs]);
  const fields = Object.entries(found).map(([field, value]) => [field, secret.has(field) ? pulumi.secret(value) : value]);
  // The generated result type of the kind states the fields the definition gives the object.
  return { ...Object.fromEntries(fields), id } as Result;
}

async function idByName(definition: AnyResourceDefinition, name: string, clientId: string | undefined): Promise<string> {
  const ids: string[] = [];
  for await (const item of api().paginate<unknown>(definition.path, { q: name, client_id: clientId })) {
    if (isRecord(item) && item["name"] === name) ids.push(String(item["id"]));
  }
  const where = clientId === undefined ? "outside any client" : `in client ${clientId}`;
  if (ids.length === 0) throw new Error(`No ${definition.kind} named ${JSON.stringify(name)} ${where}`);
  if (ids.length > 1) throw new Error(`${ids.length} ${definition.kind}s are named ${JSON.stringify(name)} ${where}: ${ids.join(", ")}; look it up by id`);
  return ids[0] as string;
}
