/**
 * Reads of many objects of one kind, answered from list pages (`limit=250`) instead of one GET each.
 *
 * The dynamic provider host hands the provider one `read` call per resource, several at once (the
 * engine's `--parallel` workers, 4 per core by default) and back to back during a refresh, with no
 * word of how many will come. So the reads of one list (a path and its scope, e.g. the monitors of
 * one client) share a session: its pages are fetched one at a time, as reads need them, and every
 * read looks among the items fetched so far first. Whether a read waits for the next page or is
 * answered `unlisted` (the caller then GETs the object) follows two rules:
 *
 * - a session's first read waits {@link GATHER_MS} for company: read alone, it is a GET (as cheap
 *   as a page, and sure to find its object); once a second read of the list has come (at once or
 *   later), the first page answers them and those that follow, often the whole list when it is
 *   scoped by client;
 * - a page is fetched only while the pages so far do not exceed the reads they answered, plus one,
 *   plus one for every {@link READS_PER_SPECULATIVE_PAGE} reads not answered from a page (read by
 *   id, or waiting). A list in the reads' order pays for itself page by page; one in another order
 *   (newest first, while the state holds the oldest first) is read on as long as many reads are
 *   still looking for their object; a few objects in a huge account cost a page and a GET each.
 *
 * Hence a session of one read costs one request; of n reads at most 1.25 n + 1 requests (the pages
 * allowed above, plus a GET for every read they did not answer), never more pages than that however
 * long the list; and n reads of objects that fill p pages, listed in the reads' order, p requests,
 * or p + 1 when the first read came alone (1,000 monitors: 4 or 5).
 *
 * A session holds what the service showed at one moment: it ends after {@link IDLE_MS} without a
 * read, and {@link forget} ends every session when the process writes (a create, update or delete),
 * so a read never answers from a page older than the process's last change.
 *
 * In a `fleet drift` run (a {@link CompleteListSink} given), the check for unmanaged objects reads
 * the whole list of each kind in the stack's scope after the refresh. A read of such a list (the
 * reader says which) then reads it whole at once, with no wait and no GET: a page costs what a GET
 * costs, the check would read every page anyway, and the complete list is handed to the sink so
 * that the check need not read it again. A list whose pages cannot all be read is handed on to nobody.
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

/**
 * Takes a complete list (every page) a refresh read: in a `fleet drift` run, the fleet's check for
 * unmanaged objects (provider/fleet-lists.ts). Resolves once the list is handed on (or could not be).
 */
export type CompleteListSink = (path: string, query: Query, items: readonly ApiObject[]) => Promise<void>;

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
  readonly #sink: CompleteListSink | undefined;

  constructor(api: () => ApiClient, sink?: CompleteListSink) {
    this.#api = api;
    this.#sink = sink;
  }

  /**
   * The object `id` as the list at `path` with `query` shows it: `absent` when the whole list was
   * read and does not show it, `unlisted` when the rules above say to read it by id instead.
   * `listOnly`: the kind has no GET by id, so the list is read as far as it takes. `scopeList`: a
   * drift check reads this list whole (see the top of this file).
   */
  async find(path: string, query: Query, id: string, listOnly: boolean, scopeList = false): Promise<ListedObject> {
    const whole = scopeList && this.#sink !== undefined;
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
        if (whole) {
          if (session.failed) {
            session.sentToGet += 1;
            return "unlisted";
          }
          session.fetching = this.#readWhole(session, listOnly).finally(() => (session.fetching = undefined));
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

  /** Every item of a list, read now (not from a session), by lower-case id; handed to the sink, as it is complete. */
  async scan(path: string, query: Query): Promise<Map<string, ApiObject>> {
    const items = new Map<string, ApiObject>();
    for await (const item of this.#api().paginate<unknown>(path, query)) {
      if (isRecord(item) && typeof item["id"] === "string") items.set(item["id"].toLowerCase(), item);
    }
    await this.#sink?.(path, query, [...items.values()]);
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

  /** Every page of the session's list, then the list to the sink (before any read it answers returns). */
  async #readWhole(session: Session, listOnly: boolean): Promise<void> {
    while (!session.complete && !session.failed) await this.#nextPage(session, listOnly);
    if (session.complete && !session.failed) await this.#sink!(session.path, session.query, [...session.seen.values()]);
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
