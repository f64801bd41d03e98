/**
 * The SDK as a user's editor and compiler see it: the packed package installed into a project
 * made like `pulumi new typescript` (stock tsconfig, TypeScript 5, no skipLibCheck, no
 * esModuleInterop). Hovers document every input and output of every kind, completion and
 * signature help name the generated types, the program compiles, mistakes fail to compile with
 * messages about `XxxArgs`, and no declaration file the package root reaches imports zod.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { factsOf, providerInputs } from "../../schema/define.js";
import { type AnyResourceDefinition, definitions } from "../../schema/index.js";
import { metadataOf } from "../../schema/rules.js";
import { type ConsumerProject, createConsumerProject, installedVersion, pulumiCopies } from "../../scripts/consumer-project.js";
import { OWN_POLICY_PACK } from "../support/own-policy-pack.js";
import { type Position, type Tsserver, startTsserver } from "../support/tsserver.js";

/** A program using every kind, the lookups, the components and the YAML loader, as a user writes it. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
const ops = new mon.NotificationChannel("ops", { name: "ops", kind: "email", config: { address: "ops@example.com" } });
const pager = new mon.NotificationChannel("pager", {
  name: "pager",
  kind: "pagerduty",
  credentials: { integrationKey: config.requireSecret("pagerdutyKey") },
});
const policy = new mon.EscalationPolicy("on-call", {
  name: "on call",
  steps: [
    { delayMinutes: 0, notificationChannelIds: [ops.id], urgency: "low" },
    { delayMinutes: 10, notificationChannelIds: [ops.id, pager.id] },
  ],
});
const web = new mon.Monitor("web", {
  url: "https://example.com",
  regions: config.require("regions").split(","),
  httpMethod: "HEAD",
  requestHeaders: [{ name: "authorization", value: config.requireSecret("token") }],
  notificationChannelIds: [ops.id],
  escalationPolicyId: policy.id,
});
new mon.Monitor("db", { monitorType: "tcp", tcpHost: "db.example.com", tcpPort: 5432, maintenanceWeekdays: ["sun"], regions: ["eu-west-1"] });
new mon.Monitor("dns", { monitorType: "dns", dnsQuery: "example.com", dnsType: "A" });
const group = new mon.HeartbeatGroup("nightly", { name: "nightly" });
const backup = new mon.Heartbeat("backup", { expectedIntervalSeconds: 86400, heartbeatGroupId: group.id });
const hooks = new mon.WebhookSubscription("hooks", { url: "https://hooks.example.com", events: ["*"] });
const template = new mon.ClientTemplate("standard", { name: "standard", monitorDefaults: { intervalSeconds: 120, regions: ["us-east-1"] } });
const acme = new mon.Client("acme", { name: "Acme", templateId: template.id, portalSettings: { enabled: true } });
const link = new mon.ClientShareLink("status", { clientId: acme.id, label: "status" });
const globex = new mon.ClientMonitoring("globex", {
  name: "Globex",
  domain: "globex.example.com",
  endpoints: [{ path: "/" }],
  contacts: { emails: ["ops@globex.example.com"], chat: { kind: "slack", webhookUrl: config.requireSecret("slack") } },
});
const declared = mon.loadMonitoringYaml("monitoring.yaml", { namePrefix: "team-" });
new mon.MonitorSet("fleet", {
  monitors: {
    home: { url: "https://example.com/home", notificationChannelIds: [ops.id] },
    login: { url: "https://example.com/login", authUsername: "probe", authPassword: config.requireSecret("probePassword") },
  },
});

export const webStatus = web.status;
export const pingUrl = backup.pingUrl;
export const signingSecret = hooks.signingSecret;
export const linkUrl = link.url;
export const globexMonitors = globex.monitorIds;
export const declaredMonitors = Object.keys(declared.monitors);
export const existingUrl = mon.getMonitor({ name: "web" }).then((found) => found.url);
`;

/** Mistakes a user makes, what the compiler must say, and that it says it in terms of the generated types. */
const MISTAKES = [
  {
    mistake: "a misspelled input",
    code: `new mon.Heartbeat("backup", { name: "backup", gracePeriodSecond: 60 });`,
    message: /'gracePeriodSecond' does not exist in type 'HeartbeatArgs'/,
  },
  {
    mistake: "a misspelled monitor input",
    code: `new mon.Monitor("web", { url: "https://example.com", intervalSecond: 30 });`,
    message: /'intervalSecond' does not exist in type '\w*MonitorArgs'/,
  },
  {
    mistake: "a value outside a spec enum",
    code: `new mon.Monitor("web", { url: "https://example.com", httpMethod: "FETCH" });`,
    // The union of monitor types gives the compiler no declaring type to name here; the values it lists are the spec's six,
    // in the order the compiler happened to create them, which depends on what else the program checked first.
    message: /Type '"FETCH"' is not assignable to type 'Input<(?=[^>]*"GET")(?=[^>]*"HEAD")(?=[^>]*"POST")(?=[^>]*"PUT")(?=[^>]*"PATCH")(?=[^>]*"DELETE")"[A-Z]+"(?: \| "[A-Z]+"){5}> \| undefined'/,
  },
  {
    mistake: "an http monitor without url",
    code: `new mon.Monitor("web", { name: "web" });`,
    message: /Property 'url' is missing[\s\S]*'HttpMonitorArgs'/,
  },
  {
    mistake: "a tcp monitor without tcpPort",
    code: `new mon.Monitor("db", { monitorType: "tcp", tcpHost: "db.example.com" });`,
    message: /Property 'tcpPort' is missing[\s\S]*'TcpMonitorArgs'/,
  },
];

/** An organisation's own policy pack (test/e2e/policy.test.ts runs it), a module beside the program. */
const OWN_PACK_FILE = "acme-policy.ts";

let project: ConsumerProject;

beforeAll(async () => {
  project = await createConsumerProject({
    pulumiVersion: "3.259.0",
    sharedInstalls: inject("consumerInstalls"),
    files: {
      "index.ts": PROGRAM,
      [OWN_PACK_FILE]: OWN_POLICY_PACK,
      ...Object.fromEntries(MISTAKES.map(({ code }, index) => [`mistake-${index}.ts`, `import * as mon from "pulumi-monitoring";\n${code}\n`])),
    },
  });
});
afterAll(async () => project?.dispose());

describe("the packed package in a `pulumi new typescript` project", () => {
  it("shares the project's one @pulumi/pulumi", async () => {
    expect(await pulumiCopies(project.dir)).toEqual(["node_modules/@pulumi/pulumi/package.json"]);
    expect(await installedVersion(project.dir, "@pulumi/pulumi")).toBe("3.259.0");
  });

  it("compiles the program and an own policy pack with the project's TypeScript and tsconfig.json as tsc does, declaration files checked too (so also with skipLibCheck, which only leaves their errors out)", () => {
    const program = projectProgram(project.dir);
    const ts = typescriptOf(project.dir);
    const mistakes = new Set(MISTAKES.map((_, index) => join(project.dir, `mistake-${index}.ts`)));
    // Every diagnostic tsc -p would print: the options', the global ones, and those of every file but the mistakes.
    const errors = ts.getPreEmitDiagnostics(program).filter((diagnostic) => diagnostic.file === undefined || !mistakes.has(diagnostic.file.fileName));
    expect(program.getRootFileNames()).toEqual(expect.arrayContaining([join(project.dir, "index.ts"), join(project.dir, OWN_PACK_FILE)]));
    expect(ts.formatDiagnostics(errors, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => project.dir, getNewLine: () => "\n" })).toBe("");
  });

  it("has declaration files that never import zod, from the package root on", () => {
    const ts = typescriptOf(project.dir);
    const root = join(project.dir, "node_modules/pulumi-monitoring/dist/sdk/index.d.ts");
    const seen = new Set<string>();
    const external = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file) ?? "", true, true);
      for (const { fileName } of importedFiles) {
        if (fileName.startsWith(".")) visit(join(file, "..", fileName.replace(/\.js$/, ".d.ts")));
        else external.add(fileName);
      }
    };
    visit(root);
    expect(seen.size).toBeGreaterThan(10);
    expect([...external].sort()).toEqual(["@pulumi/pulumi"]);
  });

  it.each(MISTAKES.map((mistake, index) => [mistake.mistake, { ...mistake, file: `mistake-${index}.ts` }] as const))(
    "refuses %s, in terms of the generated types",
    (mistake, { file, message }) => {
      const messages = compilerMessages(project.dir, file);
      expect(messages.length, `${file} compiles`).toBeGreaterThan(0);
      const text = messages.join("\n");
      console.log(`${file} (${mistake}):\n${text}`);
      expect(text).toMatch(message);
      expect(text).not.toMatch(/zod|Zod|ResourceArgs|ResourceDefinition|DeepInput/);
    },
  );
});

describe("the editor (tsserver)", () => {
  let server: Tsserver;
  // The program's own file, so that tsserver checks it with the project's tsconfig (strict); the
  // editor's unsaved text replaces what is on disk.
  const file = () => join(project.dir, "index.ts");
  const hover = hoverProgram();

  beforeAll(async () => {
    server = startTsserver(project.dir);
    await server.open(file(), hover.text);
  });
  afterAll(() => server?.stop());

  it.each(definitions.map((definition) => [definition.kind] as const))("documents every input and output of %s on hover", async (kind) => {
    const points = hover.points.filter((point) => point.kind === kind);
    expect(points.length).toBeGreaterThan(0);
    const undocumented: string[] = [];
    for (const point of points) {
      const info = await server.quickinfo(file(), point.at);
      if (info === undefined || !info.documentation.includes(point.description)) undocumented.push(`${point.where} ${point.field}: ${JSON.stringify(info)}`);
    }
    expect(undocumented).toEqual([]);
  });

  it.each(definitions.map((definition) => [definition.kind, definition.description] as const))("documents the class %s on hover", async (kind, description) => {
    const { at } = hover.classes.find((candidate) => candidate.kind === kind) as { at: Position };
    const info = await server.quickinfo(file(), at);
    expect(info?.displayString).toBe(`class ${kind}`);
    expect(info?.documentation).toContain(description);
  });

  it("shows the facts of Monitor.intervalSeconds", async () => {
    const point = hover.points.find((candidate) => candidate.where === "output" && candidate.kind === "Monitor" && candidate.field === "intervalSeconds");
    const info = await server.quickinfo(file(), (point as HoverPoint).at);
    console.log(`hover of Monitor.intervalSeconds:\n${info?.displayString}\n${info?.documentation}`);
    // pulumi.Output<T> is an alias of OutputInstance<T> & Lifted<T>; editors show its first part, as for Pulumi's own SDKs.
    expect(info?.displayString).toBe("(property) Monitor.intervalSeconds: OutputInstance<number | undefined>");
    expect(info?.documentation).toContain("Default: `60` (applied by the service).");
    expect(info?.documentation).toContain("API field: `interval_seconds`.");
    expect(info?.documentation).toContain("Assumption (not shown by the spec): the default of 60 s is not shown.");
  });

  it("completes inputs with their docs, and open domains with their known values", async () => {
    const names = await server.completionNames(file(), hover.completionAt);
    expect(names).toEqual(expect.arrayContaining(["expectedIntervalSeconds", "gracePeriodSeconds", "heartbeatGroupId", "adoptId"]));
    expect(await server.completionDocumentation(file(), hover.completionAt, "gracePeriodSeconds")).toContain("Slack in seconds added to the interval");
    const regions = await server.completionNames(file(), hover.regionCompletionAt);
    expect(regions).toEqual(expect.arrayContaining(["us-east-1", "eu-west-1", "ap-southeast-2"]));
  });

  it("names the class and MonitorArgs on hover and in signature help", async () => {
    const info = await server.quickinfo(file(), hover.classAt);
    expect(info?.displayString).toBe("constructor Monitor(name: string, args: mon.MonitorArgs, opts?: CustomResourceOptions): mon.Monitor");
    expect(info?.documentation).toContain("An uptime check of a URL");
    const help = await server.signatureHelp(file(), hover.signatureAt);
    expect(help?.signatures).toEqual(["Monitor(name: string, args: mon.MonitorArgs, opts?: CustomResourceOptions): mon.Monitor"]);
    expect(help?.documentation[0]).toContain("Declares a monitor.");
  });
});

interface HoverPoint {
  kind: string;
  where: "input" | "output";
  field: string;
  description: string;
  at: Position;
}

/**
 * A file with, for every kind (and every monitor type), a constructor call listing every input,
 * and an access to every output property; the hover points are the positions of their names.
 */
function hoverProgram(): {
  text: string;
  points: HoverPoint[];
  classes: { kind: string; at: Position }[];
  completionAt: Position; regionCompletionAt: Position; classAt: Position; signatureAt: Position } {
  const lines = ['import * as mon from "pulumi-monitoring";', ""];
  const points: HoverPoint[] = [];
  const classes: { kind: string; at: Position }[] = [];
  const at = (column: number): Position => ({ line: lines.length, offset: column + 1 });
  const last = (): string => lines[lines.length - 1] as string;
  for (const definition of definitions) {
    const variable = `${definition.kind.charAt(0).toLowerCase()}${definition.kind.slice(1)}`;
    for (const { selector, fields } of argumentSets(definition)) {
      lines.push(`new mon.${definition.kind}("${variable}", {`);
      if (selector !== undefined) {
        lines.push(`  ${selector.field}: ${JSON.stringify(selector.value)},`);
        points.push({ kind: definition.kind, where: "input", field: selector.field, description: descriptionOf(definition, selector.field), at: at(2) });
      }
      for (const field of fields) {
        lines.push(`  ${field}: undefined!,`);
        points.push({ kind: definition.kind, where: "input", field, description: descriptionOf(definition, field), at: at(2) });
      }
      lines.push("});");
    }
    lines.push(`declare const ${variable}: mon.${definition.kind};`);
    classes.push({ kind: definition.kind, at: at(last().lastIndexOf(definition.kind) + 1) });
    for (const field of [...Object.keys(definition.inputs.shape), ...Object.keys(definition.outputs.shape)]) {
      lines.push(`${variable}.${field};`);
      points.push({ kind: definition.kind, where: "output", field, description: descriptionOf(definition, field), at: at(variable.length + 1) });
    }
    lines.push("");
  }
  lines.push('new mon.Heartbeat("completion", {  });');
  const completionAt = at(last().indexOf("{  }") + 2);
  lines.push('new mon.Monitor("regions", { url: "https://example.com", regions: [""] });');
  const regionCompletionAt = at(last().indexOf('[""]') + 2);
  lines.push('new mon.Monitor("signature", { url: "https://example.com" });');
  const classAt = at(last().indexOf("Monitor") + 1);
  const signatureAt = at(last().indexOf("(") + 1);
  return { text: `${lines.join("\n")}\n`, points, classes, completionAt, regionCompletionAt, classAt, signatureAt };
}

/** The input sets a kind's constructor takes: one per variant (with the value selecting it), or one with every input. */
function argumentSets(definition: AnyResourceDefinition): { selector?: { field: string; value: string }; fields: string[] }[] {
  const all = [...Object.keys(definition.inputs.shape), ...Object.keys(providerInputs.shape)];
  const { variants } = definition;
  if (variants === undefined) return [{ fields: all }];
  const owned = new Set(Object.values(variants.fields).flatMap(({ required, optional }) => [...required, ...optional]));
  const common = all.filter((field) => !owned.has(field) && field !== variants.field);
  return Object.entries(variants.fields).map(([value, { required, optional }]) => ({
    selector: { field: variants.field, value },
    fields: [...common, ...required, ...optional],
  }));
}

function descriptionOf(definition: AnyResourceDefinition, field: string): string {
  const shape = { ...definition.inputs.shape, ...definition.outputs.shape, ...providerInputs.shape } as Record<string, z.ZodType>;
  const schema = shape[field] as z.ZodType;
  return factsOf(schema)?.description ?? (metadataOf(schema)["description"] as string);
}

/** The project's own TypeScript, as its tsc and tsserver run. */
function typescriptOf(dir: string): typeof import("typescript") {
  return createRequire(join(dir, "package.json"))("typescript") as typeof import("typescript");
}

/**
 * The project's program as tsc -p builds it (tsconfig.json's files and options), with the own
 * policy pack and the mistake files added: each is a module of its own, so one program gives each
 * file the diagnostics it would get alone, and the package's declarations are loaded and checked once for the compile
 * test and every mistake instead of once each.
 */
let sharedProgram: import("typescript").Program | undefined;

function projectProgram(dir: string): import("typescript").Program {
  const ts = typescriptOf(dir);
  if (sharedProgram !== undefined) return sharedProgram;
  const unparsable = (diagnostic: import("typescript").Diagnostic): never => {
    throw new Error(`tsconfig.json: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(join(dir, "tsconfig.json"), { noEmit: true }, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: unparsable });
  if (parsed === undefined) throw new Error("tsconfig.json: not found");
  for (const error of parsed.errors) unparsable(error);
  sharedProgram = ts.createProgram([...parsed.fileNames, join(dir, OWN_PACK_FILE), ...MISTAKES.map((_, index) => join(dir, `mistake-${index}.ts`))], parsed.options);
  return sharedProgram;
}

/** Every diagnostic of one mistake file of the project, with its related information, as the compiler phrases them. */
function compilerMessages(dir: string, file: string): string[] {
  const ts = typescriptOf(dir);
  const program = projectProgram(dir);
  const path = join(dir, file);
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).map((diagnostic) =>
    [diagnostic, ...(diagnostic.relatedInformation ?? [])].map((part) => ts.flattenDiagnosticMessageText(part.messageText, "\n")).join("\n"),
  );
}
