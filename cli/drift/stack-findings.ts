/**
 * A checked stack's findings: the steps of its refresh judged with its own pause settings (the
 * deploy's instant, `monitoring:handPauses`), as its deploys would judge them, and its known
 * left-out fields dated by the last operation that wrote its state.
 */
import type { Stack, StepEventMetadata } from "@pulumi/pulumi/automation";
import { type ConfigSource, deployInstant, handPauses } from "../../provider/config.js";
import { byObject, type Findings, findingsOf, type KnownField, type PauseSettings } from "./changes.js";

/** The stack's pause settings, from its plain `monitoring:` settings and the environment, as its provider reads them. */
export function pauseSettingsFrom(source: ConfigSource, env: NodeJS.ProcessEnv = process.env): PauseSettings {
  return { now: deployInstant(source, env), handPauses: handPauses(source) };
}

/**
 * Judges `stack`'s refresh steps with the settings `plainSettings` reads (started beside its
 * refresh), once the steps are all in.
 */
export function stackFindings(stack: Stack, plainSettings: Promise<ConfigSource>): (steps: readonly StepEventMetadata[]) => Promise<Findings> {
  plainSettings.catch(() => undefined);
  return async (steps) => {
    const settings = pauseSettingsFrom(await plainSettings);
    const findings: Findings = { drift: [], known: [], holds: [] };
    for (const step of steps) {
      const found = findingsOf(step, settings);
      findings.drift.push(...found.drift);
      findings.known.push(...found.known);
      findings.holds.push(...found.holds);
    }
    if (findings.known.length > 0) {
      const keptBy = await lastOperation(stack);
      if (keptBy !== undefined) findings.known = findings.known.map((known) => ({ ...known, keptBy }));
    }
    return { drift: findings.drift.sort(byObject), known: findings.known.sort(byObject), holds: findings.holds.sort(byObject) };
  };
}

/**
 * The last operation that wrote the stack's state, when it is a deploy or a refresh: a refresh
 * (a deploy's own, or `pulumi refresh`) recorded the known values, and a later deploy kept them.
 */
async function lastOperation(stack: Stack): Promise<KnownField["keptBy"]> {
  const [last] = await stack.history(1).catch(() => []);
  if (last === undefined || (last.kind !== "update" && last.kind !== "refresh")) return undefined;
  return { operation: last.kind === "update" ? "deploy" : "refresh", at: new Date(last.endTime ?? last.startTime).toISOString() };
}
