import { describe, expect, it } from "vitest";
import { monitor, notificationChannel, webhookSubscription } from "../../schema/index.js";
import { OperationError, describeResource } from "../../provider/failures.js";
import { ApiError } from "../../provider/http.js";

const rejected = (details: Record<string, unknown>) =>
  new ApiError({ status: 422, code: "validation_failed", reason: "Invalid", details, requestId: "req_1", method: "PUT", path: "/x/1", attempts: 1 });

describe("OperationError.fromApiError", () => {
  it.each([
    [{ interval_seconds: "must be at least 10" }, "intervalSeconds: must be at least 10"],
    [{ "regions[1]": "not an offered region: mars-1" }, "regions[1]: not an offered region: mars-1"],
    [{ "steps[0].notification_channel_ids[2]": "no object with this id" }, "steps[0].notificationChannelIds[2]: no object with this id"],
    [{ request_headers: { max: 10 } }, 'requestHeaders: {"max":10}'],
  ])("maps the field %j to input names", (details, expected) => {
    const error = OperationError.fromApiError(monitor, { __createKeySeed: "p/dev/web" }, "update 1", rejected(details));
    expect(error.message).toBe(`Monitor "web": update 1 failed: the service rejected ${expected} [PUT /x/1: 422 validation_failed, request_id req_1]`);
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
    [{ __createKeySeed: "proj/dev/web" }, 'Monitor "web"'],
    [{ __createKeySeed: "proj/dev/team/web" }, 'Monitor "team/web"'],
    [{}, "Monitor"],
  ])("%j → %s", (values, expected) => {
    expect(describeResource(monitor, values)).toBe(expected);
  });
});
