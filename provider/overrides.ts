/**
 * Operator overrides of the pause state ("pause web for 2h, incident 42"), recorded in the stack's
 * own state, so every runner of the stack sees them whatever its backend: `__override: { until,
 * reason, by, at }` in an object's outputs (by key for a set's members). The command line writes
 * them (cli/overrides/); deploys keep them while they hold and drop them once ended
 * (provider/pauses.ts, provider/pause-plan.ts).
 */
import { isRecord } from "../schema/naming.js";
import { internal } from "./fields.js";
import type { OverrideRecord } from "./pause-plan.js";

/** The override an object's outputs record, when they hold a well-formed one. */
export function recordedOverride(outputs: Record<string, unknown>): OverrideRecord | undefined {
  const value = outputs[internal.override];
  if (!isRecord(value)) return undefined;
  const { until, reason, by, at } = value;
  return typeof until === "string" && typeof reason === "string" && typeof by === "string" && typeof at === "string" ? { until, reason, by, at } : undefined;
}
