/**
 * Splitting one fleet across CI runners: `--shard i/n` runs the client stacks whose name hashes
 * to share `i` of `n`. A stack's share depends on its own name and `n` only, never on the other
 * stacks or their order, so adding or removing a stack moves no other one. The share is chosen by
 * rendezvous hashing (the highest `hash(share, name)` wins), so that going from `n` to `n + 1`
 * runners moves only the stacks the new runner takes, about one in `n + 1`.
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** `2/3` → { index: 2, count: 3 }; the error says what is expected. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) {
    throw new Error(`--shard must be I/N with 1 <= I <= N (this runner's share of N), got ${JSON.stringify(text)}`);
  }
  return { index, count };
}

export const formatShard = (shard: Shard): string => `${shard.index}/${shard.count}`;

/** A stack's weight for one share; the name without its `org/project/` prefix, however the backend lists it. */
function weight(share: number, stack: string): bigint {
  return createHash("sha256").update(`${share}\0${basename(stack)}`).digest().readBigUInt64BE(0);
}

/** The share (1..count) a stack belongs to. */
export function shardOf(stack: string, count: number): number {
  let best = 1;
  let bestWeight = -1n;
  for (let share = 1; share <= count; share += 1) {
    const candidate = weight(share, stack);
    if (candidate > bestWeight) [best, bestWeight] = [share, candidate];
  }
  return best;
}

/** The stacks of `stacks` (in their order) that belong to `shard`. */
export function stacksOfShard(stacks: readonly string[], shard: Shard): string[] {
  return stacks.filter((stack) => shardOf(stack, shard.count) === shard.index);
}

export interface MatrixEntry {
  /** What `--shard` takes. */
  shard: string;
  /** The share's stacks, space-separated, for the job's name. */
  stacks: string;
}

/**
 * One entry per share, an empty one included: every runner writes its report, so that merging
 * them can tell a share with no stack from a runner that never finished.
 */
export function shardMatrix(stacks: readonly string[], count: number): MatrixEntry[] {
  return Array.from({ length: count }, (_, offset) => ({ index: offset + 1, count })).map((shard) => ({ shard: formatShard(shard), stacks: stacksOfShard(stacks, shard).join(" ") }));
}
