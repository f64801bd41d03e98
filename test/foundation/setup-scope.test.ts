/**
 * What a first run installs: the demo (and every command but the tests) needs Node, the
 * dependencies and the Pulumi CLI; PostgreSQL, shellcheck and actionlint serve only the tests of
 * team setups, so only `run.sh --test-tools` (the test scripts) sets them up.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(__dirname, "..", "..");
const TEST_TOOL_VARIABLES = ["PULUMI_MONITORING_ACTIONLINT", "PULUMI_MONITORING_POSTGRES_BIN"];

/** `scripts/run.sh` as a fresh shell runs it: without the test tools' variables this run inherited. */
async function runScript(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !TEST_TOOL_VARIABLES.includes(name)));
  return runWith(env, ...args);
}

async function runWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const printTools = `console.log(JSON.stringify([${TEST_TOOL_VARIABLES.map((name) => `process.env.${name} ?? null`).join(", ")}]))`;
  return run("bash", [join(root, "scripts/run.sh"), ...args, "node", "-e", printTools], { cwd: root, env, encoding: "utf8" });
}

describe("scripts/run.sh", () => {
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

describe("Node.js's compile cache", () => {
  /**
   * A cache folder of `files` stale entries under a cache home of its own (setup's own cache, or,
   * with `own`, one beside it); setup's limit is 20 files.
   */
  async function cacheWith(files: number, own = ""): Promise<{ home: string; cache: string; env: NodeJS.ProcessEnv }> {
    const home = await mkdtemp(join(tmpdir(), "compile-cache-"));
    const cache = own === "" ? join(home, "pulumi-monitoring", "node-compile-cache") : join(home, own);
    await mkdir(join(cache, "v0-stale"), { recursive: true });
    for (let index = 0; index < files; index += 1) await writeFile(join(cache, "v0-stale", String(index)), "");
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: home, PM_COMPILE_CACHE_ENTRIES: "20" };
    delete env.NODE_COMPILE_CACHE;
    return { home, cache, env };
  }

  it("starts setup's own cache over past its limit, and fills it again for the provider host", async () => {
    const { home, cache, env } = await cacheWith(30);
    try {
      const { stderr } = await runWith(env);
      expect(stderr).toContain("Node.js's compile cache held 30 files (more than 20): starting it over");
      const entries = await readdir(cache);
      expect(entries).not.toContain("v0-stale");
      expect(entries).toContain(".started");
      // Warmed again: a folder of this Node's entries, @pulumi/pulumi's among them.
      const [warmed] = entries.filter((entry) => entry.startsWith(`v${process.versions.node}-`));
      expect((await readdir(join(cache, warmed!))).length).toBeGreaterThan(100);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it("leaves alone a cache the user named in NODE_COMPILE_CACHE", async () => {
    const { home, cache, env } = await cacheWith(30, "users-own-cache");
    try {
      const { stderr } = await runWith({ ...env, NODE_COMPILE_CACHE: cache });
      expect(stderr).not.toContain("starting it over");
      expect((await readdir(join(cache, "v0-stale"))).length).toBe(30);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
