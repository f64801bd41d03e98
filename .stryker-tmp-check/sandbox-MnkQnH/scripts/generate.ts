/**
 * Writes the files derived from the resource definitions (scripts/generated-files.ts) and removes
 * reference pages and SDK modules of kinds that no longer exist. Run after changing a definition:
 * `npm run build && npm run generate`.
 */
// @ts-nocheck

import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REFERENCE_DIRECTORY } from "./reference-docs.js";
import { generatedFiles } from "./generated-files.js";
import { SDK_DIRECTORY } from "./sdk-source.js";

// Compiled to dist/scripts/generate.js: the repository root is two levels up.
const root = join(__dirname, "..", "..");
const files = generatedFiles(root);

for (const [path, content] of files) {
  const target = join(root, path);
  if (existsSync(target) && readFileSync(target, "utf8") === content) continue;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  console.log(`wrote ${path}`);
}
for (const directory of [REFERENCE_DIRECTORY, SDK_DIRECTORY]) {
  for (const name of readdirSync(join(root, directory))) {
    const path = `${directory}/${name}`;
    if (files.has(path)) continue;
    rmSync(join(root, path));
    console.log(`removed ${path}`);
  }
}
