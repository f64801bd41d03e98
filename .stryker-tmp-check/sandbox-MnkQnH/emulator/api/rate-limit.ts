/**
 * The optional per-key rate limit (`--rate-limit N`): at most N requests per key in each
 * one-second window, beyond which the answer is 429 with `Retry-After`.
 */
// @ts-nocheck

export class RateLimit {
  private windowStartMs = 0;
  private readonly counts = new Map<string, number>();

  constructor(private readonly requestsPerSecond: number) {}

  /** Seconds to wait when the key is over its limit, `undefined` when the request may proceed. */
  check(keyId: string, nowMs: number): number | undefined {
    const windowStart = nowMs - (nowMs % 1000);
    if (windowStart !== this.windowStartMs) {
      this.windowStartMs = windowStart;
      this.counts.clear();
    }
    const count = (this.counts.get(keyId) ?? 0) + 1;
    this.counts.set(keyId, count);
    return count > this.requestsPerSecond ? 1 : undefined;
  }
}
