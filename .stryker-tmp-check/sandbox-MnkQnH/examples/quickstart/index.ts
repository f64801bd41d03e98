/**
 * The smallest useful setup: check a website every minute from two regions, and send an email
 * when it stops answering with 200 or its certificate is about to expire.
 */
// @ts-nocheck

import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
const site = config.get("url") ?? "https://www.example.com";
const alertEmail = config.get("alertEmail") ?? "ops@example.com";

const ops = new mon.NotificationChannel("ops-email", {
  name: "Ops",
  kind: "email",
  config: { address: alertEmail },
});

const website = new mon.Monitor("website", {
  name: "Website",
  url: site,
  expectedStatusCode: 200,
  sslExpiryAlertDays: 14,
  notificationChannelIds: [ops.id],
});

export const monitorId = website.id;
export const monitorStatus = website.status;
export const channelId = ops.id;
