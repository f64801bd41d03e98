/** The single-stack commands parse their options, answer --help and report bad usage alike. */
import { describe, expect, it } from "vitest";
import { drift } from "../../cli/drift/command.js";
import { verify } from "../../cli/verify/command.js";

function capturedIO() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    io: { stdout: { write: (text: string) => stdout.push(text) }, stderr: { write: (text: string) => stderr.push(text) }, stdin: process.stdin, signals: process, env: process.env },
  };
}

describe.each([
  { name: "drift", run: drift.run, exitLine: "Exit status: 0 in sync (known fields, overrides and windows may be listed), 1 the check failed,\n2 bad usage, 3 drift (a pause made by hand included) or unmanaged objects found.", ownOption: "--markdown" },
  { name: "verify", run: verify.run, exitLine: "Exit status: 0 everything passed, 1 could not verify", ownOption: "--junit FILE" },
])("pulumi-monitoring $name", ({ name, run, exitLine, ownOption }) => {
  it("--help prints the usage with its own options, the common ones and the exit statuses, and exits 0", async () => {
    const { io, stdout, stderr } = capturedIO();
    expect(await run(["--help"], io)).toBe(0);
    expect(stdout.join("")).toContain(`Usage: pulumi-monitoring ${name} [options]`);
    for (const option of [ownOption, "--stack NAME", "--cwd DIR"]) expect(stdout.join("")).toContain(option);
    expect(stdout.join("")).toContain(exitLine);
    expect(stderr).toEqual([]);
  });

  it("an option it does not take is bad usage (exit 2), named, with where to look", async () => {
    const { io, stdout, stderr } = capturedIO();
    expect(await run(["--bogus"], io)).toBe(2);
    expect(stderr.join("")).toBe(`pulumi-monitoring ${name}: Unknown option '--bogus'\n` + `Run \`pulumi-monitoring ${name} --help\` for the options.\n`);
    expect(stdout).toEqual([]);
  });
});

describe("pulumi-monitoring verify --timeout", () => {
  it.each(["0", "-5", "soon", "Infinity"])("refuses %s as bad usage before reading any stack", async (timeout) => {
    const { io, stderr } = capturedIO();
    expect(await verify.run([`--timeout=${timeout}`, "--cwd", "/nonexistent"], io)).toBe(2);
    expect(stderr.join("")).toContain(`pulumi-monitoring verify: --timeout must be a duration such as 90s, 5m or 1h, got ${JSON.stringify(timeout)}\n`);
  });
});
