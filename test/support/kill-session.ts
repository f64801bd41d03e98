/**
 * A runner that goes away mid-command, as a machine that dies ends it: every process of the
 * session a test started `detached`, the command, the Pulumi CLIs and their plugins (which the CLI
 * starts in process groups of their own), killed with SIGKILL.
 */
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

