/**
 * Preview asks the service (`monitoring:dryRun: true`, provider/dry-run.ts), on a real `pulumi
 * preview`: a region the server does not offer fails the preview, naming the resource and the
 * field (a single Monitor's, then a MonitorSet entry's), with dry-run requests only (no write).
 * Monitors whose inputs did not change are not sent; without the option the same preview passes
 * offline. On the default profile, which refuses the batch with a 422 naming `monitors[i].field`;
 * test/provider/dry-run.test.ts holds the batcher, the verdicts of both kinds and check as the
 * dynamic provider host calls it on both profiles (alt answers 201 with a verdict per monitor), to
 * exact request counts. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, profiles, type Deployment } from "./support.js";

const DRY_RUN = "POST /monitors/batch/dry-run";
/** Two dry-run requests' worth of monitors. */
const SET_SIZE = 101;

/** A single Monitor and a MonitorSet; `refused` names the one given a region the server does not offer. */
function resources(offered: readonly string[], refused: "far" | "fleet" | "none") {
  return [
    { kind: "Monitor", name: "far", args: { url: "https://example.com/far", regions: [offered[0], refused === "far" ? "mars-1" : offered[1]] } },
    {
      kind: "MonitorSet",
      name: "fleet",
      args: {
        monitors: Object.fromEntries(
          Array.from({ length: SET_SIZE }, (_, index) => [`m-${index}`, { url: `https://example.com/${index}`, regions: [index === 57 && refused === "fleet" ? "mars-1" : offered[0]] }]),
        ),
      },
    },
  ];
}

/** A stack of the declared program with `monitoring:dryRun: true` on an emulator of `profile`. */
function dryRunStack(profile: (typeof profiles)[number]) {
  const offered = profile.regions.split(",");
  const context = {
    deployment: undefined as unknown as Deployment,
    declare: (refused: "far" | "fleet" | "none") => context.deployment.harness.stack.setConfig("resources", { value: JSON.stringify(resources(offered, refused)) }),
    requests: async () => (await context.deployment.emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path}`),
    previewFailure: () =>
      context.deployment.harness.stack.preview().then(
        () => undefined,
        (error: Error) => error.message,
      ),
  };
  beforeAll(async () => {
    context.deployment = await deploy({ program: "test/programs/declared", profile: profile.profile, config: { "monitoring:dryRun": { value: "true" } } });
  });
  // The objects go away with the emulator: no destroy.
  afterAll(async () => context.deployment?.dispose({ keepObjects: true }));
  return context;
}

describe("monitoring:dryRun on the default profile (the batch refused with a 422 naming monitors[i].field)", () => {
  const stack = dryRunStack(profiles[0]);

  it("asks at up; at preview sends only the changed monitors, refused by resource, set entry and field; passes offline without the option", async () => {
    // The host does not tell a preview from an update: with the option, up's own check asks too.
    await stack.declare("none");
    await stack.deployment.harness.stack.up();
    expect((await stack.requests()).filter((request) => request === DRY_RUN)).toHaveLength(3);
    expect(await stack.deployment.listAll("/monitors")).toHaveLength(SET_SIZE + 1);

    await stack.declare("far");
    await stack.deployment.emulator.admin.clearRequestLog();
    const failure = await stack.previewFailure();
    expect(failure).toMatch(
      /resource 'far': property regions\[1\] value .* has a problem: Monitor\.regions\[1\]: must be an offered region \(us-east-1, .*\); refused by the service's dry run, POST \/monitors\/batch\/dry-run \[request_id req_\w+\]/,
    );
    // Refresh (Pulumi.yaml: refresh always) reads; the set's 101 unchanged monitors are not sent, and nothing is written.
    expect((await stack.requests()).filter((request) => !request.startsWith("GET "))).toEqual([DRY_RUN]);

    // A set's entry: the one changed monitor of 101 is sent, refused by entry and field.
    await stack.declare("fleet");
    await stack.deployment.emulator.admin.clearRequestLog();
    expect(await stack.previewFailure()).toMatch(
      /resource 'fleet': property monitors\[\\?"m-57\\?"\]\.regions\[0\] value .* has a problem: MonitorSet\.monitors\[\\?"m-57\\?"\]\.regions\[0\]: must be an offered region \(us-east-1, .*\); refused by the service's dry run, POST \/monitors\/batch\/dry-run \[request_id req_\w+\]/,
    );
    expect((await stack.requests()).filter((request) => !request.startsWith("GET "))).toEqual([DRY_RUN]);

    await stack.deployment.harness.stack.setConfig("monitoring:dryRun", { value: "false" });
    await stack.deployment.emulator.admin.clearRequestLog();
    const preview = await stack.deployment.harness.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2, update: 1 });
    expect((await stack.requests()).filter((request) => !request.startsWith("GET ")), "offline without the option").toEqual([]);
  });
});
