/**
 * The availability of a monitor or heartbeat over the last 24 hours, 7 days and 30 days: the
 * share of the observed time (since creation, at most the period) not covered by its automatic
 * incidents, plus the number of checks (monitors) or pings (heartbeats) in the period.
 */
// @ts-nocheck

import type { JsonObject, StoredRecord } from "../state/collection.js";
import type { Services } from "./context.js";

const PERIODS = [
  { period: "24h", milliseconds: 86_400_000 },
  { period: "7d", milliseconds: 7 * 86_400_000 },
  { period: "30d", milliseconds: 30 * 86_400_000 },
] as const;

/** `samples` are the monitor's check results (failed when `down`) or the heartbeat's pings. */
export function availabilityReport(
  services: Services,
  owner: JsonObject,
  ownerField: "monitor_id" | "heartbeat_id",
  samples: readonly StoredRecord[],
): JsonObject {
  const now = services.clock.now();
  const createdAt = Date.parse(String(owner["created_at"]));
  const outages = services.store
    .collection("incidents")
    .where(ownerField, owner["id"])
    .filter((incident) => incident.doc["cause"] !== "manual")
    .map((incident) => ({
      start: Date.parse(String(incident.doc["started_at"])),
      end: incident.doc["resolved_at"] === null ? now : Date.parse(String(incident.doc["resolved_at"])),
    }));
  const timeOf = (sample: StoredRecord) => Date.parse(String(sample.doc["checked_at"] ?? sample.doc["received_at"]));
  return {
    periods: PERIODS.map(({ period, milliseconds }) => {
      const from = Math.max(createdAt, now - milliseconds);
      const observed = Math.max(0, now - from);
      const downtime = outages.reduce((sum, outage) => sum + Math.max(0, Math.min(outage.end, now) - Math.max(outage.start, from)), 0);
      const inPeriod = samples.filter((sample) => timeOf(sample) >= from);
      return {
        period,
        from: new Date(from).toISOString(),
        to: new Date(now).toISOString(),
        uptime_percent: observed === 0 ? 100 : Math.round((1 - downtime / observed) * 100_000) / 1000,
        downtime_seconds: Math.round(downtime / 1000),
        incidents: outages.filter((outage) => outage.end > from).length,
        samples: inPeriod.length,
        failed_samples: inPeriod.filter((sample) => sample.doc["status"] === "down").length,
      };
    }),
  };
}
