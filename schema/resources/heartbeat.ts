import { z } from "zod";
import { defineResource } from "../define.js";
import { idOf, nonEmpty, serverDefault, wholeNumber } from "../rules.js";

export const heartbeat = defineResource({
  kind: "Heartbeat",
  description:
    "A check-in monitor for scheduled jobs: the job calls `pingUrl` on every run, and silence longer than the " +
    "expected interval plus the grace period opens an incident.",
  scopes: ["heartbeat.write"],
  path: "/heartbeats",
  readBy: "get",
  updateMethod: "PATCH",
  inputs: z.object({
    name: nonEmpty.optional().describe("Display name."),
    expectedIntervalSeconds: serverDefault(
      wholeNumber(30).optional(),
      3600,
      "How often the job checks in, in seconds, at least 30. The client's template may set another default.",
    ),
    gracePeriodSeconds: serverDefault(
      wholeNumber(0).optional(),
      300,
      "Slack in seconds added to the interval before silence opens an incident. The client's template may set another default.",
    ),
    heartbeatGroupId: idOf("the heartbeat group (folder) the heartbeat is filed in").optional(),
    clientId: idOf("the client (agency partition) the heartbeat lives in; changing it replaces the heartbeat").optional(),
    paused: z.boolean().optional().describe("Pause (`true`) or resume (`false`) alerting. Left out, the pause state is not managed."),
  }),
  replaceOnChanges: ["clientId"],
  secrets: [],
  writeOnly: [],
  associations: {
    paused: {
      kind: "toggle",
      on: { method: "POST", path: "/heartbeats/{id}/pause" },
      off: { method: "POST", path: "/heartbeats/{id}/resume" },
    },
    heartbeatGroupId: {
      kind: "reference",
      sentOnCreate: true,
      set: {
        method: "POST",
        path: "/heartbeat-groups/assign",
        body: (id, value) => ({ heartbeat_id: id, heartbeat_group_id: value }),
      },
      clear: {
        method: "POST",
        path: "/heartbeat-groups/assign",
        body: (id) => ({ heartbeat_id: id, heartbeat_group_id: null }),
      },
    },
  },
  outputs: z.object({
    status: z
      .enum(["NEW", "UP", "LATE", "DOWN", "PAUSED"])
      .describe("`NEW` until the first ping, then `UP`, `LATE` or `DOWN`; `PAUSED` while paused."),
    pingUrl: z
      .string()
      .describe("The URL the job calls (GET or POST) on every run. Secret: anyone holding it can check in for the job."),
  }),
  secretOutputs: ["pingUrl"],
  keepFromState: [],
});
