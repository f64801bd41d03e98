/**
 * The TypeScript snippets of README.md and the guides compile as a user's program does: in a
 * project made like `pulumi new typescript` (its tsconfig.json, unchanged) with the package
 * installed from `npm pack`, all snippets type-checked in one tsc run. That run adds --skipLibCheck,
 * which leaves out only errors inside declaration files: that there are none in this same project
 * is test/sdk/editor.test.ts's to prove.
 *
 * How a guide writes its snippets:
 *   - a snippet is a program of its own, or the continuation of the page's prelude: a `ts` block
 *     right after `<!-- snippet: prelude -->`, which the page shows its readers ("the snippets below
 *     assume ..."). Each snippet is compiled as prelude + snippet, in a file of its own, so
 *     snippets of one page may declare the same names; an `import` line the prelude already has is
 *     left out of the snippet.
 *   - `<!-- snippet: partial -->` right before a block opts it out, for a deliberately partial
 *     fragment.
 * The generated reference pages (docs/reference) are left out: their examples come from the
 * example monitoring file, which its own tests deploy.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ConsumerProject, STOCK_TSCONFIG, createConsumerProject } from "../../scripts/consumer-project.js";
import { type Fence, fences, readDoc, repoRoot, userDocs } from "./markdown.js";

const TYPESCRIPT = new Set(["ts", "typescript"]);
const MARKERS = new Set(["prelude", "partial"]);

/** One file of the consumer project: its lines, and for each the document line it came from. */
interface SnippetFile {
  name: string;
  lines: string[];
  origins: string[];
}

/** The project files for one document's snippets, and the markers it uses that mean nothing. */
function snippetFiles(document: string): { files: SnippetFile[]; unknownMarkers: string[] } {
  const blocks = fences(readDoc(document)).filter((fence) => TYPESCRIPT.has(fence.language));
  const unknownMarkers = blocks.flatMap((block) => (block.marker !== undefined && !MARKERS.has(block.marker) ? [`${document}:${block.line}: ${block.marker}`] : []));
  const numbered = (block: Fence) => block.text.split("\n").map((text, index) => ({ text, origin: `${document}:${block.line + 1 + index}` }));
  const prelude = blocks.filter((block) => block.marker === "prelude").flatMap(numbered);
  const preludeImports = new Set(prelude.map((line) => line.text.trim()).filter((text) => text.startsWith("import ")));
  const programs = blocks.filter((block) => block.marker === undefined);
  const stem = document.replace(/\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-");
  // A page with a prelude and no other snippet still has its prelude compiled.
  const bodies = programs.length === 0 && prelude.length > 0 ? [[]] : programs.map(numbered);
  const files = bodies.map((body, index) => {
    const lines = [...prelude, ...body.map((line) => (preludeImports.has(line.text.trim()) ? { ...line, text: "" } : line))];
    // Every snippet is a module, so that names declared by two snippets do not collide.
    if (!lines.some((line) => /^\s*(import|export)\b/.test(line.text))) lines.push({ text: "export {};", origin: `${document} (added)` });
    return { name: `snippet-${stem}-${index + 1}.ts`, lines: lines.map((line) => line.text), origins: lines.map((line) => line.origin) };
  });
  return { files, unknownMarkers };
}

/** tsc's `file(line,col): error ...` lines, each pointed at the document line the code came from. */
function errorsByDocumentLine(output: string, files: SnippetFile[]): string[] {
  const byName = new Map(files.map((file) => [file.name, file]));
  return output
    .split("\n")
    .filter((line) => /error TS\d+/.test(line))
    .map((line) => {
      const match = /^(snippet-[^(]+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line.trim());
      const file = match === null ? undefined : byName.get(match[1] ?? "");
      if (match === null || file === undefined) return line.trim();
      return `${file.origins[Number(match[2]) - 1] ?? file.name}: ${match[4]}`;
    });
}

const documents = userDocs().filter((document) => !document.startsWith("docs/reference/"));
const perDocument = documents.map((document) => ({ document, ...snippetFiles(document) }));
const allFiles = perDocument.flatMap((entry) => entry.files);

describe("the TypeScript snippets of README.md and the guides", () => {
  let project: ConsumerProject;

  beforeAll(async () => {
    // The @pulumi/pulumi this repository is tested with: npm finds it, and most of the rest, in its cache.
    const pulumiVersion = (JSON.parse(readFileSync(join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8")) as { version: string }).version;
    const tsconfig = { ...STOCK_TSCONFIG, files: allFiles.map((file) => file.name) };
    project = await createConsumerProject({
      pulumiVersion,
      sharedInstalls: inject("consumerInstalls"),
      files: {
        "tsconfig.json": `${JSON.stringify(tsconfig, null, 2)}\n`,
        ...Object.fromEntries(allFiles.map((file) => [file.name, `${file.lines.join("\n")}\n`])),
      },
    });
  });

  afterAll(async () => {
    await project?.dispose();
  });

  it("are found where the docs have them: the README's program and the guides' examples", () => {
    const counted = Object.fromEntries(perDocument.map(({ document, files }) => [document, files.length]));
    expect(counted["README.md"]).toBeGreaterThan(0);
    expect(counted["docs/getting-started.md"]).toBeGreaterThan(5);
  });

  it("use only the markers this test knows (prelude, partial)", () => {
    expect(perDocument.flatMap((entry) => entry.unknownMarkers)).toEqual([]);
  });

  it("compile in one tsc run in a project made like `pulumi new typescript`", async () => {
    let output = "";
    try {
      // --skipLibCheck leaves out only the errors inside declaration files, which test/sdk/editor.test.ts
      // proves there are none of in this same project; checking them again was most of this run.
      await project.run("node", ["node_modules/typescript/bin/tsc", "--noEmit", "--pretty", "false", "--skipLibCheck"]);
    } catch (error) {
      output = (error as Error).message;
    }
    expect(errorsByDocumentLine(output, allFiles)).toEqual([]);
  });
});
