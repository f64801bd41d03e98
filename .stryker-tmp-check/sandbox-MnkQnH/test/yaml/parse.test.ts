/**
 * Valid monitoring files become declarations: the kinds' inputs as the file sets them, with
 * references by name, display names defaulted to the entry's key and secrets read from the
 * environment. No Pulumi involved.
 */
// @ts-nocheck

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Declaration, EntryReference, parseMonitoringYaml } from "../../sdk/yaml-parse.js";

const ADOPTED_ID = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const PAGERDUTY_KEY = "0123456789abcdef0123456789abcdef";

interface Row {
  name: string;
  file: string;
  env?: Record<string, string>;
  declarations: Declaration[];
}

const rows: Row[] = [
  { name: "an empty file declares nothing", file: "", declarations: [] },
  { name: "a file of comments declares nothing", file: "# monitoring comes later\n", declarations: [] },
  {
    name: "the entry's key is the default display name; an explicit name is kept",
    file: `heartbeatGroups:
  nightly: {}
  weekly: { name: Weekly jobs, description: Sunday batch }
`,
    declarations: [
      { kind: "HeartbeatGroup", section: "heartbeatGroups", name: "nightly", inputs: { name: "nightly" } },
      { kind: "HeartbeatGroup", section: "heartbeatGroups", name: "weekly", inputs: { name: "Weekly jobs", description: "Sunday batch" } },
    ],
  },
  {
    name: "kinds without a display name get none",
    file: `webhookSubscriptions:
  audit: { url: https://hooks.example.com/audit, events: ["*"] }
`,
    declarations: [
      {
        kind: "WebhookSubscription",
        section: "webhookSubscriptions",
        name: "audit",
        inputs: { url: "https://hooks.example.com/audit", events: ["*"] },
      },
    ],
  },
  {
    name: "references by name become references to the entries, at every depth",
    file: `monitors:
  api:
    url: https://api.example.com
    notificationChannels: [ops-email]
    escalationPolicy: on-call
escalationPolicies:
  on-call:
    steps:
      - { delayMinutes: 0, notificationChannels: [ops-email] }
notificationChannels:
  ops-email: { kind: email, config: { address: ops@example.com } }
heartbeatGroups:
  nightly: {}
heartbeats:
  backup: { heartbeatGroup: nightly }
`,
    declarations: [
      {
        kind: "Monitor",
        section: "monitors",
        name: "api",
        inputs: {
          name: "api",
          url: "https://api.example.com",
          notificationChannelIds: [new EntryReference("notificationChannels", "ops-email")],
          escalationPolicyId: new EntryReference("escalationPolicies", "on-call"),
        },
      },
      {
        kind: "Heartbeat",
        section: "heartbeats",
        name: "backup",
        inputs: { name: "backup", heartbeatGroupId: new EntryReference("heartbeatGroups", "nightly") },
      },
      { kind: "HeartbeatGroup", section: "heartbeatGroups", name: "nightly", inputs: { name: "nightly" } },
      {
        kind: "EscalationPolicy",
        section: "escalationPolicies",
        name: "on-call",
        inputs: {
          name: "on-call",
          steps: [{ delayMinutes: 0, notificationChannelIds: [new EntryReference("notificationChannels", "ops-email")] }],
        },
      },
      {
        kind: "NotificationChannel",
        section: "notificationChannels",
        name: "ops-email",
        inputs: { name: "ops-email", kind: "email", config: { address: "ops@example.com" } },
      },
    ],
  },
  {
    name: "secrets are read from the environment",
    file: `notificationChannels:
  pager: { kind: pagerduty, credentials: { integrationKey: "\${env:PAGERDUTY_KEY}" } }
monitors:
  api: { url: https://api.example.com, authUsername: probe, authPassword: "\${env:API_PASSWORD}" }
`,
    env: { PAGERDUTY_KEY, API_PASSWORD: "s3cret" },
    declarations: [
      {
        kind: "Monitor",
        section: "monitors",
        name: "api",
        inputs: { name: "api", url: "https://api.example.com", authUsername: "probe", authPassword: "s3cret" },
      },
      {
        kind: "NotificationChannel",
        section: "notificationChannels",
        name: "pager",
        inputs: { name: "pager", kind: "pagerduty", credentials: { integrationKey: PAGERDUTY_KEY } },
      },
    ],
  },
  {
    name: "values are kept as written, leaving defaults to the provider and the service",
    file: `monitors:
  database: { monitorType: tcp, tcpHost: db.internal.example.com, tcpPort: 5432, adoptId: ${ADOPTED_ID} }
`,
    declarations: [
      {
        kind: "Monitor",
        section: "monitors",
        name: "database",
        inputs: { name: "database", monitorType: "tcp", tcpHost: "db.internal.example.com", tcpPort: 5432, adoptId: ADOPTED_ID },
      },
    ],
  },
  {
    name: "YAML anchors and aliases are followed",
    file: `monitors:
  eu: &defaults { url: https://eu.example.com, intervalSeconds: 30 }
  us: *defaults
`,
    declarations: [
      { kind: "Monitor", section: "monitors", name: "eu", inputs: { name: "eu", url: "https://eu.example.com", intervalSeconds: 30 } },
      { kind: "Monitor", section: "monitors", name: "us", inputs: { name: "us", url: "https://eu.example.com", intervalSeconds: 30 } },
    ],
  },
];

describe("valid monitoring files", () => {
  it.each(rows)("$name", ({ file, env, declarations }) => {
    expect(parseMonitoringYaml(file, "monitoring.yaml", { env: env ?? {} })).toStrictEqual({ declarations });
  });

  it("the example file declares every section, with secrets from the environment", () => {
    const text = readFileSync(join(__dirname, "../../examples/yaml/monitoring.yaml"), "utf8");
    const { declarations } = parseMonitoringYaml(text, "monitoring.yaml", {
      env: {
        CHECKOUT_SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T0/B0/x",
        CHECKOUT_PAGERDUTY_KEY: PAGERDUTY_KEY,
        CHECKOUT_API_PASSWORD: "s3cret",
      },
    });
    expect(new Set(declarations.map(({ section }) => section))).toEqual(
      new Set(["monitors", "heartbeats", "heartbeatGroups", "escalationPolicies", "notificationChannels", "webhookSubscriptions"]),
    );
    const checkoutApi = declarations.find(({ name }) => name === "checkout-api");
    expect(checkoutApi?.inputs).toMatchObject({ authPassword: "s3cret", escalationPolicyId: new EntryReference("escalationPolicies", "checkout-on-call") });
  });
});
