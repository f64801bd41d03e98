/**
 * Every deploy reconciles: in a project set up as the docs say (`options: refresh: always` in
 * Pulumi.yaml), a change made by hand to a declared field is put back by the next plain
 * `pulumi up`, run as a user runs it (the CLI, no flag), and a field the program leaves out keeps
 * its hand value. `--refresh=false` skips the refresh, and with it the repair.
 */
// @ts-nocheck

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPassphrase } from "../support/pulumi.js";
import { deploy, type Deployment, profiles } from "./support.js";

const run = promisify(execFile);

describe.each(profiles)("a hand change on the $profile profile", ({ profile, regions }) => {
  let deployment: Deployment;
  let id: string;

  beforeAll(async () => {
    const resources = [{ kind: "Monitor", name: "web", args: { name: "Web", url: "https://example.com", regions: regions.split(","), paused: false } }];
    deployment = await deploy({ profile, program: "test/programs/declared", config: { resources: { value: JSON.stringify(resources) } } });
    const up = await deployment.harness.stack.up();
    id = (up.outputs.ids!.value as Record<string, string>).web as string;
  });
  afterAll(async () => deployment?.dispose());

  /** The Pulumi CLI in the project's directory, as a user runs it. */
  async function pulumi(...args: string[]): Promise<string> {
    const { stdout } = await run("pulumi", [...args, "--stack", deployment.harness.stack.name, "--non-interactive"], {
      cwd: deployment.harness.workDir,
      env: {
        ...process.env,
        PULUMI_BACKEND_URL: `file://${deployment.harness.backendDir}`,
        PULUMI_CONFIG_PASSPHRASE: testPassphrase,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        // npm test type-checks the program with tsc first; the CLI's runs need not again.
        PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      },
    });
    return stdout;
  }

  const byHand = async (method: string, path: string, body?: unknown): Promise<void> => void (await deployment.emulator.byHand(method, path, body));

  const held = () => deployment.api<Record<string, unknown>>(`/monitors/${id}`);

  it("a plain preview shows the repair: it refreshes first", async () => {
    await byHand("POST", `/monitors/${id}/pause`);
    await byHand("PATCH", `/monitors/${id}`, { name: "Renamed by hand", interval_seconds: 900 });

    const preview = await pulumi("preview");
    expect(preview).toMatch(/1 to update/);
    expect(await held()).toMatchObject({ paused: true, name: "Renamed by hand" });
  });

  it("a plain pulumi up resumes the monitor and restores its name, and keeps the interval the program leaves out", async () => {
    const up = await pulumi("up", "--yes");
    expect(up).toMatch(/1 updated/);
    expect(await held()).toMatchObject({ paused: false, name: "Web", interval_seconds: 900 });
  });

  it("the Automation API's up, without its refresh option, follows the project's option too", async () => {
    await byHand("PATCH", `/monitors/${id}`, { name: "Renamed again" });
    const up = await deployment.harness.stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await held()).toMatchObject({ name: "Web" });
  });

  it("then previews and refreshes no changes", async () => {
    await deployment.harness.stack.preview({ expectNoChanges: true });
    await deployment.harness.stack.refresh({ expectNoChanges: true });
  });

  it("up --refresh=false skips the refresh, and leaves the hand change in place", async () => {
    await byHand("POST", `/monitors/${id}/pause`);
    const skipped = await pulumi("up", "--yes", "--refresh=false");
    expect(skipped).not.toMatch(/updated/);
    expect(await held()).toMatchObject({ paused: true });

    await pulumi("up", "--yes");
    expect(await held()).toMatchObject({ paused: false });
  });
});
