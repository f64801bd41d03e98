import { describe, expect, it } from "vitest";

import { dryRunEnabled, resolveSettings, stackConfigKeyName } from "../../provider/config.js";

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
