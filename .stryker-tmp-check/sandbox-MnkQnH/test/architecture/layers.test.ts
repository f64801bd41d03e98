/**
 * The folders are the architecture, and its arrows point one way: the definitions (schema/) know
 * nothing of the code that uses them, the provider knows nothing of the SDK or the CLI, and the
 * emulator is a server of its own that shares no code with the provider, the SDK or the
 * definitions, so that a mistake there is not mirrored by the server that tests them.
 *
 * Each layer may import the folders its row names, Node builtins and npm dependencies; nothing else
 * of this repository (a relative path outside them, or the package's own name).
 */
// @ts-nocheck

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
