import { z } from "zod";
import { defineResource, field } from "../define.js";
import { isoDateTime, nonEmpty, uuid } from "../rules.js";

export const clientShareLink = defineResource({
  kind: "ClientShareLink",
  description:
    "A read-only link to a client's status, for the client's own people. Links cannot be changed: any change " +
    "creates a new link (new token and URL) and deletes the old one.",
  assumption: "share links are not shown (spec 1): fields and behaviour are this package's",
  path: "/clients/{clientId}/share-links",
  readBy: "list",
  updateMethod: "none",
  inputs: z.object({
    clientId: field(uuid, { description: "Id (UUID) of the client the link shows.", replaceOnChange: true }),
    label: field(nonEmpty, { description: "Name of the link, to tell links apart.", replaceOnChange: true }),
    expiresAt: field(isoDateTime.optional(), {
      description: "When the link stops working (ISO-8601, in the future when created); never when left out.",
      replaceOnChange: true,
    }),
  }),
  associations: {},
  outputs: z.object({
    token: field(z.string(), { description: "The link's access token. Secret.", secret: true, returnedOnce: true }),
    url: field(z.string(), { description: "The shareable URL. Secret: it carries the token.", secret: true }),
    createdAt: field(z.string(), { description: "When the link was created (ISO-8601)." }),
  }),
});
