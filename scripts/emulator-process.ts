/**
 * The emulator in a process of its own, as `npx pulumi-monitoring-emulator` runs it, for the
 * benchmarks that measure it or the code talking to it from outside.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** The API key the benchmarks' emulators accept. */
export const BENCHMARK_KEY = "pls_test_benchmark000000000000000000000";

export interface EmulatorProcess {
  /** The API's base URL, `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** The admin API (request log, faults), outside `/v1`. */
  adminUrl: string;
  stop(): Promise<void>;
}

/** Starts the emulator on a free port, with its state in memory or in `dataFile`, and waits until it listens. */
export async function startEmulatorProcess(options: { dataFile?: string } = {}): Promise<EmulatorProcess> {
  const binPath = join(__dirname, "..", "emulator", "bin.js");
  if (!existsSync(binPath)) throw new Error(`${binPath} is missing; build first with npx tsc -p tsconfig.build.json`);
  const args = [binPath, "--port", "0", "--key", BENCHMARK_KEY];
  if (options.dataFile !== undefined) args.push("--data", options.dataFile);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on("line", (line) => {
      const match = /listening on (\S+)/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code} before listening`)));
  });
  return {
    baseUrl,
    adminUrl: baseUrl.replace(/\/v1$/, "/__emulator"),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
