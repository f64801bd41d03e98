/**
 * Bad input is caught at preview, before any API call, with a message that names the resource,
 * the field and the rule, and never a secret value.
 */
// @ts-nocheck

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploy, type Deployment } from "./support.js";

const secretPassword = "hunter2-do-not-print";

const invalidPrograms: { case: string; kind: string; args: Record<string, unknown>; message: RegExp }[] = [
  { case: "an interval under 10 s", kind: "Monitor", args: { url: "https://example.com", intervalSeconds: 5 }, message: /intervalSeconds.*at least 10/ },
  { case: "a region outside monitoring:offeredRegions", kind: "Monitor", args: { url: "https://example.com", regions: ["mars-1"] }, message: /regions\[0\]: must be one of the regions in monitoring:offeredRegions \(us-east-1, eu-west-1\) \(got "mars-1"\)/ },
  { case: "a tcp monitor without its port", kind: "Monitor", args: { monitorType: "tcp", tcpHost: "db.example.com" }, message: /tcpPort.*required/ },
  { case: "a port out of range", kind: "Monitor", args: { monitorType: "tcp", tcpHost: "db.example.com", tcpPort: 70_000 }, message: /tcpPort.*65535/ },
  { case: "a request body on GET", kind: "Monitor", args: { url: "https://example.com", requestBody: "{}" }, message: /requestBody/ },
  { case: "a bad maintenance time and zone", kind: "Monitor", args: { url: "https://example.com", maintenanceFrom: "25:00", maintenanceTo: "03:00", maintenanceTimezone: "Mars/Olympus" }, message: /maintenanceFrom.*HH:MM|maintenanceTimezone/ },
  { case: "a field of another monitor type, with a secret", kind: "Monitor", args: { monitorType: "dns", dnsQuery: "example.com", authPassword: secretPassword }, message: /authPassword/ },
  { case: "a misspelt field", kind: "Monitor", args: { url: "https://example.com", intervalSecs: 60 }, message: /intervalSecs.*(unknown|not a field)/i },
  { case: "a keyword alert without its keyword", kind: "Monitor", args: { url: "https://example.com", alertType: "keyword" }, message: /keyword.*required/ },
  { case: "a heartbeat group id that is not a UUID", kind: "Heartbeat", args: { name: "job", heartbeatGroupId: "nightly" }, message: /heartbeatGroupId.*UUID/i },
  { case: "an escalation policy without steps", kind: "EscalationPolicy", args: { name: "p", steps: [] }, message: /steps/ },
];

describe("invalid programs fail at preview with no API request", () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await deploy({
      program: "test/programs/declared",
      config: { resources: { value: "[]" }, "monitoring:offeredRegions": { value: '["us-east-1","eu-west-1"]' } },
    });
  });
  afterAll(async () => deployment?.dispose());

  it.each(invalidPrograms)("$case", async ({ kind, args, message }) => {
    await deployment.harness.stack.setConfig("resources", { value: JSON.stringify([{ kind, name: "subject", args }]) });
    await deployment.emulator.admin.clearRequestLog();
    const failure = await deployment.harness.stack.preview().then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure, "the preview should have failed").toBeDefined();
    expect(failure).toContain(kind);
    expect(failure).toMatch(message);
    expect(failure).not.toContain(secretPassword);
    expect(await deployment.emulator.admin.requestLog()).toEqual([]);
  });
});

describe("a value only the server can judge", () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: "[]" } } });
  });
  afterAll(async () => deployment?.dispose());

  it("passes preview when the stack lists no offered regions, and the server's refusal names the input", async () => {
    const resources = [{ kind: "Monitor", name: "far", args: { url: "https://example.com", regions: ["eu-west-1", "mars-1"] } }];
    await deployment.harness.stack.setConfig("resources", { value: JSON.stringify(resources) });
    await deployment.emulator.admin.clearRequestLog();
    await deployment.harness.stack.preview();
    expect(await deployment.emulator.admin.requestLog()).toEqual([]);
    const failure = await deployment.harness.stack.up().then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/Monitor "far": create failed: the service rejected regions\[1\]: .*request_id req_/);
    expect(await deployment.listAll("/monitors")).toEqual([]);
  });
});
