/**
 * Authentication (spec 5): bearer keys, and for every operation one key lacking its scope (403,
 * naming the scope) and one key holding only that scope (success). Operations without a listed
 * scope need a valid key and nothing more.
 */
import { describe, expect, test } from "vitest";
import { ALL_SCOPES } from "../../emulator/index.js";
import { type Api } from "./support/api.js";
import { ENDPOINTS, pathOf } from "./support/endpoints.js";
import { useWorld } from "./support/world.js";

const on = useWorld();
const keysByScopes = new Map<string, Api>();

/** One key per distinct scope set, made once. */
async function apiHolding(scopes: readonly string[]): Promise<Api> {
  const name = [...scopes].sort().join(",");
  let api = keysByScopes.get(name);
  if (api === undefined) {
    api = on.world.api.withKey((await on.emulator.admin.createKey(scopes)).key);
    keysByScopes.set(name, api);
  }
  return api;
}

describe("authentication", () => {
  test("a request without a key is 401 unauthorized", async () => {
    const answer = await on.world.api.get("/monitors", { key: null });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({ code: "unauthorized", request_id: expect.stringMatching(/^req_/) });
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  test.each([
    ["an unknown key", { authorization: "Bearer pls_test_0000000000000000000000000000" }],
    ["a malformed header", { authorization: "Basic dXNlcjpwYXNz" }],
    ["a JWT", { authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl" }],
  ])("%s is 401 unauthorized", async (_case, headers) => {
    const answer = await on.world.api.get("/monitors", { key: null, headers });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe("unauthorized");
  });

  test("keys made through the admin API are sandbox keys", async () => {
    const created = await on.emulator.admin.createKey(["monitor.read"]);
    expect(created.key).toMatch(/^pls_test_/);
    expect(created.scopes).toEqual(["monitor.read"]);
  });

  test("a revoked key is 401 unauthorized from then on, like an unknown key; the full-access key cannot be revoked", async () => {
    const created = await on.emulator.admin.createKey(["monitor.write"]);
    const api = on.world.api.withKey(created.key);
    expect((await api.get("/monitors")).status).toBe(200);
    await on.emulator.admin.revokeKey(created.id);
    const refused = await api.get("/monitors");
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("unauthorized");
    const defaultKey = (await (await fetch(`${on.emulator.adminUrl}/keys`)).json()) as { data: Array<{ id: string; default: boolean }> };
    await expect(on.emulator.admin.revokeKey(defaultKey.data.find((key) => key.default)!.id)).rejects.toThrow(/409.*cannot be revoked/);
    await expect(on.emulator.admin.revokeKey(created.id)).rejects.toThrow(/404/);
  });

  test("the admin API refuses unknown scopes", async () => {
    await expect(on.emulator.admin.createKey(["monitor.everything"])).rejects.toThrow(/422.*unknown scope/);
  });

  test("no scope implies another: monitor.delete does not grant monitor.write", async () => {
    const api = await apiHolding(["monitor.delete", "monitor.read"]);
    const answer = await api.get("/monitors");
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: "forbidden", details: { required_scope: "monitor.write" } });
  });
});

describe.each(ENDPOINTS)("$method $path", (endpoint) => {
  if (endpoint.scope === null) {
    test("needs a valid key but no scope", async () => {
      const call = await endpoint.prepare(on.world);
      const api = await apiHolding([]);
      const answer = await api.request(endpoint.method, pathOf(endpoint, call), { body: call.body });
      expect(answer.status, answer.text).toBe(endpoint.status);
      const anonymous = await api.request(endpoint.method, pathOf(endpoint, call), { body: call.body, key: null });
      expect(anonymous.status).toBe(401);
    });
    return;
  }
  const scope = endpoint.scope;

  test(`is refused with 403 to a key holding every scope but ${scope}`, async () => {
    const call = await endpoint.prepare(on.world);
    const api = await apiHolding(ALL_SCOPES.filter((other) => other !== scope));
    const answer = await api.request(endpoint.method, pathOf(endpoint, call), { body: call.body });
    expect(answer.status, answer.text).toBe(403);
    expect(answer.body.error).toMatchObject({ code: "forbidden", details: { required_scope: scope } });
  });

  test(`is allowed to a key holding only ${scope}`, async () => {
    const call = await endpoint.prepare(on.world);
    const api = await apiHolding([scope]);
    const answer = await api.request(endpoint.method, pathOf(endpoint, call), { body: call.body });
    expect(answer.status, answer.text).toBe(endpoint.status);
  });
});
