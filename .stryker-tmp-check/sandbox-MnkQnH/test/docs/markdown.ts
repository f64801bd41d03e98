/**
 * What the docs tests read in the Markdown files: the user docs (README.md and everything under
 * docs/), their links and the GitHub anchors of their headings, and their TypeScript snippets.
 */
// @ts-nocheck

import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

export const repoRoot = join(__dirname, "..", "..");

/** README.md and every Markdown file under docs/, generated reference pages included, as repository paths. */
export function userDocs(): string[] {
  return ["README.md", ...markdownFilesUnder(repoRoot, "docs")].sort();
}

/** Every Markdown file under `directory` (relative to `root`), as paths relative to `root`. */
export function markdownFilesUnder(root: string, directory: string): string[] {
  return readdirSync(join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return markdownFilesUnder(root, path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

export function readDoc(path: string): string {
  return readFileSync(join(repoRoot, path), "utf8");
}

export interface Fence {
  /** The info string after the opening backticks, e.g. `ts`. */
  language: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The `<!-- snippet: ... -->` marker on the line right before the fence (blank lines allowed), if any. */
  marker?: string;
}

/** The fenced code blocks of a Markdown text, in order. */
export function fences(markdown: string): Fence[] {
  const lines = markdown.split("\n");
  const at = (index: number): string => lines[index] ?? "";
  const found: Fence[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(at(index));
    if (open === null) continue;
    const [, indent = "", delimiter = "", language = ""] = open;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !at(end).trimStart().startsWith(delimiter)) body.push(at(end++).slice(indent.length));
    let previous = index - 1;
    while (previous >= 0 && at(previous).trim() === "") previous--;
    const marker = /^<!--\s*snippet:\s*([\w-]+)\s*-->$/.exec(at(previous).trim())?.[1];
    found.push({ language, text: body.join("\n"), line: index + 1, marker });
    index = end;
  }
  return found;
}

/** The text outside fenced code blocks and inline code spans, lines kept so that line numbers hold. */
export function prose(markdown: string): string {
  const lines = markdown.split("\n");
  for (const fence of fences(markdown)) {
    const bodyLines = fence.text.split("\n").length;
    for (let line = fence.line - 1; line <= fence.line + bodyLines; line++) lines[line] = "";
  }
  return lines.map((line) => line.replace(/(`+)[^`]*?\1/g, "")).join("\n");
}

export interface Link {
  target: string;
  line: number;
}

/** Inline links and images (`[text](target)`), reference definitions (`[label]: target`) and HTML `href`s. */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  prose(markdown)
    .split("\n")
    .forEach((text, index) => {
      const line = index + 1;
      const targets = [
        ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]),
        /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(text)?.[1],
        ...[...text.matchAll(/href="([^"]+)"/g)].map((match) => match[1]),
      ];
      for (const target of targets) if (target !== undefined) found.push({ target, line });
    });
  return found;
}

/**
 * The anchors GitHub gives the headings of a Markdown text: the heading's text without its
 * formatting, lower-cased, with everything but letters, digits, spaces, `-` and `_` removed and
 * spaces turned into `-`; a repeated anchor gets `-1`, `-2`, ... Explicit `<a id>`/`<a name>` count too.
 */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const lines = markdown.split("\n");
  const inFence = new Set<number>();
  for (const fence of fences(markdown)) for (let line = fence.line - 1; line <= fence.line + fence.text.split("\n").length; line++) inFence.add(line);
  lines.forEach((line, index) => {
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) if (match[1] !== undefined) result.add(match[1]);
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined || inFence.has(index)) return;
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "")
      .toLowerCase();
    const base = text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  });
  return result;
}

/** Links that leave the repository: a scheme (`https:`, `mailto:`) or a protocol-relative URL. */
const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * The relative links of the Markdown file `document` (a path under `root`) that lead nowhere: to
 * no file or folder, or with `#anchor` to no heading of the Markdown file they name. Each is
 * described as `document:line: target (why)`.
 */
export function brokenLinks(root: string, document: string): string[] {
  const read = (path: string) => readFileSync(join(root, path), "utf8");
  const broken: string[] = [];
  for (const { target, line } of links(read(document))) {
    if (EXTERNAL.test(target)) continue;
    const hash = target.indexOf("#");
    const pathPart = hash === -1 ? target : target.slice(0, hash);
    const anchor = hash === -1 ? "" : target.slice(hash + 1);
    const file = pathPart === "" ? join(root, document) : join(root, dirname(document), decodeURIComponent(pathPart));
    const path = relative(root, file).split("\\").join("/");
    const where = `${document}:${line}: ${target}`;
    if (!existsSync(file)) broken.push(`${where} (no ${path})`);
    else if (anchor === "") continue;
    else if (statSync(file).isDirectory() || !file.endsWith(".md")) broken.push(`${where} (an anchor into ${path}, which has no headings)`);
    else if (!anchors(read(path)).has(decodeURIComponent(anchor).toLowerCase())) broken.push(`${where} (no heading #${anchor} in ${path})`);
  }
  return broken;
}
