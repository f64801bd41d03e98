/**
 * List parameters and cursor pagination (spec 2.2, 4.1, 8): walking more than 250 objects page
 * by page, forwards and back, in every sort order, yields each object exactly once.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { useEmulatorWith } from "../support/emulator.js";
import { contractClientOn, dataOf, type Json } from "./support/api.js";

const MONITOR_COUNT = 620;
/** Ids in creation order. */
const created: string[] = [];
const nameOf = (index: number) => `Site ${String((index * 7919) % MONITOR_COUNT).padStart(4, "0")}`;

const on = useEmulatorWith(contractClientOn);
beforeAll(async () => {
  for (let start = 0; start < MONITOR_COUNT; start += 100) {
    const monitors = Array.from({ length: Math.min(100, MONITOR_COUNT - start) }, (_, offset) => ({
      name: nameOf(start + offset),
      url: `https://site-${start + offset}.example.com`,
      monitor_type: (start + offset) % 5 === 0 ? "ping" : "http",
      regions: (start + offset) % 3 === 0 ? ["ap-south-1"] : ["us-east-1", "eu-west-1"],
    }));
    const batch = dataOf(await on.api.post("/monitors/batch", { monitors }), 201) as Json[];
    created.push(...batch.map((monitor) => monitor.id as string));
  }
});


/** Follows `next_cursor` from the first page to the last; returns every item and every page's pagination. */
async function walk(query: string): Promise<{ items: Json[]; pages: Json[] }> {
  const items: Json[] = [];
  const pages: Json[] = [];
  let cursor: string | null = null;
  do {
    const separator = query === "" ? "" : "&";
    const answer = await on.api.get(`/monitors?${query}${cursor === null ? "" : `${separator}cursor=${encodeURIComponent(cursor)}`}`);
    expect(answer.status, answer.text).toBe(200);
    items.push(...answer.body.data);
    pages.push(answer.body.pagination);
    cursor = answer.body.pagination.next_cursor;
  } while (cursor !== null);
  return { items, pages };
}

describe("walking every page", () => {
  test("with limit=250 yields all objects once, in creation order, with consistent pagination", async () => {
    const { items, pages } = await walk("limit=250");
    expect(items.map((item) => item.id)).toEqual(created);
    expect(pages.map((page) => page.has_more)).toEqual([true, true, false]);
    expect(pages.every((page) => page.limit === 250)).toBe(true);
    expect(pages[0].prev_cursor).toBeNull();
    expect(pages[1].prev_cursor).toEqual(expect.any(String));
    expect(pages[2].next_cursor).toBeNull();
  });

  test("the default limit is 50", async () => {
    const answer = await on.api.get("/monitors");
    expect(answer.body.data).toHaveLength(50);
    expect(answer.body.pagination.limit).toBe(50);
  });

  test.each(["created_at", "-created_at", "name", "-name"])("sort=%s covers every object once, in order", async (sort) => {
    const { items } = await walk(`limit=97&sort=${sort}`);
    const ids = items.map((item) => item.id);
    expect(new Set(ids).size).toBe(MONITOR_COUNT);
    expect([...ids].sort()).toEqual([...created].sort());
    if (sort === "-created_at") expect(ids).toEqual([...created].reverse());
    if (sort.endsWith("name")) {
      const names = items.map((item) => item.name as string);
      const ascending = [...names].sort();
      expect(names).toEqual(sort === "name" ? ascending : ascending.reverse());
    }
  });

  test("prev_cursor leads back to the previous page", async () => {
    const first = await on.api.get("/monitors?limit=40");
    const second = await on.api.get(`/monitors?limit=40&cursor=${first.body.pagination.next_cursor}`);
    const back = await on.api.get(`/monitors?limit=40&cursor=${second.body.pagination.prev_cursor}`);
    expect(back.body.data.map((item: Json) => item.id)).toEqual(first.body.data.map((item: Json) => item.id));
    expect(back.body.pagination.prev_cursor).toBeNull();
    expect(back.body.pagination.next_cursor).toEqual(expect.any(String));
    expect(second.body.pagination.cursor).toBe(first.body.pagination.next_cursor);
  });

  test("objects created or deleted between pages cause neither duplicates nor gaps among the others", async () => {
    const first = await on.api.get("/monitors?limit=100");
    const firstIds: string[] = first.body.data.map((item: Json) => item.id);
    dataOf(await on.api.delete(`/monitors/${created[150]}`), 204);
    const added = dataOf(await on.api.post("/monitors", { name: "Late arrival", url: "https://late.example.com" }), 201);
    const rest: Json[] = [];
    let cursor: string | null = first.body.pagination.next_cursor;
    while (cursor !== null) {
      const page = await on.api.get(`/monitors?limit=100&cursor=${cursor}`);
      rest.push(...page.body.data);
      cursor = page.body.pagination.next_cursor;
    }
    const seen = [...firstIds, ...rest.map((item) => item.id)];
    expect(seen).toEqual([...created.filter((id) => id !== created[150]), added.id]);
    dataOf(await on.api.delete(`/monitors/${added.id}`), 204);
    created.splice(150, 1);
  });
});

describe("filters", () => {
  test("q matches names and urls, case-insensitively", async () => {
    const { items } = await walk("q=SITE-12.example");
    expect(items.map((item) => item.url).sort()).toEqual(["https://site-12.example.com"]);
    const byName = await walk(`q=${encodeURIComponent(nameOf(3).toLowerCase())}`);
    expect(byName.items.map((item) => item.name)).toEqual([nameOf(3)]);
  });

  test("status, monitor_type and region filter monitors", async () => {
    const pings = await walk("monitor_type=ping&limit=250");
    expect(pings.items.length).toBeGreaterThan(0);
    expect(pings.items.every((item) => item.monitor_type === "ping")).toBe(true);
    const mumbai = await walk("region=ap-south-1&limit=250");
    expect(mumbai.items.length).toBeGreaterThan(0);
    expect(mumbai.items.every((item) => item.regions.includes("ap-south-1"))).toBe(true);

    const paused = created[1]!;
    dataOf(await on.api.post(`/monitors/${paused}/pause`), 201);
    expect((await walk("status=PAUSED")).items.map((item) => item.id)).toEqual([paused]);
    expect((await walk("status=UP")).items).toEqual([]);
  });
});

describe("invalid list parameters are 400 invalid_parameter naming the parameter", () => {
  test.each([
    ["limit=0", "limit"],
    ["limit=251", "limit"],
    ["limit=ten", "limit"],
    ["cursor=not-a-cursor", "cursor"],
    ["sort=url", "sort"],
    ["status=SLEEPING", "status"],
    ["monitor_type=smtp", "monitor_type"],
    ["region=mars-1", "region"],
    ["client_id=42", "client_id"],
    ["all_clients=yes", "all_clients"],
  ])("%s", async (query, parameter) => {
    const answer = await on.api.get(`/monitors?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_parameter");
    expect(Object.keys(answer.body.error.details)).toEqual([parameter]);
  });

  test("limit=1 and limit=250 are the bounds", async () => {
    expect((await on.api.get("/monitors?limit=1")).body.data).toHaveLength(1);
    expect((await on.api.get("/monitors?limit=250")).body.data).toHaveLength(250);
  });

  test("a cursor issued for another sort order is refused", async () => {
    const page = await on.api.get("/monitors?limit=10&sort=name");
    const answer = await on.api.get(`/monitors?limit=10&sort=created_at&cursor=${page.body.pagination.next_cursor}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toHaveProperty("cursor");
  });
});
