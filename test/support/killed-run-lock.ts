/**
 * The lock a Pulumi run killed mid-run leaves on a file backend, as the CLI writes it: this host,
 * a process that has ended. For the commands that must take it over instead of failing.
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

/** Leaves the lock in the backend at `stateDir` for `project`'s `stack`; resolves to the dead run's pid. */
export async function leaveKilledRunsLock(stateDir: string, project: string, stack: string): Promise<number> {
  const ended = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => ended.on("exit", resolve));
  const dir = join(stateDir, ".pulumi", "locks", "organization", project, stack);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "0d1e2f30.json"), JSON.stringify({ pid: ended.pid, username: "ci", hostname: hostname(), timestamp: new Date().toISOString() }));
  return ended.pid!;
}

/** The line a command prints for that lock once it took it over. */
export const tookOverLine = (pid: number): RegExp => new RegExp(`took over the lock of ci@\\S+ \\(pid ${pid}, since \\S+\\): its process \\(pid ${pid}\\) no longer exists on this host`);
