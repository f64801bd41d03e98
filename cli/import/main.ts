/**
 * `pulumi-monitoring import` (also `pulumi-monitoring-import`): brings an existing account under
 * code in one command. Reads the account through the API with the provider's settings and writes
 * a ready program (TypeScript, or a monitoring file for `loadMonitoringYaml`) whose first
 * `pulumi up` adopts every object and changes nothing.
 */
import { writeFile } from "node:fs/promises";
import { type AnyResourceDefinition } from "../../schema/define.js";
import { definitions } from "../../schema/index.js";
import { FILE_KINDS, sectionName } from "../../schema/json-schema.js";
import { resolveSettings } from "../../provider/config.js";
import { ApiClient } from "../../provider/http/client.js";
import type { RequestEvent } from "../../provider/http/request.js";
import { isRecord } from "../../schema/naming.js";
import { type OptionValues, parseCommandLine } from "../command/args.js";
import { defineCommand } from "../command/command.js";
import { EXIT } from "../command/exit.js";
import type { CommandIO } from "../command/io.js";
import { UsageError } from "../command/usage.js";
import { type ImportPlan, Placeholder, Reference, planImport } from "./plan.js";
import { type Scope, readAccount } from "./read.js";
import { renderTypeScript, renderYaml } from "./render.js";
import { referencedDefinition } from "./references.js";

export const USAGE = `Usage: pulumi-monitoring import [options]
       pulumi-monitoring-import [options]

Reads a monitoring account through the API and writes a Pulumi program that declares every
object with its adoptId, so that the first \`pulumi up\` takes everything over and changes nothing.

Options:
  --format ts|yaml     ts (default): a TypeScript program (index.ts) using pulumi-monitoring.
                       yaml: a monitoring file for loadMonitoringYaml() (monitors, heartbeats,
                       heartbeat groups, escalation policies, notification channels, webhook
                       subscriptions; not clients, client templates or share links).
  --out FILE           Write the program to FILE instead of standard output.
  --client-id ID       Import one client: the client, its share links and the objects inside it.
  --all-clients        Import everything: objects outside any client, every client and what is
                       inside them, client templates. Not with --format yaml.
                       Without either: objects outside any client, and client templates.
  --kind KIND          Import only this kind (repeatable), e.g. --kind Monitor --kind NotificationChannel
                       (or the section names: monitors, notificationChannels, ...).
  --api-url URL        Service root ending in /v1 (default: $MONITORING_API_URL).
  --api-key KEY        API key (default: $MONITORING_API_KEY).
  --quiet              No progress lines (the summary is still printed).
  -h, --help           This text.

Secrets are never written into the program, whether the service returns them (request header
values, and channel credentials on servers that show them) or not (a monitor's authPassword when it
has an authUsername, the credentials a channel kind is assumed to need): it reads them with
config.requireSecret() (yaml: \${env:NAME}). The command prints the \`pulumi config set --secret\`
lines (yaml: the exports) to fill them in, never the values.
Progress and the summary go to standard error.`;

/** Where the importer writes (the program on stdout, progress and the summary on stderr) and reads its connection settings. */
export type ImportIO = Pick<CommandIO, "stdout" | "stderr" | "env">;

const fileKinds: readonly string[] = FILE_KINDS;

const IMPORT_OPTIONS = {
  format: { type: "string", default: "ts" },
  out: { type: "string" },
  "client-id": { type: "string" },
  "all-clients": { type: "boolean", default: false },
  kind: { type: "string", multiple: true },
  "api-url": { type: "string" },
  "api-key": { type: "string" },
  quiet: { type: "boolean", default: false },
} as const;

export const importCommand = defineCommand({
  name: "import",
  usage: USAGE,
  options: IMPORT_OPTIONS,
  async run({ values }, io) {
    await importWith(optionsOf(values), io);
    return EXIT.ok;
  },
});

export interface ImportResult {
  plan: ImportPlan;
  /** The program or monitoring file as written. */
  text: string;
  /** API requests made, for benchmarks. */
  requests: number;
}

/** Reads the account and writes the program; `undefined` when only the help was asked for. */
export async function importAccount(argv: readonly string[], io: ImportIO): Promise<ImportResult | undefined> {
  const { values } = parseCommandLine(argv, IMPORT_OPTIONS);
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return undefined;
  }
  return importWith(optionsOf(values), io);
}

async function importWith(options: Options, io: ImportIO): Promise<ImportResult> {
  const { format, scope, kinds } = options;
  const settings = resolveSettings(
    (key) => ({ apiUrl: options.apiUrl, apiKey: options.apiKey })[key as "apiUrl" | "apiKey"],
    io.env,
    (key) => (key === "apiUrl" ? "--api-url" : "--api-key"),
  );
  let requests = 0;
  const { apiUrl, ...clientSettings } = settings;
  const api = new ApiClient({
    baseUrl: apiUrl,
    ...clientSettings,
    onRequest: (event: RequestEvent) => {
      if (event.attempt === 1) requests++;
    },
  });
  const progress = options.quiet ? undefined : (line: string) => io.stderr.write(`${line}\n`);
  try {
    const contents = await readAccount({ api, scope, kinds, ...(progress === undefined ? {} : { progress }) });
    const plan = planImport(contents);
    const scopeText = describeScope(scope);
    if (format === "yaml") refuseNameReferencesOutsideFile(plan);
    const text =
      format === "ts"
        ? renderTypeScript(plan, { scopeText })
        : renderYaml(plan, { scopeText, ...(scope.kind === "client" ? { clientId: scope.clientId } : {}) });
    if (options.out === undefined) io.stdout.write(text);
    else await writeFile(options.out, text);
    io.stderr.write(summary(plan, format, options.out));
    return { plan, text, requests };
  } finally {
    await api.close();
  }
}

interface Options {
  format: "ts" | "yaml";
  out?: string;
  scope: Scope;
  kinds: AnyResourceDefinition[];
  apiUrl?: string;
  apiKey?: string;
  quiet: boolean;
}

function optionsOf(parsed: OptionValues<typeof IMPORT_OPTIONS>): Options {
  const format = parsed.format;
  if (format !== "ts" && format !== "yaml") throw new UsageError(`--format must be ts or yaml, got ${JSON.stringify(format)}`);
  const clientId = parsed["client-id"];
  if (clientId !== undefined && parsed["all-clients"]) throw new UsageError("--client-id and --all-clients exclude each other");
  if (clientId !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(clientId)) {
    throw new UsageError(`--client-id must be a UUID, got ${JSON.stringify(clientId)}`);
  }
  if (format === "yaml" && parsed["all-clients"]) {
    throw new UsageError("--format yaml holds the objects of one place (outside any client, or one --client-id): use --format ts for --all-clients");
  }
  const scope: Scope = clientId !== undefined ? { kind: "client", clientId } : parsed["all-clients"] ? { kind: "all" } : { kind: "account" };
  const named = [...new Set((parsed.kind ?? []).map(kindByName))];
  if (format === "yaml") {
    const outside = named.filter(({ kind }) => !fileKinds.includes(kind));
    if (outside.length > 0) {
      throw new UsageError(`--format yaml cannot hold ${outside.map(({ kind }) => kind).join(", ")}; use --format ts`);
    }
  }
  const kinds = named.length > 0 ? named : format === "yaml" ? definitions.filter(({ kind }) => fileKinds.includes(kind)) : [...definitions];
  return {
    format,
    ...(parsed.out === undefined ? {} : { out: parsed.out }),
    scope,
    kinds,
    ...(parsed["api-url"] === undefined ? {} : { apiUrl: parsed["api-url"] }),
    ...(parsed["api-key"] === undefined ? {} : { apiKey: parsed["api-key"] }),
    quiet: parsed.quiet === true,
  };
}

function kindByName(name: string): AnyResourceDefinition {
  const wanted = name.toLowerCase();
  const found = definitions.find(({ kind }) => kind.toLowerCase() === wanted || sectionName(kind).toLowerCase() === wanted);
  if (found === undefined) throw new UsageError(`--kind ${name}: unknown kind; known kinds: ${definitions.map(({ kind }) => kind).join(", ")}`);
  return found;
}

function describeScope(scope: Scope): string {
  switch (scope.kind) {
    case "account":
      return "objects outside any client";
    case "client":
      return `client ${scope.clientId}`;
    case "all":
      return "every object of every client";
  }
}

/** A monitoring file names other entries, never ids: every referenced object must be in the file. */
function refuseNameReferencesOutsideFile(plan: ImportPlan): void {
  const missing: string[] = [];
  const visit = (value: unknown, field: string, owner: string): void => {
    if (value instanceof Reference || value instanceof Placeholder) return;
    if (Array.isArray(value)) value.forEach((item) => visit(item, field, owner));
    else if (isRecord(value)) for (const [key, item] of Object.entries(value)) visit(item, key, owner);
    else if (typeof value === "string" && field !== "clientId" && field !== "adoptId" && referencedDefinition(field) !== undefined) {
      missing.push(`${owner} references ${referencedDefinition(field)?.kind} ${value}`);
    }
  };
  for (const declaration of plan.declarations) {
    for (const [field, value] of Object.entries(declaration.inputs)) visit(value, field, `${declaration.definition.kind} ${declaration.name}`);
  }
  if (missing.length > 0) {
    throw new UsageError(
      `a monitoring file references entries by name, and these objects are not imported (add their --kind):\n  ${missing.join("\n  ")}`,
    );
  }
}

function summary(plan: ImportPlan, format: "ts" | "yaml", out: string | undefined): string {
  const counts = new Map<string, number>();
  for (const { definition } of plan.declarations) counts.set(definition.kind, (counts.get(definition.kind) ?? 0) + 1);
  const lines = [
    `Imported ${plan.declarations.length} objects${out === undefined ? "" : ` into ${out}`}: ${[...counts].map(([kind, count]) => `${count} ${kind}`).join(", ") || "none"}.`,
  ];
  for (const note of plan.notes) lines.push(`note: ${note}`);
  if (plan.placeholders.length > 0) {
    lines.push(
      `${plan.placeholders.length} secrets to fill in before \`pulumi up\` (${format === "ts" ? "each command prompts for the value" : "export them where the program runs"}):`,
    );
    for (const placeholder of plan.placeholders) lines.push(`  ${fillInLine(placeholder, format)}`);
  } else {
    lines.push("No secrets to fill in.");
  }
  return `${lines.join("\n")}\n`;
}

function fillInLine(placeholder: Placeholder, format: "ts" | "yaml"): string {
  const what = `${placeholder.declaration.definition.kind} ${placeholder.declaration.name}: ${placeholder.path}${
    placeholder.origin === "write-only" ? " (the service does not return it)" : " (shown by the service; kept out of source)"
  }`;
  return format === "ts"
    ? `pulumi config set --secret ${placeholder.key}   # ${what}`
    : `export ${placeholder.environmentVariable}='...'   # ${what}`;
}
