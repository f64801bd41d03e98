/**
 * A scriptable `node:http` server for the API client's tests: it records every request and
 * answers with scripted replies, including the faults a real service shows (5xx, 429 with
 * Retry-After, slow headers, stalled bodies, dropped connections, non-JSON bodies).
 */
// @ts-nocheck

import { once } from "node:events";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";

export interface RecordedRequest {
  method: string;
  /** Path below `/v1`, without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAtMs: number;
  /** Which TCP connection carried the request (1-based, in order of connection). */
  connection: number;
}

export type Reply =
  | {
      status: number;
      json?: unknown;
      text?: string;
      headers?: Record<string, string>;
      /** Wait this long before sending the status line. */
      delayMs?: number;
      /** Send the headers and half the body, then wait this long before the rest. */
      stallBodyMs?: number;
    }
  | { dropConnection: true };

export type Responder = (request: RecordedRequest) => Reply;

export const ok = (data: unknown, extra: Record<string, unknown> = {}): Reply => ({
  status: 200,
  json: { data, ...extra },
});

export function apiError(
  status: number,
  code: string,
  message: string,
  options: { details?: Record<string, unknown>; requestId?: string; headers?: Record<string, string> } = {},
): Reply {
  const requestId = options.requestId ?? `req_${code}`;
  return {
    status,
    json: { error: { code, message, request_id: requestId, ...(options.details ? { details: options.details } : {}) } },
    headers: { "x-request-id": requestId, ...options.headers },
  };
}

export class FaultServer {
  readonly requests: RecordedRequest[] = [];
  readonly #server: Server;
  readonly #scripted: Reply[] = [];
  readonly #shutdown = new AbortController();
  #fallback: Responder = () => ok({ ok: true });
  #connections = 0;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<FaultServer> {
    const server = createServer();
    const fault = new FaultServer(server);
    server.on("connection", (socket) => {
      fault.#connections += 1;
      socket.setNoDelay(true);
      (socket as { faultConnection?: number }).faultConnection = fault.#connections;
    });
    server.on("request", (request, response) => {
      fault.#handle(request, response).catch((error: unknown) => {
        if (!fault.#shutdown.signal.aborted) response.destroy(error as Error);
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return fault;
  }

  get baseUrl(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  get connectionCount(): number {
    return this.#connections;
  }

  /** Replies for the next requests, in order; afterwards the fallback answers. */
  script(...replies: Reply[]): void {
    this.#scripted.push(...replies);
  }

  respondWith(responder: Responder): void {
    this.#fallback = responder;
  }

  async close(): Promise<void> {
    this.#shutdown.abort();
    this.#server.close();
    this.#server.closeAllConnections();
    if (this.#server.listening) await once(this.#server, "close");
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const recorded: RecordedRequest = {
      method: request.method ?? "",
      path: url.pathname.replace(/^\/v1/, ""),
      query: url.searchParams,
      headers: request.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      receivedAtMs: performance.now(),
      connection: (request.socket as { faultConnection?: number }).faultConnection ?? 0,
    };
    this.requests.push(recorded);
    const reply = this.#scripted.shift() ?? this.#fallback(recorded);

    if ("dropConnection" in reply) {
      request.socket.destroy();
      return;
    }
    const signal = this.#shutdown.signal;
    if (reply.delayMs !== undefined) await delay(reply.delayMs, undefined, { signal });
    if (response.destroyed) return;

    const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? "");
    const headers: Record<string, string | number> = {
      "x-request-id": `req_${this.requests.length}`,
      "content-length": Buffer.byteLength(body),
      ...(reply.json !== undefined ? { "content-type": "application/json" } : {}),
      ...reply.headers,
    };
    response.writeHead(reply.status, headers);
    if (reply.stallBodyMs !== undefined) {
      response.write(body.slice(0, Math.floor(body.length / 2)));
      await delay(reply.stallBodyMs, undefined, { signal });
      if (response.destroyed) return;
      response.end(body.slice(Math.floor(body.length / 2)));
      return;
    }
    response.end(body);
  }
}
