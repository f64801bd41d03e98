/**
 * A runner that goes away mid-command, as a machine that dies ends it: every process of the
 * session a test started `detached`, the command, the Pulumi CLIs and their plugins (which the CLI
 * starts in process groups of their own), killed with SIGKILL.
 */
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

/**
 * SIGKILL to every process of the session `detached` started, as a machine that goes away ends
 * them: the fleet, the Pulumi CLIs and their plugins, which the CLI starts in process groups of
 * their own.
 */
export async function killSession(session: number): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const members: number[] = [];
    for (const entry of await readdir("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
      // pid (comm) state ppid pgrp session ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[3]) === session && fields[0] !== "Z") members.push(Number(entry));
    }
    if (members.length === 0) return;
    for (const pid of members) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}


/**
 * Runs `pulumi-monitoring <args>` as users run it (`node dist/cli/main.js`), in a session of its
 * own, and kills all of it with SIGKILL once `due()` says the moment has come (the requests it
 * must die during are held by the service): a runner that dies mid-command. Fails with what the
 * command printed when the moment never comes within `withinMs`.
 */
export async function runKilledWhen(cliMain: string, args: readonly string[], env: NodeJS.ProcessEnv, due: () => Promise<boolean>, withinMs: number): Promise<void> {
  const child = spawn(process.execPath, [cliMain, ...args], { env, detached: true, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    for (const deadline = Date.now() + withinMs; !(await due()); ) {
      if (Date.now() > deadline) throw new Error(`pulumi-monitoring ${args.join(" ")} never reached the moment it was to be killed at: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await killSession(child.pid ?? 0);
    await exited;
  }
}
