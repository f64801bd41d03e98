/**
 * The webhook signature: `v1=` and the hex HMAC-SHA256, keyed with the subscription's signing
 * secret, of `<timestamp>.<body>`, where the timestamp is the `X-Monitoring-Timestamp` header
 * (Unix seconds) and the body is the exact bytes delivered.
 */
// @ts-nocheck

import { createHmac } from "node:crypto";

export const SIGNATURE_VERSION = "v1";

export function signPayload(secret: string, timestamp: number, body: string): string {
  return `${SIGNATURE_VERSION}=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}
