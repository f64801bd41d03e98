/** Where a command reads and writes: the process's own streams, or captured ones in tests. */

export interface Output {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
  rows?: number | undefined;
  columns?: number | undefined;
}

export interface CommandIO {
  stdout: Output;
  stderr: Output;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where Ctrl-C arrives. */
  signals: Pick<NodeJS.Process, "on" | "off">;
  /** Where settings given by environment variables are read (the importer's connection). */
  env: NodeJS.ProcessEnv;
}

export const defaultIO = (): CommandIO => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, signals: process, env: process.env });
