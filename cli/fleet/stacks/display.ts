/**
 * What the user sees while the fleet runs: in a terminal, one line per stack redrawn in place
 * (queued, running and its current step, done and its counts, failed) under a progress line;
 * elsewhere (CI logs), one plain line each time a stack changes state, and the progress line each
 * time a stack that ran finishes. The progress line says how many stacks are done of how many,
 * at what rate the stacks that run finish and about how long the rest will take; under `--json`
 * it is a JSON event on a line of its own (`{"event":"progress",...}`), for a machine to follow.
 */
import type { Output } from "../../command/io.js";
import type { ChangeCounts } from "../../report/fleet.js";
import { formatDuration } from "../../report/table.js";

export type LiveState =
  | { state: "queued" }
  | { state: "running"; step?: string | undefined; counts: ChangeCounts; startedAt: number }
  | { state: "done"; result: string; counts: ChangeCounts; durationMs: number }
  | { state: "failed"; error: string; durationMs: number }
  | { state: "not started"; note?: string | undefined }
  | { state: "skipped"; note: string };

export interface Display {
  update(stack: string, state: LiveState): void;
  /** Draws the last state and stops redrawing. */
  close(): void;
}

/** `create 2, update 1`, or `no changes`. */
export function describeCounts(counts: ChangeCounts): string {
  const parts = (Object.entries(counts) as [string, number][]).filter(([, count]) => count > 0).map(([op, count]) => `${op} ${count}`);
  return parts.length === 0 ? "no changes" : parts.join(", ");
}

export function liveLine(stack: string, state: LiveState, nameWidth: number, now: number): string {
  const name = stack.padEnd(nameWidth);
  switch (state.state) {
    case "queued":
      return `${name}  queued`;
    case "running": {
      const sofar = describeCounts(state.counts);
      return `${name}  running ${formatDuration(now - state.startedAt)}  ${state.step ?? "starting"}${sofar === "no changes" ? "" : ` (${sofar})`}`;
    }
    case "done":
      return `${name}  ${state.result} in ${formatDuration(state.durationMs)}: ${describeCounts(state.counts)}`;
    case "failed":
      return `${name}  failed after ${formatDuration(state.durationMs)}: ${state.error}`;
    case "not started":
      return `${name}  not started${state.note === undefined ? "" : `: ${state.note}`}`;
    case "skipped":
      return `${name}  skipped: ${state.note}`;
  }
}

/** How far the run is: stacks done (skipped ones included) of all, and the pace of those that ran. */
export interface Progress {
  done: number;
  total: number;
  /** Since the first stack started running. */
  elapsedMs: number;
  /** Stacks that ran and finished, per minute; undefined until one did. */
  perMinute: number | undefined;
  /** The time the stacks not done yet will take at that pace; undefined until it is known. */
  leftMs: number | undefined;
}

const ENDED: ReadonlySet<LiveState["state"]> = new Set(["done", "failed", "not started", "skipped"]);

/**
 * Counts the stacks as they end. The pace is that of the stacks that ran: a skipped stack ends the
 * moment it is judged, and counting it would promise the others a speed they will not have.
 */
export class ProgressCounter {
  readonly #ended = new Set<string>();
  #ran = 0;
  #startedAt: number | undefined;

  constructor(private readonly total: number) {}

  /** Notes `stack`'s new state at `now`; true when it ended just now, having run. */
  note(stack: string, state: LiveState, now: number): boolean {
    if (state.state === "running") this.#startedAt ??= now;
    if (!ENDED.has(state.state) || this.#ended.has(stack)) return false;
    this.#ended.add(stack);
    const ran = state.state === "done" || state.state === "failed";
    if (ran) this.#ran += 1;
    return ran;
  }

  at(now: number): Progress {
    const elapsedMs = this.#startedAt === undefined ? 0 : now - this.#startedAt;
    const done = this.#ended.size;
    const perMinute = this.#ran > 0 && elapsedMs > 0 ? (this.#ran / elapsedMs) * 60_000 : undefined;
    const leftMs = perMinute === undefined ? undefined : done >= this.total ? 0 : Math.round(((this.total - done) / perMinute) * 60_000);
    return { done, total: this.total, elapsedMs, perMinute, leftMs };
  }
}

/** `12/500 done, 4.2 stacks a minute, about 1m53s left`. */
export function progressLine({ done, total, perMinute, leftMs }: Progress): string {
  const pace = perMinute === undefined ? "" : `, ${perMinute < 10 ? perMinute.toFixed(1) : Math.round(perMinute)} stack${perMinute === 1 ? "" : "s"} a minute`;
  const left = done >= total ? "" : leftMs === undefined ? "" : `, about ${formatDuration(leftMs)} left`;
  return `${done}/${total} done${pace}${left}`;
}

/** The progress as a JSON event, one line, for `--json`. */
export function progressEvent(progress: Progress, stack: string, result: string): string {
  return JSON.stringify({ event: "progress", stack, result, ...progress, perMinute: progress.perMinute === undefined ? null : Math.round(progress.perMinute * 100) / 100, leftMs: progress.leftMs ?? null });
}

/** `json`: progress as JSON events on lines of their own (and never redrawn, since a machine reads them). */
export function createDisplay(output: Output, stacks: readonly string[], { json = false } = {}): Display {
  return output.isTTY && !json ? new RedrawingDisplay(output, stacks) : new LoggingDisplay(output, stacks, json);
}

/** One line per state change, for logs that cannot be redrawn. */
class LoggingDisplay implements Display {
  readonly #last = new Map<string, string>();
  readonly #nameWidth: number;
  readonly #progress: ProgressCounter;

  constructor(private readonly output: Output, stacks: readonly string[], private readonly json: boolean) {
    this.#nameWidth = Math.max(0, ...stacks.map((stack) => stack.length));
    this.#progress = new ProgressCounter(stacks.length);
  }

  update(stack: string, state: LiveState): void {
    // Steps change many times a second; a log gets the transitions only.
    if (state.state === "queued" || this.#last.get(stack) === state.state) return;
    this.#last.set(stack, state.state);
    const now = Date.now();
    this.output.write(`${liveLine(stack, state.state === "running" ? { ...state, step: undefined } : state, this.#nameWidth, now)}\n`);
    // One progress line per stack that ran, not per skipped one: 499 of them would bury the log.
    if (!this.#progress.note(stack, state, now)) return;
    const progress = this.#progress.at(now);
    this.output.write(this.json ? `${progressEvent(progress, stack, state.state === "done" ? state.result : state.state)}\n` : `${progressLine(progress)}\n`);
  }

  close(): void {}
}

/** Lines redrawn in place with ANSI cursor movement, at most ten times a second. */
class RedrawingDisplay implements Display {
  readonly #states = new Map<string, LiveState>();
  readonly #nameWidth: number;
  readonly #progress: ProgressCounter;
  #drawnLines = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly output: Output, stacks: readonly string[]) {
    this.#nameWidth = Math.max(0, ...stacks.map((stack) => stack.length));
    this.#progress = new ProgressCounter(stacks.length);
    for (const stack of stacks) this.#states.set(stack, { state: "queued" });
    // Running lines show a clock, so redraw even when no event arrives.
    this.#timer = setInterval(() => this.#draw(), 100);
    this.#timer.unref();
  }

  update(stack: string, state: LiveState): void {
    this.#progress.note(stack, state, Date.now());
    this.#states.set(stack, state);
  }

  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#draw();
  }

  #draw(): void {
    const now = Date.now();
    const width = Math.max(20, (this.output.columns ?? 120) - 1);
    const lines = fitToScreen([...this.#states], (this.output.rows ?? 40) - 1).map(([stack, state]) =>
      typeof state === "string" ? state : liveLine(stack, state, this.#nameWidth, now),
    );
    lines.push(progressLine(this.#progress.at(now)));
    const up = this.#drawnLines > 0 ? `\x1b[${this.#drawnLines}F` : "";
    this.output.write(up + lines.map((line) => `\x1b[2K${line.slice(0, width)}\n`).join("") + "\x1b[J");
    this.#drawnLines = lines.length;
  }
}

/**
 * The lines that fit a screen of `rows`: running and failed stacks first, the others summed up
 * in one line each (`… 30 queued`) when there is no room for them all.
 */
export function fitToScreen(entries: [string, LiveState][], rows: number): Array<[string, LiveState | string]> {
  const room = Math.max(3, rows - 2);
  if (entries.length <= room) return entries;
  const shown = entries.filter(([, state]) => state.state === "running" || state.state === "failed").slice(0, room - 4);
  const hidden = entries.filter((entry) => !shown.includes(entry));
  const tally = new Map<string, number>();
  for (const [, state] of hidden) tally.set(state.state, (tally.get(state.state) ?? 0) + 1);
  return [...shown, ...[...tally].map(([state, count]): [string, string] => [state, `… ${count} ${state}`])];
}
