/**
 * Every deploy reconciles: in a project set up as the docs say (`options: refresh: always` in
 * Pulumi.yaml), a change made by hand to a declared field is put back by the next plain
 * `pulumi up`, run as a user runs it (the CLI, no flag), and a field the program leaves out keeps
 * its hand value. `--refresh=false` skips the refresh, and with it the repair: the hand change it
 * leaves in place is the one the plain `up` after it repairs.
 *
 * The engine's part (the project's option, the flag) is the same whatever the server; it runs on
 * the default profile. What the refresh finds and what the update puts back on each profile is
 * the provider's (test/provider/hand-changes.test.ts, both profiles).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPassphrase } from "../support/pulumi.js";
import { deploy, type Deployment } from "./support.js";

const run = promisify(execFile);

describe("a hand change on the real engine", () => {
  let deployment: Deployment;
  let id: string;

  beforeAll(async () => {
    const resources = [{ kind: "Monitor", name: "web", args: { name: "Web", url: "https://example.com", regions: ["eu-west-1", "us-east-1"], paused: false } }];
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: JSON.stringify(resources) } } });
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
        // npm test type-checks the program with tsc (test/architecture/types.test.ts); the CLI's runs need not again.
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

    // The Automation API's preview without its refresh option: `pulumi preview` with no flag,
    // the program run in the test process (the plain CLI's own runs follow).
    const preview = await deployment.harness.stack.preview();
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(await held()).toMatchObject({ paused: true, name: "Renamed by hand" });
  });

  it("up --refresh=false skips the refresh, and leaves the hand change in place", async () => {
    const skipped = await pulumi("up", "--yes", "--refresh=false");
    expect(skipped).not.toMatch(/updated/);
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
});
