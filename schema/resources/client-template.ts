import { z } from "zod";
import { defineResource, field } from "../define.js";
import { nonEmpty, openObject, region, setOf, wholeNumber } from "../rules.js";

const DEFAULTS_ASSUMED = "the keys of template defaults are not shown: these are the ones this package knows; others are sent as written";

export const clientTemplate = defineResource({
  kind: "ClientTemplate",
  description:
    "Defaults for clients created from it: monitors and heartbeats created inside such a client get the " +
    "template's values for the fields their own inputs leave out.",
  assumption: "the fields of client templates are not shown (spec 1, 2.6): names, rules and how defaults apply are this package's",
  path: "/client-templates",
  readBy: "get",
  updateMethod: "PUT",
  inputs: z.object({
    name: field(nonEmpty, { description: "Display name." }),
    description: field(z.string().optional(), { description: "Free text." }),
    monitorDefaults: field(
      openObject(
        {
          intervalSeconds: wholeNumber(10).optional().describe("Seconds between checks, at least 10."),
          regions: setOf(region).min(1, { error: "must name at least one region" }).optional().describe("Regions checks run from."),
          confirmationPeriod: wholeNumber(0).optional().describe("Seconds a failure must last before a monitor turns DOWN."),
          recoveryPeriod: wholeNumber(0).optional().describe("Seconds a recovery must last before a monitor turns UP again."),
          followRedirects: z.boolean().optional().describe("Whether http monitors follow redirects."),
          sslExpiryAlertDays: wholeNumber(1).optional().describe("Days before certificate expiry to warn."),
        },
        DEFAULTS_ASSUMED,
      ).optional(),
      {
        description: "Defaults for monitors created inside clients made from this template.",
        assumption: `${DEFAULTS_ASSUMED}, and preview warns about them`,
      },
    ),
    heartbeatDefaults: field(
      openObject(
        {
          expectedIntervalSeconds: wholeNumber(1).optional().describe("How often jobs check in, in seconds."),
          gracePeriodSeconds: wholeNumber(0).optional().describe("Slack in seconds before silence alerts."),
        },
        DEFAULTS_ASSUMED,
      ).optional(),
      {
        description: "Defaults for heartbeats created inside clients made from this template.",
        assumption: `${DEFAULTS_ASSUMED}, and preview warns about them`,
      },
    ),
  }),
  associations: {},
  outputs: z.object({}),
});
