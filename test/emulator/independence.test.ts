/**
 * The emulator is a server of its own: it states the spec's rules itself and shares no code with
 * the provider, the SDK or the resource definitions, so a mistake there is not mirrored by the
 * server that tests them. Every import of emulator/ stays inside emulator/, or names a Node
 * builtin or an npm dependency.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { expect, test } from "vitest";

const ROOT = resolve(__dirname, "../..");
const EMULATOR = join(ROOT, "emulator");
const DEPENDENCIES = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `from "x"`, `import "x"`, `import("x")` and `require("x")`. */
function importSpecifiers(source: string): string[] {
  const pattern = /(?:\bfrom\s+|\bimport\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"']+)["']/g;
  return [...source.matchAll(pattern)].map((match) => match[1]!);
}

function leavesEmulator(file: string, specifier: string): boolean {
  if (specifier.startsWith(".")) return relative(EMULATOR, resolve(dirname(file), specifier)).startsWith("..");
  const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
  const builtin = specifier.startsWith("node:") || builtinModules.includes(name);
  return !builtin && !DEPENDENCIES.includes(name);
}

test("no file under emulator/ imports anything outside it but Node builtins and npm dependencies", () => {
  const files = typeScriptFiles(EMULATOR);
  expect(files.length).toBeGreaterThan(20);
  const escapes = files.flatMap((file) =>
    importSpecifiers(readFileSync(file, "utf8"))
      .filter((specifier) => leavesEmulator(file, specifier))
      .map((specifier) => `${relative(ROOT, file)}: ${specifier}`),
  );
  expect(escapes).toEqual([]);
});

test("the scan sees an import that leaves emulator/", () => {
  const file = join(EMULATOR, "api", "monitors.ts");
  expect(importSpecifiers('import { monitor } from "../../schema/index.js";').filter((specifier) => leavesEmulator(file, specifier))).toEqual([
    "../../schema/index.js",
  ]);
  expect(leavesEmulator(file, "pulumi-monitoring/provider")).toBe(true);
  expect(leavesEmulator(file, "zod")).toBe(false);
  expect(leavesEmulator(file, "node:crypto")).toBe(false);
  expect(leavesEmulator(file, "../http/errors.js")).toBe(false);
});
