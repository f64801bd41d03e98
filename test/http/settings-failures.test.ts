/**
 * Settings that cannot work fail fast and name the setting to fix: a URL where nothing answers (one
 * short back-off, not the retry budget, until the service has answered once), a host name that
 * does not resolve, a key the service refuses (where it came from, never the key), and a URL whose
 * answers are not JSON. Each is a `SettingError` that carries the setting, its source and the URL,
 * and `settingBlamedIn` finds the blamed setting in its message, as the fleet does (it sees a
 * stack's failure as text) to stop starting stacks that would fail the same way.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../provider/http/client.js";
import type { RetryEvent } from "../../provider/http/request.js";
import { SettingError, settingBlamedIn } from "../../provider/http/setting-error.js";
import { NOTHING_LISTENS } from "../support/nothing-listens.js";
import { apiError, FaultServer, ok } from "./fault-server.js";
import { API_KEY, clientFor, rejection } from "./support.js";

const clients: ApiClient[] = [];
const servers: FaultServer[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const FROM_STACK = { apiUrl: "monitoring:apiUrl of stack acme", apiKey: "monitoring:apiKey of stack acme" };
const FROM_ENV = { apiUrl: "MONITORING_API_URL", apiKey: "MONITORING_API_KEY" };

async function server(): Promise<FaultServer> {
  const started = await FaultServer.start();
  servers.push(started);
  return started;
}

function client(options: ConstructorParameters<typeof ApiClient>[0]): ApiClient {
  const created = new ApiClient(options);
  clients.push(created);
  return created;
}

describe("a service that has never answered", () => {
  it("fails a refused connection after one short back-off, whatever the budget, naming the URL, its source and the fixes", async () => {
    const baseUrl = `${NOTHING_LISTENS}/v1`;
    const started = performance.now();
    const retries: RetryEvent[] = [];
    const error = await rejection(
      client({ baseUrl, apiKey: API_KEY, retryBudgetMs: 120_000, sources: FROM_STACK, onRetry: (event) => retries.push(event) }).request("GET", "/monitors"),
    );
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(0.9);
    expect(seconds).toBeLessThan(5);
    expect(error).toMatchObject({ status: 0, code: "network_error", attempts: 2 });
    expect(retries).toEqual([{ method: "GET", path: "/monitors", status: 0, errorCode: "network_error", attempt: 1, elapsedMs: expect.any(Number), delayMs: 1000 }]);
    expect(error.message).toContain(`nothing answers at ${baseUrl} (the URL from monitoring:apiUrl of stack acme): the connection was refused`);
    expect(error.message).toMatch(/pulumi-monitoring-emulator.*the port/);
    expect(error.message).not.toContain(API_KEY);
    expect(error).toMatchObject({ setting: "apiUrl", source: "monitoring:apiUrl of stack acme", url: baseUrl, problem: { kind: "refused" } });
    expect(settingBlamedIn(error.message, "acme")).toEqual({ setting: "apiUrl", source: "monitoring:apiUrl of stack acme" });
  });

  it("fails a host name that does not resolve the same way, naming the environment variable the URL came from", async () => {
    const error = await rejection(client({ baseUrl: "http://no-such-host.invalid/v1", apiKey: API_KEY, sources: FROM_ENV }).request("GET", "/monitors"));
    expect(error.attempts).toBe(2);
    expect(error.message).toContain("the host name of http://no-such-host.invalid/v1 (the URL from MONITORING_API_URL) does not resolve");
    expect(error).toMatchObject({ setting: "apiUrl", source: "MONITORING_API_URL", url: "http://no-such-host.invalid/v1", problem: { kind: "unresolved" } });
    expect(settingBlamedIn(error.message, "acme")).toEqual({ setting: "apiUrl", source: "MONITORING_API_URL" });
  });

  it("gets past a server that starts during the back-off", async () => {
    const late = await FaultServer.start();
    const { baseUrl } = late;
    await late.close();
    const api = client({ baseUrl, apiKey: API_KEY, sources: FROM_ENV });
    const request = api.request("GET", "/monitors/m1");
    // The emulator comes up on that port before the second attempt.
    const port = Number(new URL(baseUrl).port);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const back = await FaultServer.start(port);
    servers.push(back);
    back.script(ok({ id: "m1" }));
    await expect(request).resolves.toMatchObject({ data: { id: "m1" }, attempts: 2 });
  });
});

describe("answers that say the settings are wrong", () => {
  it.each([
    [401, "GET", "/monitors", "was refused:"],
    [403, "GET", "/monitors/0b5e5a1c-2f4e-4b8e-9a43-1d6a8c7e1f00", "does not hold the scope monitor.delete, which the spec lists for GET /monitors/{monitorID} (spec 4.2): add it to the key (`pulumi-monitoring scopes` lists every scope the stack needs), or"],
    [403, "GET", "/client-templates", "does not give access to this:"],
  ])("a %i to %s %s names the key sent (its prefix and last four characters) and where it came from, never the key", async (status, method, path, what) => {
    const api = await server();
    api.script({ status, json: { error: { code: status === 401 ? "unauthenticated" : "forbidden", message: "Missing or invalid API key" } } });
    const error = await rejection(clientFor(api, { sources: FROM_ENV }).request(method as "GET", path));
    const sent = `pls_test_…${API_KEY.slice(-4)}`;
    expect(error.message).toContain(
      `Missing or invalid API key (the API key from MONITORING_API_KEY ${what} check that it is a key of the account at ${api.baseUrl}. ` +
        `It sent ${sent}, from this run's environment. To send another: export MONITORING_API_KEY=<key>, or set monitoring:apiKey in the stack's configuration, which comes first)`,
    );
    expect(error.message).not.toContain(API_KEY);
    expect(error).toMatchObject({ setting: "apiKey", source: "MONITORING_API_KEY", url: api.baseUrl, keySent: sent, problem: { kind: status === 401 ? "key refused" : "no access" } });
    expect(settingBlamedIn(error.message, "acme")).toEqual({ setting: "apiKey", source: "MONITORING_API_KEY" });
  });

  it("a refused key of the stack's configuration now says so and how to set another in that stack", async () => {
    const api = await server();
    api.script(apiError(401, "unauthorized", "Unknown API key"));
    const error = await rejection(clientFor(api, { sources: FROM_STACK }).request("GET", "/monitors"));
    expect(error.message).toContain(
      `Unknown API key (the API key from monitoring:apiKey of stack acme was refused: check that it is a key of the account at ${api.baseUrl}. ` +
        `It sent pls_test_…${API_KEY.slice(-4)}, the value it holds now. To send another: pulumi config set --secret monitoring:apiKey <key> --stack acme)`,
    );
    expect(settingBlamedIn(error.message, "acme")).toEqual({ setting: "apiKey", source: "monitoring:apiKey of stack acme" });
  });

  it("a refused key that the last deploy recorded says it may not be the configured one, and what to run so that the configured one counts", async () => {
    const api = await server();
    api.script(apiError(401, "unauthorized", "Unknown API key"));
    const recorded = "monitoring:apiKey as the last deploy recorded it";
    const error = await rejection(clientFor(api, { sources: { apiUrl: "monitoring:apiUrl as the last deploy recorded it", apiKey: recorded } }).request("GET", "/monitors"));
    expect(error.message).toContain(`the API key from ${recorded} was refused`);
    expect(error.message).toContain(`It sent pls_test_…${API_KEY.slice(-4)}, the key the last deploy recorded, which may no longer be the configured one`);
    expect(error.message).toContain("Run `pulumi up --refresh --run-program`: it refreshes with the program's settings");
    expect(settingBlamedIn(error.message, "acme")).toEqual({ setting: "apiKey", source: recorded });
  });

  it.each([
    ["an error page", { status: 404, text: "<html>Not found</html>", headers: { "content-type": "text/html" } }, "unknown_error"],
    ["a web page", { status: 200, text: "<!doctype html><title>Acme</title>", headers: { "content-type": "text/html; charset=utf-8" } }, "invalid_response"],
  ])("%s says the URL does not look like the API", async (_, reply, code) => {
    const api = await server();
    api.script(reply);
    const error = await rejection(clientFor(api, { sources: FROM_STACK }).request("GET", "/monitors"));
    expect(error.code).toBe(code);
    expect(error.message).toContain(`the answer is not JSON (${reply.headers["content-type"]}): ${api.baseUrl} (the URL from monitoring:apiUrl of stack acme) does not look like the monitoring service's API`);
    expect(error).toMatchObject({ setting: "apiUrl", source: "monitoring:apiUrl of stack acme", problem: { kind: "not the API", contentType: reply.headers["content-type"] } });
    expect(api.requests).toHaveLength(1);
  });

  it("blames no setting for an outage or a refusal of the request itself", async () => {
    const api = await server();
    api.script(apiError(422, "validation_failed", "Invalid monitor"));
    const error = await rejection(clientFor(api, { sources: FROM_ENV }).request("GET", "/monitors"));
    expect(error).not.toBeInstanceOf(SettingError);
    expect(settingBlamedIn(error.message, "acme")).toBeUndefined();
  });
});
