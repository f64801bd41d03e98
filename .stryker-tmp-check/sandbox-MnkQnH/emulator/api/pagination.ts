/**
 * The list parameters of spec 4.1 and the cursor pagination of spec 2.2.
 *
 * Cursors are keyset cursors: they name the sort key of the last (or first) item of a page, so a
 * page costs a binary search plus a scan of the items it returns, and objects created or deleted
 * between two requests cause neither duplicates nor gaps. They are opaque to clients; each profile
 * writes them in its own format and reads only that one.
 */
// @ts-nocheck

import { positionAfter, type JsonObject, type StoredRecord } from "../state/collection.js";
import { invalidParameter } from "../http/errors.js";

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 250;
const SORT_KEYS = ["created_at", "-created_at", "name", "-name"] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** What a list does when the request leaves it open: its order, and how its cursors are written. */
export interface ListConventions {
  defaultSort: SortKey;
  cursorFormat: CursorFormat;
}

/**
 * `base64url-json`: the cursor object as base64url JSON. `hex-lines`: `c2_` and the hex of the
 * sort key, the bound (`after`/`before`), the sequence number and the name, one per line.
 */
export type CursorFormat = "base64url-json" | "hex-lines";

export interface ListParams {
  limit: number;
  /** The cursor exactly as sent, echoed in `pagination.cursor`. */
  cursorText: string | null;
  cursor: Cursor | null;
  q: string | null;
  sort: SortKey;
  cursorFormat: CursorFormat;
}

export interface Pagination {
  cursor: string | null;
  has_more: boolean;
  limit: number;
  next_cursor: string | null;
  prev_cursor: string | null;
}

export interface Page {
  data: JsonObject[];
  pagination: Pagination;
}

/** A creation order position, or a (lowercased name, creation order) pair. */
type SortValue = number | [string, number];

interface Cursor {
  sort: SortKey;
  /** The page starts after this value... */
  after?: SortValue;
  /** ...or ends before it. */
  before?: SortValue;
}

export function parseListParams(query: URLSearchParams, conventions: ListConventions): ListParams {
  const limitText = query.get("limit");
  let limit = DEFAULT_LIMIT;
  if (limitText !== null) {
    limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT)) {
      throw invalidParameter("limit", `must be an integer from 1 to ${MAX_LIMIT}`);
    }
  }
  const sortText = query.get("sort") ?? conventions.defaultSort;
  if (!(SORT_KEYS as readonly string[]).includes(sortText)) {
    throw invalidParameter("sort", `must be one of ${SORT_KEYS.join(", ")}`);
  }
  const sort = sortText as SortKey;
  const cursorText = query.get("cursor");
  const cursor = cursorText === null || cursorText === "" ? null : decodeCursor(cursorText, sort, conventions.cursorFormat);
  const q = query.get("q");
  return { limit, cursorText: cursor === null ? null : cursorText, cursor, q: q === "" ? null : q, sort, cursorFormat: conventions.cursorFormat };
}

/**
 * One page of `records` (oldest first, as collections keep them) in the order `params.sort` asks,
 * keeping those that pass `matches`. `nameOf` gives the text the `name` sort orders by.
 */
export function paginate(
  records: readonly StoredRecord[],
  params: ListParams,
  options: { matches?: (doc: JsonObject) => boolean; nameOf: (doc: JsonObject) => string },
): Page {
  const view = orderedView(records, params.sort, options);
  const matches = params.sort.endsWith("name") ? undefined : options.matches;
  const accept = (index: number): boolean => matches === undefined || matches(view.at(index).doc);

  const page: StoredRecord[] = [];
  let moreAfter = false;
  let moreBefore = false;
  const before = params.cursor?.before;
  if (before === undefined) {
    const after = params.cursor?.after;
    const start = after === undefined ? 0 : view.firstAfter(after);
    let index = start;
    for (; index < view.length && page.length < params.limit; index++) {
      if (accept(index)) page.push(view.at(index));
    }
    moreAfter = hasMatch(index, view.length, 1, accept);
    moreBefore = page.length > 0 && hasMatch(start - 1, -1, -1, accept);
  } else {
    const end = view.firstAfter(before, true);
    let index = end - 1;
    for (; index >= 0 && page.length < params.limit; index--) {
      if (accept(index)) page.push(view.at(index));
    }
    page.reverse();
    moreBefore = hasMatch(index, -1, -1, accept);
    moreAfter = page.length > 0 && hasMatch(end, view.length, 1, accept);
  }

  const first = page[0];
  const last = page[page.length - 1];
  const nextCursor = moreAfter && last !== undefined ? encodeCursor({ sort: params.sort, after: view.valueOf(last) }, params.cursorFormat) : null;
  const prevCursor =
    moreBefore && first !== undefined ? encodeCursor({ sort: params.sort, before: view.valueOf(first) }, params.cursorFormat) : null;
  return {
    data: page.map((record) => record.doc),
    pagination: {
      cursor: params.cursorText,
      has_more: nextCursor !== null,
      limit: params.limit,
      next_cursor: nextCursor,
      prev_cursor: prevCursor,
    },
  };
}

/** `q` matching: a case-insensitive substring of any of `texts`. */
export function matchesSearch(q: string | null, ...texts: unknown[]): boolean {
  if (q === null) return true;
  const needle = q.toLowerCase();
  return texts.some((text) => typeof text === "string" && text.toLowerCase().includes(needle));
}

function hasMatch(from: number, to: number, step: 1 | -1, accept: (index: number) => boolean): boolean {
  for (let index = from; index !== to; index += step) {
    if (accept(index)) return true;
  }
  return false;
}

interface OrderedView {
  length: number;
  at(index: number): StoredRecord;
  valueOf(record: StoredRecord): SortValue;
  /** Index of the first item ordered after `value` (or at/after it when `inclusive`). */
  firstAfter(value: SortValue, inclusive?: boolean): number;
}

function orderedView(
  records: readonly StoredRecord[],
  sort: SortKey,
  options: { matches?: (doc: JsonObject) => boolean; nameOf: (doc: JsonObject) => string },
): OrderedView {
  if (sort === "created_at") {
    return {
      length: records.length,
      at: (index) => records[index]!,
      valueOf: (record) => record.seq,
      firstAfter: (value, inclusive) => positionAfter(records, (value as number) - (inclusive ? 1 : 0)),
    };
  }
  if (sort === "-created_at") {
    const last = records.length - 1;
    return {
      length: records.length,
      at: (index) => records[last - index]!,
      valueOf: (record) => record.seq,
      // Newest first: the items after `value` are those with a smaller sequence number.
      firstAfter: (value, inclusive) => records.length - positionAfter(records, (value as number) - (inclusive ? 0 : 1)),
    };
  }
  const direction = sort === "name" ? 1 : -1;
  const keyed = (options.matches === undefined ? [...records] : records.filter((record) => options.matches!(record.doc)))
    .map((record) => ({ record, value: [options.nameOf(record.doc).toLowerCase(), record.seq] as [string, number] }));
  keyed.sort((left, right) => direction * compareNamed(left.value, right.value));
  return {
    length: keyed.length,
    at: (index) => keyed[index]!.record,
    valueOf: (record) => [options.nameOf(record.doc).toLowerCase(), record.seq],
    firstAfter: (value, inclusive) => {
      let low = 0;
      let high = keyed.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const order = direction * compareNamed(keyed[middle]!.value, value as [string, number]);
        if (order < 0 || (order === 0 && !inclusive)) low = middle + 1;
        else high = middle;
      }
      return low;
    },
  };
}

function compareNamed(left: [string, number], right: [string, number]): number {
  if (left[0] !== right[0]) return left[0] < right[0] ? -1 : 1;
  return left[1] - right[1];
}

const HEX_CURSOR_PREFIX = "c2_";

function encodeCursor(cursor: Cursor, format: CursorFormat): string {
  if (format === "base64url-json") return Buffer.from(JSON.stringify(cursor)).toString("base64url");
  const [bound, value] = cursor.after !== undefined ? ["after", cursor.after] : ["before", cursor.before!];
  const [seq, name] = Array.isArray(value) ? [value[1], value[0]] : [value, ""];
  return HEX_CURSOR_PREFIX + Buffer.from([cursor.sort, bound, String(seq), name].join("\n")).toString("hex");
}

/** The cursor object a text encodes, or `undefined` when it is not one of `format`. */
function parseCursorText(text: string, format: CursorFormat): unknown {
  try {
    if (format === "base64url-json") return JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (!text.startsWith(HEX_CURSOR_PREFIX) || !/^[0-9a-f]*$/.test(text.slice(HEX_CURSOR_PREFIX.length))) return undefined;
    const [sort, bound, seqText, ...nameParts] = Buffer.from(text.slice(HEX_CURSOR_PREFIX.length), "hex").toString("utf8").split("\n");
    if (bound !== "after" && bound !== "before") return undefined;
    const seq = /^\d+$/.test(seqText ?? "") ? Number(seqText) : Number.NaN;
    const named = sort === "name" || sort === "-name";
    return { sort, [bound]: named ? [nameParts.join("\n"), seq] : seq };
  } catch {
    return undefined;
  }
}

function decodeCursor(text: string, sort: SortKey, format: CursorFormat): Cursor {
  const cursor = parseCursorText(text, format);
  if (!isCursor(cursor)) throw invalidParameter("cursor", "not a cursor returned by this API");
  if (cursor.sort !== sort) throw invalidParameter("cursor", `was issued for sort=${cursor.sort}`);
  return cursor;
}

function isCursor(value: unknown): value is Cursor {
  if (value === null || typeof value !== "object") return false;
  const cursor = value as Record<string, unknown>;
  if (!(SORT_KEYS as readonly unknown[]).includes(cursor["sort"])) return false;
  const bounds = [cursor["after"], cursor["before"]].filter((bound) => bound !== undefined);
  if (bounds.length !== 1) return false;
  const bound = bounds[0];
  const named = cursor["sort"] === "name" || cursor["sort"] === "-name";
  return named
    ? Array.isArray(bound) && bound.length === 2 && typeof bound[0] === "string" && Number.isSafeInteger(bound[1])
    : Number.isSafeInteger(bound);
}
