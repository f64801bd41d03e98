import { z } from "zod";
import { defineResource } from "../define.js";
import { idOf, nonEmpty } from "../rules.js";

export const heartbeatGroup = defineResource({
  kind: "HeartbeatGroup",
  description:
    "A folder for heartbeats. A group that still holds heartbeats cannot be deleted: move or delete them first " +
    "(Pulumi does this on its own when the heartbeats reference the group's id).",
  scopes: ["heartbeat.write"],
  path: "/heartbeat-groups",
  readBy: "get",
  updateMethod: "PUT",
  inputs: z.object({
    name: nonEmpty.describe("Display name."),
    description: z.string().optional().describe("Free text."),
    clientId: idOf("the client (agency partition) the group lives in; changing it replaces the group").optional(),
  }),
  replaceOnChanges: ["clientId"],
  secrets: [],
  writeOnly: [],
  associations: {},
  outputs: z.object({}),
  secretOutputs: [],
  keepFromState: [],
});
