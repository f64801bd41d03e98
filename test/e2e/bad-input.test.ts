/**
 * Bad input is caught at preview, before any API call, with a message that names the resource,
 * the field and the rule, and never a secret value. Each rule's failure is proven at the
 * provider's check, as the dynamic provider host calls it (test/provider/bad-input.test.ts); this
 * file proves that `pulumi preview` shows those failures to the user, with the stack's
 * `monitoring:offeredRegions`, and that a value only the server can judge passes preview and is
 * refused by the server on `up`. One stack, one emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, type Deployment } from "./support.js";

const secretPassword = "hunter2-do-not-print";

let deployment: Deployment;

beforeAll(async () => {
  deployment = await deploy({
    program: "test/programs/declared",
    config: { resources: { value: "[]" }, "monitoring:offeredRegions": { value: '["us-east-1","eu-west-1"]' } },
  });
});
// What the failed up left (the stack's own resource) goes with the stack's folder: no destroy.
afterAll(async () => deployment?.dispose({ keepObjects: true }));

/** The message of the preview of `resources`, which must fail, and that it sent no API request. */
async function failedPreview(resources: unknown[]): Promise<string> {
  await deployment.harness.stack.setConfig("resources", { value: JSON.stringify(resources) });
  await deployment.emulator.admin.clearRequestLog();
  const failure = await deployment.harness.stack.preview().then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(failure, "the preview should have failed").toBeDefined();
  expect(await deployment.emulator.admin.requestLog()).toEqual([]);
  return failure!;
}

describe("invalid programs fail at preview with no API request", () => {
  it("names the resource, each failing field and its rule, the regions the stack offers included", async () => {
    const failure = await failedPreview([{ kind: "Monitor", name: "subject", args: { url: "https://example.com", intervalSeconds: 5, regions: ["mars-1"] } }]);
    expect(failure).toContain("Monitor resource 'subject': property intervalSeconds value {5} has a problem: Monitor.intervalSeconds: must be at least 10 (got 5)");
    expect(failure).toMatch(
      /Monitor resource 'subject': property regions\[0\] value .* has a problem: Monitor\.regions\[0\]: must be one of the regions in monitoring:offeredRegions \(us-east-1, eu-west-1\) \(got "mars-1"\)/,
    );
  });

  it("names a secret field of another monitor type without its value", async () => {
    const failure = await failedPreview([{ kind: "Monitor", name: "subject", args: { monitorType: "dns", dnsQuery: "example.com", authPassword: secretPassword } }]);
    expect(failure).toContain("Monitor");
    expect(failure).toMatch(/authPassword/);
    expect(failure).not.toContain(secretPassword);
  });
});

describe("a value only the server can judge", () => {
  it("passes preview when the stack lists no offered regions, and the server's refusal names the input", async () => {
    const { stack } = deployment.harness;
    await stack.removeConfig("monitoring:offeredRegions");
    const resources = [{ kind: "Monitor", name: "far", args: { url: "https://example.com", regions: ["eu-west-1", "mars-1"] } }];
    await stack.setConfig("resources", { value: JSON.stringify(resources) });
    await deployment.emulator.admin.clearRequestLog();
    await stack.preview();
    expect(await deployment.emulator.admin.requestLog()).toEqual([]);
    const failure = await stack.up().then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/Monitor "far": create failed: the service rejected regions\[1\]: .*request_id req_/);
    expect(await deployment.listAll("/monitors")).toEqual([]);
  });
});
