/**
 * `pulumi-monitoring fleet` running a project's program inside its own process, once per stack:
 * what a program sees must be what it sees under `pulumi up`, where each stack's run has a
 * process to itself. The program here declares no resources, only outputs that report what it saw.
 * Also: an error left unhandled fails only its own stack, Ctrl-C stops cleanly, and type errors
 * are reported as `pulumi up` reports them. The fleet runs as a child process, as users run it.
 */
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/fleet/report.js";
import { repoRoot, testPassphrase } from "../support/pulumi.js";

/** Three stacks, two at a time: the third runs in a slot another stack's program ran in. */
const STACKS = ["north", "south", "east"];
const STEP_MS = 300_000;

/** Reports what the program saw; `./counter` keeps a module-level count, as module state does. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { nextDeclaration } from "./counter";

const config = new pulumi.Config();
console.log(\`program output of \${pulumi.getStack()}\`);
export const stack = pulumi.getStack();
export const greeting = config.require("greeting");
export const declarations = nextDeclaration();
export const workingDirectory = process.cwd();
export const secretGreeting = config.requireSecret("secretGreeting");
// Resolves late, so that the stacks running at once overlap; the fleet's environment can make it later.
export const settled = new Promise<string>((resolve) => setTimeout(() => resolve("settled"), Number(process.env["INPROCESS_SETTLE_MS"] ?? 1500)));
// An error the program leaves unhandled, when the stack's configuration asks for one.
const failure = config.get("failWith");
if (failure !== undefined) void Promise.reject(new Error(failure));
`;
const COUNTER = `let declarations = 0;
export function nextDeclaration(): number {
  declarations += 1;
  return declarations;
}
`;

describe("fleet programs inside the fleet process", () => {
  let workDir: string;
  let env: Record<string, string>;

  /** Runs `fleet <args> --json`; `typeCheck` leaves out PULUMI_NODEJS_TRANSPILE_ONLY, as a user's shell would. */
  function fleet(args: string[], { typeCheck = false } = {}): Promise<{ code: number; report: FleetReport; stderr: string }> {
    const { PULUMI_NODEJS_TRANSPILE_ONLY: _transpileOnly, ...typeChecking } = { ...process.env, ...env };
    return new Promise((resolve) =>
      execFile(process.execPath, [join(repoRoot, "dist/cli/main.js"), "fleet", ...args, "--json", "--cwd", workDir], { env: typeCheck ? typeChecking : { ...process.env, ...env } }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, report: JSON.parse(stdout) as FleetReport, stderr: stdout + stderr }),
      ),
    );
  }

  beforeAll(async () => {
    // Inside the repository, so that the program loads the fleet's own @pulumi/pulumi.
    workDir = join(repoRoot, ".work", `fleet-in-process-${randomBytes(4).toString("hex")}`);
    await mkdir(join(workDir, ".state"), { recursive: true });
    await writeFile(join(workDir, "Pulumi.yaml"), "name: inprocess\nmain: index.ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
    await writeFile(join(workDir, "index.ts"), PROGRAM);
    await writeFile(join(workDir, "counter.ts"), COUNTER);
    env = { PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`, PULUMI_CONFIG_PASSPHRASE: testPassphrase, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_NODEJS_TRANSPILE_ONLY: "true" };
    const workspace = await LocalWorkspace.create({ workDir, envVars: env });
    for (const name of STACKS) {
      const stack = await Stack.create(name, workspace);
      await stack.setAllConfig({ "inprocess:greeting": { value: `hello ${name}` }, "inprocess:secretGreeting": { value: `psst ${name}`, secret: true } });
    }
  }, STEP_MS);
  afterAll(async () => {
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("gives each stack, two at a time, its own name, configuration and fresh project modules", async () => {
    const { code, report, stderr } = await fleet(["up", "--yes", "--parallel", "2"]);
    expect(code, stderr).toBe(0);
    expect(report.programs).toBe("in the fleet process");
    expect(report.stacks.map((stack) => stack.result)).toEqual(STACKS.map(() => "succeeded"));
    // The program's console output is its stack's, not written over the fleet's display.
    expect(stderr).not.toContain("program output of");

    const workspace = await LocalWorkspace.create({ workDir, envVars: env });
    for (const name of STACKS) {
      const outputs = await (await Stack.select(name, workspace)).outputs();
      expect(outputs["stack"]?.value).toBe(name);
      expect(outputs["greeting"]?.value).toBe(`hello ${name}`);
      // 1 for every stack: the project's modules ran again for it, as in a process of its own.
      expect(outputs["declarations"]?.value).toBe(1);
      expect(outputs["workingDirectory"]?.value).toBe(workDir);
      expect(outputs["secretGreeting"]).toEqual({ value: `psst ${name}`, secret: true });
    }
  }, STEP_MS);

  it("agrees with the same program run in a process of its own: nothing to change", async () => {
    // The stacks run in name order: south, the third, ran in a slot east's or north's program had
    // run in. Had the project's modules not run again for it, its outputs (declarations: 2) would
    // differ from those of a process of its own.
    const isolated = await fleet(["preview", "--isolated", "--stack", "south"]);
    expect(isolated.code, isolated.stderr).toBe(0);
    expect(isolated.report.programs).toBe("in a process per stack: --isolated");
    expect(isolated.report.stacks.map((stack) => [stack.stack, stack.result])).toEqual([["south", "no changes"]]);
  }, STEP_MS);

  it("fails only the stack whose program left an error unhandled, not those running beside it", async () => {
    const workspace = await LocalWorkspace.create({ workDir, envVars: env });
    const east = await Stack.select("east", workspace);
    await east.setConfig("inprocess:failWith", { value: "east fails on purpose" });
    try {
      // east and north run at once.
      const { code, report } = await fleet(["preview", "--parallel", "2", "--stack", "east", "--stack", "north"]);
      expect(code).toBe(1);
      expect(Object.fromEntries(report.stacks.map((stack) => [stack.stack, stack.result]))).toEqual({ east: "failed", north: "no changes" });
      expect(report.stacks.find((stack) => stack.stack === "east")?.error).toContain("east fails on purpose");
    } finally {
      await east.removeConfig("inprocess:failWith");
    }
  }, STEP_MS);

  it("on Ctrl-C, stops the running stacks, starts no other, reports them and exits 130; the next up of the stopped stacks completes", async () => {
    // Every program waits a minute for its last output, in this run of the fleet only.
    const child = spawn(process.execPath, [join(repoRoot, "dist/cli/main.js"), "fleet", "up", "--yes", "--parallel", "2", "--json", "--cwd", workDir], {
      env: { ...process.env, ...env, INPROCESS_SETTLE_MS: "60000" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // Interrupted once both programs wait on their slow output.
    await new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if ((stderr.match(/ running /g) ?? []).length >= 2) setTimeout(resolve, 3000);
      }),
    );
    child.kill("SIGINT");
    expect(await exited, stderr).toBe(130);
    const report = JSON.parse(stdout) as FleetReport;
    expect(report.interrupted).toBe(true);
    expect(Object.fromEntries(report.stacks.map((stack) => [stack.stack, stack.result]))).toEqual({ east: "interrupted", north: "interrupted", south: "not started" });

    // Their updates were cancelled, so no lock or pending operation is left in the way.
    const again = await fleet(["up", "--yes", "--parallel", "2", "--stack", "east", "--stack", "north"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.report.stacks.map((stack) => [stack.stack, stack.result])).toEqual([
      ["east", "succeeded"],
      ["north", "succeeded"],
    ]);
  }, STEP_MS);

  it("type-checks the program as `pulumi up` does, failing every stack with the compiler's message", async () => {
    await writeFile(join(workDir, "index.ts"), `${PROGRAM}export const mistyped: number = "not a number";\n`);
    try {
      const { code, report } = await fleet(["preview", "--parallel", "2", "--stack", "north", "--stack", "south"], { typeCheck: true });
      expect(code).toBe(1);
      for (const stack of report.stacks) {
        expect(stack.result).toBe("failed");
        expect(stack.error).toContain("TS2322");
      }
    } finally {
      await writeFile(join(workDir, "index.ts"), PROGRAM);
    }
  }, STEP_MS);
});
