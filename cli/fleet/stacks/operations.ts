/** One fleet verb on one stack, through the Automation API. */
import type { EngineEvent, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import type { Verb } from "../../report/fleet.js";
import { exportedState } from "../../project/state.js";

export interface OperationOptions {
  onEvent: (event: EngineEvent) => void;
  signal: AbortSignal;
  /** The run's configuration file (see run-config.ts): `fleet preview --dry-run` sets monitoring:dryRun in it. */
  configFile?: string;
  /** The program, run in the fleet's process (see in-process.ts); else the CLI runs it in a process of its own. */
  program?: PulumiFn;
  /** preview/up: read what the service holds first, so that hand changes are put back (false: `--no-refresh`). */
  refresh: boolean;
  /**
   * up and destroy, after a lock of a lost run was taken over: that run may have been killed
   * mid-create, and Pulumi keeps such a create pending in the state, dropping it only in a refresh
   * that clears pending creates. The up then makes the object again with the first attempt's
   * idempotency key, so that an object the service made before the run died is found, not made
   * twice; the destroy does the same for those objects alone first, so that it deletes them too
   * instead of leaving them on the service, recorded nowhere.
   */
  clearPendingCreates?: boolean;
}

/** Verbs that write the stack's state, hence may leave it mid-update when interrupted. */
export const MUTATING: ReadonlySet<Verb> = new Set(["up", "refresh", "destroy"]);

/** Verbs that run the program, hence read the configuration the shared stack's outputs go to. */
export const RUNS_PROGRAM: ReadonlySet<Verb> = new Set(["preview", "up"]);

/**
 * The stack as the fleet runs verbs on it: after `up`, `refresh` and `destroy` the Automation API
 * reads the stack's outputs twice and its last update (three more CLI runs per stack, each
 * loading the state and its secrets), for results the fleet takes from the engine's events.
 */
export function withoutResultReads(stack: Stack): Stack {
  return Object.assign(Object.create(stack) as Stack, { outputs: async () => ({}), info: async () => undefined });
}

/**
 * The stack with `--refresh=false` added to its preview and up commands. The Automation API passes
 * `--refresh` for `refresh: true` and nothing for `false`, so a project whose Pulumi.yaml says
 * `options: refresh: always` would refresh anyway; only the CLI flag skips it.
 */
export function withoutRefresh(stack: Stack): Stack {
  type Command = (args: string[], ...rest: unknown[]) => Promise<unknown>;
  const run = (stack as unknown as { runPulumiCmd: Command }).runPulumiCmd.bind(stack);
  // Only theirs: the reads an up makes after it (`stack history`) take no such flag.
  return Object.assign(Object.create(stack) as Stack, { runPulumiCmd: (args: string[], ...rest: unknown[]) => run(args[0] === "up" || args[0] === "preview" ? [...args, "--refresh=false"] : args, ...rest) });
}

/** A verb the engine runs: drift reads the service itself (cli/drift/fleet-drift.ts). */
export type EngineVerb = Exclude<Verb, "drift">;

export async function operate(fleetStack: Stack, verb: EngineVerb, { program, refresh, clearPendingCreates, ...options }: OperationOptions): Promise<void> {
  const stack = withoutResultReads(fleetStack);
  if (clearPendingCreates && (verb === "up" || verb === "destroy")) {
    // Read before the refresh drops them: the objects the lost run may have made.
    const pending = verb === "destroy" ? await pendingCreates(stack) : [];
    // The refresh reads the service as a refresh-first up would; the up needs no second one.
    await stack.refresh({ ...options, clearPendingCreates: true });
    // Interrupted between two operations: the Automation API would miss an abort that came before it starts the next CLI.
    const stopIfInterrupted = () => {
      if (options.signal.aborted) throw new Error("interrupted between the operations of its recovery");
    };
    if (verb === "up" || pending.length > 0) {
      stopIfInterrupted();
      await withoutRefresh(stack).up({ ...options, ...(verb === "destroy" ? { target: pending } : {}), ...(program ? { program } : {}) });
    }
    if (verb === "destroy") {
      stopIfInterrupted();
      await stack.destroy(options);
    }
    return;
  }
  const deploying = refresh ? stack : withoutRefresh(stack);
  switch (verb) {
    case "preview":
      // Reads what the service holds first, as `up` does, so the preview shows what `up` will put back.
      await deploying.preview({ ...options, refresh, ...(program ? { program } : {}) });
      return;
    case "up":
      await deploying.up({ ...options, refresh, ...(program ? { program } : {}) });
      return;
    case "refresh":
      await stack.refresh(options);
      return;
    case "destroy":
      await stack.destroy(options);
      return;
  }
}

/** The resources whose create a lost run left pending in the stack's state. */
async function pendingCreates(stack: Stack): Promise<string[]> {
  const { deployment } = (await exportedState(stack.workspace, stack.name)) as { deployment?: { pending_operations?: Array<{ type?: string; resource?: { urn?: string } }> } };
  return (deployment?.pending_operations ?? []).flatMap((operation) => (operation.type === "creating" && operation.resource?.urn ? [operation.resource.urn] : []));
}

/**
 * The signal to hand an operation, for an abort that may come at any moment. The Automation API
 * listens for its signal only from the moment it starts the CLI, so an abort that came earlier
 * (while the stack's settings were written, say) would be lost and the stack run to the end: it is
 * passed on when the operation's first event shows that the CLI runs, and listens. (In a terminal
 * the CLI gets Ctrl-C itself, and the fleet sends no abort: stacks/run.ts `#interrupt`.)
 */
export function abortOnceListening(abort: AbortSignal): { signal: AbortSignal; listening(): void; dispose(): void } {
  const operation = new AbortController();
  let started = false;
  const passOn = (): void => {
    if (started) operation.abort();
  };
  abort.addEventListener("abort", passOn, { once: true });
  return {
    signal: operation.signal,
    listening() {
      if (started) return;
      started = true;
      if (abort.aborted) operation.abort();
    },
    dispose: () => abort.removeEventListener("abort", passOn),
  };
}
