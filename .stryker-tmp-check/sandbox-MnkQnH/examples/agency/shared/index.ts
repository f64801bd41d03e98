/**
 * The agency's standard client template, deployed once. Client stacks name it in their
 * configuration (`agency:templateId`), and monitors and heartbeats created inside those clients
 * take its defaults for whatever their own inputs leave out. Changing a default here changes it
 * for every client that uses the template, without touching the client stacks.
 */
// @ts-nocheck

import * as mon from "pulumi-monitoring";

const standard = new mon.ClientTemplate("standard", {
  name: "Standard care",
  description: "What every client gets unless their contract says otherwise.",
  monitorDefaults: {
    intervalSeconds: 60,
    regions: ["us-east-1", "eu-west-1", "ap-southeast-1"],
    sslExpiryAlertDays: 21,
    confirmationPeriod: 120,
  },
  heartbeatDefaults: { gracePeriodSeconds: 900 },
});

export const templateId = standard.id;
