/**
 * Vitest global setup: the suite runs on the real toolchain or not at all.
 * A missing Node, Pulumi CLI, language host, dynamic-provider shim, PostgreSQL server (the shared
 * state backend's tests), actionlint or shellcheck (the CI examples' lint) fails the run with a
 * message that names what is missing and how to install it; nothing is skipped.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { scratchDir } from "../../scripts/consumer-project.js";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * Where the test files of this run that need a project made like `pulumi new typescript` share
     * one install of the packed package per @pulumi/pulumi version (scripts/consumer-project.ts).
     */
    consumerInstalls: string;
    /** The Pulumi CLI on PATH, its path and `pulumi version`, for the test files' workspaces (test/support/pulumi.ts). */
    pulumiCli: { command: string; version: string };
  }
}

const repoRoot = join(__dirname, "..", "..");
const howToFix = "Run the suite with `npm test`, which installs the toolchain first (scripts/setup.sh).";

function commandOutput(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

function onPath(command: string): boolean {
  return commandOutput("sh", ["-c", `command -v ${command}`]) !== undefined;
}

/** `v3.260.1` is at least `v3.259.0`; pre-release suffixes are ignored. */
export function isAtLeast(version: string, minimum: string): boolean {
  const parts = (text: string) => (/^v?(\d+)\.(\d+)\.(\d+)/.exec(text) ?? []).slice(1).map(Number);
  const [have, want] = [parts(version), parts(minimum)];
  if (have.length !== 3) return false;
  const differing = have.findIndex((part, index) => part !== want[index]);
  return differing === -1 || (have[differing] as number) > (want[differing] as number);
}

export function pulumiSdkVersion(): string {
  const manifest = JSON.parse(readFileSync(join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8"));
  return manifest.version as string;
}

export default function setup(project: TestProject): () => void {
  project.provide("pulumiCli", checkToolchain());
  // Named after this process, which runs the whole suite, so every project and worker of the run agrees.
  // Beside the projects (scripts/consumer-project.ts), which hard-link their node_modules from it.
  const consumerInstalls = join(scratchDir(), `pulumi-monitoring-test-installs-${process.pid}`);
  project.provide("consumerInstalls", consumerInstalls);
  return () => rmSync(consumerInstalls, { recursive: true, force: true });
}

/** Checks what the suite needs, and returns the Pulumi CLI found (its path and version). */
function checkToolchain(): { command: string; version: string } {
  const missing: string[] = [];
  const nodeMajor = Number(process.versions.node.split(".")[0]);
  if (nodeMajor < 22) missing.push(`Node >= 22 (this is ${process.version})`);

  // scripts/setup.sh uses a machine's own CLI when it is at least the SDK's version.
  const wanted = `v${pulumiSdkVersion()}`;
  const cli = commandOutput("pulumi", ["version"]);
  if (cli === undefined) missing.push(`the Pulumi CLI ${wanted} or newer (no \`pulumi\` on PATH)`);
  else if (!isAtLeast(cli, wanted)) missing.push(`the Pulumi CLI ${wanted} or newer (PATH has ${cli || "a pulumi without a version"})`);
  if (!onPath("pulumi-language-nodejs")) missing.push("the nodejs language host (no `pulumi-language-nodejs` on PATH)");
  if (!onPath("pulumi-resource-pulumi-nodejs")) missing.push("the dynamic-provider shim (no `pulumi-resource-pulumi-nodejs` on PATH)");

  // scripts/setup.sh installs them and names where.
  const postgres = process.env["PULUMI_MONITORING_POSTGRES_BIN"];
  if (!postgres || !onPath(join(postgres, "initdb"))) missing.push("PostgreSQL's server programs (Debian's postgresql package; PULUMI_MONITORING_POSTGRES_BIN names none)");
  const actionlint = process.env["PULUMI_MONITORING_ACTIONLINT"];
  if (!actionlint || !onPath(actionlint)) missing.push("actionlint (built from the Go module proxy; PULUMI_MONITORING_ACTIONLINT names none)");
  if (!onPath("shellcheck")) missing.push("shellcheck (Debian's shellcheck package), which actionlint checks run: scripts with");

  if (missing.length > 0) {
    throw new Error(`The test toolchain is incomplete. Missing: ${missing.join("; ")}. ${howToFix}`);
  }
  const command = commandOutput("sh", ["-c", "command -v pulumi"])!;
  console.log(`[toolchain] node ${process.version}, pulumi ${cli} (${command})`);
  return { command, version: cli! };
}
