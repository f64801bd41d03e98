/**
 * Runs the emulator's command, `pulumi-monitoring-emulator` (dist/emulator/bin.js, which
 * `npm test` builds first), in a child process, for tests that need a process they can signal or
 * kill.
 */
// @ts-nocheck

import { spawn, type ChildProcessByStdio } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

const repoRoot = join(__dirname, "..", "..", "..");

export type EmulatorProcess = ChildProcessByStdio<null, Readable, Readable>;

export function spawnEmulator(args: string[], env: Record<string, string> = {}): EmulatorProcess {
  return spawn(process.execPath, [join(repoRoot, "dist", "emulator", "bin.js"), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, MONITORING_EMULATOR_KEY: "", ...env },
  });
}

/** The startup banner: base URL and key, once the key line (the last one) is printed. */
export function banner(child: EmulatorProcess): Promise<{ lines: string[]; baseUrl: string; apiKey: string }> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(line);
      const key = /API key \(full access\): (\S+)/.exec(line);
      const url = /listening on (\S+)/.exec(lines[0] ?? "");
      if (key !== null && url !== null) resolve({ lines, baseUrl: url[1]!, apiKey: key[1]! });
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code} before printing its banner`)));
  });
}

/** Resolves when the process ends, with its exit code, the signal that ended it, and all it printed. */
export function exitOf(child: EmulatorProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal, output })));
}
