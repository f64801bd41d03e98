import { z } from "zod";
import { defineResource } from "../define.js";
import { email, hexColor, httpUrl, idOf, nonEmpty } from "../rules.js";

const portalSettings = z
  .object({
    enabled: z.boolean().default(false).describe("Whether the client's status portal is published."),
    title: z.string().optional().describe("Portal title."),
    logoUrl: httpUrl.optional().describe("http(s) URL of the logo shown on the portal."),
    primaryColor: hexColor.optional().describe("Accent color as `#RRGGBB`."),
    customDomain: nonEmpty.optional().describe("Domain the portal is served on instead of the service's."),
    showIncidentHistory: z.boolean().default(true).describe("Whether the portal lists past incidents."),
  })
  .strict();

export const client = defineResource({
  kind: "Client",
  description:
    "A partition for agency mode: monitors, heartbeats, channels and policies created with its `clientId` live " +
    "inside it. The service cannot delete clients: destroying a Client resource archives it.",
  scopes: ["client.write"],
  path: "/clients",
  readBy: "get",
  updateMethod: "PUT",
  deletion: { method: "POST", path: "/clients/{id}/archive", alreadyGone: [404, 409] },
  inputs: z.object({
    name: nonEmpty.describe("Display name."),
    description: z.string().optional().describe("Free text."),
    website: httpUrl.optional().describe("The client's website."),
    contactEmail: email.optional().describe("Address of the client's contact person."),
    templateId: idOf("the client template whose defaults apply to monitors and heartbeats created inside the client").optional(),
    archived: z.boolean().optional().describe("Archive (`true`) or unarchive (`false`) the client. Left out, the archive state is not managed."),
    portalSettings: portalSettings
      .optional()
      .describe("The client's status portal. Fields left out take their defaults. Left out entirely, the portal is not managed."),
  }),
  replaceOnChanges: [],
  secrets: [],
  writeOnly: [],
  associations: {
    archived: {
      kind: "toggle",
      on: { method: "POST", path: "/clients/{id}/archive" },
      off: { method: "POST", path: "/clients/{id}/unarchive" },
    },
    portalSettings: {
      kind: "document",
      get: { path: "/clients/{id}/portal-settings" },
      put: { path: "/clients/{id}/portal-settings" },
    },
  },
  outputs: z.object({
    archivedAt: z.string().describe("When the client was archived (ISO-8601), while it is archived."),
  }),
  secretOutputs: [],
  keepFromState: [],
});
