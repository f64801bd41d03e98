/**
 * The exit statuses of every command: 0 done, 1 it could not do its work (a stack failed or was
 * locked, the service could not be read), 2 bad usage, 3 it found something (drift, unmanaged
 * objects, an object that failed verify), 130 interrupted.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, found: 3, interrupted: 130 } as const;
