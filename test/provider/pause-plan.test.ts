/**
 * The pause plan (provider/pause-plan.ts): what a deploy at a given instant makes of an object's
 * pause state, why, and what time brings next, from the declared `paused` and `pauses`, a recorded
 * override, a pause made by hand and `monitoring:handPauses`; and the sentence preview and up say.
 */
import { describe, expect, it } from "vitest";
import { type HandPauses, type PauseFacts, describePlan, formatInstant, pausePlan } from "../../provider/pause-plan.js";

const T = Date.parse("2030-11-28T20:00:00Z");
const hours = (count: number) => T + count * 3_600_000;
const iso = (instant: number) => new Date(instant).toISOString();
const freeze = { from: iso(hours(1)), to: iso(hours(3)), reason: "Black Friday freeze" };
const incident = { until: iso(hours(2)), reason: "incident 42", by: "alice", at: iso(T) };
const fourHours: HandPauses = { rule: "for", ms: 4 * 3_600_000, text: "4h" };
const facts = (now: number, more: Partial<PauseFacts> = {}): PauseFacts => ({ handPauses: fourHours, now, ...more });
const resume = (at: number, reason: string) => ({ at: iso(at), paused: false, reason });
const pause = (at: number, reason: string) => ({ at: iso(at), paused: true, reason });

describe("pausePlan", () => {
  it.each([
    { title: "before a window: active, pauses at its start, resumes at its end", facts: facts(T, { pauses: [freeze] }), paused: false, why: "active", next: pause(hours(1), freeze.reason), then: resume(hours(3), freeze.reason) },
    { title: "inside a window: paused for its reason, resumes at its end", facts: facts(hours(1.08), { pauses: [freeze] }), paused: true, why: "window", next: resume(hours(3), freeze.reason) },
    { title: "after a window: active, nothing next", facts: facts(hours(3.08), { pauses: [freeze] }), paused: false, why: "active" },
    { title: "a week after a window left in the program: active, nothing next", facts: facts(hours(168), { pauses: [freeze] }), paused: false, why: "active" },
    { title: "no pauses and no paused: the pause state is not managed", facts: facts(T), paused: "unmanaged", why: "unmanaged" },
    { title: "`pauses: []` manages it: active", facts: facts(T, { pauses: [] }), paused: false, why: "active" },
    { title: "declared paused after a window: paused as declared", facts: facts(hours(4), { pauses: [freeze], declaredPaused: true }), paused: true, why: "declared" },
    { title: "declared paused inside a window: paused, and its end changes nothing", facts: facts(hours(2), { pauses: [freeze], declaredPaused: true }), paused: true, why: "window" },
    { title: "an active override on an unmanaged object: paused, resumes at its end", facts: facts(T, { override: incident }), paused: true, why: "override", next: resume(hours(2), incident.reason), keepOverride: true },
    { title: "an override that ended: resumed once, its record dropped", facts: facts(hours(2.1), { override: incident }), paused: false, why: "active" },
    { title: "an override inside a window: the override first, the window's end next", facts: facts(hours(1.5), { override: incident, pauses: [freeze] }), paused: true, why: "override", next: resume(hours(3), freeze.reason), keepOverride: true },
    { title: "a hand pause under 4h, seen an hour ago: kept until 4h after it was seen", facts: facts(hours(1), { declaredPaused: false, handPauseSeen: iso(T) }), paused: true, why: "hand", next: resume(hours(4), "paused by hand"), keepHandPause: true },
    { title: "a hand pause under 4h, seen more than 4h ago: put back", facts: facts(hours(4.1), { declaredPaused: false, handPauseSeen: iso(T) }), paused: false, why: "declared" },
    { title: "a hand pause under putBack: put back", facts: facts(hours(1), { declaredPaused: false, handPauseSeen: iso(T), handPauses: { rule: "putBack" } }), paused: false, why: "declared" },
    { title: "a hand pause under keep: kept, with no end", facts: facts(hours(100), { pauses: [], handPauseSeen: iso(T), handPauses: { rule: "keep" } }), paused: true, why: "hand", keepHandPause: true },
    { title: "under keep, an object never seen paused by hand: active", facts: facts(hours(1), { pauses: [], handPauses: { rule: "keep" } }), paused: false, why: "active" },
    { title: "a hand pause of an object whose pause state is not managed: left alone", facts: facts(hours(1), { handPauseSeen: iso(T) }), paused: "unmanaged", why: "unmanaged" },
    { title: "a hand pause of an object declared paused: paused as declared, the hand pause's record dropped", facts: facts(hours(1), { declaredPaused: true, handPauseSeen: iso(T) }), paused: true, why: "declared" },
    { title: "at the override's end to the millisecond: ended, its record dropped", facts: facts(hours(2), { override: incident }), paused: false, why: "active" },
  ])("$title", ({ facts, paused, why, next, then, keepOverride = false, keepHandPause = false }) => {
    const plan = pausePlan(facts);
    expect(plan).toMatchObject({ paused, why: { kind: why }, keepOverride, keepHandPause });
    expect(plan.next).toEqual(next);
    expect(plan.then).toEqual(then);
    // No key for a change time does not bring: the outputs record the plan as it is.
    expect(Object.keys(plan).filter((key) => key === "next" || key === "then")).toEqual([...(next === undefined ? [] : ["next"]), ...(then === undefined ? [] : ["then"])]);
  });
});

describe("describePlan: what preview and up say", () => {
  it.each([
    { title: "a window to come", facts: facts(T, { pauses: [freeze] }), held: false, says: "pauses 21:00 UTC for 'Black Friday freeze', resumes 23:00 UTC" },
    { title: "its start due", facts: facts(hours(1.08), { pauses: [freeze] }), held: false, says: "pauses now for 'Black Friday freeze', resumes 23:00 UTC" },
    { title: "inside it", facts: facts(hours(2), { pauses: [freeze] }), held: true, says: "stays paused for 'Black Friday freeze', resumes 23:00 UTC" },
    { title: "its end due", facts: facts(hours(3.08), { pauses: [freeze] }), held: true, says: "resumes now" },
    { title: "after it", facts: facts(hours(168), { pauses: [freeze] }), held: false, says: undefined },
    { title: "a window days away, with its dates", facts: facts(hours(-48), { pauses: [freeze] }), held: false, says: "pauses 2030-11-28 21:00 UTC for 'Black Friday freeze', resumes 2030-11-28 23:00 UTC" },
    { title: "a window a day away to the millisecond, with its date", facts: facts(hours(-23), { pauses: [freeze] }), held: false, says: "pauses 2030-11-28 21:00 UTC for 'Black Friday freeze', resumes 2030-11-28 23:00 UTC" },
    { title: "a window a millisecond less than a day away, with its time", facts: facts(hours(-23) + 1, { pauses: [freeze] }), held: false, says: "pauses 21:00 UTC for 'Black Friday freeze', resumes 2030-11-28 23:00 UTC" },
    { title: "an active override", facts: facts(T, { override: incident }), held: true, says: "stays paused: override by alice for 'incident 42', resumes 22:00 UTC" },
    { title: "nothing managed", facts: facts(T), held: true, says: undefined },
    { title: "an override not yet applied", facts: facts(T, { override: incident }), held: false, says: "pauses now: override by alice for 'incident 42', resumes 22:00 UTC" },
    { title: "an override over an object declared paused: no resume to come", facts: facts(T, { override: incident, declaredPaused: true }), held: true, says: "stays paused: override by alice for 'incident 42'" },
    { title: "declared paused, held active", facts: facts(T, { declaredPaused: true }), held: false, says: "pauses now" },
    { title: "a hand pause kept, held active", facts: facts(hours(1), { declaredPaused: false, handPauseSeen: iso(T) }), held: false, says: "pauses now (paused by hand), resumes 00:00 UTC" },
    { title: "a hand pause kept", facts: facts(hours(1), { declaredPaused: false, handPauseSeen: iso(T) }), held: true, says: "stays paused (paused by hand), resumes 00:00 UTC" },
    { title: "an override ended, a window to come", facts: facts(hours(2.1), { override: incident, pauses: [{ ...freeze, from: iso(hours(5)), to: iso(hours(6)) }] }), held: true, says: "resumes now; pauses 01:00 UTC for 'Black Friday freeze', resumes 02:00 UTC" },
  ])("$title: $says", ({ facts, held, says }) => {
    expect(describePlan(pausePlan(facts), held, facts.now)).toBe(says);
  });
});

describe("formatInstant", () => {
  it.each([
    { title: "now itself: its time", at: iso(T), says: "20:00 UTC" },
    { title: "within the next day: its time", at: iso(hours(23.5)), says: "19:30 UTC" },
    { title: "a day or more ahead: its date too", at: iso(hours(24)), says: "2030-11-29 20:00 UTC" },
    { title: "already past, if only by a minute: its date too", at: iso(T - 60_000), says: "2030-11-28 19:59 UTC" },
  ])("$title", ({ at, says }) => {
    expect(formatInstant(at, T)).toBe(says);
  });
});
