/**
 * The committed JSON Schema of monitoring files (schema/monitoring.schema.json) as an editor uses
 * it: it accepts the example file, states every input of the file's kinds with its description,
 * and refuses what the loader refuses.
 */
// @ts-nocheck

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type JsonSchema, LOADER_SET_FIELDS, compileSchema, fileSections, monitoringFileSchema, referenceByIdField } from "../../schema/json-schema.js";
import { providerInputs } from "../../schema/index.js";
import { EXAMPLE_MONITORING_FILE, MONITORING_FILE_SCHEMA } from "../../scripts/generated-files.js";

const root = join(__dirname, "..", "..");
const committed = JSON.parse(readFileSync(join(root, MONITORING_FILE_SCHEMA), "utf8")) as JsonSchema;
const validate = compileSchema(committed);
const exampleText = readFileSync(join(root, EXAMPLE_MONITORING_FILE), "utf8");
const entrySchema = (kind: string) => (committed.definitions as Record<string, JsonSchema>)[kind] as JsonSchema;

/** The error keywords and paths of a document the committed schema refuses. */
function refusals(document: unknown): string[] {
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.keyword}`);
}

describe("schema/monitoring.schema.json", () => {
  it("accepts the example file", () => {
    expect(refusals(parse(exampleText))).toEqual([]);
  });

  it("is what the example file's modeline points at", () => {
    const modeline = /^# yaml-language-server: \$schema=(\S+)$/m.exec(exampleText);
    expect(modeline?.index).toBe(0);
    expect(resolve(dirname(join(root, EXAMPLE_MONITORING_FILE)), modeline?.[1] ?? "")).toBe(join(root, MONITORING_FILE_SCHEMA));
  });

  it("refuses unknown sections and fields, broken rules, wrong types and ids in place of names", () => {
    expect(
      refusals({
        channels: {},
        monitors: { api: { url: "https://api.example.com", intervalSecs: 60, intervalSeconds: 5, notificationChannels: "ops" } },
        heartbeats: { backup: { heartbeatGroupId: "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b" } },
      }),
    ).toEqual([
      " additionalProperties",
      "/monitors/api additionalProperties",
      "/monitors/api/intervalSeconds minimum",
      "/monitors/api/notificationChannels type",
      "/heartbeats/backup additionalProperties",
    ]);
  });

  it("accepts ${env:NAME} in secret fields only; the loader's variant judges the values read instead", () => {
    const file = {
      notificationChannels: { pager: { kind: "pagerduty", credentials: { integrationKey: "${env:PAGERDUTY_KEY}" } } },
      monitors: { api: { url: "https://api.example.com", authPassword: "${env:API_PASSWORD}", description: "x" } },
    };
    expect(refusals(file)).toEqual(["/monitors/api additionalProperties"]);
    expect(refusals({ heartbeatGroups: { nightly: { description: 5 } } })).toEqual(["/heartbeatGroups/nightly/description type"]);
    const loaderValidate = compileSchema(monitoringFileSchema({ environmentReferences: false }));
    expect(loaderValidate(file)).toBe(false);
    expect(loaderValidate.errors?.map((error) => error.instancePath)).toContain("/monitors/api");
  });

  it("shows every description as markdown too, and a secret's own description where ${env:NAME} is written", () => {
    const text = JSON.stringify(committed);
    expect(text).not.toContain('"format":"uuid"');
    const unmarked: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${path}/${index}`));
      if (typeof node !== "object" || node === null) return;
      const schema = node as JsonSchema;
      if (typeof schema.description === "string" && schema.markdownDescription !== schema.description) unmarked.push(path);
      for (const [key, value] of Object.entries(schema)) visit(value, `${path}/${key}`);
    };
    visit(committed, "#");
    expect(unmarked).toEqual([]);
    const password = (entrySchema("Monitor").properties as Record<string, JsonSchema>).authPassword as JsonSchema;
    expect(password.description).toMatch(/^`http` only: HTTP basic auth password/);
    // The branch a `${env:NAME}` value matches has no description of its own to show instead.
    expect(password.anyOf).toEqual([{ type: "string", pattern: expect.any(String) }, { type: "string" }]);
  });

  it("writes references by name", () => {
    const properties = (kind: string) => (entrySchema(kind).properties ?? {}) as Record<string, JsonSchema>;
    expect(properties("Monitor").notificationChannels).toMatchObject({ type: "array", items: { type: "string" }, uniqueItems: true });
    expect(properties("Monitor").escalationPolicy).toMatchObject({ type: "string", minLength: 1 });
    expect(properties("Heartbeat").heartbeatGroup).toMatchObject({ type: "string", minLength: 1 });
    const step = (properties("EscalationPolicy").steps?.items ?? {}) as JsonSchema;
    expect((step.properties as Record<string, JsonSchema>).notificationChannels).toMatchObject({ type: "array", minItems: 1 });
    expect(step.required).toEqual(["delayMinutes", "notificationChannels"]);
  });

  it.each(fileSections.map(({ name, definition }) => [name, definition] as const))("states every input of %s", (section, definition) => {
    expect((committed.properties as Record<string, JsonSchema>)[section]).toMatchObject({
      type: "object",
      additionalProperties: { $ref: `#/definitions/${definition.kind}` },
    });
    const expected = [...Object.keys(definition.inputs.shape), ...Object.keys(providerInputs.shape)]
      .filter((field) => !(LOADER_SET_FIELDS as readonly string[]).includes(field))
      .map((field) => referenceByIdField(field)?.nameField ?? field);
    const schema = entrySchema(definition.kind);
    expect(Object.keys(schema.properties as object).sort()).toEqual(expected.sort());
    expect(schema).toMatchObject({ title: definition.kind, description: definition.description, additionalProperties: false });
  });

  it("describes every field, refuses unknown fields in every object but those whose keys the spec does not show, and states defaults and enums", () => {
    const undocumented: string[] = [];
    const open: string[] = [];
    const visit = (node: JsonSchema, path: string): void => {
      // A map by name (a set's monitors) takes any key, but checks every value against a schema.
      const accepts = node.additionalProperties;
      if (node.type === "object" && (accepts === undefined || accepts === true) && path.split("/").length > 2) open.push(path);
      for (const [field, property] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) {
        if (typeof property.description !== "string") undocumented.push(`${path}/${field}`);
        visit(property, `${path}/${field}`);
      }
      if (typeof node.items === "object") visit(node.items as JsonSchema, `${path}[]`);
    };
    for (const [kind, schema] of Object.entries(committed.definitions as Record<string, JsonSchema>)) visit(schema, `#/${kind}`);
    expect(undocumented).toEqual([]);
    // Keys the spec does not show: check passes others (and preview warns), so the schema must not refuse them.
    expect(open.sort()).toEqual([
      "#/EscalationPolicy/steps[]",
      "#/NotificationChannel/config",
      "#/NotificationChannel/credentials",
    ]);
    expect(committed).toMatchObject({ $schema: "http://json-schema.org/draft-07/schema#", title: expect.any(String), additionalProperties: false });
    const monitor = entrySchema("Monitor").properties as Record<string, JsonSchema>;
    expect(monitor.intervalSeconds).toMatchObject({ type: "integer", minimum: 10, default: 60 });
    expect(monitor.monitorType).toMatchObject({ enum: ["http", "ping", "tcp", "dns"], default: "http" });
  });
});
