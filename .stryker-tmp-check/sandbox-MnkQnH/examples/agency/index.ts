/**
 * One client of the agency per stack. What differs between clients lives in their stack's
 * configuration (`Pulumi.<client>.yaml`, key `agency:client`); what the agency does for every
 * client lives in ClientMonitoring. Everything is created inside the client's own partition.
 */
// @ts-nocheck

import * as pulumi from "@pulumi/pulumi";
import * as mon from "pulumi-monitoring";

const config = new pulumi.Config();
// The spec is validated by ClientMonitoring, so a typo in the YAML fails the preview with its path.
const spec = config.requireObject<mon.ClientMonitoringSpec>("client");
// The agency's shared template (created once by ./shared; `fleet` passes its id to every client
// stack). A client that brings its own template (client.template) keeps it.
const sharedTemplateId = spec.template === undefined ? config.get("templateId") : undefined;
// A chat webhook URL is a credential: it stays out of the YAML and comes in as a secret.
const chat = spec.contacts.chat && { ...spec.contacts.chat, webhookUrl: config.requireSecret("chatWebhookUrl") };

const client = new mon.ClientMonitoring(pulumi.getStack(), {
  ...spec,
  contacts: { ...spec.contacts, ...(chat === undefined ? {} : { chat }) },
  ...(sharedTemplateId === undefined ? {} : { template: { id: sharedTemplateId } }),
});

export const clientId = client.clientId;
export const monitorIds = client.monitorIds;
export const escalationPolicyId = client.escalationPolicyId;
export const notificationChannelIds = client.notificationChannelIds;
/** Secret: each job calls its URL when it runs (`pulumi stack output heartbeatPingUrls --show-secrets`). */
export const heartbeatPingUrls = client.heartbeatPingUrls;
/** Secret: the link carries its access token. */
export const statusLink = client.shareLinkUrl;
