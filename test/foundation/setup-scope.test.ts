/**
 * What a first run installs: the demo (and every command but the tests) needs Node, the
 * dependencies and the Pulumi CLI; PostgreSQL, shellcheck and actionlint serve only the tests of
 * team setups, so only `run.sh --test-tools` (the test scripts) sets them up. The dependencies are
 * installed once per package-lock.json on the machine, and each new checkout links them, and copies
 * the build of sources built before.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { copyFile, mkdir, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(__dirname, "..", "..");
const TEST_TOOL_VARIABLES = ["PULUMI_MONITORING_ACTIONLINT", "PULUMI_MONITORING_POSTGRES_BIN"];

const ownCompileCache = join(root, ".work", `setup-scope-compile-cache-${process.pid}`);

/**
 * `scripts/run.sh` as a fresh shell runs it: without the test tools' variables this run inherited.
 * Its compile cache is a folder of its own, which setup neither trims nor warms: the machine's, which
 * the suite fills as it runs, would otherwise cross its bound in the middle of the run on a machine
 * that ran the suite many times, and this file would pay its start-over (CI: 32.7 s, not 3 s).
 */
async function runScript(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !TEST_TOOL_VARIABLES.includes(name))),
    NODE_COMPILE_CACHE: ownCompileCache,
  };
  const printTools = `console.log(JSON.stringify([${TEST_TOOL_VARIABLES.map((name) => `process.env.${name} ?? null`).join(", ")}]))`;
  return run("bash", [join(root, "scripts/run.sh"), ...args, "node", "-e", printTools], { cwd: root, env, encoding: "utf8" });
}

describe("scripts/run.sh", () => {
  afterAll(() => rm(ownCompileCache, { recursive: true, force: true }));

  it("sets up neither PostgreSQL nor actionlint for a command that is not a test (the demo's path)", async () => {
    const { stdout, stderr } = await runScript();
    expect(JSON.parse(stdout)).toEqual([null, null]);
    expect(stderr).not.toMatch(/postgresql|actionlint|shellcheck/i);
    expect(stderr).toMatch(/\[setup\] ready in/);
  });

  it("sets them up, and names where they are, for the tests (--test-tools)", async () => {
    const { stdout, stderr } = await runScript("--test-tools");
    const [actionlint, postgres] = JSON.parse(stdout) as [string | null, string | null];
    expect(actionlint).toMatch(/actionlint$/);
    expect(postgres).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin$/);
    expect(stderr).toMatch(/\[setup\] actionlint v/);
  });
});

describe("a new checkout's setup, on a machine that has installed its package-lock.json and built its sources", () => {
  const machineCache = join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "pulumi-monitoring");
  const lockHash = createHash("sha256").update(readFileSync(join(root, "package-lock.json"))).digest("hex");
  let work: string;
  let cache: string;
  let checkout: string;
  let said: string;

  beforeAll(async () => {
    work = join(root, ".work", `new-checkout-${randomBytes(4).toString("hex")}`);
    // The machine's cache, on this checkout's file system whatever the file system of the machine's
    // own (links are made only within one): the install and the build this checkout made, and the
    // machine's tools as they are.
    cache = join(work, "cache", "pulumi-monitoring");
    const install = join(cache, "npm-installs", lockHash);
    await mkdir(install, { recursive: true });
    await run("cp", ["-al", join(root, "node_modules"), join(install, "node_modules")]);
    await writeFile(join(install, ".complete"), "");
    const built = readFileSync(join(root, "dist/.build-inputs"), "utf8").trim();
    await mkdir(join(cache, "builds"));
    await run("cp", ["-a", join(root, "dist"), join(cache, "builds", built)]);
    for (const tool of await readdir(machineCache)) {
      if (!["npm-installs", "builds", "node-compile-cache"].includes(tool)) await symlink(join(machineCache, tool), join(cache, tool));
    }
    checkout = join(work, "checkout");
    await run("git", ["clone", "--quiet", root, checkout]);
    // The setup of this working tree, which may not be committed yet.
    for (const script of ["run.sh", "setup.sh", "compile-cache.sh", "leftovers.sh"]) await copyFile(join(root, "scripts", script), join(checkout, "scripts", script));
    // Its compile cache goes with it: entries keyed by a path no later run loads would only fill the machine's.
    const env = { ...process.env, XDG_CACHE_HOME: join(work, "cache"), NODE_COMPILE_CACHE: join(work, "compile-cache") };
    ({ stderr: said } = await run("bash", [join(checkout, "scripts/run.sh"), "true"], { cwd: checkout, env, encoding: "utf8" }));
  }, 300_000);
  afterAll(() => rm(work, { recursive: true, force: true }));

  const inCheckout = (path: string) => statSync(join(checkout, "node_modules", path));

  it("links the machine's one install of its package-lock.json", () => {
    const install = join(cache, "npm-installs", lockHash);
    expect(said).toContain(`[setup] npm dependencies linked from ${install}`);
    expect(readFileSync(join(checkout, "node_modules/.pm-lock-hash"), "utf8").trim()).toBe(lockHash);
    for (const file of ["typescript/package.json", "@pulumi/pulumi/index.js", ".bin/vitest"]) {
      expect({ file, inode: inCheckout(file).ino }).toEqual({ file, inode: statSync(join(install, "node_modules", file)).ino });
    }
    // npm rewrites its record of the tree in place, when a package is added: the checkout's is a copy.
    expect(inCheckout(".package-lock.json").nlink).toBe(1);
    expect(readFileSync(join(checkout, "node_modules/.package-lock.json"), "utf8")).toBe(readFileSync(join(install, "node_modules/.package-lock.json"), "utf8"));
  });

  it("copies the machine's build of its sources, or leaves the machine a copy of the build it made", () => {
    // The same sources as this working tree's build unless the tree has changes not committed yet.
    expect(said).toMatch(/^\[setup\] (TypeScript build copied from .*|tsc \(incremental\))$/m);
    const inputs = readFileSync(join(checkout, "dist/.build-inputs"), "utf8").trim();
    const kept = join(cache, "builds", inputs);
    for (const file of [".build-inputs", "sdk/index.js", "provider/index.d.ts"]) {
      expect({ file, text: readFileSync(join(kept, file), "utf8") }).toEqual({ file, text: readFileSync(join(checkout, "dist", file), "utf8") });
    }
  });
});
