/**
 * This package's commands run in the test's own process, through each command's entry as built
 * (test/support/pulumi.ts, builtModule), for the tests whose point is not the process a user
 * starts: that one is `node dist/cli/main.js`, run as a child process where it matters (a killed
 * runner, runners at once, a CI job's command line).
 */
import { vi } from "vitest";
import { builtModule } from "./pulumi.js";

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The commands a test runs in this process, each as built (see builtModule). */
const COMMANDS_HERE = {
  "apply-due": () => builtModule<typeof import("../../cli/apply-due/command.js")>("cli/apply-due/command.ts").applyDueCommand,
  drift: () => builtModule<typeof import("../../cli/drift/command.js")>("cli/drift/command.ts").drift,
  fleet: () => builtModule<typeof import("../../cli/fleet/command.js")>("cli/fleet/command.ts").fleet,
  pause: () => builtModule<typeof import("../../cli/overrides/command.js")>("cli/overrides/command.ts").pause,
  resume: () => builtModule<typeof import("../../cli/overrides/command.js")>("cli/overrides/command.ts").resume,
  overrides: () => builtModule<typeof import("../../cli/overrides/command.js")>("cli/overrides/command.ts").overrides,
};

/**
 * Runs `pulumi-monitoring <args>` in this process, through the command's own entry (as built: it
 * may run programs in this process, see builtModule), with `env` for the length of the run: for
 * commands a process of their own would only make slower (about 1 CPU-s of Node.js startup, and a
 * `pulumi version`, each). Not for two at once: the environment is this process's.
 */
export async function runHere([name, ...args]: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const command = COMMANDS_HERE[name as keyof typeof COMMANDS_HERE];
  if (command === undefined) throw new Error(`runHere runs ${Object.keys(COMMANDS_HERE).join(", ")}, not ${name}`);
  const printed = { stdout: "", stderr: "" };
  const output = (stream: keyof typeof printed) => ({ write: (text: string) => (printed[stream] += text) });
  for (const [variable, value] of Object.entries(env)) if (value !== undefined && process.env[variable] !== value) vi.stubEnv(variable, value);
  try {
    const code = await command().run(args, { stdout: output("stdout"), stderr: output("stderr"), stdin: process.stdin, signals: process, env: process.env });
    return { code, ...printed };
  } finally {
    vi.unstubAllEnvs();
  }
}

