/** Bounded concurrency, as the provider's set, the importer, drift, verify and the fleet run their work. */
import { describe, expect, it } from "vitest";
import { mapBounded, runBounded } from "../../provider/concurrency.js";

describe("bounded concurrency", () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

  it("runs every item with at most `limit` at once and returns the results in the items' order", async () => {
    let running = 0;
    let mostAtOnce = 0;
    const results = await runBounded([30, 10, 20, 5, 15], 2, async (ms) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running -= 1;
      return ms * 2;
    });
    expect(mostAtOnce).toBe(2);
    expect(results).toEqual([60, 20, 40, 10, 30].map((value) => ({ status: "fulfilled", value })));
  });

  it("goes on after a task fails", async () => {
    const results = await runBounded(["a", "b", "c"], 1, async (item) => {
      await tick();
      if (item === "b") throw new Error("b broke");
      return item;
    });
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("starts nothing more once stopped, and says which never started", async () => {
    const stop = new AbortController();
    const results = await runBounded([1, 2, 3, 4], 2, async (item) => {
      if (item === 2) stop.abort();
      await tick();
      return item;
    }, stop.signal);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "not-started", "not-started"]);
  });

  it("as values: the first failure in the items' order, thrown once every task has ended", async () => {
    const ended: string[] = [];
    const work = mapBounded(["a", "b", "c", "d"], 2, async (item) => {
      await tick();
      ended.push(item);
      if (item === "c" || item === "b") throw new Error(`${item} broke`);
      return item;
    });
    await expect(work).rejects.toThrow("b broke");
    expect(ended.sort()).toEqual(["a", "b", "c", "d"]);
    expect(await mapBounded([3, 1, 2], 2, async (item) => item * 10)).toEqual([30, 10, 20]);
  });
});
