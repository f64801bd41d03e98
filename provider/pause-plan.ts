/**
 * Whether an object should be paused at a given instant, and why: pure, no API call, no clock of
 * its own (the deploy's instant is a setting, provider/config.ts `deployInstant`). Check, diff and
 * update of every monitor and heartbeat (single or a set's member) ask it through
 * provider/pauses.ts; drift and the command line can ask it too. The rules are those of
 * docs/overrides-and-maintenance.md: an active override, then a window, then a pause made by hand
 * (under `monitoring:handPauses`), then the declared `paused`; declaring `pauses` makes the provider
 * manage the pause state, and a window or override that has ended only ever resumes, once.
 */

/** One window of `pauses`, as declared (check has held it to its rules). */
export interface PauseWindow {
  from: string;
  to: string;
  reason: string;
}

/** An operator's override, recorded in the object's outputs (`__override`). */
export interface OverrideRecord {
  until: string;
  reason: string;
  by: string;
  /** When it was recorded. */
  at: string;
}

/** What deploys do with a pause made in the service's console (`monitoring:handPauses`). */
export type HandPauses = { rule: "putBack" } | { rule: "keep" } | { rule: "for"; ms: number; text: string };

export interface PauseFacts {
  /** The program's `paused`, when it declares it. */
  declaredPaused?: boolean | undefined;
  /** The program's `pauses`, when it declares them. */
  pauses?: readonly PauseWindow[] | undefined;
  /** The override recorded in the outputs, active or ended. */
  override?: OverrideRecord | undefined;
  /** When a refresh first saw the object paused with nothing declared or recorded asking for it (`__handPauseSeen`). */
  handPauseSeen?: string | undefined;
  handPauses: HandPauses;
  /** The deploy's instant, in milliseconds since the epoch. */
  now: number;
}

/** Why the plan is what it is. */
export type PauseCause =
  | { kind: "override"; reason: string; by: string; until: string }
  | { kind: "window"; reason: string; until: string }
  | { kind: "hand"; until?: string }
  | { kind: "declared" }
  /** Managed (pauses declared, or an override or window that ended) and nothing asks for a pause. */
  | { kind: "active" }
  | { kind: "unmanaged" };

/** A change of the desired state that time will bring: the first deploy from `at` makes it. */
export interface Transition {
  at: string;
  paused: boolean;
  /** The window's or override's reason, or `paused by hand`. */
  reason: string;
}

export interface PausePlan {
  /** What a deploy now makes the object: paused, active, or left as the service holds it. */
  paused: boolean | "unmanaged";
  why: PauseCause;
  /** The next change time brings, and the one after it (a window's resume after its pause). */
  next?: Transition;
  then?: Transition;
  /** The recorded override is still active: it stays recorded. An ended one is dropped. */
  keepOverride: boolean;
  /** The hand pause's record stays: it still keeps the object paused, or the setting keeps it whatever the time. */
  keepHandPause: boolean;
}

/** Whether the deploy at `now` makes the object paused, and why. */
function desiredAt(facts: PauseFacts, at: number): { paused: boolean | "unmanaged"; why: PauseCause } {
  const { override, pauses, declaredPaused, handPauseSeen, handPauses } = facts;
  if (override !== undefined && at < Date.parse(override.until)) {
    return { paused: true, why: { kind: "override", reason: override.reason, by: override.by, until: override.until } };
  }
  const window = pauses?.find((candidate) => Date.parse(candidate.from) <= at && at < Date.parse(candidate.to));
  if (window !== undefined) return { paused: true, why: { kind: "window", reason: window.reason, until: window.to } };
  const managed = pauses !== undefined || declaredPaused !== undefined;
  if (managed && declaredPaused !== true && handPauseSeen !== undefined) {
    if (handPauses.rule === "keep") return { paused: true, why: { kind: "hand" } };
    if (handPauses.rule === "for") {
      const until = new Date(Date.parse(handPauseSeen) + handPauses.ms).toISOString();
      if (at < Date.parse(until)) return { paused: true, why: { kind: "hand", until } };
    }
  }
  if (declaredPaused !== undefined) return { paused: declaredPaused, why: { kind: "declared" } };
  // An override that ended resumes the object once even when nothing else manages its pause state.
  if (managed || override !== undefined) return { paused: false, why: { kind: "active" } };
  return { paused: "unmanaged", why: { kind: "unmanaged" } };
}

/**
 * The instants from `from` on at which the desired state may change, in order, `from` itself first,
 * as the texts a transition carries (toISOString refuses what is no instant, so a bound that is
 * not one fails here rather than never being reached).
 */
function boundaries(facts: PauseFacts, from: number): string[] {
  const instants = [from];
  for (const window of facts.pauses ?? []) instants.push(Date.parse(window.from), Date.parse(window.to));
  if (facts.override !== undefined) instants.push(Date.parse(facts.override.until));
  if (facts.handPauseSeen !== undefined && facts.handPauses.rule === "for") instants.push(Date.parse(facts.handPauseSeen) + facts.handPauses.ms);
  const texts = instants.map((instant) => new Date(instant).toISOString());
  const start = texts[0] as string;
  return [...new Set(texts)].filter((text) => text >= start).sort();
}

/**
 * The first instant after `after` at which the desired state is other than `paused`. The walk starts
 * at `after` itself, which tells what holds the object until then: a resume names what it leaves.
 */
function transitionAfter(facts: PauseFacts, after: number, paused: boolean | "unmanaged"): Transition | undefined {
  let left: PauseCause | undefined;
  for (const at of boundaries(facts, after)) {
    const desired = desiredAt(facts, Date.parse(at));
    if (desired.paused === paused) {
      left = desired.why;
      continue;
    }
    // A managed object never becomes unmanaged later, nor an unmanaged one managed: a change is a pause or a resume.
    return { at, paused: desired.paused === true, reason: reasonOf(desired.why, left as PauseCause) };
  }
  return undefined;
}

/**
 * A transition's reason: the window it enters (no override or hand pause starts later), or, for a
 * resume, the window, override or hand pause it leaves.
 */
function reasonOf(entered: PauseCause, left: PauseCause): string {
  const cause = entered.kind === "window" ? entered : left;
  return cause.kind === "window" || cause.kind === "override" ? cause.reason : "paused by hand";
}

export function pausePlan(facts: PauseFacts): PausePlan {
  const { paused, why } = desiredAt(facts, facts.now);
  const next = transitionAfter(facts, facts.now, paused);
  const then = next === undefined ? undefined : transitionAfter(facts, Date.parse(next.at), next.paused);
  const keepOverride = facts.override !== undefined && facts.now < Date.parse(facts.override.until);
  const keepHandPause = why.kind === "hand";
  return { paused, why, ...(next === undefined ? {} : { next }), ...(then === undefined ? {} : { then }), keepOverride, keepHandPause };
}

/** `22:00 UTC` within a day of `now`, else `2030-11-28 22:00 UTC`. */
export function formatInstant(at: string, now: number): string {
  const iso = new Date(at).toISOString();
  const time = `${iso.slice(11, 16)} UTC`;
  const instant = Date.parse(at);
  return instant - now < 86_400_000 && instant >= now ? time : `${iso.slice(0, 10)} ${time}`;
}

/**
 * What preview and up say of an object's pause state, or nothing when time brings no change and no
 * override is active: `pauses 22:00 UTC for 'Black Friday freeze', resumes 02:00 UTC`.
 * `heldPaused`: what the service holds as recorded.
 */
export function describePlan(plan: PausePlan, heldPaused: boolean | undefined, now: number): string | undefined {
  const at = (transition: Transition) => formatInstant(transition.at, now);
  const until = (transition: Transition | undefined) => (transition === undefined ? "" : `, resumes ${at(transition)}`);
  const due = plan.paused !== "unmanaged" && plan.paused !== (heldPaused === true);
  const { why } = plan;
  if (why.kind === "override") {
    const verb = due ? "pauses now" : "stays paused";
    // While an override holds, the next change is a resume.
    return `${verb}: override by ${why.by} for '${why.reason}'${until(plan.next)}`;
  }
  if (due) {
    // The plan changes what the service holds: a pause, or a resume of an object nothing holds paused any more.
    return plan.paused === true
      ? `pauses now${reasonText(why)}${until(plan.next)}`
      : `resumes now${plan.next === undefined ? "" : `; pauses ${at(plan.next)} for '${plan.next.reason}'${until(plan.then)}`}`;
  }
  if (plan.next === undefined) return undefined;
  if (plan.next.paused) return `pauses ${at(plan.next)} for '${plan.next.reason}'${until(plan.then)}`;
  return `stays paused${reasonText(why)}, resumes ${at(plan.next)}`;
}

/** ` for 'Black Friday freeze'` for a window, ` (paused by hand)`, or nothing for a declared pause. */
function reasonText(why: PauseCause): string {
  return why.kind === "window" ? ` for '${why.reason}'` : why.kind === "hand" ? " (paused by hand)" : "";
}
