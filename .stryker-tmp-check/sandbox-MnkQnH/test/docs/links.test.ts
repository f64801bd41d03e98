/**
 * Every relative link in README.md, under docs/ (the generated reference included) and in the
 * READMEs of the examples and the emulator leads to a file or folder of the repository, and a link
 * with `#anchor` to a heading of that file, as GitHub names it.
 */
// @ts-nocheck

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { anchors, brokenLinks, markdownFilesUnder, repoRoot, userDocs } from "./markdown.js";

const documents = [...userDocs(), ...markdownFilesUnder(repoRoot, "examples"), ...markdownFilesUnder(repoRoot, "emulator")];

describe.each(documents)("the links of %s", (document) => {
  it("lead to files that exist, and to headings that exist", () => {
    expect(brokenLinks(repoRoot, document)).toEqual([]);
  });
});

describe("a broken link", () => {
  const root = mkdtempSync(join(tmpdir(), "pulumi-monitoring-links-"));
  mkdirSync(join(root, "docs"));
  writeFileSync(join(root, "docs", "guide.md"), "# Guide\n\n## Set up: the `key`\n\nText.\n");
  writeFileSync(
    join(root, "README.md"),
    [
      "# Project",
      "[fine](docs/guide.md#set-up-the-key) [fine too](#project) [external](https://example.com/nowhere.md)",
      "[missing file](docs/nowhere.md)",
      "[missing heading](docs/guide.md#install)",
      "[anchor into a folder](docs#guide)",
      "`[in code](docs/nowhere.md)`",
      "```md",
      "[in a fence](docs/nowhere.md)",
      "```",
      "[reference]: docs/gone.md",
      "",
    ].join("\n"),
  );
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is found with its line and the reason, and links in code are not links", () => {
    expect(brokenLinks(root, "README.md")).toEqual([
      "README.md:3: docs/nowhere.md (no docs/nowhere.md)",
      "README.md:4: docs/guide.md#install (no heading #install in docs/guide.md)",
      "README.md:5: docs#guide (an anchor into docs, which has no headings)",
      "README.md:10: docs/gone.md (no docs/gone.md)",
    ]);
  });
});

describe("GitHub's heading anchors", () => {
  it.each([
    ["## Quick start", "quick-start"],
    ["### Why the lockfile keeps `@pulumi/pulumi` 3.259.0", "why-the-lockfile-keeps-pulumipulumi-32590"],
    ["## Many monitors: MonitorSet", "many-monitors-monitorset"],
    ["## Any server: what is enforced and what is assumed", "any-server-what-is-enforced-and-what-is-assumed"],
    ["## [Linked](x.md) heading", "linked-heading"],
    ["## snake_case stays", "snake_case-stays"],
  ])("%s is #%s", (heading, anchor) => {
    expect([...anchors(`${heading}\n`)]).toEqual([anchor]);
  });

  it("numbers a repeated heading", () => {
    expect([...anchors("## Usage\n\n## Usage\n\n## Usage\n")]).toEqual(["usage", "usage-1", "usage-2"]);
  });

  it("ignores headings inside code fences", () => {
    expect([...anchors("```sh\n# a comment\n```\n## Real\n")]).toEqual(["real"]);
  });
});
