import { z } from "zod";
import { defineResource } from "../define.js";
import { nonEmpty, region, setOf, wholeNumber } from "../rules.js";

export const clientTemplate = defineResource({
  kind: "ClientTemplate",
  description:
    "Defaults for clients created from it: monitors and heartbeats created inside such a client get the " +
    "template's values for the fields their own inputs leave out.",
  scopes: [],
  path: "/client-templates",
  readBy: "get",
  updateMethod: "PUT",
  inputs: z.object({
    name: nonEmpty.describe("Display name."),
    description: z.string().optional().describe("Free text."),
    monitorDefaults: z
      .object({
        intervalSeconds: wholeNumber(10).optional().describe("Seconds between checks, at least 10."),
        regions: setOf(region).min(1, { error: "must name at least one region" }).optional().describe("Regions checks run from."),
        confirmationPeriod: wholeNumber(0).optional().describe("Seconds a failure must last before a monitor turns DOWN."),
        recoveryPeriod: wholeNumber(0).optional().describe("Seconds a recovery must last before a monitor turns UP again."),
        followRedirects: z.boolean().optional().describe("Whether http monitors follow redirects."),
        sslExpiryAlertDays: wholeNumber(1).optional().describe("Days before certificate expiry to warn."),
      })
      .strict()
      .optional()
      .describe("Defaults for monitors created inside clients made from this template."),
    heartbeatDefaults: z
      .object({
        expectedIntervalSeconds: wholeNumber(30).optional().describe("How often jobs check in, in seconds, at least 30."),
        gracePeriodSeconds: wholeNumber(0).optional().describe("Slack in seconds before silence alerts."),
      })
      .strict()
      .optional()
      .describe("Defaults for heartbeats created inside clients made from this template."),
  }),
  replaceOnChanges: [],
  secrets: [],
  writeOnly: [],
  associations: {},
  outputs: z.object({}),
  secretOutputs: [],
  keepFromState: [],
});
