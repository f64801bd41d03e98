/**
 * The lock a Pulumi run killed mid-run leaves on a file backend, as the CLI writes it: this host,
 * a process that has ended. For the commands that must take it over instead of failing.
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

/** A pid no process of this host has any more: one that started and ended. */
export async function endedPid(): Promise<number> {
  const ended = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => ended.on("exit", resolve));
  return ended.pid!;
}

/** The lock of this host's process `pid` on `project`'s `stack`, written as the CLI writes it under `id`; its content. */
export async function writeLockFile(stateDir: string, project: string, stack: string, pid: number, id = "0d1e2f30"): Promise<{ timestamp: string }> {
  const dir = join(stateDir, ".pulumi", "locks", "organization", project, stack);
  const content = { pid, username: "ci", hostname: hostname(), timestamp: new Date().toISOString() };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${id}.json`), JSON.stringify(content));
  return content;
}

/** Leaves the lock in the backend at `stateDir` for `project`'s `stack`; resolves to the dead run's pid. */
export async function leaveKilledRunsLock(stateDir: string, project: string, stack: string): Promise<number> {
  const pid = await endedPid();
  await writeLockFile(stateDir, project, stack, pid);
  return pid;
}

/** The line a command prints for that lock once it took it over. */
export const tookOverLine = (pid: number): RegExp => new RegExp(`took over the lock of ci@\\S+ \\(pid ${pid}, since \\S+\\): its process \\(pid ${pid}\\) no longer exists on this host`);
