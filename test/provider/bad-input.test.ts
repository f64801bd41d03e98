/**
 * Bad input is caught at preview, before any API call, with a message that names the resource,
 * the field and the rule, and never a secret value: check as the dynamic provider host calls it
 * (the dispatcher every resource's serialized provider turns into), configured like a stack with
 * `monitoring:offeredRegions`, against an emulator whose request log stays empty.
 * test/e2e/bad-input.test.ts shows the same failures reaching the user through `pulumi preview`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dispatcher } from "../../provider/index.js";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";

const secretPassword = "hunter2-do-not-print";

/** One resource per case, as `pulumi preview` would check it. */
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

describe("invalid inputs fail check with no API request", () => {
  let emulator: TestEmulator;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    const config: Record<string, string> = {
      "monitoring:apiUrl": emulator.baseUrl,
      "monitoring:apiKey": emulator.apiKey,
      "monitoring:offeredRegions": '["us-east-1","eu-west-1"]',
    };
    await dispatcher.configure({ config: { get: (key) => config[key], require: (key) => config[key] as string } });
  });
  beforeEach(() => emulator.admin.clearRequestLog());
  afterAll(async () => {
    // The provider's module state outlives this file in a shared worker: leave it unconfigured.
    await dispatcher.configure({ config: { get: () => undefined, require: () => "" } });
    await emulator?.stop();
  });

  it.each(invalidPrograms)("$case", async ({ kind, args, message }) => {
    const { failures } = await dispatcher.check({}, { ...args, __urn: `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:${kind}::subject` });
    expect(failures ?? [], "check should have failed").not.toEqual([]);
    const reasons = (failures ?? []).map((failure) => failure.reason).join("\n");
    expect(reasons).toContain(kind);
    expect(reasons).toMatch(message);
    expect(JSON.stringify(failures)).not.toContain(secretPassword);
    expect(await emulator.admin.requestLog()).toEqual([]);
  });
});
