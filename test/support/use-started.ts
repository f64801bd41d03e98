/**
 * Something a file's tests share, made before them and ended after them: an emulator, a receiver,
 * a deployed example. The value returned stands for it and is read inside a test or hook.
 */
import { afterAll, beforeAll } from "vitest";

export function useStarted<T extends object>(start: () => Promise<T>, stop: (started: T) => Promise<void>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started !== undefined) await stop(started);
    started = undefined;
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (started === undefined) throw new Error(`read ${String(key)} inside a test or hook: it is made in beforeAll`);
      return Reflect.get(started, key);
    },
  });
}
