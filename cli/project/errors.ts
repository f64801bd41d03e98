/** What a failed Pulumi command says, on one line: the engine's markup, stack traces and blank lines left out. */

/** Engine messages carry color markup (`<{%reset%}>`) and sometimes ANSI codes. */
export function plainText(message: string): string {
  return message.replace(/<\{%[^%]*%\}>/g, "").replace(/\x1b\[[0-9;]*m/g, "");
}

/**
 * The informative part of an error message: without the stack trace of a program exception and
 * without blank lines, on one line.
 */
export function errorSummary(message: string): string {
  return plainText(message)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("at ") && !/^error: (update|preview|refresh|destroy) failed$/.test(line))
    .join(" ")
    .replace(/^error: /, "");
}

/**
 * The message of a failed CLI command, for when the engine reported no error event: the
 * `error:` lines of its stderr, else the first line of the error.
 */
export function commandErrorMessage(error: unknown): string {
  const stderr = (error as { commandResult?: { stderr?: string } }).commandResult?.stderr ?? "";
  const errorLines = stderr
    .split("\n")
    .filter((line) => line.startsWith("error: "))
    .map(errorSummary)
    .filter((line) => line !== "");
  if (errorLines.length > 0) return errorLines.join("; ");
  const message = error instanceof Error ? error.message : String(error);
  return errorSummary(message.split("\n").find((line) => line.trim() !== "") ?? message);
}
