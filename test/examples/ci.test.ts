/**
 * examples/ci: the GitHub Actions workflow passes actionlint (which checks its run: scripts with
 * shellcheck), the GitLab pipeline's scripts pass shellcheck, and every fleet command line of both
 * pipelines is one the fleet accepts, with as many shard jobs as shares, each verifying its share
 * after an up, and every run of the operation checking the keys' scopes first. Both schedule
 * `apply-due` every 15 minutes and a nightly `drift`, and a scheduled run runs only its own job,
 * never a deploy.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseFleetArgs } from "../support/fleet-args.js";
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
    expect(commands.map((args) => args[0])).toEqual(expect.arrayContaining(["list", variables.OPERATION, "report", "apply-due", "drift"]));
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

  it("the GitLab pipeline's scripts pass shellcheck", async () => {
    const pipeline = parse(await readFile(join(examples, "gitlab-ci.yml"), "utf8")) as Record<string, { script?: string[]; before_script?: string[] }>;
    const dir = await mkdtemp(join(tmpdir(), "gitlab-ci-"));
    try {
      const findings = [];
      for (const [job, { before_script = [], script = [] }] of Object.entries(pipeline)) {
        if (script.length === 0 && before_script.length === 0) continue;
        const file = join(dir, `${job.replace(/\W/g, "_")}.sh`);
        await writeFile(file, ["#!/bin/sh", ...before_script, ...script].join("\n"));
        findings.push(await run("shellcheck", ["--format=gcc", file]).then(() => "", (error: { stdout?: string }) => error.stdout ?? String(error)));
      }
      expect(findings.join("")).toBe("");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("the GitLab pipeline runs apply-due and drift on their schedules alone, and no deploy on a schedule", async () => {
    type Rules = { rules?: Array<{ if: string }>; extends?: string | string[] };
    const pipeline = parse(await readFile(join(examples, "gitlab-ci.yml"), "utf8")) as Record<string, Rules> & { workflow: Rules };
    const rulesOf = (job: Rules): string[] => [...[job.extends ?? []].flat().flatMap((name) => rulesOf(pipeline[name]!)), ...(job.rules ?? []).map((rule) => rule.if)];
    expect(rulesOf(pipeline.workflow)).toContain('$CI_PIPELINE_SOURCE == "schedule"');
    expect(rulesOf(pipeline["apply-due"]!)).toEqual(['$CI_PIPELINE_SOURCE == "schedule" && $SCHEDULED_JOB == "apply-due"']);
    expect(rulesOf(pipeline["drift"]!)).toEqual(['$CI_PIPELINE_SOURCE == "schedule" && $SCHEDULED_JOB == "drift"']);
    for (const job of ["shared", "shard", "report"]) expect(rulesOf(pipeline[job]!), job).toEqual(['$CI_PIPELINE_SOURCE != "schedule"']);
  });

  it("the GitHub workflow runs apply-due every 15 minutes and drift nightly, each on its schedule alone, in concurrency groups apart from the deploys'", async () => {
    type Job = { if?: string };
    const workflow = parse(await readFile(join(examples, "github-actions.yml"), "utf8")) as { on: { schedule: Array<{ cron: string }> }; concurrency: { group: string }; jobs: Record<string, Job> };
    const [every15, nightly] = workflow.on.schedule.map((entry) => entry.cron);
    expect(every15).toBe("*/15 * * * *");
    expect(workflow.jobs["apply-due"]!.if).toBe(`github.event.schedule == '${every15}'`);
    expect(workflow.jobs["drift"]!.if).toBe(`github.event.schedule == '${nightly}'`);
    expect(workflow.jobs["shared"]!.if).toBe("github.event_name != 'schedule'");
    expect(workflow.jobs["report"]!.if).toContain("github.event_name != 'schedule'");
    expect(workflow.concurrency.group).toContain("github.event_name == 'schedule' && github.event.schedule");
  });
});
