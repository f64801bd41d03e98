// @ts-nocheck
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../provider/config.js";

const URL_V1 = "https://api.example.com/v1";

describe("resolveSettings", () => {
  it.each([
    ["stack config", { apiUrl: URL_V1, apiKey: "pls_test_config" }, {}, { apiUrl: URL_V1, apiKey: "pls_test_config" }],
    ["the environment when stack config is silent", {}, { MONITORING_API_URL: URL_V1, MONITORING_API_KEY: "pls_test_env" }, { apiUrl: URL_V1, apiKey: "pls_test_env" }],
    ["stack config over the environment", { apiKey: "pls_test_config" }, { MONITORING_API_URL: URL_V1, MONITORING_API_KEY: "pls_test_env" }, { apiUrl: URL_V1, apiKey: "pls_test_config" }],
    ["an empty value as unset", { apiKey: " " }, { MONITORING_API_URL: URL_V1, MONITORING_API_KEY: "pls_test_env" }, { apiUrl: URL_V1, apiKey: "pls_test_env" }],
    [
      "tuning",
      { apiUrl: URL_V1, apiKey: "k", retryBudgetSeconds: "45", maxRetries: "0", requestTimeoutSeconds: "2.5", maxRequestsPerSecond: "20" },
      {},
      { apiUrl: URL_V1, apiKey: "k", retryBudgetMs: 45_000, maxRetries: 0, requestTimeoutMs: 2500, maxRequestsPerSecond: 20 },
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

  it("never shows the key in an error", () => {
    const attempt = () => resolveSettings((key) => ({ apiKey: "pls_test_SECRET", apiUrl: "nope" })[key], {});
    expect(attempt).toThrow(/apiUrl/);
    expect(attempt).not.toThrow(/SECRET/);
  });
});
