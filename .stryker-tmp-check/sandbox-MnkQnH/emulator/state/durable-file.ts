/**
 * Atomic, coalesced snapshots of the state to one JSON file.
 *
 * A snapshot is written to a temporary file, flushed to disk, then renamed over the data file,
 * and the directory is flushed so the rename itself survives a crash: a kill at any moment leaves
 * either the previous complete file or the new one. At most one write is in flight; every request
 * for durability made meanwhile is served by the single write that starts next, which captures
 * all changes made up to its start. So a burst of N changes costs about two writes, and a caller
 * whose promise resolves knows its change is on disk.
 */
// @ts-nocheck

import { open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class DurableFile {
  private writing = false;
  private waiters: Waiter[] = [];
  private readonly temporaryPath: string;

  constructor(
    private readonly path: string,
    /** Serializes the current state; called at the start of each write. */
    private readonly serialize: () => string,
  ) {
    // One fixed name, so a write cut short by a kill leaves at most one stale file, overwritten by the next write.
    this.temporaryPath = join(dirname(path), `.${basename(path)}.tmp`);
  }

  /** The file's content, or `undefined` when it does not exist yet. */
  async read(): Promise<string | undefined> {
    try {
      return await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  /** Resolves once a snapshot taken after this call is durable on disk. */
  flush(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.writing) void this.drain();
    return done;
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiters.length > 0) {
      const batch = this.waiters;
      this.waiters = [];
      try {
        await this.writeSnapshot(this.serialize());
        for (const waiter of batch) waiter.resolve();
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
      }
    }
    this.writing = false;
  }

  private async writeSnapshot(content: string): Promise<void> {
    const file = await open(this.temporaryPath, "w", 0o600);
    try {
      await file.writeFile(content, "utf8");
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename(this.temporaryPath, this.path);
    } catch (error) {
      await unlink(this.temporaryPath).catch(() => undefined);
      throw error;
    }
    const directory = await open(dirname(this.path), "r");
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }
}
