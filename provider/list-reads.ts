/**
 * Reads of many objects of one kind answered from shared list pages instead of one GET each, so a
 * refresh of n objects costs about n/250 requests; how a read decides between waiting for a page
 * and a GET, and what that costs, is in docs/architecture.md (List reads).
 */
import { ApiError } from "./errors.js";
import type { ApiClient } from "./http/client.js";
import type { Query } from "./http/request.js";
import { isRecord } from "../schema/naming.js";

type ApiObject = Record<string, unknown>;

/**
 * How long a session's first read waits for other reads of the list before it is sent as a GET: the
 * host delivers the reads of a refresh one gRPC call after another, a few milliseconds apart at most.
 */
const GATHER_MS = 10;
/** Reads not answered from a page that justify reading one more page on the chance that it answers them. */
const READS_PER_SPECULATIVE_PAGE = 4;
/** A session without a read for this long is over: the next read starts afresh. */
const IDLE_MS = 5_000;

/** `unlisted`: the list was not read far enough to tell; the caller reads the object by id. */
export type ListedObject = ApiObject | "absent" | "unlisted";

interface Session {
  path: string;
  query: Query;
  pages: AsyncGenerator<{ items: unknown[]; more: boolean }, void, undefined>;
  /** Items fetched so far, by lower-case id. */
  seen: Map<string, ApiObject>;
  /** Every page was fetched. */
  complete: boolean;
  /** A page fetch failed (e.g. a key that may GET but not list): every later read is a GET. */
  failed: boolean;
  fetching: Promise<void> | undefined;
  /** The first read waited {@link GATHER_MS} for company. */
  gathered: boolean;
  pagesFetched: number;
  reads: number;
  /** Reads answered from a page. */
  answered: number;
  /** Reads sent to a GET (`unlisted`, or `absent` from the complete list). */
  sentToGet: number;
  /** Reads still looking for their object. */
  waiting: number;
  lastRead: number;
}

export class ListReads {
  readonly #api: () => ApiClient;
  readonly #sessions = new Map<string, Session>();

  constructor(api: () => ApiClient) {
    this.#api = api;
  }

  /**
   * The object `id` as the list at `path` with `query` shows it: `absent` when the whole list was
   * read and does not show it, `unlisted` when the rules above say to read it by id instead.
   * `listOnly`: the kind has no GET by id, so the list is read as far as it takes.
   */
  async find(path: string, query: Query, id: string, listOnly: boolean): Promise<ListedObject> {
    const session = this.#session(path, query);
    session.reads += 1;
    session.lastRead = Date.now();
    session.waiting += 1;
    try {
      const key = id.toLowerCase();
      for (;;) {
        const item = session.seen.get(key);
        if (item !== undefined) {
          session.answered += 1;
          return item;
        }
        if (session.complete) {
          session.sentToGet += 1;
          return "absent";
        }
        if (session.fetching !== undefined) {
          await session.fetching;
          continue;
        }
        if (!listOnly && session.reads === 1 && !session.gathered) {
          session.gathered = true;
          await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
          continue;
        }
        if (!listOnly && !mayFetch(session)) {
          session.sentToGet += 1;
          return "unlisted";
        }
        session.fetching = this.#nextPage(session, listOnly).finally(() => (session.fetching = undefined));
        await session.fetching;
      }
    } finally {
      session.waiting -= 1;
    }
  }

  /** Every item of a list, read now (not from a session), by lower-case id. */
  async scan(path: string, query: Query): Promise<Map<string, ApiObject>> {
    const items = new Map<string, ApiObject>();
    for await (const item of this.#api().paginate<unknown>(path, query)) {
      if (isRecord(item) && typeof item["id"] === "string") items.set(item["id"].toLowerCase(), item);
    }
    return items;
  }

  /** Ends every session: the service changed since their pages were read. */
  forget(): void {
    this.#sessions.clear();
  }

  #session(path: string, query: Query): Session {
    const key = JSON.stringify([path, Object.entries(query).sort()]);
    const existing = this.#sessions.get(key);
    if (existing !== undefined && (existing.fetching !== undefined || Date.now() - existing.lastRead < IDLE_MS)) return existing;
    const session: Session = {
      path,
      query,
      pages: this.#api().pages<unknown>(path, query),
      seen: new Map(),
      complete: false,
      failed: false,
      fetching: undefined,
      gathered: false,
      pagesFetched: 0,
      reads: 0,
      answered: 0,
      sentToGet: 0,
      waiting: 0,
      lastRead: Date.now(),
    };
    this.#sessions.set(key, session);
    return session;
  }

  async #nextPage(session: Session, listOnly: boolean): Promise<void> {
    try {
      const page = await session.pages.next();
      if (page.done === true) {
        session.complete = true;
        return;
      }
      session.complete = !page.value.more;
      session.pagesFetched += 1;
      for (const item of page.value.items) if (isRecord(item) && typeof item["id"] === "string") session.seen.set(item["id"].toLowerCase(), item);
    } catch (error) {
      session.failed = true;
      // Reads that can GET do so; a kind read only through its list has no other way, and its
      // next read starts a new session. The reads waiting on this page get the error too.
      if (listOnly || !(error instanceof ApiError)) {
        this.#sessions.forEach((value, key) => value === session && this.#sessions.delete(key));
        throw error;
      }
    }
  }
}

/** Whether one more page is worth a request (the rules at the top of this file). */
function mayFetch(session: Session): boolean {
  if (session.failed || session.reads < 2) return false;
  const unanswered = session.sentToGet + session.waiting;
  return session.pagesFetched < session.answered + 1 + Math.floor(unanswered / READS_PER_SPECULATIVE_PAGE);
}
