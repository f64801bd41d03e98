/**
 * The `fleet drift` run's side of provider/fleet-lists.ts: a private local socket the stacks'
 * providers send the complete lists of their refreshes to, kept by account and question (path and
 * query) for the check for unmanaged objects, which takes a list from here instead of reading it.
 * Items are kept in memory for the run only, never logged or written; a line that cannot be read
 * is dropped (the check then reads that list itself).
 */
import { rm } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { type HandedList, listKey } from "../../provider/fleet-lists.js";
import type { Query } from "../../provider/http/request.js";
import { isRecord } from "../../schema/naming.js";
import { listenPrivately, serveLines } from "../fleet/runners/budget.js";

export class HandedLists {
  readonly address: string;
  readonly #server: Server;
  readonly #dir: string | undefined;
  readonly #sockets = new Set<Socket>();
  /** By account, then by {@link listKey}. */
  readonly #lists = new Map<string, Map<string, unknown[]>>();

  private constructor(server: Server, address: string, dir: string | undefined) {
    this.#server = server;
    this.address = address;
    this.#dir = dir;
    server.on("connection", (socket) => this.#serve(socket));
  }

  static async start(): Promise<HandedLists> {
    const server = createServer();
    const { address, dir } = await listenPrivately(server, "lists");
    return new HandedLists(server, address, dir);
  }

  /** The complete list a refresh of this run read at `path` with `query` in `account` (provider/fleet-lists.ts `accountKey`), if one did. */
  get(account: string, path: string, query: Query): unknown[] | undefined {
    return this.#lists.get(account)?.get(listKey(path, query));
  }

  async close(): Promise<void> {
    this.#server.close();
    for (const socket of this.#sockets) socket.destroy();
    this.#lists.clear();
    if (this.#dir !== undefined) await rm(this.#dir, { recursive: true, force: true });
  }

  #serve(socket: Socket): void {
    serveLines(socket, this.#sockets, (line) => this.#keep(line));
  }

  #keep(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (!isRecord(message)) return;
    const { account, path, query, items } = message as Partial<HandedList>;
    if (typeof account !== "string" || typeof path !== "string" || !isRecord(query) || !Array.isArray(items)) return;
    let lists = this.#lists.get(account);
    if (lists === undefined) this.#lists.set(account, (lists = new Map()));
    lists.set(listKey(path, query as Query), items);
  }
}
