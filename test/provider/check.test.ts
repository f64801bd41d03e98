/**
 * How check treats inputs, whatever the kind: what it returns, how failures read, secrets,
 * values unknown during a preview, and the provider's own properties.
 */
import { describe, expect, it } from "vitest";
import { escalationPolicy, monitor, notificationChannel } from "../../schema/index.js";
import { UNKNOWN, check } from "../../provider/check.js";

const ID = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const PROVIDER = "exports.handler = __f0; /* serialized provider */";

describe("check", () => {
  it("returns the parsed inputs with schema defaults, keeping internal properties", () => {
    const result = check(escalationPolicy, {
      __provider: PROVIDER,
      __createKeySeed: "proj/dev/oncall",
      name: "on-call",
      steps: [{ delayMinutes: 5, notificationChannelIds: [ID] }],
    });
    expect(result).toEqual({
      failures: [],
      inputs: {
        __provider: PROVIDER,
        __createKeySeed: "proj/dev/oncall",
        name: "on-call",
        steps: [{ delayMinutes: 5, notificationChannelIds: [ID], urgency: "high" }],
      },
    });
  });

  it("fills only the defaults the provider owns, not those the service applies", () => {
    expect(check(monitor, { url: "https://x.io" }).inputs).toEqual({ url: "https://x.io", monitorType: "http" });
  });

  it("returns the inputs unchanged when a rule fails", () => {
    const news = { url: "https://x.io", intervalSeconds: 5 };
    expect(check(monitor, news).inputs).toBe(news);
  });

  it("names kind, field and rule, and shows the offending value", () => {
    expect(check(monitor, { url: "https://x.io", intervalSeconds: 5 }).failures).toEqual([
      { property: "intervalSeconds", reason: "Monitor.intervalSeconds: must be at least 10 (got 5)" },
    ]);
  });

  it("reports one failure per field, the first rule it breaks", () => {
    const { failures } = check(monitor, { url: "https://x.io", regions: ["mars-1", "venus-1", "mars-1"] });
    expect(failures).toHaveLength(1);
    expect(failures[0]?.property).toBe("regions[0]");
  });

  it("reports every failing field at once", () => {
    const { failures } = check(monitor, { url: 42, intervalSeconds: 1, httpMethod: "FETCH", typo: true });
    expect(failures.map((failure) => failure.property).sort()).toEqual(["httpMethod", "intervalSeconds", "typo", "url"]);
  });

  it("runs cross-field rules only once every field passes its own rules", () => {
    // An invalid monitorType must not also produce "url is required for http monitors".
    expect(check(monitor, { monitorType: "smtp" }).failures.map((failure) => failure.property)).toEqual(["monitorType"]);
  });

  it.each([
    ["a wrong type", { kind: "pagerduty", name: "pd", credentials: { integrationKey: 12345678901234567890 } }],
    ["a wrong length", { kind: "pagerduty", name: "pd", credentials: { integrationKey: "s3cr3t-key-12345678901234567890" } }],
    ["a bad URL", { kind: "slack", name: "s", credentials: { webhookUrl: "http://hooks.example.com/s3cr3t" } }],
  ])("never shows the value of a secret field (%s)", (_title, news) => {
    const { failures } = check(notificationChannel, news);
    expect(failures).toHaveLength(1);
    expect(JSON.stringify(failures)).not.toMatch(/s3cr3t|1234567890/);
    expect(failures[0]?.reason).toMatch(/^NotificationChannel\.credentials\.\w+: /);
  });

  // The engine prints a failure's property with its value, so secret fields are named only in the reason.
  it("never shows a secret monitor password", () => {
    const { failures } = check(monitor, { monitorType: "tcp", tcpHost: "h", tcpPort: 1, authPassword: "hunter2" });
    expect(failures).toEqual([
      { property: "", reason: "Monitor.authPassword: applies only to http monitors, not tcp" },
    ]);
    expect(check(monitor, { url: "https://x.io", authPassword: 1234 }).failures).toEqual([
      { property: "", reason: "Monitor.authPassword: must be a string" },
    ]);
  });

  it("leaves values unknown during a preview unchecked, and defers cross-field rules", () => {
    const news = { monitorType: "tcp", tcpHost: UNKNOWN, tcpPort: UNKNOWN, notificationChannelIds: [ID, UNKNOWN] };
    expect(check(monitor, news)).toEqual({ failures: [], inputs: news });
  });

  it("still checks the known fields next to unknown ones", () => {
    expect(check(monitor, { url: UNKNOWN, intervalSeconds: 3 }).failures).toEqual([
      { property: "intervalSeconds", reason: "Monitor.intervalSeconds: must be at least 10 (got 3)" },
    ]);
  });

  it.each([
    ["intervalSecond", "unknown field (did you mean intervalSeconds?)"],
    ["interval_seconds", "unknown field (did you mean intervalSeconds?)"],
    ["IntervalSeconds", "unknown field (did you mean intervalSeconds?)"],
    ["color", "unknown field"],
  ])("flags the unknown field %s", (field, rule) => {
    expect(check(monitor, { url: "https://x.io", [field]: 1 }).failures).toEqual([
      { property: field, reason: `Monitor.${field}: ${rule}` },
    ]);
  });

  it("accepts adoptId on every kind and checks it is a UUID", () => {
    expect(check(monitor, { url: "https://x.io", adoptId: ID }).inputs).toMatchObject({ adoptId: ID });
    expect(check(monitor, { url: "https://x.io", adoptId: "mon-1" }).failures).toEqual([
      { property: "adoptId", reason: 'Monitor.adoptId: must be a UUID (got "mon-1")' },
    ]);
  });
});
