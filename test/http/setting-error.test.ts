/**
 * How the fleet, which sees a stack's failure only as text, finds the setting a `SettingError`
 * blamed: by what such an error says for each place the stack's setting can come from.
 */
import { describe, expect, it } from "vitest";
import { SettingError, settingBlamedIn } from "../../provider/http/setting-error.js";

function messageOf(problem: ConstructorParameters<typeof SettingError>[0]["problem"], source: string): string {
  const error = new SettingError({ method: "GET", path: "/monitors", attempts: 2, status: 0, code: "network_error", problem, source, url: "http://127.0.0.1:9/v1" });
  // As the fleet reads it: the resource's name first, from the engine's event.
  return `Monitor web: ${error.message}`;
}

describe("the setting a failure's text blames", () => {
  it.each([
    ["the stack's own key", { kind: "refused" } as const, "monitoring:apiUrl of stack acme", { setting: "apiUrl", source: "monitoring:apiUrl of stack acme" }],
    ["the key of a stack not known yet", { kind: "unresolved" } as const, "monitoring:apiUrl", { setting: "apiUrl", source: "monitoring:apiUrl" }],
    ["a key read in another stack", { kind: "refused" } as const, "monitoring:apiUrl of stack other", { setting: "apiUrl", source: "monitoring:apiUrl" }],
    ["the environment", { kind: "not the API", contentType: "text/html" } as const, "MONITORING_API_URL", { setting: "apiUrl", source: "MONITORING_API_URL" }],
    ["the key from the environment", { kind: "key refused", serviceReason: "Missing or invalid API key" } as const, "MONITORING_API_KEY", { setting: "apiKey", source: "MONITORING_API_KEY" }],
    ["the stack's key refused access", { kind: "no access", serviceReason: "Forbidden", lacks: "does not hold the scope monitor.write" } as const, "monitoring:apiKey of stack acme", { setting: "apiKey", source: "monitoring:apiKey of stack acme" }],
    [
      "the stack's key as the last deploy recorded it",
      { kind: "key refused", serviceReason: "Unknown API key" } as const,
      "monitoring:apiKey of stack acme as the last deploy recorded it",
      { setting: "apiKey", source: "monitoring:apiKey of stack acme as the last deploy recorded it" },
    ],
  ])("names %s", (_, problem, source, blamed) => {
    expect(settingBlamedIn(messageOf(problem, source), "acme")).toEqual(blamed);
  });

  it.each([
    ["another failure", "Monitor web: GET /monitors failed with 422 validation_failed: Invalid monitor"],
    ["a source it does not know", messageOf({ kind: "refused" }, "the client's baseUrl")],
    ["a longer name that starts like a source", "the URL from MONITORING_API_URL_OLD) is wrong"],
  ])("finds none in %s", (_, text) => {
    expect(settingBlamedIn(text, "acme")).toBeUndefined();
  });
});
