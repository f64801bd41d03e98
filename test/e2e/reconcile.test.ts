/**
 * Objects made outside Pulumi, taken over, then changed by hand, on the real engine, as users run
 * the CLI:
 *
 * - Adoption: the `import` resource option does not work for dynamic resources (pulumi/pulumi#3550,
 *   #16175), so every kind takes an `adoptId`: create reads that object and converges it to the
 *   declared inputs instead of making a new one.
 * - Every deploy reconciles: in a project set up as the docs say (`options: refresh: always` in
 *   Pulumi.yaml), a change made by hand to a declared field is put back by the next plain
 *   `pulumi up`, run as a user runs it (the CLI, no flag, the program in a language host), a
 *   field the program leaves out keeps its hand value, and a pause made by hand is kept for the
 *   time `monitoring:handPauses` gives it (4 hours by default). `--refresh=false` skips the refresh, and
 *   with it the repair: the hand change it leaves in place is the one the plain `up` after it
 *   repairs.
 *
 * The engine's part (the project's option, the flag) is the same whatever the server; it runs on
 * the default profile. What the refresh finds and what the update puts back on each profile is
 * the provider's (test/provider/hand-changes.test.ts, both profiles); adoption's own rules (a
 * matching object written nothing, a missing one named) are test/provider/methods.test.ts. A
 * plain preview showing the repair is the one the plain `pulumi up` runs before it updates. The
 * Automation API's up following the project's option, and the empty preview after the repair,
 * are test/e2e/hand-changes.test.ts, on a stack of every kind of hand change.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPassphrase } from "../support/pulumi.js";
import { deploy, type Deployment } from "./support.js";

const run = promisify(execFile);

describe("objects made outside Pulumi, adopted, then changed by hand", () => {
  let deployment: Deployment;
  let existing: { channel: string; monitor: string };

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: "[]" } } });
    const { byHand } = deployment.emulator;
    existing = {
      channel: (await byHand<{ id: string }>("POST", "/notification_channels", { name: "Ops (hand-made)", kind: "email", config: { address: "ops@example.com" } })).id,
      monitor: (await byHand<{ id: string }>("POST", "/monitors", { name: "Website (hand-made)", url: "https://example.com", interval_seconds: 300 })).id,
    };
  });
  // Nothing a destroy would prove here (test/e2e/lifecycle.test.ts destroys every kind): the objects go with the emulator.
  afterAll(async () => deployment?.dispose({ keepObjects: true }));

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
  const held = () => deployment.api<Record<string, unknown>>(`/monitors/${existing.monitor}`);
  const attached = async () => (await deployment.api<{ id: string }[]>(`/monitors/${existing.monitor}/notification_channels`)).map((channel) => channel.id);

  it("takes them over with adoptId and converges them to the declared inputs, keeping what the program leaves out", async () => {
    const resources = [
      { kind: "NotificationChannel", name: "ops", args: { adoptId: existing.channel, name: "Ops", kind: "email", config: { address: "ops@example.com" } } },
      {
        kind: "Monitor",
        name: "web",
        args: { adoptId: existing.monitor, name: "Web", url: "https://example.com", regions: ["eu-west-1", "us-east-1"], paused: false, notificationChannelIds: [{ $ref: "ops" }] },
      },
    ];
    await deployment.harness.stack.setConfig("resources", { value: JSON.stringify(resources) });
    const up = await deployment.harness.stack.up();
    expect(up.outputs.ids!.value).toEqual({ ops: existing.channel, web: existing.monitor });
    expect(await deployment.listAll("/monitors")).toHaveLength(1);
    expect(await deployment.listAll("/notification_channels")).toEqual([expect.objectContaining({ id: existing.channel, name: "Ops" })]);
    expect(await held()).toMatchObject({ name: "Web", paused: false, interval_seconds: 300 });
    expect(await attached()).toEqual([existing.channel]);
  });

  it("up --refresh=false skips the refresh, and leaves the hand change in place", async () => {
    await byHand("POST", `/monitors/${existing.monitor}/pause`);
    await byHand("PATCH", `/monitors/${existing.monitor}`, { name: "Renamed by hand", interval_seconds: 900 });

    // Without the refresh, the state recorded at adoption matches the program: nothing to do.
    // --skip-preview: the preview `pulumi up` runs first would be the same program run again, and
    // the plain up below shows its own.
    const skipped = await pulumi("up", "--yes", "--skip-preview", "--refresh=false");
    expect(skipped).not.toMatch(/updated/);
    expect(await held()).toMatchObject({ paused: true, name: "Renamed by hand" });
  });

  it("a plain pulumi up shows the repair in its preview, then restores the name, keeps the interval the program leaves out and, for 4 hours, the pause made by hand, and finds the adopted channel as recorded", async () => {
    const up = await pulumi("up", "--yes");
    // `pulumi up` previews before it updates (--yes only skips the question): the plain preview, refreshed first.
    expect(up).toMatch(/Previewing update[\s\S]*~ 1 to update[\s\S]*Updating/);
    expect(up).toMatch(/1 updated/);
    // monitoring:handPauses, by default 4h: an on-call pause outlives an unrelated deploy, and says until when.
    expect(up).toMatch(/Monitor "web": stays paused \(paused by hand\), resumes \d\d:\d\d UTC/);
    expect(await held()).toMatchObject({ paused: true, name: "Web", interval_seconds: 900 });
    expect(await attached()).toEqual([existing.channel]);
  });

  it("still refuses the import resource option, as Pulumi does for every dynamic resource in this version", async () => {
    const resources = [
      { kind: "NotificationChannel", name: "imported", args: { name: "Other", kind: "email", config: { address: "x@example.com" } }, options: { import: existing.channel } },
    ];
    await deployment.harness.stack.setConfig("resources", { value: JSON.stringify(resources) });
    // If this starts to pass, Pulumi has fixed pulumi/pulumi#3550: support `import` then.
    await expect(deployment.harness.stack.preview()).rejects.toThrow(/toJavaScript|import/);
  });
});
