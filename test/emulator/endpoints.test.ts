/**
 * Every operation of spec section 4 answers with its documented success status and the envelope
 * of spec 2.1-2.2: `data` (an object or a list), `pagination` on lists, no body on 204.
 */
import { describe, expect, test } from "vitest";
import { ENDPOINTS, pathOf } from "./support/endpoints.js";
import { useWorld } from "./support/world.js";

const on = useWorld();

test("the table covers every operation of section 4", () => {
  expect(ENDPOINTS).toHaveLength(85);
  expect(new Set(ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).size).toBe(85);
});

describe.each(ENDPOINTS)("$method $path", (endpoint) => {
  test(`answers ${endpoint.status} with the ${endpoint.shape} envelope`, async () => {
    const call = await endpoint.prepare(on.world);
    const answer = await on.world.api.request(endpoint.method, pathOf(endpoint, call), { body: call.body });

    expect(answer.status, answer.text).toBe(endpoint.status);
    expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
    if (endpoint.shape === "none") {
      expect(answer.text).toBe("");
      return;
    }
    expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Object.keys(answer.body).sort()).toEqual(endpoint.shape === "list" ? ["data", "pagination"] : ["data"]);
    if (endpoint.shape === "list") {
      expect(Array.isArray(answer.body.data)).toBe(true);
      expect(answer.body.pagination).toEqual({
        cursor: null,
        has_more: expect.any(Boolean),
        limit: 50,
        next_cursor: answer.body.pagination.has_more ? expect.any(String) : null,
        prev_cursor: null,
      });
    } else if (endpoint.shape === "array") {
      expect(Array.isArray(answer.body.data)).toBe(true);
    } else {
      expect(answer.body.data).toBeTypeOf("object");
      expect(Array.isArray(answer.body.data)).toBe(false);
    }
  });
});
