/**
 * The pure parts of `pulumi-monitoring fleet`: stack selection, the budget split, the bounded
 * scheduler, what engine events say about a stack, the run configuration, the project's `fleet:`
 * section, the command line, the live lines, the final report, and which programs run inside the
 * fleet's process.
 */
import type { EngineEvent, StepEventMetadata } from "@pulumi/pulumi/automation";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runnerBudget, stacksAtOnce } from "../../cli/fleet/runners/budget.js";
import { fitToScreen, liveLine, type LiveState } from "../../cli/fleet/stacks/display.js";
import { StackEvents } from "../../cli/fleet/stacks/events.js";
import { inProcessRunner } from "../../cli/fleet/stacks/in-process.js";
import { abortOnceListening } from "../../cli/fleet/stacks/operations.js";
import { commandErrorMessage, errorSummary } from "../../cli/project/errors.js";
import { UsageError } from "../../cli/command/usage.js";
import { fleet } from "../../cli/fleet/command.js";
import { USAGE, VERBS, verbUsage } from "../../cli/fleet/options.js";
import { parseFleetArgs } from "../support/fleet-args.js";
import { parseProject } from "../../cli/project/project.js";
import { exitCodeOf, type FleetReport, noChanges, type StackReport } from "../../cli/report/fleet.js";
import { renderTable } from "../../cli/report/table.js";
import { configValue } from "../../cli/fleet/stacks/run-config.js";
import { globToRegExp, selectStacks } from "../../cli/project/select.js";
import { builtModule } from "../support/pulumi.js";

describe("stack selection", () => {
  const stacks = ["acme", "acme-staging", "globex", "initech"];

  it("takes every stack without --stack, in the project's order", () => {
    expect(selectStacks(stacks, [], [])).toEqual(stacks);
  });

  it("keeps the stacks matching any --stack glob, minus those matching an --exclude glob", () => {
    expect(selectStacks(stacks, ["acme*", "initech"], ["*-staging"])).toEqual(["acme", "initech"]);
    expect(selectStacks(stacks, [], ["?lobex", "acme*"])).toEqual(["initech"]);
  });

  it("matches whole names, with regular-expression characters standing for themselves", () => {
    expect(globToRegExp("acme").test("acme-staging")).toBe(false);
    expect(globToRegExp("a.c+").test("a.c+")).toBe(true);
    expect(globToRegExp("a.c+").test("abcc")).toBe(false);
  });

  it("rejects a --stack glob that matches nothing, listing the stacks", () => {
    expect(() => selectStacks(stacks, ["acmee"], [])).toThrow("--stack acmee matches no stack of the project (its stacks: acme, acme-staging, globex, initech)");
  });
});

describe("the rate budget", () => {
  it("runs at most --parallel stacks at once, and no more than there are", () => {
    expect(stacksAtOnce(4, 12)).toBe(4);
    expect(stacksAtOnce(8, 3)).toBe(3);
    expect(stacksAtOnce(4, 0)).toBe(1);
  });

  it.each<[string, number | undefined, number | undefined, number | undefined, number | undefined]>([
    ["the fleet's budget, whole, to a run of every stack", 10, undefined, undefined, 10],
    ["no budget when none is set", undefined, undefined, undefined, undefined],
    ["an N-th of it to each of N runners of a split run", 10, 4, undefined, 2.5],
    ["the runner's own budget when --shard-rps names one", 10, 4, 6, 6],
  ])("gives %s", (_, fleetBudget, shardCount, runnerOwn, expected) => {
    expect(runnerBudget(fleetBudget, shardCount, runnerOwn)).toBe(expected);
  });
});

describe("engine events of one stack", () => {
  const MONITOR = "urn:pulumi:acme::agency::monitoring:agency:ClientMonitoring$pulumi-nodejs:dynamic/monitoring:Monitor::acme-root";
  const STACK = "urn:pulumi:acme::agency::pulumi:pulumi:Stack::agency-acme";
  const step = (op: StepEventMetadata["op"], urn: string): StepEventMetadata => ({ op, urn, type: "pulumi-nodejs:dynamic/monitoring:Monitor", provider: "" });
  const event = (fields: Partial<EngineEvent>): EngineEvent => ({ sequence: 0, timestamp: 0, ...fields });

  it("follows the current step and counts the changes made", () => {
    const events = new StackEvents();
    events.observe(event({ resourcePreEvent: { metadata: step("create", MONITOR) } }));
    expect(events.step).toBe("creating Monitor acme-root");
    events.observe(event({ resOutputsEvent: { metadata: step("create", MONITOR) } }));
    events.observe(event({ resourcePreEvent: { metadata: step("same", MONITOR) } }));
    expect(events.step).toBe("creating Monitor acme-root");
    expect(events.counts).toEqual({ ...noChanges(), create: 1 });
    events.observe(event({ summaryEvent: { maybeCorrupt: false, durationSeconds: 3, resourceChanges: { create: 2, same: 4 }, policyPacks: {} } }));
    expect(events.summary).toEqual({ ...noChanges(), create: 2 });
  });

  it("prefers the error naming a resource over the stack's generic ones", () => {
    const events = new StackEvents();
    const diagnostic = (urn: string, message: string): EngineEvent => event({ diagnosticEvent: { urn, message, color: "never", severity: "error" } });
    events.observe(diagnostic(STACK, "update failed"));
    events.observe(diagnostic(MONITOR, "<{%reset%}>intervalSeconds: must be at least 10<{%reset%}>\n"));
    events.observe(diagnostic(STACK, "something else went wrong"));
    expect(events.firstError()).toBe("Monitor acme-root: intervalSeconds: must be at least 10");
  });

  it("keeps a failing program's message without its stack trace", () => {
    const events = new StackEvents();
    events.observe(
      event({
        diagnosticEvent: {
          urn: STACK,
          message: "Running program failed:\n    Error: contacts.emails.0: must be an email address\n        at Object.<anonymous> (/index.ts:9:1)\n",
          color: "never",
          severity: "error",
        },
      }),
    );
    expect(events.firstError()).toBe("Running program failed: Error: contacts.emails.0: must be an email address");
  });

  it("summarizes a CLI failure by its error lines", () => {
    const error = Object.assign(new Error("code: 255"), { commandResult: { stderr: "warning: x\nerror: could not find stack acme\nerror: update failed\n" } });
    expect(commandErrorMessage(error)).toBe("could not find stack acme");
    expect(commandErrorMessage(new Error("\nspawn pulumi ENOENT\nmore"))).toBe("spawn pulumi ENOENT");
    expect(errorSummary("error: <{%fg 1%}>boom\n\n")).toBe("boom");
  });
});

describe("a stack's settings file", () => {
  it("yields its plain values, and nothing for a stack without one", () => {
    const settings = "encryptionsalt: v1:abc\nconfig:\n  agency:client:\n    name: Acme # the shop\n  agency:key:\n    secure: v1:xyz\n";
    expect(configValue(settings, "agency:client")).toEqual({ name: "Acme" });
    expect(configValue("", "agency:client")).toBeUndefined();
  });
});

describe("the project's fleet section", () => {
  const base = "name: agency\nruntime: nodejs\n";

  it("reads the shared stack, the clients folder, the budget and the project-level configuration", () => {
    const project = parseProject(
      "/p",
      `${base}config:\n  monitoring:maxRequestsPerSecond: 20\nfleet:\n  shared:\n    dir: shared\n    stack: shared\n    outputs:\n      templateId: agency:templateId\n`,
    );
    expect(project).toEqual({
      dir: "/p",
      name: "agency",
      runtime: { name: "nodejs", options: {} },
      stackConfigDir: "/p",
      shared: { dir: "/p/shared", stack: "shared", outputs: { templateId: "agency:templateId" } },
      clients: { dir: "/p/clients", configKey: "agency:client" },
      budget: 20,
      drift: { managedBy: [], ignore: { ids: [], names: [] } },
      config: { "monitoring:maxRequestsPerSecond": 20 },
    });
  });

  it("needs no fleet section, and takes a budget written as a value object", () => {
    const project = parseProject("/p", `${base}stackConfigDir: stacks\nconfig:\n  monitoring:maxRequestsPerSecond:\n    value: 8\n`);
    expect(project.shared).toBeUndefined();
    expect(project.stackConfigDir).toBe("/p/stacks");
    expect(project.budget).toBe(8);
  });

  it("names the file and the field of a mistake", () => {
    expect(() => parseProject("/p", `${base}fleet:\n  shared:\n    dir: shared\n`)).toThrow("/p/Pulumi.yaml: fleet.shared.stack:");
    expect(() => parseProject("/p", `${base}fleet:\n  shared:\n    dir: s\n    stack: s\n    outputs:\n      id: templateId\n`)).toThrow(
      "fleet.shared.outputs.id: must be a configuration key",
    );
    expect(() => parseProject("/p", `${base}config:\n  monitoring:maxRequestsPerSecond: fast\n`)).toThrow("must be a positive number");
  });
});

describe("the command line", () => {
  it("reads the command, globs and numbers", () => {
    expect(parseFleetArgs(["up", "--stack", "a*", "--stack", "b", "--exclude", "c", "--parallel", "4", "--max-rps", "20", "--yes", "--json", "--no-shared"], "/here")).toEqual({
      command: "up",
      cwd: "/here",
      stacks: ["a*", "b"],
      exclude: ["c"],
      parallel: 4,
      maxRps: 20,
      shared: false,
      refresh: true,
      isolated: false,
      dryRun: false,
      json: true,
      markdown: false,
      yes: true,
      staleLockAfterMs: 60_000,
      pidCheck: true,
    });
    expect(parseFleetArgs(["up", "--stale-lock-after", "2m", "--break-locks-older-than", "1h", "--no-pid-check"], "/here")).toMatchObject({
      staleLockAfterMs: 120_000,
      breakLocksOlderThanMs: 3_600_000,
      pidCheck: false,
    });
    expect(parseFleetArgs(["preview", "--isolated"], "/here")).toMatchObject({ command: "preview", isolated: true });
    expect(parseFleetArgs(["up", "--no-refresh"], "/here")).toMatchObject({ command: "up", refresh: false });
    expect(parseFleetArgs(["preview", "--dry-run"], "/here")).toMatchObject({ command: "preview", dryRun: true });
    expect(parseFleetArgs(["up", "--shard", "2/4", "--max-rps", "20", "--shard-rps", "8"], "/here")).toMatchObject({ shard: { index: 2, count: 4 }, maxRps: 20, shardRps: 8 });
    expect(parseFleetArgs(["pause", "--resource", "web", "--resource", "fleet[*]", "--for", "2h", "--reason", "maintenance"], "/here")).toMatchObject({
      command: "pause",
      resources: ["web", "fleet[*]"],
      pause: { for: "2h", reason: "maintenance" },
    });
    expect(parseFleetArgs(["scopes", "--check", "--json"], "/here")).toMatchObject({ command: "scopes", check: true, json: true });
    expect(parseFleetArgs(["scopes", "--check", "--key-env", "NEW_KEY_{stack}"], "/here")).toMatchObject({ command: "scopes", check: true, keyEnv: "NEW_KEY_{stack}" });
    expect(parseFleetArgs(["up", "--check-scopes", "--shard", "1/2"], "/here")).toMatchObject({ command: "up", checkScopes: true });
  });

  it("defaults to the cores, at most 8", () => {
    const options = parseFleetArgs(["preview"], "/");
    expect(options.parallel >= 1 && options.parallel <= 8).toBe(true);
  });

  it("rejects what it cannot run", () => {
    expect(() => parseFleetArgs([], "/")).toThrow(UsageError);
    expect(() => parseFleetArgs(["deploy"], "/")).toThrow('unknown command "deploy"');
    expect(() => parseFleetArgs(["up", "acme"], "/")).toThrow("--stack GLOB");
    expect(() => parseFleetArgs(["up", "--parallel", "0"], "/")).toThrow("--parallel must be a whole number of at least 1");
    expect(() => parseFleetArgs(["up", "--max-rps=-1"], "/")).toThrow("--max-rps must be a positive number");
    expect(() => parseFleetArgs(["up", "--shard", "1/2", "--shard-rps", "0"], "/")).toThrow("--shard-rps must be a positive number");
  });

  it("refuses an option the verb does not take, naming the verbs it goes with", () => {
    expect(() => parseFleetArgs(["up", "--dry-run"], "/")).toThrow(
      new UsageError("--dry-run goes with preview, not with up; to ask at every deploy, set monitoring:dryRun in the stacks' configuration"),
    );
    expect(() => parseFleetArgs(["up", "--resource", "web"], "/")).toThrow(new UsageError("--resource goes with pause, resume and overrides, not with up"));
    expect(() => parseFleetArgs(["resume", "--for", "2h"], "/")).toThrow(new UsageError("--for goes with pause, not with resume"));
    expect(() => parseFleetArgs(["up", "--check"], "/")).toThrow(new UsageError("--check goes with scopes, not with up; before another verb, --check-scopes proves the scopes that verb needs"));
    expect(() => parseFleetArgs(["verify", "--check-scopes"], "/")).toThrow(new UsageError("--check-scopes goes with preview, up, refresh, destroy and drift, not with verify"));
    expect(() => parseFleetArgs(["preview", "--markdown"], "/")).toThrow(new UsageError("--markdown goes with drift and report merge, not with preview"));
    expect(() => parseFleetArgs(["refresh", "--yes"], "/")).toThrow(new UsageError("--yes goes with preview, up and destroy, not with refresh"));
    expect(() => parseFleetArgs(["report", "merge", "a.json", "--stack", "acme"], "/")).toThrow(/^--stack goes with preview, up, .* and scopes, not with report merge$/);
  });

  it("takes, for each verb, exactly the options its help shows, and refuses every other one the fleet knows", () => {
    const SAMPLES: Record<string, string> = { GLOB: "a*", DIR: "/d", N: "2", "I/N": "1/2", DURATION: "5m", INSTANT: "2030-01-01T00:00:00Z", TEXT: "why", FILE: "f.xml", NAME: "KEY" };
    /** `--stack GLOB` → ["--stack", "a*"]; the options a help lists, `--help` aside. */
    const optionsIn = (help: string): string[][] =>
      [...help.matchAll(/^ {2}(--[a-z-]+)(?: ([A-Z/]+))?/gm)].filter(([, name]) => name !== "--help").map(([, name, value]) => (value === undefined ? [name!] : [name!, SAMPLES[value]!]));
    const known = optionsIn(USAGE);
    expect(known.length).toBeGreaterThan(30);
    for (const verb of VERBS) {
      const words = verb === "report" ? ["report", "merge", "a.json"] : [verb];
      const taken = new Set(optionsIn(verbUsage(verb)).map(([name]) => name));
      expect(taken.size, verb).toBeGreaterThan(0);
      for (const option of known) {
        const refusal = (() => {
          try {
            parseFleetArgs([...words, ...option], "/");
            return undefined;
          } catch (error) {
            // A rule between options (--key-env needs --check) is no refusal of the option.
            return /, not with /.test((error as Error).message) ? (error as Error).message : undefined;
          }
        })();
        const name = verb === "report" ? "report merge" : verb;
        expect(refusal, `${name} ${option.join(" ")}`).toEqual(taken.has(option[0]!) ? undefined : expect.stringMatching(new RegExp(`^${option[0]} goes with .*, not with ${name}`)));
      }
    }
  });

  it("refuses options that need or exclude each other, whatever the verb", () => {
    expect(() => parseFleetArgs(["up", "--shard-rps", "5"], "/")).toThrow(new UsageError("--shard-rps goes with --shard I/N (this runner's budget); without a shard, --max-rps is the budget"));
    expect(() => parseFleetArgs(["drift", "--markdown", "--json"], "/")).toThrow(new UsageError("--markdown and --json exclude each other"));
    expect(() => parseFleetArgs(["scopes", "--key-env", "NEW_KEY"], "/")).toThrow(new UsageError("--key-env goes with scopes --check"));
  });

  it("answers --help with the verb's own options, or with every verb and option", async () => {
    const help = async (...argv: string[]) => {
      let text = "";
      const code = await fleet.run(argv, { stdout: { write: (chunk: string) => (text += chunk) }, stderr: { write: () => true }, stdin: process.stdin, signals: process, env: {} });
      return { code, text };
    };
    const up = await help("up", "--help");
    expect(up.code).toBe(0);
    expect(up.text).toMatch(/^Usage: pulumi-monitoring fleet up \[options\]\n/);
    expect(up.text).toContain("\n  --yes, -y        Do not ask for confirmation\n");
    expect(up.text).not.toContain("--dry-run");
    const preview = await help("preview", "-h");
    expect(preview.text).toContain("\n  --dry-run        Each stack's preview also asks the service");
    expect(preview.text).toContain("\n  --yes, -y        Nothing to confirm (a preview changes nothing)");
    const verify = await help("verify", "--help");
    expect(verify.text).toContain("\n  --all            Every object of each stack, not only what its last deploy created or changed\n");
    const all = await help("--help");
    expect(all.text).toMatch(/^Usage: pulumi-monitoring fleet <command> \[options\]\n/);
    expect(all.text).toContain("\n  --dry-run        preview: each stack's preview also asks the service");
    expect(all.text).toContain("\n  --yes, -y        up/destroy: do not ask for confirmation; preview: nothing to confirm");
    expect(all.text).toContain("\n  --all            preview/up: every selected stack, not only those the change affects");
    expect(all.text).toContain("; verify: every object of each stack");
    // No line of a verb's help is wider than the help's width.
    for (const verb of VERBS) expect(verbUsage(verb).split("\n").filter((line) => line.length > 100)).toEqual([]);
  });

  it("says that pause, resume and apply-due send their calls straight to the service and write the state once", () => {
    const apply = verbUsage("apply-due");
    expect(apply).toContain("straight to the service");
    expect(apply).toContain("`pulumi stack import`");
    expect(apply).not.toContain("--target");
    expect(verbUsage("pause")).toContain("`pulumi stack import`");
    expect(USAGE).not.toContain("--target");
  });
});

describe("the live lines", () => {
  const counts = { ...noChanges(), create: 2 };

  it("say what each stack is doing", () => {
    expect(liveLine("acme", { state: "queued" }, 6, 0)).toBe("acme    queued");
    expect(liveLine("acme", { state: "running", step: "creating Monitor acme-root", counts, startedAt: 0 }, 4, 2500)).toBe(
      "acme  running 2.5s  creating Monitor acme-root (create 2)",
    );
    expect(liveLine("acme", { state: "done", result: "succeeded", counts, durationMs: 12_000 }, 4, 0)).toBe("acme  succeeded in 12.0s: create 2");
    expect(liveLine("acme", { state: "failed", error: "boom", durationMs: 61_000 }, 4, 0)).toBe("acme  failed after 1m01s: boom");
  });

  it("sum up the quiet stacks when they do not fit the screen", () => {
    const entries: [string, LiveState][] = [
      ...Array.from({ length: 30 }, (_, index): [string, LiveState] => [`q${index}`, { state: "queued" }]),
      ["run", { state: "running", counts, startedAt: 0 }],
      ["bad", { state: "failed", error: "x", durationMs: 1 }],
      ...Array.from({ length: 5 }, (_, index): [string, LiveState] => [`d${index}`, { state: "done", result: "succeeded", counts, durationMs: 1 }]),
    ];
    const lines = fitToScreen(entries, 12);
    expect(lines.map(([name, state]) => (typeof state === "string" ? state : name))).toEqual(["run", "bad", "… 30 queued", "… 5 done"]);
    expect(fitToScreen(entries.slice(0, 5), 12)).toHaveLength(5);
  });
});

describe("the report", () => {
  const row = (stack: string, result: StackReport["result"], fields: Partial<StackReport> = {}): StackReport => ({
    stack,
    role: "client",
    result,
    counts: noChanges(),
    durationMs: 1500,
    ...fields,
  });
  const report = (stacks: StackReport[], fields: Partial<FleetReport> = {}): FleetReport => ({ verb: "up", project: "agency", parallel: 2, interrupted: false, stacks, ...fields });

  it("is a table of stacks by changes, duration and result, then the failures with their first error", () => {
    const table = renderTable(
      report([
        row("agency-shared/shared", "succeeded", { role: "shared", counts: { ...noChanges(), create: 2 } }),
        row("acme", "succeeded", { counts: { create: 6, update: 1, delete: 0, replace: 3 }, durationMs: 75_000 }),
        row("globex", "failed", { error: "Monitor globex-root: intervalSeconds: must be at least 10" }),
      ]),
    );
    expect(table).toBe(
      [
        "stack                 create  update  delete  replace  duration  result",
        "--------------------  ------  ------  ------  -------  --------  ---------",
        "agency-shared/shared       2       0       0        0      1.5s  succeeded",
        "acme                       6       1       0        3     1m15s  succeeded",
        "globex                     0       0       0        0      1.5s  failed",
        "",
        "Failures:",
        "  globex: Monitor globex-root: intervalSeconds: must be at least 10",
        "",
      ].join("\n"),
    );
  });

  it("lists drift field by field and the way back for interrupted stacks", () => {
    const drift = [{ type: "Monitor", name: "acme-root", urn: "u", drift: "changed" as const, fields: [{ field: "name", recorded: "Home", actual: "Renamed", declared: true }] }];
    const table = renderTable(report([row("acme", "drifted", { drift }), row("globex", "interrupted")], { verb: "drift" }));
    expect(table).toContain('  acme: Monitor acme-root: name "Home" -> "Renamed"');
    expect(table).toContain("Interrupted while running, possibly mid-update: globex.\nRun `fleet drift` again: it reads every object afresh.");
  });

  it("says what the next run does by itself for interrupted stacks, names the locks taken over and why a lock was not", () => {
    const holder = { user: "ci", host: "runner-7", pid: 4242, since: "2026-11-23T20:40:00Z" };
    const table = renderTable(
      report([
        row("acme", "succeeded", { takenOver: [{ holder, why: "its lease was last renewed 95 s ago (stale after 60 s, --stale-lock-after)" }] }),
        row("globex", "interrupted"),
        row("hooli", "locked", { lock: holder, lockNote: "its run renewed its lease 2 s ago" }),
      ]),
    );
    expect(table).toContain(
      [
        "Locks taken over from runs that had stopped (each stack was then read from the service and run):",
        "  acme: the lock of ci@runner-7 (pid 4242, since 2026-11-23T20:40:00Z): its lease was last renewed 95 s ago (stale after 60 s, --stale-lock-after)",
      ].join("\n"),
    );
    expect(table).toContain("  hooli: not taken over: its run renewed its lease 2 s ago");
    expect(table).toContain("Interrupted while running, possibly mid-update: globex.\nRun `fleet up` again: it completes them by itself.");
    // No state surgery: the next run needs none.
    expect(table).not.toMatch(/pending_operations|stack export|stack import/);
  });

  it("says why programs ran in a process per stack, unless --isolated asked for it", () => {
    const reason = "in a process per stack: the project's runtime is python";
    expect(renderTable(report([row("acme", "succeeded")], { programs: reason }))).toContain(`\nPrograms ran ${reason}.\n`);
    expect(renderTable(report([row("acme", "succeeded")], { programs: "in a process per stack: --isolated" }))).not.toContain("Programs ran");
    expect(renderTable(report([row("acme", "succeeded")], { programs: "in the fleet process" }))).not.toContain("Programs ran");
  });

  it("exits non-zero when a stack failed, when drift was found, or when interrupted", () => {
    expect(exitCodeOf(report([row("a", "succeeded"), row("b", "no changes")]))).toBe(0);
    expect(exitCodeOf(report([row("a", "succeeded"), row("b", "failed")]))).toBe(1);
    expect(exitCodeOf(report([row("a", "in sync"), row("b", "drifted")], { verb: "drift" }))).toBe(3);
    expect(exitCodeOf(report([row("a", "drifted"), row("b", "failed")], { verb: "drift" }))).toBe(1);
    expect(exitCodeOf(report([row("a", "interrupted")], { interrupted: true }))).toBe(130);
  });
});

describe("where a project's program runs", () => {
  const repoRoot = join(__dirname, "..", "..");
  const made: string[] = [];
  afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

  /** A project folder holding `files`, outside this repository (so it sees none of its packages). */
  async function projectWith(pulumiYaml: string, files: Record<string, string> = {}) {
    const dir = await mkdtemp(join(tmpdir(), "fleet-program-"));
    made.push(dir);
    for (const [file, text] of Object.entries({ "Pulumi.yaml": pulumiYaml, ...files })) {
      await mkdir(join(dir, file, ".."), { recursive: true });
      await writeFile(join(dir, file), text);
    }
    return parseProject(dir, pulumiYaml);
  }
  const ownPulumi = { "node_modules/@pulumi/pulumi/package.json": '{"name":"@pulumi/pulumi","main":"index.js"}', "node_modules/@pulumi/pulumi/index.js": "" };

  it.each([
    ["another runtime", "name: p\nruntime: python\n", {}, "the project's runtime is python"],
    ["Node.js flags", "name: p\nruntime:\n  name: nodejs\n  options:\n    nodeargs: --max-old-space-size=4096\n", ownPulumi, "the project passes Node.js flags (runtime.options.nodeargs)"],
    ["an ES module program", "name: p\nruntime: nodejs\n", { "package.json": '{"type":"module"}', ...ownPulumi }, "the program is an ES module (package.json type: module)"],
    ["no @pulumi/pulumi in reach", "name: p\nruntime: nodejs\n", { "package.json": "{}" }, "@pulumi/pulumi is not installed where the project can load it"],
    ["a @pulumi/pulumi of its own", "name: p\nruntime: nodejs\n", { "package.json": "{}", ...ownPulumi }, "the project loads its own @pulumi/pulumi"],
  ])("runs in a process per stack with %s", async (_case, pulumiYaml, files, reason) => {
    const runner = inProcessRunner(await projectWith(pulumiYaml, files));
    expect(runner.inProcess).toBe(false);
    expect(runner.inProcess ? "" : runner.reason).toContain(reason);
  });

  it("runs inside the fleet for a Node.js project that loads the fleet's @pulumi/pulumi", () => {
    const dir = join(repoRoot, "examples", "agency");
    // As built: from the sources, the whole repository is the package's own modules (see in-process-runner.test.ts).
    const built = builtModule<typeof import("../../cli/fleet/stacks/in-process.js")>("cli/fleet/stacks/in-process.ts");
    expect(built.inProcessRunner(parseProject(dir, "name: agency\nruntime:\n  name: nodejs\n  options:\n    typescript: true\nmain: index.ts\n")).inProcess).toBe(true);
  });
});

describe("an operation's abort (Ctrl-C outside a terminal)", () => {
  it("reaches an operation whose CLI runs at once", () => {
    const ctrlC = new AbortController();
    const operation = abortOnceListening(ctrlC.signal);
    operation.listening();
    ctrlC.abort();
    expect(operation.signal.aborted).toBe(true);
  });

  it("that came before the CLI listened waits for the operation's first event, then reaches it, once", () => {
    const ctrlC = new AbortController();
    const operation = abortOnceListening(ctrlC.signal);
    ctrlC.abort();
    // The Automation API would have missed an abort sent now: it has not started the CLI yet.
    expect(operation.signal.aborted).toBe(false);
    const aborts: unknown[] = [];
    operation.signal.addEventListener("abort", () => aborts.push(operation.signal.reason));
    operation.listening();
    operation.listening();
    expect(operation.signal.aborted).toBe(true);
    expect(aborts).toHaveLength(1);
  });

  it("no longer reaches an operation that ended", () => {
    const ctrlC = new AbortController();
    const operation = abortOnceListening(ctrlC.signal);
    operation.listening();
    operation.dispose();
    ctrlC.abort();
    expect(operation.signal.aborted).toBe(false);
  });
});
