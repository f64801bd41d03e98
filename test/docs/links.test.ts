/**
 * Every relative link in README.md and under docs/ (the generated reference included) leads to a
 * file or folder of the repository, and a link with `#anchor` to a heading of that file, as GitHub
 * names it.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { anchors, links, readDoc, repoPath, repoRoot, userDocs } from "./markdown.js";

/** Links that leave the repository: a scheme (`https:`, `mailto:`) or a protocol-relative URL. */
const external = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

describe.each(userDocs())("the links of %s", (document) => {
  const relativeLinks = links(readDoc(document)).filter((link) => !external.test(link.target));

  it("lead to files that exist, and to headings that exist", () => {
    const broken: string[] = [];
    for (const { target, line } of relativeLinks) {
      const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
      const file = pathPart === "" ? join(repoRoot, document) : join(repoRoot, dirname(document), decodeURIComponent(pathPart));
      const where = `${document}:${line}: ${target}`;
      if (!existsSync(file)) {
        broken.push(`${where} (no ${repoPath(file)})`);
        continue;
      }
      if (anchor === undefined || anchor === "") continue;
      if (statSync(file).isDirectory() || !file.endsWith(".md")) {
        broken.push(`${where} (an anchor into ${repoPath(file)}, which has no headings)`);
        continue;
      }
      if (!anchors(readDoc(repoPath(file))).has(decodeURIComponent(anchor).toLowerCase())) broken.push(`${where} (no heading #${anchor} in ${repoPath(file)})`);
    }
    expect(broken).toEqual([]);
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
