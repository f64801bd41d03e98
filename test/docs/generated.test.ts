/**
 * The committed files derived from the definitions (reference docs, monitoring file schema) are
 * current, and every page covers every field, output, association and scope of its kind.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { operationsOf } from "../../schema/operations.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { REFERENCE_DIRECTORY, pageName } from "../../scripts/reference-docs.js";
import { definitions, providerInputs } from "../../schema/index.js";
import { unwrap } from "../../schema/rules.js";
import { REGENERATE_COMMAND, generatedFiles } from "../../scripts/generated-files.js";

const root = join(__dirname, "..", "..");
const files = generatedFiles(root);
const read = (path: string): string => readFileSync(join(root, path), "utf8");

/** Every field path of a zod object as the pages write them: `config.address`, `steps[].delayMinutes`. */
function fieldPaths(shape: Record<string, z.ZodType>, prefix = ""): string[] {
  return Object.entries(shape).flatMap(([name, schema]) => {
    const path = `${prefix}${name}`;
    let inner = unwrap(schema);
    let separator = ".";
    if (inner instanceof z.ZodArray) {
      inner = unwrap(inner.element as z.ZodType);
      separator = "[].";
    }
    const nested = inner instanceof z.ZodObject ? fieldPaths(inner.shape as Record<string, z.ZodType>, `${path}${separator}`) : [];
    return [path, ...nested];
  });
}

describe("generated files", () => {
  it.each([...files.keys()])("%s is current", (path) => {
    expect(read(path), `${path} is stale; regenerate it with \`${REGENERATE_COMMAND}\``).toBe(files.get(path));
  });

  it(`${REFERENCE_DIRECTORY} holds only generated pages`, () => {
    const pages = readdirSync(join(root, REFERENCE_DIRECTORY)).map((name) => `${REFERENCE_DIRECTORY}/${name}`);
    expect(pages.sort()).toEqual([...files.keys()].filter((path) => path.startsWith(REFERENCE_DIRECTORY)).sort());
  });
});

describe.each(definitions.map((definition) => [definition.kind, definition] as const))("the reference page of %s", (kind, definition) => {
  const page = files.get(`${REFERENCE_DIRECTORY}/${pageName(kind)}`) ?? "";

  it("has a row for every input at every depth, and for adoptId", () => {
    const shape = { ...definition.inputs.shape, ...providerInputs.shape } as Record<string, z.ZodType>;
    for (const path of fieldPaths(shape)) expect(page, `input ${path}`).toContain(`| \`${path}\` |`);
  });

  it("has a row for the id and every output", () => {
    for (const path of ["id", ...fieldPaths(definition.outputs.shape as Record<string, z.ZodType>)]) {
      expect(page, `output ${path}`).toContain(`| \`${path}\` |`);
    }
  });

  it("names the endpoint of every association and every scope", () => {
    for (const association of Object.values(definition.associations)) {
      const calls = association === undefined ? [] : Object.values(association).filter((value) => typeof value === "object");
      for (const { path } of calls as { path: string }[]) expect(page).toContain(path);
    }
    for (const entry of operationsOf(definition)) expect(page).toContain(`| ${entry.route.scope === null ? "none listed (any valid key)" : `\`${entry.route.scope}\``} |`);
  });

  it("starts with the kind's description and is linked from the index", () => {
    expect(page).toContain(`# ${kind}\n\n${definition.description}\n`);
    expect(files.get(`${REFERENCE_DIRECTORY}/README.md`)).toContain(`[${kind}](${pageName(kind)})`);
  });
});
