/**
 * The API rate budget of a fleet. The service limits requests per account, so stacks that run at
 * the same time share the agency's budget: each gets an equal share for its run through
 * `monitoring:maxRequestsPerSecond`, which the provider enforces per deployment.
 */
// @ts-nocheck


/** How many stacks run at once: `--parallel`, but never more than there are stacks. */
export function stacksAtOnce(parallel: number, stackCount: number): number {
  return Math.max(1, Math.min(parallel, stackCount));
}

/**
 * Requests per second each running stack may send so that `atOnce` of them together stay within
 * `budget` in every second, not only on average. The provider's limiter spaces the starts of
 * requests evenly, but a request held up on a busy machine goes out right before the next one; so
 * each stack keeps one request per second in reserve (half its share when that is under two).
 * Rounded down to hundredths, so that the sum never exceeds the budget.
 */
export function shareOfBudget(budget: number, atOnce: number): number {
  if (!(budget > 0)) throw new RangeError(`the rate budget must be a positive number, got ${budget}`);
  const even = budget / Math.max(1, atOnce);
  return Math.max(0.01, Math.floor((even - Math.min(1, even / 2)) * 100) / 100);
}

/** A stack that already asks for less than its share keeps its own, lower, limit. */
export function rateForStack(share: number, ownLimit: number | undefined): number {
  return ownLimit !== undefined && ownLimit > 0 && ownLimit < share ? ownLimit : share;
}
