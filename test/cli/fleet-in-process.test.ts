/**
 * `pulumi-monitoring fleet` running a project's program inside its own process, once per stack:
 * what a program sees must be what it sees under `pulumi up`, where each stack's run has a
 * process to itself. The program here declares no resources, only outputs that report what it saw.
 * Also: an error left unhandled fails only its own stack, Ctrl-C stops cleanly (and the stack it
 * stopped runs again at the next deploy, while one nothing affected is skipped), and type errors
 * are reported as `pulumi up` reports them. The fleet runs as a child process, as users run it.
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/report/fleet.js";
import { repoRoot, stacksInFiles, testPassphrase } from "../support/pulumi.js";
import { exportedFromStateFile, outputsOf, stateFilePath } from "../support/state-file.js";

/** Three stacks: two at a time when Ctrl-C stops them, all at once when south's program fails beside the others. */
const STACKS = ["north", "south", "east"];
const SUCCEEDING = ["east", "north"];
const STEP_MS = 300_000;

/** Reports what the program saw; `./counter` keeps a module-level count, as module state does. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { readdirSync, writeFileSync } from "node:fs";
import { nextDeclaration } from "./counter";

const config = new pulumi.Config();
console.log(\`program output of \${pulumi.getStack()}\`);
export const stack = pulumi.getStack();
export const greeting = config.require("greeting");
export const declarations = nextDeclaration();
export const workingDirectory = process.cwd();
export const secretGreeting = config.requireSecret("secretGreeting");
// Says that it runs, when the fleet's environment names a folder for it.
const started = process.env["INPROCESS_STARTED_DIR"];
if (started !== undefined) writeFileSync(\`\${started}/\${pulumi.getStack()}\`, "");
const failing = process.env["INPROCESS_FAILING_STACK"];
// Resolves late when the fleet's environment asks, so that the stacks running at once overlap:
// once the INPROCESS_TOGETHER programs it names have all started and the INPROCESS_FAILING_STACK's
// error has been raised (that program says so, in ".raised"), then INPROCESS_SETTLE_MS later. A
// run that asks nothing (a preview of one stack) waits for nothing.
function ready(): boolean {
  const names = readdirSync(started as string);
  return names.filter((name) => !name.startsWith(".")).length >= Number(process.env["INPROCESS_TOGETHER"] ?? 0) && (failing === undefined || names.includes(".raised"));
}
async function allStarted(): Promise<void> {
  while (started !== undefined && !ready()) await new Promise((resolve) => setTimeout(resolve, 50));
}
export const settled = allStarted().then(() => new Promise<string>((resolve) => setTimeout(() => resolve("settled"), Number(process.env["INPROCESS_SETTLE_MS"] ?? 0))));
// An error the program leaves unhandled, when the fleet's environment names this stack. Node.js
// raises it once this turn of the event loop is over; the next turn says it was raised.
if (failing === pulumi.getStack()) {
  void Promise.reject(new Error(\`\${pulumi.getStack()} fails on purpose\`));
  if (started !== undefined) setImmediate(() => writeFileSync(\`\${started}/.raised\`, ""));
}
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

  /**
   * Runs `fleet <args> --json`, with `environment` added to the project's; `typeCheck` leaves out
   * PULUMI_NODEJS_TRANSPILE_ONLY, as a user's shell would.
   */
  function fleet(args: string[], { typeCheck = false, environment = {} as Record<string, string> } = {}): Promise<{ code: number; report: FleetReport; stderr: string }> {
    const { PULUMI_NODEJS_TRANSPILE_ONLY: _transpileOnly, ...typeChecking } = { ...process.env, ...env, ...environment };
    return new Promise((resolve, reject) =>
      execFile(process.execPath, [join(repoRoot, "dist/cli/main.js"), "fleet", ...args, "--json", "--cwd", workDir], { env: typeCheck ? typeChecking : { ...process.env, ...env, ...environment } }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        try {
          resolve({ code, report: JSON.parse(stdout) as FleetReport, stderr: stdout + stderr });
        } catch {
          reject(new Error(`fleet ${args.join(" ")} exited with ${code} and printed no report: ${stdout}${stderr}`));
        }
      }),
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
    await stacksInFiles(workDir, join(workDir, ".state"), STACKS, (name) => ({ "inprocess:greeting": { value: `hello ${name}` }, "inprocess:secretGreeting": { value: `psst ${name}`, secret: true } }));
  }, STEP_MS);
  afterAll(async () => {
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("on Ctrl-C, stops the running stacks, starts no other, reports them and exits 130", async () => {
    // Every program waits a minute for its last output, in this run of the fleet only, and says
    // when it runs: its Pulumi CLI has started by then, so the Ctrl-C reaches a running operation.
    const started = join(workDir, ".started");
    await mkdir(started);
    const child = spawn(process.execPath, [join(repoRoot, "dist/cli/main.js"), "fleet", "up", "--yes", "--parallel", "2", "--json", "--cwd", workDir], {
      env: { ...process.env, ...env, INPROCESS_SETTLE_MS: "60000", INPROCESS_STARTED_DIR: started },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // Interrupted once both programs of the first two stacks (in name order) wait on their slow output.
    const deadline = Date.now() + STEP_MS / 2;
    while ((await readdir(started)).length < 2) {
      if (Date.now() > deadline) throw new Error(`the programs never ran: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill("SIGINT");
    expect(await exited, stderr).toBe(130);
    expect((await readdir(started)).sort()).toEqual(["east", "north"]);
    const report = JSON.parse(stdout) as FleetReport;
    expect(report.interrupted).toBe(true);
    // Two at a time: south waited for a slot, and none was free before the Ctrl-C.
    expect(Object.fromEntries(report.stacks.map((stack) => [stack.stack, stack.result]))).toEqual({ east: "interrupted", north: "interrupted", south: "not started" });
  }, STEP_MS);

  it("gives each stack its own name, configuration and fresh project modules; fails only the stack whose program left an error unhandled; completes the stacks Ctrl-C stopped", async () => {
    // All three at once: south's error is left unhandled while the others' programs run beside it,
    // waiting for south's to start and its error to be raised.
    const started = join(workDir, ".started-together");
    await mkdir(started);
    const { code, report, stderr } = await fleet(["up", "--yes", "--parallel", "3"], {
      environment: { INPROCESS_FAILING_STACK: "south", INPROCESS_STARTED_DIR: started, INPROCESS_TOGETHER: "3" },
    });
    expect(code, stderr).toBe(1);
    expect(report.programs).toBe("in the fleet process");
    // east and north, stopped by the Ctrl-C above, complete: their updates were cancelled, so no
    // lock or pending operation is left in the way.
    expect(Object.fromEntries(report.stacks.map((stack) => [stack.stack, stack.result]))).toEqual({ east: "succeeded", north: "succeeded", south: "failed" });
    expect(report.stacks.find((stack) => stack.stack === "south")?.error).toContain("south fails on purpose");
    // The program's console output is its stack's, not written over the fleet's display.
    expect(stderr).not.toContain("program output of");

    for (const name of SUCCEEDING) {
      const outputs = outputsOf(exportedFromStateFile(await readFile(stateFilePath(join(workDir, ".state"), "inprocess", name), "utf8"))!);
      expect(outputs["stack"]?.value).toBe(name);
      expect(outputs["greeting"]?.value).toBe(`hello ${name}`);
      // 1 for every stack, though three programs ran in this process: the project's modules ran
      // again for each, as in a process of its own.
      expect(outputs["declarations"]?.value).toBe(1);
      expect(outputs["workingDirectory"]?.value).toBe(workDir);
      expect(outputs["secretGreeting"]).toEqual({ value: `psst ${name}`, secret: true });
    }
  }, STEP_MS);

  it("agrees with the same program run in a process of its own: nothing to change", async () => {
    // north's program ran beside two others in the fleet process. Had the project's modules not run
    // again for it, its outputs (declarations: 2 or 3) would differ from those of a process of its own.
    const isolated = await fleet(["preview", "--isolated", "--all", "--stack", "north"]);
    expect(isolated.code, isolated.stderr).toBe(0);
    expect(isolated.report.programs).toBe("in a process per stack: --isolated");
    expect(isolated.report.stacks.map((stack) => [stack.stack, stack.result])).toEqual([["north", "no changes"]]);
  }, STEP_MS);

  it("runs a stack whose last up was interrupted, though nothing else changed, and skips one nothing affected", async () => {
    // north deployed above; --all runs it again, and Ctrl-C stops it once its program runs.
    const started = join(workDir, ".started-again");
    await mkdir(started);
    const child = spawn(process.execPath, [join(repoRoot, "dist/cli/main.js"), "fleet", "up", "--yes", "--all", "--stack", "north", "--json", "--cwd", workDir], {
      env: { ...process.env, ...env, INPROCESS_SETTLE_MS: "60000", INPROCESS_STARTED_DIR: started },
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + STEP_MS / 2;
    while ((await readdir(started)).length < 1) {
      if (Date.now() > deadline) throw new Error("north's program never ran");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect((JSON.parse(stdout) as FleetReport).stacks.map((stack) => [stack.stack, stack.result])).toEqual([["north", "interrupted"]]);

    const { code, report, stderr } = await fleet(["preview", "--stack", "north", "--stack", "east"]);
    expect(code, stderr).toBe(0);
    expect(report.selection).toBe("affected");
    // In the project's order. This program declares no object of this package: nothing on the service to compare.
    expect(report.stacks).toEqual([
      expect.objectContaining({ stack: "east", result: "skipped", note: expect.stringMatching(/^unchanged since its deploy at .*, no object of this package in its state, nothing due$/) }),
      expect.objectContaining({ stack: "north", result: "no changes", affected: "no successful deploy recorded (never deployed by the fleet, or its last run failed or was interrupted)" }),
    ]);
  }, STEP_MS);

  it("type-checks the program as `pulumi up` does, failing every stack with the compiler's message", async () => {
    await writeFile(join(workDir, "index.ts"), `${PROGRAM}export const mistyped: number = "not a number";\n`);
    try {
      const { code, report } = await fleet(["preview", "--parallel", "2", "--stack", "north", "--stack", "south"], { typeCheck: true });
      expect(code).toBe(1);
      expect(report.stacks.map((stack) => stack.stack)).toEqual(["north", "south"]);
      for (const stack of report.stacks) {
        expect(stack.result).toBe("failed");
        expect(stack.error).toContain("TS2322");
      }
    } finally {
      await writeFile(join(workDir, "index.ts"), PROGRAM);
    }
  }, STEP_MS);
});
