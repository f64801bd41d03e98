/**
 * Lookups of objects managed elsewhere, by id or by name, for use in Pulumi programs (or any
 * script). They read the connection from the stack configuration (`monitoring:apiUrl`,
 * `monitoring:apiKey`) or the MONITORING_API_URL / MONITORING_API_KEY environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ResourceDefinition } from "../schema/define.js";
import { client, escalationPolicy, monitor, notificationChannel } from "../schema/index.js";
import { CONFIG_NAMESPACE } from "../provider/config.js";
import { ResourceEngine } from "../provider/engine.js";
import { apiClientFor } from "../provider/index.js";
import { isRecord } from "../provider/naming.js";

type AnyDefinition = ResourceDefinition<z.ZodObject, z.ZodObject>;

/** By id; or by exact name, among the objects of one client (`clientId`) or outside any client. */
export type LookupQuery = { id: string } | { name: string; clientId?: string };

type Fields<D extends AnyDefinition> = z.output<D["inputs"]> & z.output<D["outputs"]>;
type SecretName<D extends AnyDefinition> = D["secrets"][number] | D["secretOutputs"][number];

/**
 * The object's fields, camelCase, associations included, plus its id. The kind's secret fields
 * come as secret `Output`s, so that a program exporting them keeps them encrypted in state.
 */
export type LookupResult<D extends AnyDefinition> = { id: string } & {
  [K in keyof Fields<D>]?: K extends SecretName<D> ? pulumi.Output<Fields<D>[K]> : Fields<D>[K];
};

const api = () => apiClientFor((key) => pulumi.runtime.getConfig(`${CONFIG_NAMESPACE}:${key}`));

async function lookup<D extends AnyDefinition>(definition: D, query: LookupQuery): Promise<LookupResult<D>> {
  const id = "id" in query ? query.id : await idByName(definition, query.name, query.clientId);
  const found = await new ResourceEngine(definition, api).lookup(id);
  if (found === undefined) throw new Error(`No ${definition.kind} with id ${id}`);
  const secret = new Set<string>([...definition.secrets, ...definition.secretOutputs]);
  const fields = Object.entries(found).map(([field, value]) => [field, secret.has(field) ? pulumi.secret(value) : value]);
  return { ...Object.fromEntries(fields), id } as LookupResult<D>;
}

async function idByName(definition: AnyDefinition, name: string, clientId: string | undefined): Promise<string> {
  const ids: string[] = [];
  for await (const item of api().paginate<unknown>(definition.path, { q: name, client_id: clientId })) {
    if (isRecord(item) && item["name"] === name) ids.push(String(item["id"]));
  }
  const where = clientId === undefined ? "outside any client" : `in client ${clientId}`;
  if (ids.length === 0) throw new Error(`No ${definition.kind} named ${JSON.stringify(name)} ${where}`);
  if (ids.length > 1) throw new Error(`${ids.length} ${definition.kind}s are named ${JSON.stringify(name)} ${where}: ${ids.join(", ")}; look it up by id`);
  return ids[0] as string;
}

export const getMonitor = (query: LookupQuery): Promise<LookupResult<typeof monitor>> => lookup(monitor, query);
export const getClient = (query: LookupQuery): Promise<LookupResult<typeof client>> => lookup(client, query);
export const getNotificationChannel = (query: LookupQuery): Promise<LookupResult<typeof notificationChannel>> =>
  lookup(notificationChannel, query);
export const getEscalationPolicy = (query: LookupQuery): Promise<LookupResult<typeof escalationPolicy>> =>
  lookup(escalationPolicy, query);
