/**
 * The advisor (spec 4.10): recommendations computed from the monitors in scope, and `apply`,
 * which carries out those that have an automatic fix. Recommendations are not stored: their ids
 * (`<rule>:<monitor id>`) stay valid as long as the condition holds.
 */
// @ts-nocheck

import type { JsonObject, StoredRecord } from "../state/collection.js";
import { invalidParameter, notFound } from "../http/errors.js";
import { listComputed, stringField } from "./common.js";
import { created, type ApiRequest, type RouteRegistrar, type Services } from "./context.js";
import { attachedChannelIds } from "./monitors.js";
import { isUuid, throwIfIssues } from "./validation.js";

export const SUGGESTED_SSL_EXPIRY_ALERT_DAYS = 14;

interface Recommendation {
  id: string;
  rule: "single_region" | "no_alerting" | "ssl_expiry_alert";
  title: string;
  description: string;
  resource_type: "monitor";
  resource_id: string;
  client_id: string | null;
  /** The monitor fields `apply` sets, or `null` when a person has to act. */
  fix: JsonObject | null;
}

export function registerAdvisorRoutes(route: RouteRegistrar, services: Services): void {
  const { store, clock, events } = services;

  route("GET", "/advisor", null, (request) => {
    const recommendations = monitorsInScope(services, request).flatMap((monitor) => recommendationsFor(monitor, services.profile.defaultRegions));
    return listComputed(services, recommendations as unknown as JsonObject[], request, (doc) => stringField(doc, "title"));
  });

  route("POST", "/advisor/apply", null, (request) => {
    throwIfIssues(services.rules.advisorApply.check(request.body, "create"));
    const applied: string[] = [];
    const skipped: JsonObject[] = [];
    for (const id of new Set(request.body["recommendation_ids"] as string[])) {
      const [rule, monitorId] = id.split(":");
      const monitor = monitorId === undefined ? undefined : store.collection("monitors").get(monitorId.toLowerCase());
      const recommendation =
        monitor === undefined
          ? undefined
          : recommendationsFor(monitor, services.profile.defaultRegions).find((candidate) => candidate.id === `${rule}:${monitor.doc["id"]}`);
      if (monitor === undefined || recommendation === undefined) {
        skipped.push({ id, reason: "no such recommendation (already applied, or the condition no longer holds)" });
      } else if (recommendation.fix === null) {
        skipped.push({ id, reason: "needs a person: there is no automatic fix" });
      } else {
        monitor.doc = { ...monitor.doc, ...recommendation.fix, updated_at: clock.nowIso() };
        events.emit("monitor.updated", monitor.doc);
        applied.push(id);
      }
    }
    return created({ applied, skipped });
  });
}

function monitorsInScope(services: Services, request: ApiRequest): readonly StoredRecord[] {
  const monitors = services.store.collection("monitors");
  const clientId = request.query.get("client_id");
  if (clientId !== null) {
    if (!isUuid(clientId)) throw invalidParameter("client_id", "must be a UUID");
    if (services.store.collection("clients").get(clientId.toLowerCase()) === undefined) throw notFound("client", clientId);
    return monitors.where("client_id", clientId.toLowerCase());
  }
  return request.query.get("all_clients") === "true" ? monitors.all() : monitors.where("client_id", null);
}

function recommendationsFor(monitor: StoredRecord, defaultRegions: readonly string[]): Recommendation[] {
  const doc = monitor.doc;
  const id = String(doc["id"]);
  const name = stringField(doc, "name") || id;
  const base = { resource_type: "monitor" as const, resource_id: id, client_id: (doc["client_id"] as string | null) ?? null };
  const recommendations: Recommendation[] = [];
  const regions = Array.isArray(doc["regions"]) ? (doc["regions"] as string[]) : [];
  if (regions.length < 2) {
    const extra = defaultRegions.find((region) => !regions.includes(region))!;
    recommendations.push({
      ...base,
      id: `single_region:${id}`,
      rule: "single_region",
      title: `Check ${name} from a second region`,
      description: "A monitor checked from one region cannot tell an outage from a network problem near that region.",
      fix: { regions: [...regions, extra] },
    });
  }
  if (attachedChannelIds(monitor).length === 0 && typeof doc["escalation_policy_id"] !== "string") {
    recommendations.push({
      ...base,
      id: `no_alerting:${id}`,
      rule: "no_alerting",
      title: `Route alerts of ${name}`,
      description: "The monitor has neither notification channels nor an escalation policy: nobody hears about its incidents.",
      fix: null,
    });
  }
  if (doc["monitor_type"] === "http" && String(doc["url"] ?? "").startsWith("https://") && doc["ssl_expiry_alert_days"] === undefined) {
    recommendations.push({
      ...base,
      id: `ssl_expiry_alert:${id}`,
      rule: "ssl_expiry_alert",
      title: `Warn before the certificate of ${name} expires`,
      description: `Alert ${SUGGESTED_SSL_EXPIRY_ALERT_DAYS} days before the TLS certificate expires.`,
      fix: { ssl_expiry_alert_days: SUGGESTED_SSL_EXPIRY_ALERT_DAYS },
    });
  }
  return recommendations;
}
