/**
 * The files derived from the resource definitions and committed with them: the JSON Schema of
 * monitoring files, the reference docs, the SDK's typed classes and the scopes table of the
 * getting-started guide. `scripts/generate.ts` writes them; a test fails while the committed copies
 * differ.
 */
// @ts-nocheck

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderReferenceDocs, renderScopesTable } from "./reference-docs.js";
import { renderMonitoringFileSchema } from "../schema/json-schema.js";
import { renderSdk } from "./sdk-source.js";

export const MONITORING_FILE_SCHEMA = "schema/monitoring.schema.json";
/** The monitoring file whose entries are the reference docs' examples. */
export const EXAMPLE_MONITORING_FILE = "examples/yaml/monitoring.yaml";
export const REGENERATE_COMMAND = "npm run build && npm run generate";
/** The guide that holds the generated table of the scopes each kind needs. */
export const SCOPES_GUIDE = "docs/getting-started.md";

/** The guide with its generated block (the scopes table) brought up to date. */
function guideWithScopes(guide: string): string {
  const block = /(<!-- scopes:start[^>]*-->\n)[\s\S]*?(<!-- scopes:end -->)/;
  if (!block.test(guide)) throw new Error(`${SCOPES_GUIDE} has lost its <!-- scopes:start --> … <!-- scopes:end --> markers`);
  return guide.replace(block, (_match, start: string, end: string) => `${start}${renderScopesTable(SCOPES_GUIDE)}\n${end}`);
}

/** Contents by path from the repository root at `root`. */
export function generatedFiles(root: string): Map<string, string> {
  const example = { path: EXAMPLE_MONITORING_FILE, text: readFileSync(join(root, EXAMPLE_MONITORING_FILE), "utf8") };
  return new Map([
    [MONITORING_FILE_SCHEMA, renderMonitoringFileSchema()],
    ...renderReferenceDocs(example),
    ...renderSdk(),
    [SCOPES_GUIDE, guideWithScopes(readFileSync(join(root, SCOPES_GUIDE), "utf8"))],
  ]);
}
