/**
 * What a first run installs: the demo (and every command but the tests) needs Node, the
 * dependencies and the Pulumi CLI; PostgreSQL, shellcheck and actionlint serve only the tests of
 * team setups, so only `run.sh --test-tools` (the test scripts) sets them up. The dependencies are
 * installed once per package-lock.json on the machine, and each checkout links them.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(__dirname, "..", "..");
const TEST_TOOL_VARIABLES = ["PULUMI_MONITORING_ACTIONLINT", "PULUMI_MONITORING_POSTGRES_BIN"];

/** `scripts/run.sh` as a fresh shell runs it: without the test tools' variables this run inherited. */
async function runScript(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !TEST_TOOL_VARIABLES.includes(name)));
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

describe("the npm dependencies", () => {
  const lockHash = createHash("sha256").update(readFileSync(join(root, "package-lock.json"))).digest("hex");
  const install = join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "pulumi-monitoring", "npm-installs", lockHash, "node_modules");
  const inCheckout = (path: string) => statSync(join(root, "node_modules", path));
  const inInstall = (path: string) => statSync(join(install, path));

  const sameFileSystem = () => statSync(root).dev === statSync(join(install, "..")).dev;

  it("are this machine's one install of the package-lock.json, hard-linked into the checkout (or the checkout's own npm ci, on another file system)", () => {
    expect(readFileSync(join(root, "node_modules/.pm-lock-hash"), "utf8").trim()).toBe(lockHash);
    for (const file of ["typescript/package.json", "@pulumi/pulumi/index.js", ".bin/vitest"]) {
      if (sameFileSystem()) expect({ file, inode: inCheckout(file).ino }).toEqual({ file, inode: inInstall(file).ino });
      else expect({ file, links: inCheckout(file).nlink }).toEqual({ file, links: 1 });
    }
  });

  it("but for npm's record of the tree, which npm rewrites in place: the checkout has a copy of its own", () => {
    expect(inCheckout(".package-lock.json").nlink).toBe(1);
    if (sameFileSystem()) expect(readFileSync(join(root, "node_modules/.package-lock.json"), "utf8")).toBe(readFileSync(join(install, ".package-lock.json"), "utf8"));
  });
});
