/**
 * examples/ci: the GitHub Actions workflow passes actionlint (which checks its run: scripts with
 * shellcheck), and every fleet command line of both pipelines is one the fleet accepts, with as
 * many shard jobs as shares, each verifying its share after an up, and every run of the operation
 * checking the keys' scopes first.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseFleetArgs } from "../../cli/fleet/options.js";
import { repoRoot } from "../support/pulumi.js";

const run = promisify(execFile);
const examples = join(repoRoot, "examples/ci");

/** The fleet's arguments in each `npx pulumi-monitoring fleet ...` line, with the shell's quotes, redirections and variables resolved. */
async function fleetCommands(file: string, variables: Record<string, string>): Promise<string[][]> {
  const text = await readFile(join(examples, file), "utf8");
  return [...text.matchAll(/npx pulumi-monitoring fleet ([^>|)\n]*)/g)].map(([, args]) =>
    (args ?? "")
      .trim()
      .replace(/\$\{?(\w+)\}?/g, (_, name: string) => variables[name] ?? `$${name}`)
      .replaceAll('"', "")
      .split(/\s+/),
  );
}

describe("examples/ci", () => {
  it("the GitHub Actions workflow passes actionlint and shellcheck", async () => {
    const actionlint = process.env["PULUMI_MONITORING_ACTIONLINT"];
    if (!actionlint) throw new Error("actionlint is missing (PULUMI_MONITORING_ACTIONLINT is unset): run the tests through npm test, whose setup builds it");
    const result = await run(actionlint, ["-no-color", join(examples, "github-actions.yml")]).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe("");
  });

  it.each([
    ["github-actions.yml", { OPERATION: "up", SHARDS: "4", SHARD: "2/4" }],
    ["gitlab-ci.yml", { OPERATION: "preview", CI_NODE_INDEX: "2", CI_NODE_TOTAL: "4", CI_MERGE_REQUEST_IID: "7" }],
  ])("%s runs fleet command lines the fleet accepts", async (file, variables) => {
    const commands = await fleetCommands(file, variables);
    expect(commands.map((args) => args[0])).toEqual(expect.arrayContaining(["list", variables.OPERATION, "report"]));
    for (const args of commands) expect(() => parseFleetArgs(args, "/"), args.join(" ")).not.toThrow();
    // The shard job's operation, and the verification after an up, take the same share.
    const shards = commands.flatMap((args) => (args.includes("--shard") ? [args[args.indexOf("--shard") + 1]] : []));
    expect(shards).toEqual(["2/4", "2/4"]);
    // The shared stack's run and the shard's prove the keys hold the operation's scopes before anything runs.
    expect(commands.filter((args) => args[0] === variables.OPERATION).map((args) => args.includes("--check-scopes"))).toEqual([true, true]);
  });

  it("the GitLab pipeline starts as many shard jobs as it lists shares", async () => {
    const pipeline = parse(await readFile(join(examples, "gitlab-ci.yml"), "utf8")) as { shard: { parallel: number }; shared: { script: string[] } };
    expect(pipeline.shared.script).toContain(`npx pulumi-monitoring fleet list --shards ${pipeline.shard.parallel}`);
  });
});
