/**
 * The folders are the architecture, and its arrows point one way: the definitions (schema/) know
 * nothing of the code that uses them, the provider knows nothing of the SDK or the CLI, and the
 * emulator is a server of its own that shares no code with the provider, the SDK or the
 * definitions, so that a mistake there is not mirrored by the server that tests them.
 *
 * Each layer may import the folders its row names, Node builtins and npm dependencies; nothing else
 * of this repository (a relative path outside them, or the package's own name). Inside the layers,
 * modules import each other without a cycle.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, test } from "vitest";

const ROOT = resolve(__dirname, "../..");
const DEPENDENCIES = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);

const LAYERS: { layer: string; mayImport: string[] }[] = [
  { layer: "schema", mayImport: ["schema"] },
  { layer: "provider", mayImport: ["provider", "schema"] },
  { layer: "sdk", mayImport: ["sdk", "provider", "schema"] },
  { layer: "cli", mayImport: ["cli", "sdk", "provider", "schema"] },
  // Policies read resources as the engine hands them over; the SDK's types describe their inputs.
  { layer: "policy", mayImport: ["policy", "sdk", "schema"] },
  { layer: "emulator", mayImport: ["emulator"] },
];

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The modules of `import … from "x"`, `export … from "x"`, `import "x"`, `import("x")` and `require("x")` statements. */
function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const pattern = /^\s*(?:(?:import|export)\s[^;"']*?\bfrom\s*|import\s*)["']([^"']+)["']|\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/gm;
  return [...code.matchAll(pattern)].map((match) => (match[1] ?? match[2])!);
}

/** The package's own name reaches its layers through the subpaths package.json exports. */
const SELF_REFERENCES: Record<string, string> = {
  "pulumi-monitoring": "sdk",
  "pulumi-monitoring/provider": "provider",
  "pulumi-monitoring/host": "provider",
  "pulumi-monitoring/schema": "schema",
  "pulumi-monitoring/emulator": "emulator",
  "pulumi-monitoring/policy": "policy",
};

/** Whether `specifier`, imported by `file`, reaches outside the folders `allowed`. */
function crossesLayer(file: string, specifier: string, allowed: readonly string[]): boolean {
  if (specifier.startsWith(".")) {
    const topFolder = relative(ROOT, resolve(dirname(file), specifier)).split(sep)[0]!;
    return !allowed.includes(topFolder);
  }
  const selfLayer = SELF_REFERENCES[specifier];
  if (selfLayer !== undefined) return !allowed.includes(selfLayer);
  const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
  const builtin = specifier.startsWith("node:") || builtinModules.includes(name);
  return !builtin && !DEPENDENCIES.includes(name);
}

describe.each(LAYERS)("$layer/ imports only $mayImport, Node builtins and npm dependencies", ({ layer, mayImport }) => {
  test("every import stays inside those", () => {
    const files = typeScriptFiles(join(ROOT, layer));
    expect(files.length).toBeGreaterThan(3);
    const imports = files.flatMap((file) => importSpecifiers(readFileSync(file, "utf8")).map((specifier) => ({ file, specifier })));
    // The scan reads the imports, not nothing: most files import something.
    expect(imports.length).toBeGreaterThan(files.length);
    const crossings = imports
      .filter(({ file, specifier }) => crossesLayer(file, specifier, mayImport))
      .map(({ file, specifier }) => `${relative(ROOT, file)}: ${specifier}`);
    expect(crossings).toEqual([]);
  });
});

test("the scan sees an import that crosses a layer", () => {
  const emulatorFile = join(ROOT, "emulator", "api", "monitors.ts");
  expect(importSpecifiers('import { monitor } from "../../schema/index.js";').filter((specifier) => crossesLayer(emulatorFile, specifier, ["emulator"]))).toEqual([
    "../../schema/index.js",
  ]);
  expect(crossesLayer(emulatorFile, "pulumi-monitoring/provider", ["emulator"])).toBe(true);
  expect(crossesLayer(emulatorFile, "zod", ["emulator"])).toBe(false);
  expect(crossesLayer(emulatorFile, "node:crypto", ["emulator"])).toBe(false);
  expect(crossesLayer(emulatorFile, "../http/errors.js", ["emulator"])).toBe(false);
  expect(crossesLayer(join(ROOT, "schema", "docs.ts"), "../sdk/yaml-parse.js", ["schema"])).toBe(true);
  expect(crossesLayer(join(ROOT, "provider", "dynamic.ts"), "pulumi-monitoring/host", ["provider", "schema"])).toBe(false);
  expect(crossesLayer(join(ROOT, "provider", "dynamic.ts"), "pulumi-monitoring", ["provider", "schema"])).toBe(true);
  expect(importSpecifiers('/** as `require("x")` does */\n// values the user never set\nconst a = 1; // copied from "elsewhere"\nimport {\n  b,\n} from "./b.js";\nconst c = require("c");')).toEqual(["./b.js", "c"]);
});

/**
 * Reader and writer apart: what only reads (lookups, the importer, the drift scan) reaches the
 * provider's reader, never its writer or its stateful dispatcher, and the reader sends no write.
 * Followed through every module a file imports inside the repository.
 */
describe("what only reads reaches the reader, not the writer nor the dispatcher", () => {
  const WRITER = join(ROOT, "provider", "engine.ts");
  const DISPATCHER = join(ROOT, "provider", "index.ts");

  /** Every repository file `file` reaches through relative imports, itself included. */
  function reached(file: string, seen = new Set<string>()): Set<string> {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const specifier of importSpecifiers(readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier).replace(/\.js$/, ".ts");
      if (target.startsWith(ROOT) && target.endsWith(".ts")) reached(target, seen);
    }
    return seen;
  }

  test.each([["sdk/lookups.ts"], ["provider/reader.ts"], ["cli/import/read.ts"], ["cli/drift/unmanaged.ts"]])("%s", (file) => {
    const modules = reached(join(ROOT, file));
    expect(modules.has(join(ROOT, "provider", "reader.ts"))).toBe(true);
    expect([...modules].filter((module) => module === WRITER || module === DISPATCHER).map((module) => relative(ROOT, module))).toEqual([]);
  });

  test("the reader sends no write: its only requests are GETs and list pages", () => {
    const source = readFileSync(join(ROOT, "provider", "reader.ts"), "utf8");
    const methods = [...source.matchAll(/\.request(?:<[^>]*>)?\(\s*"([A-Z]+)"/g)].map((match) => match[1]);
    expect(methods.length).toBeGreaterThan(0);
    expect(new Set(methods)).toEqual(new Set(["GET"]));
  });
});

/**
 * One path for every shape: each part of the package that looks into a resource (the provider's
 * set, drift, the policy pack, the YAML loader, the importer) takes its members from the one
 * function of schema/members.ts, so a member of a set is never told apart from a single resource
 * by a rule of its own.
 */
describe("the members of a resource come from schema/members.ts", () => {
  test.each([["provider/monitor-set.ts"], ["cli/drift/changes.ts"], ["cli/drift/unmanaged.ts"], ["policy/resources.ts"], ["sdk/yaml-parse.ts"], ["cli/import/read.ts"]])("%s", (file) => {
    const source = readFileSync(join(ROOT, file), "utf8");
    expect(source).toMatch(/import \{[^}]*\bmembers?Of\b[^}]*\} from "(\.\.\/)+schema\/members\.js"/);
  });
});

/**
 * The repository's own modules `file` imports. `withTypes: false` leaves out `import type` and
 * `export type … from`, which compile to nothing and so cannot make a module run before its
 * imports have finished loading.
 */
function importedModules(file: string, withTypes: boolean): string[] {
  const source = readFileSync(file, "utf8");
  const code = withTypes ? source : source.replace(/^\s*(?:import|export)\s+type\s[^;]*?\bfrom\s*["'][^"']+["']\s*;?/gm, "");
  return importSpecifiers(code)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
}

/** The cycles of a graph of imports: each as its modules, sorted (Tarjan's strongly connected components). */
function cyclesOf(imports: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (module: string): void => {
    order.set(module, order.size);
    lowest.set(module, order.get(module)!);
    stack.push(module);
    for (const imported of imports.get(module) ?? []) {
      if (!imports.has(imported)) continue;
      if (!order.has(imported)) visit(imported);
      if (stack.includes(imported)) lowest.set(module, Math.min(lowest.get(module)!, lowest.get(imported)!));
    }
    if (lowest.get(module) !== order.get(module)) return;
    const component = stack.splice(stack.indexOf(module));
    if (component.length > 1 || (imports.get(module) ?? []).includes(module)) cycles.push(component.sort());
  };
  for (const module of imports.keys()) if (!order.has(module)) visit(module);
  return cycles;
}

function importCycles(folders: readonly string[], withTypes: boolean): string[][] {
  const files = folders.flatMap((folder) => typeScriptFiles(join(ROOT, folder)));
  const cycles = cyclesOf(new Map(files.map((file) => [file, importedModules(file, withTypes)])));
  return cycles.map((cycle) => cycle.map((file) => relative(ROOT, file)));
}

describe("modules import each other without a cycle", () => {
  // A cycle makes one of its modules run while another is half loaded (sdk/index.ts and sdk/yaml.ts
  // once did: the loader read the classes from the package root, which re-exports the loader).
  // Inside a layer, a type import counts too: a circle of types is a circle of ideas to untangle.
  test.each([["sdk"], ["provider"], ["cli"]])("in %s/, type imports included", (layer) => {
    expect(importCycles([layer], true)).toEqual([]);
  });

  test("in every layer, at run time", () => {
    expect(importCycles(LAYERS.map(({ layer }) => layer), false)).toEqual([]);
  });

  test("the scan sees a cycle, and a type import only where asked", () => {
    const graph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a", "d"]], ["d", []], ["e", ["e"]]]);
    expect(cyclesOf(graph)).toEqual([["a", "b", "c"], ["e"]]);
    const yamlFile = join(ROOT, "sdk", "yaml.ts");
    expect(importedModules(yamlFile, false)).not.toContain(join(ROOT, "schema", "file-kinds.ts"));
    expect(importedModules(yamlFile, true)).toContain(join(ROOT, "schema", "file-kinds.ts"));
  });
});
