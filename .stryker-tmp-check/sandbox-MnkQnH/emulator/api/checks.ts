/**
 * Simulated checks. The emulator reaches no target: a check succeeds in every region unless the
 * target's host ends in `.invalid` (a name reserved never to resolve, RFC 2606), which makes it
 * fail as an unresolvable host would. Response times are synthetic but stable: a base latency per
 * region plus a deterministic jitter.
 */
// @ts-nocheck

import { createHash } from "node:crypto";
import type { JsonObject, StoredRecord } from "../state/collection.js";
import { newId } from "./common.js";
import type { RegionInfo } from "../profile.js";

/** The host a monitor checks, whatever its type. */
export function targetHost(monitor: JsonObject): string {
  const type = monitor["monitor_type"];
  if (type === "tcp") return String(monitor["tcp_host"] ?? "");
  if (type === "dns") return String(monitor["dns_query"] ?? "");
  const url = String(monitor["url"] ?? "");
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** One result per region of `monitor` for a check made at `now`. */
export function simulateCheck(monitor: StoredRecord, checkId: string, now: string, regions: Readonly<Record<string, RegionInfo>>): JsonObject[] {
  const host = targetHost(monitor.doc);
  const unresolvable = host === "" || host.toLowerCase().endsWith(".invalid");
  const checkNumber = Number(monitor.internal["check_count"] ?? 0);
  return (monitor.doc["regions"] as string[]).map((region) => {
    const jitter = createHash("sha256").update(`${String(monitor.doc["id"])}:${checkNumber}:${region}`).digest()[0]! % 40;
    const base: JsonObject = {
      id: newId(),
      monitor_id: monitor.doc["id"],
      check_id: checkId,
      region,
      checked_at: now,
      created_at: now,
    };
    if (unresolvable) {
      return { ...base, status: "down", response_time_ms: null, status_code: null, error: `getaddrinfo ENOTFOUND ${host || "(no target)"}` };
    }
    const statusCode = monitor.doc["monitor_type"] === "http" ? (monitor.doc["expected_status_code"] ?? 200) : null;
    return {
      ...base,
      status: "up",
      response_time_ms: (regions[region]?.baseLatencyMs ?? 100) + jitter,
      status_code: statusCode,
      error: null,
    };
  });
}

/** The certificate chain the emulator reports for an https target, valid 90 days from the monitor's creation minus 30. */
export function syntheticCertificates(monitor: JsonObject, nowMs: number): JsonObject[] {
  const url = String(monitor["url"] ?? "");
  if (monitor["monitor_type"] !== "http" || !url.toLowerCase().startsWith("https://")) return [];
  const host = targetHost(monitor);
  const notBefore = Date.parse(String(monitor["created_at"])) - 30 * 86_400_000;
  const chain = [
    { subject: `CN=${host}`, issuer: "CN=Emulator Intermediate CA R1, O=Emulator Trust", lifetimeDays: 90, isLeaf: true },
    { subject: "CN=Emulator Intermediate CA R1, O=Emulator Trust", issuer: "CN=Emulator Root CA, O=Emulator Trust", lifetimeDays: 1825, isLeaf: false },
  ];
  return chain.map((certificate, position) => {
    const notAfter = notBefore + certificate.lifetimeDays * 86_400_000;
    const digest = createHash("sha256").update(`${certificate.subject}|${host}|${position}`).digest("hex");
    return {
      host,
      position,
      is_leaf: certificate.isLeaf,
      subject: certificate.subject,
      issuer: certificate.issuer,
      serial_number: digest.slice(0, 32),
      not_before: new Date(notBefore).toISOString(),
      not_after: new Date(notAfter).toISOString(),
      days_remaining: Math.floor((notAfter - nowMs) / 86_400_000),
      fingerprint_sha256: digest,
    };
  });
}
