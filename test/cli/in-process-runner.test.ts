/**
 * The in-process runner's TypeScript hooks are process-wide: projects that would get the same
 * ts-node setup (no tsconfig.json of their own, the same PULUMI_NODEJS_* settings) share them and
 * run in the process one after the other, each its own module code afresh; a project with another
 * setup is sent to a process of its own, naming the project the hooks were set up for, and so is
 * a project that lies inside the package's own modules; a program file's new text runs once it
 * changes. The programs here declare no resources,
 * so they run without an engine.
 */
import type { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fromSource from "../../cli/fleet/stacks/in-process.js";
import { parseProject } from "../../cli/project/project.js";
import { builtModule, repoRoot } from "../support/pulumi.js";

/** As built, as the fleet runs it: from the sources, this repository is the package's own modules, kept between runs. */
const { inProcessRunner } = builtModule<typeof fromSource>("cli/fleet/stacks/in-process.ts");

const environment = { PULUMI_NODEJS_TRANSPILE_ONLY: "true" };

describe("the in-process runner's TypeScript setup", () => {
  let workDir: string;

  /** A project in `name` whose program exports its name and a number, typed, under `.work/`. */
  async function project(name: string, files: Record<string, string> = {}) {
    const dir = join(workDir, name);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "index.ts"), `const answer: number = 42;\nexport const project: string = "${name}";\nexport { answer };\n`);
    for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
    return parseProject(dir, `name: ${name}\nruntime: nodejs\nmain: index.ts\n`);
  }

  beforeAll(async () => {
    // Inside the repository, so that the programs resolve the repository's @pulumi/pulumi.
    workDir = join(repoRoot, ".work", `in-process-runner-${randomBytes(4).toString("hex")}`);
    await mkdir(workDir, { recursive: true });
  });
  afterAll(async () => {
    process.chdir(repoRoot);
    await rm(workDir, { recursive: true, force: true });
  });

  it("runs two projects without a tsconfig.json one after the other, each program afresh", async () => {
    for (const name of ["first", "second"]) {
      const runner = inProcessRunner(await project(name), environment);
      expect(runner).toMatchObject({ inProcess: true });
      if (runner.inProcess) expect(await runner.program()).toEqual({ project: name, answer: 42 });
    }
  });

  it("runs a program file's new text once it changes: a file's transpiled text is kept only while its source stays the same", async () => {
    const edited = await project("edited");
    const run = async () => {
      const runner = inProcessRunner(edited, environment);
      return runner.inProcess ? runner.program() : runner;
    };
    expect(await run()).toEqual({ project: "edited", answer: 42 });
    await writeFile(join(edited.dir, "index.ts"), `const answer: number = 43;\nexport const project: string = "edited";\nexport { answer };\n`);
    expect(await run()).toEqual({ project: "edited", answer: 43 });
    expect(await run()).toEqual({ project: "edited", answer: 43 });
  });

  it("runs a project after the folder the last run left the process in was removed", async () => {
    const removed = await project("removed");
    const before = inProcessRunner(removed, environment);
    if (before.inProcess) await before.program();
    await rm(removed.dir, { recursive: true, force: true });
    const runner = inProcessRunner(await project("after"), environment);
    expect(runner.inProcess ? await runner.program() : runner).toEqual({ project: "after", answer: 42 });
  });

  it("sends a project inside the package's own modules to a process of its own: they are kept between runs, so a second run would declare nothing", async () => {
    // From the sources, the package's own modules are the whole repository, .work/ included.
    expect(fromSource.inProcessRunner(await project("inside"), environment)).toEqual({ inProcess: false, reason: `the project lies inside this package's own modules (${repoRoot})` });
  });

  it("sends a project with a tsconfig.json of its own to a process of its own, naming the first", async () => {
    const runner = inProcessRunner(await project("configured", { "tsconfig.json": '{ "compilerOptions": { "strict": true } }\n' }), environment);
    expect(runner).toEqual({ inProcess: false, reason: `TypeScript is already set up for ${join(workDir, "first")}` });
  });

  it("sends a project that would be type-checked to a process of its own", async () => {
    const runner = inProcessRunner(await project("checked"), {});
    expect(runner).toMatchObject({ inProcess: false, reason: expect.stringContaining("TypeScript is already set up") });
  });
});

describe("the in-process runner's error listeners", () => {
  it("takes back a listener a run adds for both error events, as @pulumi/pulumi's inline program server adds its one handler", async () => {
    const dir = join(repoRoot, ".work", `in-process-listeners-${randomBytes(4).toString("hex")}`);
    await mkdir(dir, { recursive: true });
    try {
      await writeFile(join(dir, "index.ts"), "export {};\n");
      expect(inProcessRunner(parseProject(dir, "name: listeners\nruntime: nodejs\nmain: index.ts\n"), environment)).toMatchObject({ inProcess: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const events = ["uncaughtException", "unhandledRejection"] as const;
    const counts = () => events.map((event) => process.listenerCount(event));
    // The store each run of an inline program runs in (@pulumi/pulumi's runtime/state).
    const runs = (globalThis as { asyncLocalStorage?: AsyncLocalStorage<object> }).asyncLocalStorage;
    expect(runs, "@pulumi/pulumi's store of runs").toBeDefined();
    const run = () =>
      runs!.run({}, async () => {
        const handler = (): void => undefined;
        for (const event of events) process.on(event, handler);
        for (const event of events) process.off(event, handler);
      });
    // The first may leave Node.js's domain module its one listener of its own, for good.
    await run();
    const settled = counts();
    for (let count = 0; count < 3; count++) await run();
    expect(counts()).toEqual(settled);
  });
});
