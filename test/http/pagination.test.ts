import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../../provider/http/client.js";
import { apiError, FaultServer, ok, type Reply } from "./fault-server.js";
import { clientFor, rejection } from "./support.js";

let server: FaultServer;
let client: ApiClient;

beforeEach(async () => {
  server = await FaultServer.start();
  client = clientFor(server);
});

afterEach(async () => {
  await client.close();
  await server.close();
});

/** A page whose pagination object links to `next` (`null`: last page). */
function page(items: unknown[], next: string | number | null, cursor: string | null = null): Reply {
  return ok(items, {
    pagination: { cursor, has_more: next !== null, limit: 250, next_cursor: next, prev_cursor: null },
  });
}

/**
 * Serves a chain of pages: the first without cursor, page i + 1 for `cursors[i]`. Cursors are
 * compared verbatim, so any re-encoding by the client breaks the chain.
 */
function serveChain(pages: unknown[][], cursors: string[]): void {
  server.respondWith((request) => {
    const cursor = request.query.get("cursor");
    const index = cursor === null ? 0 : cursors.indexOf(cursor) + 1;
    const items = pages[index];
    if (index === 0 && cursor !== null) return apiError(400, "invalid_parameter", "unknown cursor");
    if (items === undefined) throw new Error(`no page ${index}`);
    return page(items, cursors[index] ?? null, cursor);
  });
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = [];
  try {
    for await (const item of iterable) items.push(item);
    return { items, error: undefined };
  } catch (error) {
    return { items, error };
  }
}

describe("paginate", () => {
  it("yields every item exactly once across pages linked by opaque cursors", async () => {
    // Base64-ish garbage, reserved URL characters, spaces and non-ASCII; in no sorted order.
    const cursors = ["eyJvIjoyNTB9+/==", "zz&cursor=evil#frag?x=%2F", "  spaced  out  ", "ünïcødé☃"];
    const pages = [
      [{ id: "m3" }, { id: "m1" }],
      [{ id: "m9", brand_new_field: true }],
      [],
      [{ id: "m2" }, { id: "m7" }, { id: "m4" }],
      [{ id: "m5" }],
    ];
    serveChain(pages, cursors);

    const items = await client.listAll<{ id: string }>("/monitors", { client_id: "c-1", q: "api" });

    expect(items.map((item) => item.id)).toEqual(["m3", "m1", "m9", "m2", "m7", "m4", "m5"]);
    expect(server.requests.map((request) => request.query.get("cursor"))).toEqual([null, ...cursors]);
    for (const request of server.requests) {
      expect(request.method).toBe("GET");
      expect(request.path).toBe("/monitors");
      expect(request.query.get("limit")).toBe("250");
      expect(request.query.get("client_id")).toBe("c-1");
      expect(request.query.get("q")).toBe("api");
    }
  });

  it("passes a numeric cursor back as the same digits", async () => {
    server.script(page([1], 42), page([2], null));
    expect(await client.listAll("/incidents")).toEqual([1, 2]);
    expect(server.requests[1]?.query.get("cursor")).toBe("42");
  });

  it("starts from the caller's cursor and honours the caller's limit", async () => {
    server.script(page(["a"], null, "resume-here"));
    expect(await client.listAll("/heartbeats", { cursor: "resume-here", limit: 10 })).toEqual(["a"]);
    expect(server.requests[0]?.query.toString()).toBe("limit=10&cursor=resume-here");
  });

  it.each<[string, Record<string, unknown> | undefined]>([
    ["has_more is false despite a next_cursor", { has_more: false, next_cursor: "more?" }],
    ["next_cursor is null despite has_more", { has_more: true, next_cursor: null }],
    ["next_cursor is absent", { has_more: true }],
    ["the pagination object is absent", undefined],
  ])("stops when %s", async (_, pagination) => {
    server.script(ok(["only"], pagination === undefined ? {} : { pagination }));
    expect(await client.listAll("/monitors")).toEqual(["only"]);
    expect(server.requests).toHaveLength(1);
  });

  it("refuses a cursor the server hands out twice in a row", async () => {
    server.respondWith((request) => page([`item-${server.requests.length}`], "same", request.query.get("cursor")));
    const { items, error } = await collect(client.paginate("/monitors"));
    expect(items).toEqual(["item-1", "item-2"]);
    expect(server.requests).toHaveLength(2);
    expect(error).toMatchObject({ code: "invalid_response", method: "GET", path: "/monitors", status: 200 });
    expect((error as Error).message).toContain("cursor it had returned before");
  });

  it("refuses a cursor chain that loops back to an earlier page", async () => {
    server.script(page(["a"], "A"), page(["b"], "B"), page(["c"], "A"));
    const { items, error } = await collect(client.paginate("/monitors"));
    expect(items).toEqual(["a", "b", "c"]);
    expect(server.requests).toHaveLength(3);
    expect(error).toMatchObject({ code: "invalid_response" });
  });

  it("refuses a next_cursor equal to the caller's starting cursor", async () => {
    server.script(page(["a"], "start", "start"));
    const { error } = await collect(client.paginate("/monitors", { cursor: "start" }));
    expect(error).toMatchObject({ code: "invalid_response" });
  });

  it("refuses a list response whose data is not an array", async () => {
    server.script(ok({ id: "not-a-list" }));
    const error = await rejection(client.listAll("/monitors"));
    expect(error.code).toBe("invalid_response");
    expect(error.message).toContain("data is not an array");
  });

  it("retries a failed page without repeating or losing items", async () => {
    server.script(page(["a", "b"], "p2"), apiError(503, "unavailable", "busy"), page(["c"], null));
    expect(await client.listAll("/monitors")).toEqual(["a", "b", "c"]);
    expect(server.requests.map((request) => request.query.get("cursor"))).toEqual([null, "p2", "p2"]);
  });

  it("fetches no further page once the consumer stops", async () => {
    server.script(page(["a", "b"], "p2"), page(["c"], null));
    for await (const item of client.paginate<string>("/monitors")) {
      if (item === "a") break;
    }
    expect(server.requests).toHaveLength(1);
  });
});
