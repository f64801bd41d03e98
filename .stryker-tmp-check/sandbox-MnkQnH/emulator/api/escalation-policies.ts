/**
 * Escalation policies (spec 4.6): ordered steps, each notifying channels of the policy's own
 * client after a delay. A policy that monitors still use cannot be deleted.
 */
// @ts-nocheck

import type { JsonObject, StoredRecord } from "../state/collection.js";
import { conflict } from "../http/errors.js";
import {
  checkClientId,
  listKind,
  referenceIssue,
  requireActiveClient,
  requireRecord,
  stringField,
  writeDoc,
  type KindSpec,
} from "./common.js";
import { accepted, created, noContent, ok, type ApiRequest, type RouteRegistrar, type Services } from "./context.js";
import { isUuid, throwIfIssues, type FieldIssues, type WriteMode } from "./validation.js";

export const policyKind: KindSpec = {
  collection: "escalation_policies",
  label: "escalation policy",
  clientScoped: true,
  nameOf: (doc) => stringField(doc, "name"),
  searchTexts: (doc) => [doc["name"], doc["description"]],
  serverFields: [],
  writeOnly: [],
  table: "escalationPolicy",
  selfPath: "/escalation-policies",
};

const DEFAULT_URGENCY = "high";

export function registerPolicyRoutes(route: RouteRegistrar, services: Services): void {
  const { store, clock, outbox } = services;
  const policyOf = (request: ApiRequest): StoredRecord => requireRecord(store, policyKind, request.params["policyID"]!);

  const write = (mode: WriteMode, existing: StoredRecord | undefined, request: ApiRequest): StoredRecord => {
    const body = request.body;
    const issues = services.rules.escalationPolicy.check(body, mode);
    checkClientId(store, body, existing?.doc, issues);
    const clientId = existing === undefined ? (body["client_id"] ?? null) : existing.doc["client_id"];
    checkStepChannels(services, body, clientId, issues);
    throwIfIssues(issues);
    if (existing === undefined) requireActiveClient(store, clientId);
    const doc = writeDoc(policyKind, mode, existing?.doc, body, services.rules.escalationPolicy.defaults(), clock.nowIso());
    doc["steps"] = (doc["steps"] as JsonObject[]).map((step) => ({ ...step, urgency: step["urgency"] ?? DEFAULT_URGENCY }));
    if (existing === undefined) return store.insert("escalation_policies", doc);
    existing.doc = doc;
    return existing;
  };

  route("GET", "/escalation-policies", "escalation_policy.write", (request) => listKind(services, policyKind, request));
  route("POST", "/escalation-policies", "escalation_policy.write", (request) => created(write("create", undefined, request).doc, policyKind));
  route("GET", "/escalation-policies/{policyID}", "escalation_policy.write", (request) => ok(policyOf(request).doc, policyKind));
  route("PUT", "/escalation-policies/{policyID}", "escalation_policy.write", (request) =>
    ok(write("replace", policyOf(request), request).doc, policyKind),
  );

  route("DELETE", "/escalation-policies/{policyID}", "escalation_policy.write", (request) => {
    const policy = policyOf(request);
    const id = policy.doc["id"];
    const monitors = store
      .collection("monitors")
      .where("client_id", policy.doc["client_id"] ?? null)
      .filter((monitor) => monitor.doc["escalation_policy_id"] === id)
      .map((monitor) => monitor.doc["id"]);
    if (monitors.length > 0) {
      throw conflict("Monitors still use this escalation policy; detach it from them first", { monitor_ids: monitors });
    }
    store.collection("escalation_policies").remove(String(id));
    return noContent();
  });

  route("POST", "/escalation-policies/{policyID}/test", "escalation_policy.write", (request) => {
    const policy = policyOf(request);
    const now = clock.nowIso();
    const channelIds = [...new Set((policy.doc["steps"] as JsonObject[]).flatMap((step) => step["notification_channel_ids"] as string[]))];
    for (const channelId of channelIds) {
      const channel = store.collection("notification_channels").get(channelId);
      if (channel === undefined) continue;
      outbox.send({
        channel_id: channelId,
        channel_kind: String(channel.doc["kind"]),
        reason: "escalation_test",
        subject: `Escalation test: ${stringField(policy.doc, "name")}`,
        incident_id: null,
        monitor_id: null,
        sent_at: now,
      });
    }
    return accepted({ escalation_policy_id: policy.doc["id"], notification_channel_ids: channelIds, accepted_at: now });
  });
}

/** Every channel a step names must exist in the policy's client. Normalizes the ids. */
function checkStepChannels(services: Services, body: JsonObject, clientId: unknown, issues: FieldIssues): void {
  const steps = body["steps"];
  if (!Array.isArray(steps)) return;
  steps.forEach((step: unknown, stepIndex) => {
    const ids = (step as JsonObject | null)?.["notification_channel_ids"];
    if (!Array.isArray(ids)) return;
    ids.forEach((id: unknown, idIndex) => {
      const field = `steps[${stepIndex}].notification_channel_ids[${idIndex}]`;
      if (!isUuid(id) || issues[field] !== undefined) return;
      ids[idIndex] = id.toLowerCase();
      const issue = referenceIssue(services.store, "notification_channels", id.toLowerCase(), clientId);
      if (issue !== undefined) issues[field] = issue;
    });
  });
}
