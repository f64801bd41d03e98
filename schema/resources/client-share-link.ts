import { z } from "zod";
import { defineResource } from "../define.js";
import { idOf, isoDateTime, nonEmpty } from "../rules.js";

export const clientShareLink = defineResource({
  kind: "ClientShareLink",
  description:
    "A read-only link to a client's status, for the client's own people. Links cannot be changed: any change " +
    "creates a new link (new token and URL) and deletes the old one.",
  scopes: ["client.write"],
  path: "/clients/{clientId}/share-links",
  readBy: "list",
  updateMethod: "none",
  inputs: z.object({
    clientId: idOf("the client the link shows"),
    label: nonEmpty.describe("Name of the link, to tell links apart."),
    expiresAt: isoDateTime
      .optional()
      .describe("When the link stops working (ISO-8601, in the future when created); never when left out."),
  }),
  replaceOnChanges: ["clientId", "label", "expiresAt"],
  secrets: [],
  writeOnly: [],
  associations: {},
  outputs: z.object({
    token: z.string().describe("The link's access token. Secret."),
    url: z.string().describe("The shareable URL. Secret: it carries the token."),
    createdAt: z.string().describe("When the link was created (ISO-8601)."),
  }),
  secretOutputs: ["token", "url"],
  keepFromState: ["token"],
});
