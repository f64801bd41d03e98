import { z } from "zod";
import { defineResource, field } from "../define.js";
import { nonEmpty, uuid } from "../rules.js";

export const heartbeatGroup = defineResource({
  kind: "HeartbeatGroup",
  description:
    "A folder for heartbeats. A group that still holds heartbeats cannot be deleted: move or delete them first " +
    "(Pulumi does this on its own when the heartbeats reference the group's id).",
  assumption: "the fields of heartbeat groups are not shown (spec 2.6): names and rules are this package's",
  path: "/heartbeat-groups",
  readBy: "get",
  updateMethod: "PUT",
  inputs: z.object({
    name: field(nonEmpty, { description: "Display name." }),
    description: field(z.string().optional(), { description: "Free text." }),
    clientId: field(uuid.optional(), {
      description: "Id (UUID) of the client (agency partition) the group lives in; changing it replaces the group.",
      replaceOnChange: true,
    }),
  }),
  associations: {},
  outputs: z.object({}),
});
