/**
 * The rules of a ClientMonitoring spec, checked when the component is declared. The spec's public
 * type (with the meaning of every field) is the hand-written `ClientMonitoringSpec` interface in
 * client-monitoring.ts, which keeps zod out of the package's declaration files; the compiler holds
 * the two to the same shape (see there).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { heartbeat, monitor } from "../../schema/index.js";
import { IS_REQUIRED } from "../../schema/rule-messages.js";
import { email, isoDateTime, nonEmpty, pauseWindows, region, setOf, wholeNumber } from "../../schema/rules.js";
import type { ClientTemplateArgs } from "../generated/index.js";
import { endpointKey, nameSegment } from "./resource-names.js";

const present = (value: unknown): boolean => value !== undefined && value !== null;

const endpointSpec = z
  .object({
    path: z.string().startsWith("/", { error: "must start with /" }),
    name: nonEmpty.optional(),
    expectedStatusCode: monitor.inputs.shape.expectedStatusCode.unwrap().default(200),
    keyword: nonEmpty.optional(),
    pauses: pauseWindows.optional(),
  })
  .strict();

const contactsSpec = z
  .object({
    emails: setOf(email).min(1, { error: "must name at least one address" }),
    chat: z
      .object({
        kind: z.enum(["slack", "msteams"], { error: "must be slack or msteams" }),
        webhookUrl: z.custom<pulumi.Input<string>>(present, { error: IS_REQUIRED }),
        channel: z.string().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

const cronJobSpec = z
  .object({
    name: nonEmpty,
    intervalSeconds: wholeNumber(30),
    graceSeconds: heartbeat.inputs.shape.gracePeriodSeconds,
    pauses: pauseWindows.optional(),
  })
  .strict();

const templateChoice = z.union([
  z.object({ id: z.custom<pulumi.Input<string>>(present, { error: IS_REQUIRED }) }).strict(),
  z.object({ create: z.custom<ClientTemplateArgs>((value) => typeof value === "object" && value !== null) }).strict(),
]);

/** What a client gets monitored with. */
export const clientMonitoringSpec = z
  .object({
    name: nonEmpty,
    domain: z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i, { error: "must be a domain name such as acme.example.com" }),
    endpoints: z.array(endpointSpec).min(1, { error: "must list at least one endpoint" }),
    contacts: contactsSpec,
    cronJobs: z.array(cronJobSpec).default([]),
    template: templateChoice.optional(),
    intervalSeconds: wholeNumber(10).optional(),
    regions: setOf(region).min(1, { error: "must name at least one region" }).optional(),
    sslExpiryAlertDays: wholeNumber(1).optional(),
    escalateAfterMinutes: wholeNumber(1, 1440).default(15),
    shareLink: z.object({ label: nonEmpty, expiresAt: isoDateTime.optional() }).strict().optional(),
    pauses: pauseWindows.optional(),
  })
  .strict()
  .superRefine((spec, context) => {
    // Endpoints and jobs become resources named after them, so two may not share a name.
    const reportDuplicates = (list: "endpoints" | "cronJobs", keys: string[]) => {
      keys.forEach((key, index) => {
        if (keys.indexOf(key) !== index) {
          context.addIssue({ code: "custom", path: [list, index], message: `has the same name as an earlier entry (${key}); give it its own name` });
        }
      });
    };
    reportDuplicates("endpoints", spec.endpoints.map(endpointKey));
    reportDuplicates("cronJobs", spec.cronJobs.map((job) => nameSegment(job.name)));
  });
