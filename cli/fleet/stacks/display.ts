/**
 * What the user sees while the fleet runs: in a terminal, one line per stack redrawn in place
 * (queued, running and its current step, done and its counts, failed); elsewhere (CI logs), one
 * plain line each time a stack changes state.
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

export function createDisplay(output: Output, stacks: readonly string[]): Display {
  return output.isTTY ? new RedrawingDisplay(output, stacks) : new LoggingDisplay(output, stacks);
}

/** One line per state change, for logs that cannot be redrawn. */
class LoggingDisplay implements Display {
  readonly #last = new Map<string, string>();
  readonly #nameWidth: number;

  constructor(private readonly output: Output, stacks: readonly string[]) {
    this.#nameWidth = Math.max(0, ...stacks.map((stack) => stack.length));
  }

  update(stack: string, state: LiveState): void {
    // Steps change many times a second; a log gets the transitions only.
    if (state.state === "queued" || this.#last.get(stack) === state.state) return;
    this.#last.set(stack, state.state);
    this.output.write(`${liveLine(stack, state.state === "running" ? { ...state, step: undefined } : state, this.#nameWidth, Date.now())}\n`);
  }

  close(): void {}
}

/** Lines redrawn in place with ANSI cursor movement, at most ten times a second. */
class RedrawingDisplay implements Display {
  readonly #states = new Map<string, LiveState>();
  readonly #nameWidth: number;
  #drawnLines = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly output: Output, stacks: readonly string[]) {
    this.#nameWidth = Math.max(0, ...stacks.map((stack) => stack.length));
    for (const stack of stacks) this.#states.set(stack, { state: "queued" });
    // Running lines show a clock, so redraw even when no event arrives.
    this.#timer = setInterval(() => this.#draw(), 100);
    this.#timer.unref();
  }

  update(stack: string, state: LiveState): void {
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
    const lines = fitToScreen([...this.#states], this.output.rows ?? 40).map(([stack, state]) =>
      typeof state === "string" ? state : liveLine(stack, state, this.#nameWidth, now),
    );
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
