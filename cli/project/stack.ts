/**
 * The stack a single-stack command (`drift`, `verify`) acts on: `--stack`, or, as with `pulumi`,
 * the project's selected stack.
 */
import { UsageError } from "../command/usage.js";
import { fleetWorkspace } from "./workspace.js";

/** The options every single-stack command takes, beside its own. */
export const STACK_OPTIONS = {
  stack: { type: "string" },
  cwd: { type: "string" },
} as const;

/** The stack named, else the project's selected stack; a usage error when none is selected. */
export async function chosenStack(cwd: string, named: string | undefined): Promise<string> {
  if (named !== undefined) return named;
  let selected: string | undefined;
  try {
    selected = (await (await fleetWorkspace(cwd)).stack())?.name;
  } catch (error) {
    throw new Error((error as Error).message.split("\n")[0]);
  }
  if (selected === undefined) throw new UsageError("no stack is selected: pass --stack NAME");
  return selected;
}
