/** One fleet verb on one stack, through the Automation API. */
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { errorSummary } from "./events.js";
import type { Verb } from "./report.js";

export interface OperationOptions {
  onEvent: (event: EngineEvent) => void;
  signal: AbortSignal;
  /** The run's configuration file (see run-config.ts). */
  configFile?: string;
}

/** Verbs that write the stack's state, hence may leave it mid-update when interrupted. */
export const MUTATING: ReadonlySet<Verb> = new Set(["up", "refresh", "destroy"]);

/** Verbs that run the program, hence read the configuration the shared stack's outputs go to. */
export const RUNS_PROGRAM: ReadonlySet<Verb> = new Set(["preview", "up"]);

export async function operate(stack: Stack, verb: Verb, options: OperationOptions): Promise<void> {
  switch (verb) {
    case "preview":
      await stack.preview(options);
      return;
    case "up":
      await stack.up(options);
      return;
    case "refresh":
      await stack.refresh(options);
      return;
    case "destroy":
      await stack.destroy(options);
      return;
    case "drift":
      // A refresh that only reports: the engine reads every object and compares it with the state.
      await stack.previewRefresh(options);
      return;
  }
}

/**
 * The message of a failed CLI command, for when the engine reported no error event: the
 * `error:` lines of its stderr, else the first line of the error.
 */
export function commandErrorMessage(error: unknown): string {
  const stderr = (error as { commandResult?: { stderr?: string } }).commandResult?.stderr ?? "";
  const errorLines = stderr
    .split("\n")
    .filter((line) => line.startsWith("error: "))
    .map(errorSummary)
    .filter((line) => line !== "");
  if (errorLines.length > 0) return errorLines.join("; ");
  const message = error instanceof Error ? error.message : String(error);
  return errorSummary(message.split("\n").find((line) => line.trim() !== "") ?? message);
}
