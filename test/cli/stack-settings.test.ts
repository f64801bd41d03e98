/**
 * Where a command takes a stack's `monitoring:` settings from (cli/project/settings.ts): the
 * stack's settings file and Pulumi.yaml when they hold every value in plain text; the CLI, which
 * alone decrypts, when a setting is a secret or an environment is imported.
 */
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseProject, type FleetProject } from "../../cli/project/project.js";
import { stackSettingsOf } from "../../cli/project/settings.js";

/** A workspace that answers `pulumi config` with `config`, counting the runs it would have started. */
function workspaceAnswering(config: Record<string, string>) {
  const asked: string[] = [];
  const workspace = {
    selectStack: async () => undefined,
    getAllConfig: async (stack: string) => {
      asked.push(stack);
      return Object.fromEntries(Object.entries(config).map(([key, value]) => [key, { value, secret: true }]));
    },
  } as unknown as LocalWorkspace;
  return { workspace, asked };
}

describe("a stack's monitoring: settings", () => {
  let dir: string;
  let project: FleetProject;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "stack-settings-"));
    project = parseProject(dir, "name: p\nruntime: nodejs\nconfig:\n  monitoring:maxRequestsPerSecond:\n    default: 5\n");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const cases = [
    { name: "plain values: from the files, with Pulumi.yaml's default, and no CLI run", file: "config:\n  monitoring:apiUrl: https://api.example\n", runs: 0, apiUrl: "https://api.example", rate: "5" },
    { name: "no settings file: Pulumi.yaml's defaults, no CLI run", file: undefined, runs: 0, apiUrl: undefined, rate: "5" },
    { name: "a secret key: the CLI decrypts", file: "config:\n  monitoring:apiUrl: https://api.example\n  monitoring:apiKey:\n    secure: v1:abc\n", runs: 1, apiUrl: "https://cli.example", rate: undefined },
    { name: "an imported environment: the CLI resolves it", file: "environment:\n  - shared/monitoring\n", runs: 1, apiUrl: "https://cli.example", rate: undefined },
    { name: "a secret of another namespace: from the files", file: "config:\n  monitoring:apiUrl: https://api.example\n  agency:token:\n    secure: v1:abc\n", runs: 0, apiUrl: "https://api.example", rate: "5" },
  ];
  it.each(cases)("$name", async ({ file, runs, apiUrl, rate }) => {
    const stack = `s${cases.findIndex((entry) => entry.file === file)}`;
    if (file !== undefined) await writeFile(join(dir, `Pulumi.${stack}.yaml`), file);
    const { workspace, asked } = workspaceAnswering({ "monitoring:apiUrl": "https://cli.example" });
    const value = await stackSettingsOf(project, stack, workspace);
    expect(asked).toHaveLength(runs);
    expect(value("apiUrl")).toBe(apiUrl);
    expect(value("maxRequestsPerSecond")).toBe(rate);
  });
});
