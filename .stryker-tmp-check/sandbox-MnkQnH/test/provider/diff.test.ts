/**
 * diff compares the outputs recorded in state (what the service reported, plus the list of inputs
 * the user had set) with the new inputs. Each row: old outputs, new inputs, and the expected
 * outcome (no change, update, or replace naming the fields).
 */
// @ts-nocheck

import { describe, expect, it } from "vitest";
import type { AnyResourceDefinition } from "../../schema/index.js";
import {
  clientShareLink,
  escalationPolicy,
  monitor,
  notificationChannel,
  webhookSubscription,
} from "../../schema/index.js";
import { UNKNOWN } from "../../provider/check.js";
import { diff } from "../../provider/diff.js";

const A = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const B = "7a1e2b3c-4d5e-4f60-8172-93a4b5c6d7e8";
const C = "0b9d8c7e-6f5a-4b3c-8d2e-1f0a9b8c7d6e";

/** Outputs as create/update/read record them: service values, the declared input names, internals. */
function recorded(values: Record<string, unknown>, declared: string[]): Record<string, unknown> {
  return { ...values, __declaredInputs: declared, __provider: "exports.handler = old;", __createKeySeed: "p/s/r" };
}

/** A monitor as the service reports it, with its server defaults, created from `{ url, name }`. */
const webMonitor = recorded(
  {
    name: "web",
    url: "https://example.com",
    monitorType: "http",
    intervalSeconds: 60,
    httpMethod: "GET",
    followRedirects: true,
    requestTimeoutS: 30,
    regions: ["us-east-1", "eu-west-1"],
    status: "UP",
  },
  ["name", "url", "monitorType"],
);
const webInputs = { __provider: "exports.handler = new;", name: "web", url: "https://example.com", monitorType: "http" };

type Row = [string, AnyResourceDefinition, Record<string, unknown>, Record<string, unknown>, { changes: boolean; replaces?: string[] }];

const slack = { name: "chat", kind: "slack", config: { channel: "#ops" } };

const rows: Row[] = [
  [
    "a key the server added inside an open object (channel config) that the program does not set: no change",
    notificationChannel,
    recorded({ ...slack, config: { channel: "#ops", workspace_id: "T01" } }, ["name", "kind", "config"]),
    slack,
    { changes: false },
  ],
  [
    "a key the program adds inside an open object: update",
    notificationChannel,
    recorded(slack, ["name", "kind", "config"]),
    { ...slack, config: { channel: "#ops", threadMode: "replies" } },
    { changes: true, replaces: [] },
  ],
  [
    "an unknown key of a policy step the server holds as sent: no change",
    escalationPolicy,
    recorded({ name: "p", steps: [{ delayMinutes: 0, notificationChannelIds: [A], urgency: "high", escalateTo: "lead" }] }, ["name", "steps"]),
    { name: "p", steps: [{ delayMinutes: 0, notificationChannelIds: [A], urgency: "high", escalateTo: "lead" }] },
    { changes: false },
  ],
  ["identical inputs, with server defaults the user never set: no change", monitor, webMonitor, webInputs, { changes: false }],
  ["a server field (status) and internals differ: no change", monitor, { ...webMonitor, status: "DOWN" }, webInputs, { changes: false }],
  ["a new value: update", monitor, webMonitor, { ...webInputs, name: "web-2" }, { changes: true, replaces: [] }],
  ["a newly set field equal to the server default: no change", monitor, webMonitor, { ...webInputs, intervalSeconds: 60 }, { changes: false }],
  ["a newly set field different from the server default: update", monitor, webMonitor, { ...webInputs, intervalSeconds: 30 }, { changes: true, replaces: [] }],
  [
    "a field the user removed: update",
    monitor,
    recorded({ url: "https://x.io", monitorType: "http", intervalSeconds: 30 }, ["url", "monitorType", "intervalSeconds"]),
    { url: "https://x.io", monitorType: "http" },
    { changes: true, replaces: [] },
  ],
  [
    "a set in another order: no change",
    monitor,
    recorded({ url: "https://x.io", regions: ["us-east-1", "eu-west-1"], notificationChannelIds: [A, B] }, ["url", "regions", "notificationChannelIds"]),
    { url: "https://x.io", regions: ["eu-west-1", "us-east-1"], notificationChannelIds: [B, A] },
    { changes: false },
  ],
  [
    "a set with another member: update",
    monitor,
    recorded({ url: "https://x.io", notificationChannelIds: [A, B] }, ["url", "notificationChannelIds"]),
    { url: "https://x.io", notificationChannelIds: [A, C] },
    { changes: true, replaces: [] },
  ],
  [
    "an ordered list in another order: update",
    monitor,
    recorded({ url: "https://x.io", requestHeaders: [{ name: "A", value: "1" }, { name: "B", value: "2" }] }, ["url", "requestHeaders"]),
    { url: "https://x.io", requestHeaders: [{ name: "B", value: "2" }, { name: "A", value: "1" }] },
    { changes: true, replaces: [] },
  ],
  [
    "a set inside a list of objects in another order: no change",
    escalationPolicy,
    recorded({ name: "p", steps: [{ delayMinutes: 0, notificationChannelIds: [A, B], urgency: "high" }] }, ["name", "steps"]),
    { name: "p", steps: [{ delayMinutes: 0, notificationChannelIds: [B, A], urgency: "high" }] },
    { changes: false },
  ],
  [
    "drift found by refresh on a field the user set: update",
    monitor,
    recorded({ url: "https://x.io", intervalSeconds: 120 }, ["url", "intervalSeconds"]),
    { url: "https://x.io", intervalSeconds: 30 },
    { changes: true, replaces: [] },
  ],
  [
    "an association changed outside (paused): update",
    monitor,
    recorded({ url: "https://x.io", paused: true }, ["url", "paused"]),
    { url: "https://x.io", paused: false },
    { changes: true, replaces: [] },
  ],
  [
    "an association left unmanaged that changed outside: no change",
    monitor,
    recorded({ url: "https://x.io", paused: true, notificationChannelIds: [A] }, ["url"]),
    { url: "https://x.io" },
    { changes: false },
  ],
  [
    "null in the outputs equals an absent input",
    monitor,
    recorded({ url: "https://x.io", keyword: null }, ["url"]),
    { url: "https://x.io" },
    { changes: false },
  ],
  [
    "a write-only secret kept from state, unchanged: no change",
    monitor,
    recorded({ url: "https://x.io", authUsername: "u", authPassword: "hunter2" }, ["url", "authUsername", "authPassword"]),
    { url: "https://x.io", authUsername: "u", authPassword: "hunter2" },
    { changes: false },
  ],
  [
    "a write-only secret changed: update",
    monitor,
    recorded({ url: "https://x.io", authUsername: "u", authPassword: "hunter2" }, ["url", "authUsername", "authPassword"]),
    { url: "https://x.io", authUsername: "u", authPassword: "correct horse" },
    { changes: true, replaces: [] },
  ],
  [
    "a replace-on-change field (clientId): replace",
    monitor,
    recorded({ url: "https://x.io", clientId: A }, ["url", "clientId"]),
    { url: "https://x.io", clientId: B },
    { changes: true, replaces: ["clientId"] },
  ],
  [
    "a channel's kind: replace, and its name alongside: update",
    notificationChannel,
    recorded({ name: "ops", kind: "email", config: { address: "a@x.io" } }, ["name", "kind", "config"]),
    { name: "ops-2", kind: "sms", config: { phoneNumber: "+14155550100" } },
    { changes: true, replaces: ["kind"] },
  ],
  [
    "any field of a kind that cannot be updated: replace",
    clientShareLink,
    recorded({ clientId: A, label: "board", token: "t", url: "https://x.io/s/t" }, ["clientId", "label"]),
    { clientId: A, label: "wallboard" },
    { changes: true, replaces: ["label"] },
  ],
  [
    "a value unknown during preview: update",
    monitor,
    recorded({ url: "https://x.io", escalationPolicyId: A }, ["url", "escalationPolicyId"]),
    { url: "https://x.io", escalationPolicyId: UNKNOWN },
    { changes: true, replaces: [] },
  ],
  [
    "adoptId, the serialized provider and the create seed: no change",
    webhookSubscription,
    recorded({ url: "https://x.io", events: ["*"], enabled: true, signingSecret: "whsec_x" }, ["url", "events"]),
    { url: "https://x.io", events: ["*"], adoptId: A, __provider: "exports.handler = other;", __createKeySeed: "p/s/other" },
    { changes: false },
  ],
];

describe("diff", () => {
  it.each(rows)("%s", (_title, definition, olds, news, expected) => {
    expect(diff(definition, olds, news)).toEqual({
      changes: expected.changes,
      replaces: expected.replaces ?? [],
      deleteBeforeReplace: false,
    });
  });
});
