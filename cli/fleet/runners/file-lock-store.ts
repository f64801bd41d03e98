/** The lock store of a `file://` backend: the CLI's lock files, and leases under `<state dir>/.pulumi-monitoring/leases/`. */
import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { holderOf, type Lease, type LeaseHolder, type LockContent, lockDirOf, type LockStore, parseJson, type StackPath, type StoredLock } from "./lock-store.js";

/** The folder of a `file://` backend, as the CLI reads its URL (`~` is the home folder). */
export function fileBackendRoot(url: string): string {
  const path = decodeURIComponent(url.slice("file://".length).split("?")[0] ?? "");
  return path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : resolve(path);
}

export class FileLockStore implements LockStore {
  constructor(readonly root: string) {}

  #leasePath(lockKey: string): string {
    return join(this.root, ".pulumi-monitoring", "leases", lockKey.replace(/^\.pulumi\/locks\//, ""));
  }

  async locksOf(stack: StackPath): Promise<StoredLock[]> {
    const dir = lockDirOf(stack);
    const files = await readdir(join(this.root, dir)).catch(() => [] as string[]);
    const locks: StoredLock[] = [];
    for (const file of files.filter((name) => name.endsWith(".json")).sort()) {
      const text = await readFile(join(this.root, dir, file), "utf8").catch(() => undefined);
      if (text === undefined) continue;
      const content = parseJson<LockContent>(text);
      locks.push({ key: `${dir}${file}`, holder: holderOf(content), ageMs: Math.max(0, Date.now() - Date.parse(content.timestamp?.replace(/(\.\d{3})\d+/, "$1") ?? "")) || 0 });
    }
    return locks;
  }

  async leasesOf(lockKeys: readonly string[]): Promise<Map<string, Lease>> {
    const leases = new Map<string, Lease>();
    for (const lockKey of lockKeys) {
      const text = await readFile(this.#leasePath(lockKey), "utf8").catch(() => undefined);
      if (text === undefined) continue;
      const stored = parseJson<{ holder: LeaseHolder; renewEveryMs: number; renewedAt: number }>(text);
      leases.set(lockKey, { lockKey, holder: stored.holder, renewEveryMs: stored.renewEveryMs, ageMs: Math.max(0, Date.now() - stored.renewedAt), renewal: String(stored.renewedAt) });
    }
    return leases;
  }

  async renew(lockKey: string, stack: StackPath, holder: LeaseHolder, renewEveryMs: number): Promise<void> {
    const path = this.#leasePath(lockKey);
    await mkdir(dirname(path), { recursive: true });
    // Written whole, then renamed: a reader never sees half a lease.
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify({ stack: `${stack.project}/${stack.stack}`, holder, renewEveryMs, renewedAt: Date.now() }));
    await rename(temporary, path);
  }

  async dropLease(lockKey: string): Promise<void> {
    await rm(this.#leasePath(lockKey), { force: true });
  }

  async breakLock(lockKey: string, judged: Lease | undefined): Promise<boolean> {
    const lease = (await this.leasesOf([lockKey])).get(lockKey);
    if (lease?.renewal !== judged?.renewal) return false;
    try {
      // unlink, not rm: of two runners deleting it at once, exactly one succeeds.
      await unlink(join(this.root, lockKey));
    } catch {
      return false;
    }
    await this.dropLease(lockKey);
    return true;
  }

  async close(): Promise<void> {}
}
