/**
 * Bounded concurrency: one task per item, at most `limit` at a time, the results in the items'
 * order. The provider's set, the importer, drift, verify and the fleet all run their work this way.
 */
export type Settled<R> = { status: "fulfilled"; value: R } | { status: "rejected"; reason: unknown } | { status: "not-started" };

/**
 * Every task's outcome: a task that fails does not stop the others; once `stop` is aborted no
 * further task starts (those are `not-started`).
 */
export async function runBounded<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>, stop?: AbortSignal): Promise<Settled<R>[]> {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`limit must be a whole number of at least 1, got ${limit}`);
  const results: Settled<R>[] = items.map(() => ({ status: "not-started" }));
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length && !stop?.aborted) {
      const index = next++;
      try {
        results[index] = { status: "fulfilled", value: await task(items[index] as T, index) };
      } catch (reason) {
        results[index] = { status: "rejected", reason };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The tasks' values; once every task has ended, the first failure (in the items' order) is thrown. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  return (await runBounded(items, limit, task)).map((result) => {
    if (result.status === "rejected") throw result.reason;
    return (result as { value: R }).value;
  });
}
