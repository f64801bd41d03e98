/** Reading request bodies and writing JSON responses. */
// @ts-nocheck

import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "./errors.js";

/** `req_` and 24 hex characters; sent as `X-Request-Id` and in error envelopes. */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString("hex")}`;
}

export const MAX_BODY_BYTES = 1024 * 1024;

/** The raw body, at most `MAX_BODY_BYTES` (413 beyond). */
export async function readBody(request: IncomingMessage): Promise<string> {
  const declared = request.headers["content-length"];
  if ((declared === undefined || declared === "0") && request.headers["transfer-encoding"] === undefined) return "";
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw payloadTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw payloadTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON object, or `{}` for an empty body; 400 `invalid_json` otherwise. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, "invalid_json", `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HttpError(400, "invalid_json", "The request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

export function errorEnvelope(error: HttpError, requestId: string): string {
  const body: Record<string, unknown> = { code: error.code, message: error.message, request_id: requestId };
  if (error.details !== undefined) body["details"] = error.details;
  return JSON.stringify({ error: body });
}

/** An error response with its envelope and `X-Request-Id`. */
export function sendError(response: ServerResponse, error: HttpError, requestId: string = newRequestId()): void {
  send(response, error.status, errorEnvelope(error, requestId), { ...error.headers, "x-request-id": requestId });
}

export function send(
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (status === 204 || body === "") {
    response.writeHead(status, headers);
    response.end();
    return;
  }
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
}

function payloadTooLarge(): HttpError {
  return new HttpError(413, "payload_too_large", `The request body exceeds ${MAX_BODY_BYTES} bytes`);
}
