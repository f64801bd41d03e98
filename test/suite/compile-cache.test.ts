/**
 * Node.js's compile cache kept in bounds (scripts/compile-cache.sh, which the setup sources): the
 * setup's own cache starts over past its limit, marking when; a cache the user named is left alone.
 * What a start-over killed mid-removal left goes at the next setup (scripts/leftovers.sh).
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { endedPid } from "../support/killed-run-lock.js";

const run = promisify(execFile);
const script = join(__dirname, "..", "..", "scripts", "compile-cache.sh");
const folders: string[] = [];

afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A cache folder holding `files` entries of an earlier Node.js. */
async function cacheOf(files: number): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "compile-cache-"));
  folders.push(folder);
  const cache = join(folder, "node-compile-cache");
  await mkdir(join(cache, "v0-x64-0"), { recursive: true });
  await Promise.all(Array.from({ length: files }, (_, index) => writeFile(join(cache, "v0-x64-0", String(index)), "")));
  return cache;
}

/** `pm_bound_compile_cache CACHE LIMIT OWN` in bash, as the setup calls it. */
async function bound(cache: string, limit: number, own = cache): Promise<string> {
  const { stderr } = await run("bash", ["-c", `source "${script}" && pm_bound_compile_cache "$1" "$2" "$3"`, "bash", cache, String(limit), own]);
  return stderr;
}

describe("the setup's compile cache", () => {
  it("removes the folder a start-over killed mid-removal left, and not the one a running start-over is removing", async () => {
    const cache = await cacheOf(1);
    const [killed, running] = [`${cache}.old.${await endedPid()}`, `${cache}.old.${process.pid}`];
    await Promise.all([mkdir(join(killed, "v0-x64-0"), { recursive: true }), mkdir(join(running, "v0-x64-0"), { recursive: true })]);
    expect(await bound(cache, 20)).toBe("");
    expect((await readdir(join(cache, ".."))).sort()).toEqual(["node-compile-cache", `node-compile-cache.old.${process.pid}`]);
  });

  it("starts over past its limit, saying so, and marks when it started", async () => {
    const cache = await cacheOf(30);
    expect(await bound(cache, 20)).toBe("[setup] Node.js's compile cache held 30 files (more than 20): starting it over\n");
    expect(await readdir(cache)).toEqual([".started"]);
  });

  it("starts over while other processes keep writing entries into it, as the suite's do", async () => {
    const cache = await cacheOf(3000);
    const writer = spawn("bash", ["-c", 'while :; do touch "$0/v0-x64-0/w$RANDOM" 2>/dev/null; done', cache], { stdio: "ignore" });
    try {
      expect(await bound(cache, 20)).toMatch(/^\[setup\] Node\.js's compile cache held 3\d\d\d files \(more than 20\): starting it over\n$/);
      expect(await readdir(cache)).toContain(".started");
      // Nothing left beside it: the folder moved aside is gone.
      expect(await readdir(join(cache, ".."))).toEqual(["node-compile-cache"]);
    } finally {
      writer.kill();
    }
  });

  it("keeps a cache within its limit, marking when it started once", async () => {
    const cache = await cacheOf(20);
    expect(await bound(cache, 20)).toBe("");
    expect((await readdir(cache)).sort()).toEqual([".started", "v0-x64-0"]);
    expect(await readdir(join(cache, "v0-x64-0"))).toHaveLength(20);
  });

  it("leaves alone a cache the user named in NODE_COMPILE_CACHE, however large", async () => {
    const cache = await cacheOf(30);
    expect(await bound(cache, 20, join(cache, "..", "the-setups-own"))).toBe("");
    expect(await readdir(cache)).toEqual(["v0-x64-0"]);
    expect(await readdir(join(cache, "v0-x64-0"))).toHaveLength(30);
  });
});
