import { describe, expect, it } from "vitest";

import { deployInstant, dryRunEnabled, handPauses, resolveSettings, stackConfigKeyName } from "../../provider/config.js";

const URL_V1 = "https://api.example.com/v1";
const FROM_CONFIG = { apiUrl: "monitoring:apiUrl", apiKey: "monitoring:apiKey" };
const FROM_ENV = { apiUrl: "MONITORING_API_URL", apiKey: "MONITORING_API_KEY" };

describe("resolveSettings", () => {
  it.each([
    ["stack config", { apiUrl: URL_V1, apiKey: "pls_test_config" }, {}, { apiUrl: URL_V1, apiKey: "pls_test_config", sources: FROM_CONFIG }],
    ["the environment when stack config is silent", {}, { MONITORING_API_URL: URL_V1, MONITORING_API_KEY: "pls_test_env" }, { apiUrl: URL_V1, apiKey: "pls_test_env", sources: FROM_ENV }],
    [
      "stack config over the environment",
      { apiKey: "pls_test_config" },
      { MONITORING_API_URL: URL_V1, MONITORING_API_KEY: "pls_test_env" },
      { apiUrl: URL_V1, apiKey: "pls_test_config", sources: { apiUrl: "MONITORING_API_URL", apiKey: "monitoring:apiKey" } },
    ],
    ["an empty value as unset", { apiKey: " " }, { MONITORING_API_URL: URL_V1, MONITORING_API_KEY: "pls_test_env" }, { apiUrl: URL_V1, apiKey: "pls_test_env", sources: FROM_ENV }],
    [
      "tuning",
      { apiUrl: URL_V1, apiKey: "k", retryBudgetSeconds: "45", maxRetries: "0", requestTimeoutSeconds: "2.5", maxRequestsPerSecond: "20" },
      {},
      { apiUrl: URL_V1, apiKey: "k", sources: FROM_CONFIG, retryBudgetMs: 45_000, maxRetries: 0, requestTimeoutMs: 2500, maxRequestsPerSecond: 20 },
    ],
  ])("reads %s", (_title, config: Record<string, string>, env, expected) => {
    expect(resolveSettings((key) => config[key], env)).toEqual(expected);
  });

  it.each([
    ["no key", { apiUrl: URL_V1 }, /^No API key .*pulumi config set --secret monitoring:apiKey .*MONITORING_API_KEY/],
    ["no URL", { apiKey: "k" }, /^No URL .*monitoring:apiUrl .*MONITORING_API_URL/],
    ["a URL that is not http(s)", { apiKey: "k", apiUrl: "ftp://x/v1" }, /^monitoring:apiUrl must be an http\(s\) URL, got "ftp:\/\/x\/v1"$/],
    ["a zero retry budget", { apiKey: "k", apiUrl: URL_V1, retryBudgetSeconds: "0" }, /^monitoring:retryBudgetSeconds must be a positive number of seconds, got "0"$/],
    ["negative retries", { apiKey: "k", apiUrl: URL_V1, maxRetries: "-1" }, /^monitoring:maxRetries must be a whole number, 0 or more, got "-1"$/],
    ["a timeout that is not a number", { apiKey: "k", apiUrl: URL_V1, requestTimeoutSeconds: "soon" }, /^monitoring:requestTimeoutSeconds must be a positive number of seconds, got "soon"$/],
    ["a zero rate", { apiKey: "k", apiUrl: URL_V1, maxRequestsPerSecond: "0" }, /^monitoring:maxRequestsPerSecond must be a positive number, got "0"$/],
  ])("refuses %s, naming the setting", (_title, config: Record<string, string>, message) => {
    expect(() => resolveSettings((key) => config[key], {})).toThrow(message);
  });

  it("names the stack a configuration key belongs to, and the environment variable a value came from", () => {
    const { sources } = resolveSettings((key) => ({ apiUrl: URL_V1 })[key], { MONITORING_API_KEY: "pls_test_env" }, stackConfigKeyName("acme"));
    expect(sources).toEqual({ apiUrl: "monitoring:apiUrl of stack acme", apiKey: "MONITORING_API_KEY" });
    expect(() => resolveSettings(() => undefined, { MONITORING_API_KEY: "k", MONITORING_API_URL: "ftp://x/v1" })).toThrow(/^MONITORING_API_URL must be an http\(s\) URL/);
  });

  it("never shows the key in an error", () => {
    const attempt = () => resolveSettings((key) => ({ apiKey: "pls_test_SECRET", apiUrl: "nope" })[key], {});
    expect(attempt).toThrow(/apiUrl/);
    expect(attempt).not.toThrow(/SECRET/);
  });
});

describe("dryRunEnabled (monitoring:dryRun)", () => {
  it.each([
    { value: undefined, enabled: false },
    { value: "", enabled: false },
    { value: "false", enabled: false },
    { value: "true", enabled: true },
    { value: " True ", enabled: true },
  ])("$value → $enabled", ({ value, enabled }) => {
    expect(dryRunEnabled(() => value)).toBe(enabled);
  });

  it("refuses anything else, naming the key", () => {
    expect(() => dryRunEnabled(() => "yes")).toThrow('monitoring:dryRun must be true or false, got "yes"');
  });
});

describe("deployInstant (monitoring:now, PULUMI_MONITORING_NOW)", () => {
  const clock = () => Date.parse("2030-01-01T00:00:00Z");
  it.each([
    { title: "the clock when neither is set", config: undefined, env: {}, instant: "2030-01-01T00:00:00.000Z" },
    { title: "the environment", config: undefined, env: { PULUMI_MONITORING_NOW: "2030-11-28T22:00:00+01:00" }, instant: "2030-11-28T21:00:00.000Z" },
    { title: "stack config over the environment", config: "2030-11-28T22:00:00Z", env: { PULUMI_MONITORING_NOW: "2031-01-01T00:00:00Z" }, instant: "2030-11-28T22:00:00.000Z" },
  ])("reads $title", ({ config, env, instant }) => {
    expect(new Date(deployInstant(() => config, env, clock)).toISOString()).toBe(instant);
  });

  it.each([
    { config: "2030-11-28T22:00:00", env: {}, message: 'monitoring:now must be an ISO 8601 instant with an offset (Z or ±hh:mm), such as 2030-01-31T12:00:00Z, got "2030-11-28T22:00:00"' },
    { config: undefined, env: { PULUMI_MONITORING_NOW: "tomorrow" }, message: 'PULUMI_MONITORING_NOW must be an ISO 8601 instant with an offset (Z or ±hh:mm), such as 2030-01-31T12:00:00Z, got "tomorrow"' },
  ])("refuses an instant without an offset, naming where it came from: $message", ({ config, env, message }) => {
    expect(() => deployInstant(() => config, env, clock)).toThrow(message);
  });
});

describe("handPauses (monitoring:handPauses)", () => {
  it.each([
    { value: undefined, rule: { rule: "for", ms: 4 * 3_600_000, text: "4h" } },
    { value: "putBack", rule: { rule: "putBack" } },
    { value: "keep", rule: { rule: "keep" } },
    { value: "90m", rule: { rule: "for", ms: 90 * 60_000, text: "90m" } },
    { value: "1d2h", rule: { rule: "for", ms: 26 * 3_600_000, text: "1d2h" } },
  ])("$value → $rule.rule", ({ value, rule }) => {
    expect(handPauses(() => value)).toEqual(rule);
  });

  it.each(["0h", "-1h", "forever", "4 hours"])("refuses %j, naming the key and the values it takes", (value) => {
    expect(() => handPauses(() => value)).toThrow(`monitoring:handPauses must be putBack, keep or a duration such as 4h, 90m or 1d, got ${JSON.stringify(value)}`);
  });
});
