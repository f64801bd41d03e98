/**
 * The whole repository type-checks: `tsc -p tsconfig.json --noEmit`, strict, over every folder,
 * programs and examples included (the engine tests run those transpile-only and rely on it).
 * It runs as one file of the suite, beside the others, rather than before all of them: alone it
 * kept one core of two idle for as long as it took.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(__dirname, "..", "..");

it("tsc --noEmit finds no error in the repository", async () => {
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) =>
    execFile(
      process.execPath,
      [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json", "--noEmit", "--pretty", "false"],
      { cwd: root, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, output: stdout + stderr }),
    ),
  );
  // The compiler's diagnostics, as the failure's diff.
  expect(output).toBe("");
  expect(code).toBe(0);
}, 300_000);
