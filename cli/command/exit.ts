/**
 * The exit statuses of every command: 0 done, 1 it could not do its work (a stack failed or was
 * locked, the service could not be read), 2 bad usage, 3 it found something (drift, unmanaged
 * objects, an object that failed verify), 130 interrupted.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, found: 3, interrupted: 130 } as const;

/**
 * Ends the process with `code` once what it wrote to stdout and stderr has left it. Node.js writes
 * to a pipe asynchronously, and `process.exit` drops what is still queued: a fleet's `--json`
 * report of 500 stacks (about 300 KB) reached a reading process cut at 64 KB. A command exits
 * explicitly all the same, since it may leave child processes it gave up waiting for.
 */
export async function exitOnceWritten(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => (stream.writableLength === 0 ? resolve() : stream.write("", () => resolve())))));
  process.exit(code);
}
