/**
 * Invalid monitoring files: each row is a file and every message loading it must report, exactly,
 * as `file:line:column: path: rule`, in the order of the file.
 */
// @ts-nocheck

import { describe, expect, it } from "vitest";
import { monitor } from "../../schema/index.js";
import { MonitoringYamlError, formatIssue, parseMonitoringYaml } from "../../sdk/yaml-parse.js";

const PAGERDUTY_KEY = "0123456789abcdef0123456789abcdef";

interface Row {
  name: string;
  file: string;
  env?: Record<string, string>;
  messages: string[];
}

const rows: Row[] = [
  {
    name: "an unknown field, naming the field it was probably meant to be",
    file: `monitors:
  api:
    url: https://api.example.com
    intervalSecs: 60
`,
    messages: ["monitoring.yaml:4:5: monitors.api.intervalSecs: unknown field (did you mean intervalSeconds?)"],
  },
  {
    name: "an unknown field named like the end of a known one",
    file: `heartbeats:
  backup: { group: nightly }
`,
    messages: ["monitoring.yaml:2:13: heartbeats.backup.group: unknown field (did you mean heartbeatGroup?)"],
  },
  {
    name: "an unknown section",
    file: `channels:
  ops: { kind: email, config: { address: ops@example.com } }
`,
    messages: ["monitoring.yaml:1:1: channels: unknown field (did you mean notificationChannels?)"],
  },
  {
    name: "an unknown field without a likely meaning",
    file: `heartbeatGroups:
  nightly: { colour: blue }
`,
    messages: ["monitoring.yaml:2:14: heartbeatGroups.nightly.colour: unknown field"],
  },
  {
    name: "an interval below the minimum, in the definition's words",
    file: `monitors:
  homepage:
    url: https://example.com
    intervalSeconds: 5
`,
    messages: ["monitoring.yaml:4:22: monitors.homepage.intervalSeconds: must be at least 10"],
  },
  {
    name: "a reference to a channel that is not declared",
    file: `notificationChannels:
  ops-email: { kind: email, config: { address: ops@example.com } }
  team-slack: { kind: slack, credentials: { webhookUrl: https://hooks.slack.com/services/T0/B0/x } }
monitors:
  api: { url: https://api.example.com, notificationChannels: [ops-email, pager] }
`,
    messages: [
      'monitoring.yaml:5:74: monitors.api.notificationChannels[1]: no entry named "pager" under notificationChannels (declared: ops-email, team-slack)',
    ],
  },
  {
    name: "references into a section the file does not have",
    file: `monitors:
  api:
    url: https://api.example.com
    escalationPolicy: on-call
heartbeats:
  backup: { heartbeatGroup: nightly }
`,
    messages: [
      'monitoring.yaml:4:23: monitors.api.escalationPolicy: no entry named "on-call" under escalationPolicies (no escalationPolicies are declared)',
      'monitoring.yaml:6:29: heartbeats.backup.heartbeatGroup: no entry named "nightly" under heartbeatGroups (no heartbeatGroups are declared)',
    ],
  },
  {
    name: "a reference inside a list of objects",
    file: `notificationChannels:
  ops-email: { kind: email, config: { address: ops@example.com } }
escalationPolicies:
  on-call:
    steps:
      - { delayMinutes: 0, notificationChannels: [ops-email] }
      - { delayMinutes: 15, notificationChannels: [pager] }
`,
    messages: [
      'monitoring.yaml:7:52: escalationPolicies.on-call.steps[1].notificationChannels[0]: no entry named "pager" under notificationChannels (declared: ops-email)',
    ],
  },
  {
    name: "cross-field rules of a monitor type, at the entry for a missing field and at the key of a misplaced one",
    file: `monitors:
  database:
    monitorType: tcp
    tcpHost: db.internal.example.com
    url: https://db.internal.example.com
`,
    messages: [
      "monitoring.yaml:2:3: monitors.database.tcpPort: is required for tcp monitors",
      "monitoring.yaml:5:5: monitors.database.url: applies only to http and ping monitors, not tcp",
    ],
  },
  {
    name: "the rule of a known setting, inside a nested object (which settings a kind needs is the server's to say)",
    file: `notificationChannels:
  pager: { kind: pagerduty }
  ops: { kind: email, config: { address: ops-at-example.com } }
`,
    messages: ["monitoring.yaml:3:42: notificationChannels.ops.config.address: must be an email address"],
  },
  {
    name: "cross-field rules wait until the entry's own fields are right",
    file: `monitors:
  database:
    monitorType: tcpp
    tcpHost: db.internal.example.com
`,
    messages: ["monitoring.yaml:3:18: monitors.database.monitorType: must be one of http, ping, tcp, dns"],
  },
  {
    name: "the monitors of a set by the rules of a monitor, each at its place in the set",
    file: `notificationChannels:
  ops-email: { kind: email, config: { address: ops@example.com } }
monitorSets:
  fleet:
    monitors:
      shop: { url: https://shop.example.com, intervalSeconds: 5 }
      db: { monitorType: tcp, tcpHost: db.example.com, notificationChannels: [pager] }
  empty:
    monitors: {}
  loose:
    monitor: { url: https://example.com }
`,
    messages: [
      "monitoring.yaml:6:63: monitorSets.fleet.monitors.shop.intervalSeconds: must be at least 10",
      "monitoring.yaml:7:7: monitorSets.fleet.monitors.db.tcpPort: is required for tcp monitors",
      'monitoring.yaml:7:79: monitorSets.fleet.monitors.db.notificationChannels[0]: no entry named "pager" under notificationChannels (declared: ops-email)',
      "monitoring.yaml:9:15: monitorSets.empty.monitors: must have at least 1 entry",
      "monitoring.yaml:10:3: monitorSets.loose.monitors: is required",
      "monitoring.yaml:11:5: monitorSets.loose.monitor: unknown field (did you mean monitors?)",
    ],
  },
  {
    name: "values of the wrong type",
    file: `monitors:
  api:
    url: https://api.example.com
    intervalSeconds: often
    followRedirects: "yes"
webhookSubscriptions:
  audit: { url: https://hooks.example.com/audit, events: monitor.created }
`,
    messages: [
      "monitoring.yaml:4:22: monitors.api.intervalSeconds: must be a whole number",
      "monitoring.yaml:5:22: monitors.api.followRedirects: must be true or false",
      "monitoring.yaml:7:58: webhookSubscriptions.audit.events: must be a list",
    ],
  },
  {
    name: "an entry or a section that is not a mapping",
    file: `monitors: [homepage]
heartbeatGroups:
  nightly: night
`,
    messages: [
      "monitoring.yaml:1:11: monitors: must be a mapping",
      "monitoring.yaml:3:12: heartbeatGroups.nightly: must be a mapping",
    ],
  },
  {
    name: "a file that is not a mapping",
    file: `- homepage
`,
    messages: ["monitoring.yaml:1:1: must be a mapping"],
  },
  {
    name: "required fields, at the entry's key",
    file: `notificationChannels:
  ops: { config: { address: ops@example.com } }
webhookSubscriptions:
  audit:
    events: ["*"]
`,
    messages: [
      "monitoring.yaml:2:3: notificationChannels.ops.kind: is required",
      "monitoring.yaml:4:3: webhookSubscriptions.audit.url: is required",
    ],
  },
  {
    name: "rules the JSON Schema cannot state: IANA time zones and URL schemes",
    file: `monitors:
  api:
    url: https://api.example.com
    maintenanceFrom: "02:00"
    maintenanceTo: "03:00"
    maintenanceTimezone: Mars/Olympus_Mons
notificationChannels:
  hook: { kind: webhook, config: { url: ftp://hooks.example.com/alerts } }
`,
    messages: [
      "monitoring.yaml:6:26: monitors.api.maintenanceTimezone: must be an IANA time zone such as Europe/Berlin",
      "monitoring.yaml:8:41: notificationChannels.hook.config.url: must be an http(s) URL",
    ],
  },
  {
    name: "rules of list items and of lists",
    file: `notificationChannels:
  ops-email: { kind: email, config: { address: ops@example.com } }
monitors:
  api:
    url: https://api.example.com
    regions: [eu-west-1, mars-1]
    notificationChannels: [ops-email, ops-email]
escalationPolicies:
  on-call:
    steps: [{ delayMinutes: -1, notificationChannels: [] }]
`,
    messages: [
      "monitoring.yaml:7:27: monitors.api.notificationChannels: must not list the same value twice",
      "monitoring.yaml:10:29: escalationPolicies.on-call.steps[0].delayMinutes: must be at least 0",
      "monitoring.yaml:10:55: escalationPolicies.on-call.steps[0].notificationChannels: must name at least one channel",
    ],
  },
  {
    name: "an environment variable that is not set, without judging its placeholder",
    file: `notificationChannels:
  pager: { kind: pagerduty, credentials: { integrationKey: "\${env:PAGERDUTY_KEY}" } }
`,
    messages: ["monitoring.yaml:2:60: notificationChannels.pager.credentials.integrationKey: environment variable PAGERDUTY_KEY is not set"],
  },
  {
    name: "a value read from the environment that breaks a rule, naming the variable but not the value",
    file: `notificationChannels:
  chat: { kind: slack, credentials: { webhookUrl: "\${env:CHAT_HOOK}" } }
`,
    env: { CHAT_HOOK: "http://hooks.example.com/in-the-clear" },
    messages: [
      "monitoring.yaml:2:51: notificationChannels.chat.credentials.webhookUrl: must be an https URL (value of ${env:CHAT_HOOK})",
    ],
  },
  {
    name: "an environment reference outside a secret field",
    file: `monitors:
  api: { url: "\${env:API_URL}" }
`,
    env: { API_URL: "https://api.example.com" },
    messages: [
      // The secret fields are the definition's to choose; the message lists them.
      `monitoring.yaml:2:15: monitors.api.url: \${env:...} is read only in secret fields (of monitors: ${monitor.secrets.join(", ")})`,
    ],
  },
  {
    name: "an environment reference in a kind without secret fields",
    file: `heartbeatGroups:
  nightly: { description: "\${env:DESCRIPTION}" }
`,
    messages: ["monitoring.yaml:2:27: heartbeatGroups.nightly.description: ${env:...} is read only in secret fields (heartbeatGroups have none)"],
  },
  {
    name: "the same name twice in a section",
    file: `heartbeatGroups:
  nightly: {}
  nightly: { description: again }
`,
    messages: ["monitoring.yaml:3:3: Map keys must be unique"],
  },
  {
    name: "YAML syntax",
    file: `monitors:
  api: { url: https://api.example.com
`,
    messages: ["monitoring.yaml:3:1: Flow map in block collection must be sufficiently indented and end with a }"],
  },
  {
    name: "every problem of the file at once, in the order of the file",
    file: `notificationChannels:
  ops-email: { kind: email, config: { address: not-an-address } }
monitors:
  api:
    url: https://api.example.com
    intervalSeconds: 5
    notificationChannels: [pager]
heartbeats:
  backup: { expectedIntervalSeconds: 0, gracePeriodSeconds: -1 }
`,
    messages: [
      "monitoring.yaml:2:48: notificationChannels.ops-email.config.address: must be an email address",
      "monitoring.yaml:6:22: monitors.api.intervalSeconds: must be at least 10",
      'monitoring.yaml:7:28: monitors.api.notificationChannels[0]: no entry named "pager" under notificationChannels (declared: ops-email)',
      "monitoring.yaml:9:38: heartbeats.backup.expectedIntervalSeconds: must be at least 1",
      "monitoring.yaml:9:61: heartbeats.backup.gracePeriodSeconds: must be at least 0",
    ],
  },
];

function loadError(file: string, env: Record<string, string>): MonitoringYamlError {
  try {
    parseMonitoringYaml(file, "monitoring.yaml", { env });
  } catch (error) {
    if (error instanceof MonitoringYamlError) return error;
    throw error;
  }
  throw new Error("the file loaded without errors");
}

describe("invalid monitoring files", () => {
  it.each(rows)("report $name", ({ file, env, messages }) => {
    const error = loadError(file, env ?? {});
    expect(error.issues.map(formatIssue)).toEqual(messages);
  });

  it("throw one error whose message lists every problem", () => {
    const error = loadError(rows.at(-1)?.file ?? "", {});
    expect(error.message).toBe(
      ["monitoring.yaml is not a valid monitoring file (5 errors):", ...(rows.at(-1)?.messages ?? []).map((line) => `  ${line}`)].join("\n"),
    );
  });

  it("never show a secret value, even one written in the file", () => {
    const error = loadError(
      `notificationChannels:
  chat: { kind: slack, credentials: { webhookUrl: not-a-url-secret } }
monitors:
  api: { url: https://api.example.com, authPassword: 42 }
`,
      { PAGERDUTY_KEY: PAGERDUTY_KEY },
    );
    expect(error.issues.map(formatIssue)).toEqual([
      "monitoring.yaml:2:51: notificationChannels.chat.credentials.webhookUrl: must be an https URL",
      "monitoring.yaml:4:54: monitors.api.authPassword: must be a string",
    ]);
    expect(error.message).not.toContain("not-a-url-secret");
  });
});
