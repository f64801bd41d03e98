import { describe, expect, it } from "vitest";
import { monitor, notificationChannel, webhookSubscription } from "../../schema/index.js";
import { OperationError, describeResource } from "../../provider/failures.js";
import { ApiError } from "../../provider/errors.js";

const rejected = (details: Record<string, unknown>, code = "validation_failed") =>
  new ApiError({ status: 422, code, reason: "Invalid", details, requestId: "req_1", method: "PUT", path: "/x/1", attempts: 1 });
const urn = (name: string) => `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:Monitor::${name}`;

describe("OperationError.fromApiError", () => {
  it.each([
    [{ interval_seconds: "must be at least 10" }, "intervalSeconds: must be at least 10"],
    [{ "regions[1]": "not an offered region: mars-1" }, "regions[1]: not an offered region: mars-1"],
    [{ "request_headers[0].name": "must not be empty" }, "requestHeaders[0].name: must not be empty"],
    [{ request_headers: { max: 10 } }, 'requestHeaders: {"max":10}'],
  ])("maps the field %j to input names", (details, expected) => {
    const error = OperationError.fromApiError(monitor, { __urn: urn("web") }, "update 1", rejected(details));
    expect(error.message).toBe(
      `Monitor "web": update 1 failed: the service rejected ${expected} (PUT /x/1 failed with 422 validation_failed: Invalid (${Object.entries(details)
        .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
        .join(", ")}) [request_id req_1])`,
    );
  });

  it.each(["invalid_request", "unprocessable", "bad_things"])("names the inputs whatever the error code (%s)", (code) => {
    const error = OperationError.fromApiError(monitor, { __urn: urn("web") }, "create", rejected({ interval_seconds: "must be an integer >= 10" }, code));
    expect(error.message).toMatch(/^Monitor "web": create failed: the service rejected intervalSeconds: must be an integer >= 10 \(.*422 .*request_id req_1\]\)$/);
  });

  it("names a channel setting the server refuses by resource and input, whatever the key (the spec shows none)", () => {
    const channel = { __urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:NotificationChannel::carrier" };
    const error = OperationError.fromApiError(notificationChannel, channel, "create", rejected({ kind: "must be one of email, slack", "config.loft": "is not a known field" }));
    expect(error.message).toMatch(/^NotificationChannel "carrier": create failed: the service rejected kind: must be one of email, slack; config\.loft: is not a known field \(/);
  });

  it("names inputs by their declared API names, aliases included", () => {
    const error = OperationError.fromApiError(webhookSubscription, {}, "read 1", rejected({ secret_last4: "odd" }));
    expect(error.message).toContain("the service rejected signingSecretLast4: odd");
  });

  it("keeps the server's message when its details name no input", () => {
    const forbidden = new ApiError({ status: 403, code: "insufficient_scope", reason: "Missing scope", details: { required_scope: "monitor.delete" }, method: "GET", path: "/monitors/1", attempts: 1 });
    expect(OperationError.fromApiError(monitor, {}, "read 1", forbidden).message).toBe(`Monitor: read 1 failed: ${forbidden.message}`);
  });

  it.each([
    [monitor, { authPassword: "hunter2-password" }, { auth_password: "too weak: hunter2-password" }],
    [notificationChannel, { credentials: { webhookUrl: "https://hooks.example.com/T0/s3cret" } }, { "credentials.webhook_url": "unreachable: https://hooks.example.com/T0/s3cret" }],
    [webhookSubscription, { signingSecret: "whsec_0123456789abcdef" }, { description: "mentions whsec_0123456789abcdef" }],
  ])("redacts secret values the service echoes (%#)", (definition, values, details) => {
    const error = OperationError.fromApiError(definition, values, "create", rejected(details));
    expect(error.message).toContain("[secret]");
    expect(error.message).not.toMatch(/hunter2|s3cret|whsec_0123/);
  });

  it("keeps the client's message for other failures", () => {
    const failure = new ApiError({ status: 0, code: "timeout", reason: "no complete response within 30000 ms", method: "GET", path: "/monitors/1", attempts: 5 });
    expect(OperationError.fromApiError(monitor, {}, "read 1", failure).message).toBe(
      "Monitor: read 1 failed: GET /monitors/1 failed with timeout after 5 attempts: no complete response within 30000 ms",
    );
  });
});

describe("describeResource", () => {
  it.each([
    [{ __urn: urn("web") }, 'Monitor "web"'],
    [{ __urn: "urn:pulumi:dev::proj::my:component$pulumi-nodejs:dynamic/monitoring:Monitor::team/web" }, 'Monitor "team/web"'],
    [{}, "Monitor"],
  ])("%j → %s", (values, expected) => {
    expect(describeResource(monitor, values)).toBe(expected);
  });
});
