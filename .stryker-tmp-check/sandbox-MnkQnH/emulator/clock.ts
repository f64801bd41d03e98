/**
 * The emulator's notion of now: real time plus an offset that the admin API can advance, so a
 * test can let a heartbeat go late without waiting for it.
 */
// @ts-nocheck

export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(milliseconds: number): void {
    this.offsetMs += milliseconds;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
