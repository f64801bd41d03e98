import { z } from "zod";
import { defineResource, field } from "../define.js";
import { email, hexColor, httpUrl, nonEmpty, openObject, uuid } from "../rules.js";

const portalSettings = openObject(
  {
    enabled: z.boolean().default(false).describe("Whether the client's status portal is published."),
    title: z.string().optional().describe("Portal title."),
    logoUrl: httpUrl.optional().describe("http(s) URL of the logo shown on the portal."),
    primaryColor: hexColor.optional().describe("Accent color as `#RRGGBB`."),
    customDomain: nonEmpty.optional().describe("Domain the portal is served on instead of the service's."),
    showIncidentHistory: z.boolean().default(true).describe("Whether the portal lists past incidents."),
  },
  "the keys of portal settings are not shown (spec 1): these are the ones this package knows; others are sent as written",
);

export const client = defineResource({
  kind: "Client",
  description:
    "A partition for agency mode: monitors, heartbeats, channels and policies created with its `clientId` live " +
    "inside it. The service cannot delete clients: destroying a Client resource archives it.",
  assumption: "the fields of clients are not shown (spec 2.6): names and rules are this package's",
  path: "/clients",
  readBy: "get",
  updateMethod: "PUT",
  // The service cannot delete clients (spec 4.9 has no DELETE): destroy archives. An archived client
  // stays archived; deploying the stack again creates a fresh client rather than reviving it.
  deletion: { method: "POST", path: "/clients/{id}/archive", alreadyGone: [404, 409], leaves: { field: "archived", value: true } },
  inputs: z.object({
    name: field(nonEmpty, { description: "Display name." }),
    description: field(z.string().optional(), { description: "Free text." }),
    website: field(httpUrl.optional(), { description: "The client's website." }),
    contactEmail: field(email.optional(), { description: "Address of the client's contact person." }),
    templateId: field(uuid.optional(), {
      description: "Id (UUID) of the client template whose defaults apply to monitors and heartbeats created inside the client.",
    }),
    archived: field(z.boolean().optional(), {
      description: "Archive (`true`) or unarchive (`false`) the client. Left out, the archive state is not managed.",
      assumption: "the client object reports it as `archived`",
    }),
    portalSettings: field(portalSettings.optional(), {
      description: "The client's status portal. Fields left out take their defaults. Left out entirely, the portal is not managed.",
      assumption: "the portal settings' keys and defaults are not shown: a key this package does not know is sent as written, and preview warns about it",
    }),
  }),
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
    archivedAt: field(z.string(), { description: "When the client was archived (ISO-8601), while it is archived." }),
  }),
});
