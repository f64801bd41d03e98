/**
 * A local webhook receiver: records every POST it gets (headers and exact body) and answers with
 * the statuses it is told to, in order, then 204.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { useStarted } from "./use-started.js";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  /** Answers the next requests with these statuses, one each. */
  answerWith(...statuses: number[]): void;
  /** Resolves once `count` requests matching `predicate` arrived. */
  waitFor(count: number, predicate?: (request: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const plannedStatuses: number[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    received.push({ path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), receivedAt: Date.now() });
    response.writeHead(plannedStatuses.shift() ?? 204);
    response.end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    answerWith: (...statuses) => plannedStatuses.push(...statuses),
    async waitFor(count, predicate = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(predicate);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${matching.length} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `read` until `done` holds for its value. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A receiver for the tests of the file or `describe` block that calls this, read as `receiver.url` and so on inside them. */
export function useReceiver(): Receiver {
  return useStarted(startReceiver, (receiver) => receiver.close());
}
