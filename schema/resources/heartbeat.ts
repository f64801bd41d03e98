import { z } from "zod";
import { defineResource, field } from "../define.js";
import { client } from "./client.js";
import { clientTemplate } from "./client-template.js";
import { nonEmpty, openEnum, pauseWindows, uuid, wholeNumber } from "../rules.js";

const TEMPLATE_MAY_CHANGE = "A client's template may apply another default.";

// Spec 2.5 states the fields' names and types; their limits and defaults are not shown.
export const heartbeat = defineResource({
  kind: "Heartbeat",
  description:
    "A check-in monitor for scheduled jobs: the job calls `pingUrl` on every run, and silence longer than the " +
    "expected interval plus the grace period opens an incident.",
  assumption: "response fields are not shown: the object is assumed to echo the request fields under their request names",
  path: "/heartbeats",
  readBy: "get",
  updateMethod: "PATCH",
  inputs: z.object({
    name: field(nonEmpty.optional(), { description: "Display name." }),
    expectedIntervalSeconds: field(wholeNumber(1).optional(), {
      description: `How often the job checks in, in seconds. ${TEMPLATE_MAY_CHANGE}`,
      default: 3600,
      assumption: "the default and the smallest interval the service accepts are not shown",
    }),
    gracePeriodSeconds: field(wholeNumber(0).optional(), {
      description: `Slack in seconds added to the interval before silence opens an incident. ${TEMPLATE_MAY_CHANGE}`,
      default: 300,
      assumption: "the default is not shown",
    }),
    heartbeatGroupId: field(uuid.optional(), {
      description: "Id (UUID) of the heartbeat group (folder) the heartbeat is filed in.",
      assumption: "PATCH accepts it like create does, and null takes the heartbeat out of its group",
    }),
    clientId: field(uuid.optional(), {
      description: "Id (UUID) of the client (agency partition) the heartbeat lives in; changing it replaces the heartbeat.",
      replaceOnChange: true,
      assumption: "a heartbeat cannot move between clients",
    }),
    paused: field(z.boolean().optional(), {
      description: "Pause (`true`) or resume (`false`) alerting. Left out, the pause state is not managed unless `pauses` is declared.",
      assumption: "the heartbeat object reports it as `paused`",
    }),
    pauses: field(pauseWindows.optional(), {
      description:
        "Windows during which the heartbeat is paused, each `{ from, to, reason }` with ISO 8601 instants with an offset. " +
        "A deploy inside a window pauses it, the first deploy after the window resumes it; a window that has ended changes nothing, even left in the program. " +
        "Declaring it makes the provider manage the pause state: outside windows, `paused` as declared, else resumed. " +
        "See docs/overrides-and-maintenance.md.",
      providerOnly: true,
    }),
  }),
  templateDefaults: { client, template: clientTemplate, field: "heartbeatDefaults" },
  associations: {
    paused: {
      kind: "toggle",
      on: { method: "POST", path: "/heartbeats/{id}/pause" },
      off: { method: "POST", path: "/heartbeats/{id}/resume" },
    },
  },
  outputs: z.object({
    status: field(openEnum(["NEW", "UP", "LATE", "DOWN", "PAUSED"]), {
      description: "`NEW` until the first ping, then `UP`, `LATE` or `DOWN`; `PAUSED` while paused.",
      assumption: "the states of heartbeats are not shown",
    }),
    pingUrl: field(z.string(), {
      description: "The URL the job calls (GET or POST) on every run. Secret: anyone holding it can check in for the job.",
      apiName: ["ping_url", "check_in_url"],
      assumption: "the field's name is not shown; servers are known to call it `ping_url` or `check_in_url`",
      secret: true,
    }),
  }),
});
