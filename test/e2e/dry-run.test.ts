/**
 * Preview asks the service (`monitoring:dryRun: true`, provider/dry-run.ts), on a real `pulumi
 * preview`: a region the server does not offer fails the preview, naming the resource and the
 * field, with dry-run requests only (no write), on each emulator profile (the default refuses the
 * batch with a 422, alt answers 201 with a verdict per monitor; a set's monitor on alt, a single
 * Monitor on default). Monitors whose inputs did not change are not sent; without the option the
 * same preview passes offline. test/provider/dry-run.test.ts holds the batcher and the verdicts
 * of both kinds on both profiles to exact request counts.
 */
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
  afterAll(async () => context.deployment?.dispose());
  return context;
}

describe("monitoring:dryRun on the default profile (the batch refused with a 422 naming monitors[i].field)", () => {
  const stack = dryRunStack(profiles[0]);

  it("asks at up; at preview sends only the changed monitor, refused by name and field; passes offline without the option", async () => {
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

    await stack.deployment.harness.stack.setConfig("monitoring:dryRun", { value: "false" });
    await stack.deployment.emulator.admin.clearRequestLog();
    const preview = await stack.deployment.harness.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2, update: 1 });
    expect((await stack.requests()).filter((request) => !request.startsWith("GET ")), "offline without the option").toEqual([]);
  });
});

describe("monitoring:dryRun on the alt profile (201 with a verdict per monitor)", () => {
  const stack = dryRunStack(profiles[1]);

  it("refuses at preview a monitor of a set the server refuses, naming resource and field, with dry runs only and no write", async () => {
    await stack.declare("fleet");
    const failure = await stack.previewFailure();
    expect(failure, "the preview should have failed").toBeDefined();
    expect(failure).toMatch(
      /resource 'fleet': property monitors\[\\?"m-57\\?"\]\.regions\[0\] value .* has a problem: MonitorSet\.monitors\[\\?"m-57\\?"\]\.regions\[0\]: must be an offered region \(us-east, .*\); refused by the service's dry run, POST \/monitors\/batch\/dry-run \[request_id req_\w+\]/,
    );
    // The engine checks resources one at a time and stops at the first refusal: the Monitor's own
    // request if it came first, and the set's two (101 monitors); nothing else.
    const sent = await stack.requests();
    expect(sent.filter((request) => request !== DRY_RUN)).toEqual([]);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(3);
    expect(await stack.deployment.listAll("/monitors")).toEqual([]);
  });
});
