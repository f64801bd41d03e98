// @ts-nocheck
// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { type LookupQuery, lookupObject } from "../lookups.js";
import { resourceArguments } from "../runtime.js";

/**
 * The arguments of the {@link NotificationChannel} resource: A destination for alerts: an email address, a Slack or Microsoft Teams webhook, a phone number for SMS, a PagerDuty service or an https webhook. Attach it to monitors or name it in escalation policy steps.
 */
export interface NotificationChannelArgs {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  name: pulumi.Input<string>;

  /**
   * The destination type (`email`, `slack`, `msteams`, `sms`, `pagerduty`, `webhook`); changing it replaces the channel.
   *
   * Changing it replaces the notification channel.
   *
   * API field: `kind`.
   *
   * Assumption (not shown by the spec): the channel kinds are not shown; a kind this package does not know is sent as written, without checks of its settings.
   */
  kind: pulumi.Input<"email" | "slack" | "msteams" | "sms" | "pagerduty" | "webhook" | (string & {})>;

  /**
   * Id (UUID) of the client (agency partition) the channel lives in; changing it replaces the channel.
   *
   * Changing it replaces the notification channel.
   *
   * API field: `client_id`.
   */
  clientId?: pulumi.Input<string>;

  /**
   * Kind-specific settings (address, channel, phone number, URL).
   *
   * API field: `config`.
   *
   * Assumption (not shown by the spec): which settings a kind needs and which keys it takes are not shown (spec 2.6): the keys declared are the ones this package knows, with their rules; another key is sent as written and preview warns about it; a missing setting is the server's to refuse.
   */
  config?: pulumi.Input<NotificationChannelConfigArgs>;

  /**
   * Kind-specific secrets (webhook URL, integration key, headers).
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * Write-only: the service never returns it; the value is kept from state.
   *
   * API field: `credentials`.
   *
   * Assumption (not shown by the spec): the service is assumed not to return them, so read keeps them from state (the importer turns every credential into a placeholder, returned or not); which keys a kind takes is not shown (spec 2.6): the keys declared are the ones this package knows, with their rules; another key is sent as written and preview warns about it.
   */
  credentials?: pulumi.Input<NotificationChannelCredentialsArgs>;

  /**
   * Id of an existing object to take over instead of creating one: the first deployment reads it and converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is the way to bring objects created elsewhere under management. Ignored after creation.
   *
   * Steers the provider: never sent to the service.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * A destination for alerts: an email address, a Slack or Microsoft Teams webhook, a phone number for SMS, a PagerDuty service or an https webhook. Attach it to monitors or name it in escalation policy steps.
 *
 * Assumption: the fields of notification channels are not shown (spec 2.6): names, kinds and settings are this package's.
 */
export class NotificationChannel extends pulumi.dynamic.Resource {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  declare public readonly name: pulumi.Output<string>;

  /**
   * The destination type (`email`, `slack`, `msteams`, `sms`, `pagerduty`, `webhook`); changing it replaces the channel.
   *
   * Changing it replaces the notification channel.
   *
   * API field: `kind`.
   *
   * Assumption (not shown by the spec): the channel kinds are not shown; a kind this package does not know is sent as written, without checks of its settings.
   */
  declare public readonly kind: pulumi.Output<"email" | "slack" | "msteams" | "sms" | "pagerduty" | "webhook" | (string & {})>;

  /**
   * Id (UUID) of the client (agency partition) the channel lives in; changing it replaces the channel.
   *
   * Changing it replaces the notification channel.
   *
   * API field: `client_id`.
   */
  declare public readonly clientId: pulumi.Output<string | undefined>;

  /**
   * Kind-specific settings (address, channel, phone number, URL).
   *
   * API field: `config`.
   *
   * Assumption (not shown by the spec): which settings a kind needs and which keys it takes are not shown (spec 2.6): the keys declared are the ones this package knows, with their rules; another key is sent as written and preview warns about it; a missing setting is the server's to refuse.
   */
  declare public readonly config: pulumi.Output<NotificationChannelConfig | undefined>;

  /**
   * Kind-specific secrets (webhook URL, integration key, headers).
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * Write-only: the service never returns it; the value is kept from state.
   *
   * API field: `credentials`.
   *
   * Assumption (not shown by the spec): the service is assumed not to return them, so read keeps them from state (the importer turns every credential into a placeholder, returned or not); which keys a kind takes is not shown (spec 2.6): the keys declared are the ones this package knows, with their rules; another key is sent as written and preview warns about it.
   */
  declare public readonly credentials: pulumi.Output<NotificationChannelCredentials | undefined>;

  /**
   * Declares a notification channel.
   *
   * A destination for alerts: an email address, a Slack or Microsoft Teams webhook, a phone number for SMS, a PagerDuty service or an https webhook. Attach it to monitors or name it in escalation policy steps.
   *
   * @param name The unique name of the resource.
   * @param args The arguments of the notification channel.
   * @param opts A bag of options that control this resource's behavior.
   */
  constructor(name: string, args: NotificationChannelArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArguments("NotificationChannel", name, args, opts));
  }
}

/**
 * Finds a notification channel managed elsewhere, by id or by exact name (among the objects of one client, or outside any client).
 * The connection comes from the stack configuration (`monitoring:apiUrl`, `monitoring:apiKey`) or MONITORING_API_URL / MONITORING_API_KEY.
 */
export function getNotificationChannel(query: LookupQuery): Promise<GetNotificationChannelResult> {
  return lookupObject<GetNotificationChannelResult>("NotificationChannel", query);
}

/**
 * A notification channel found by {@link getNotificationChannel}: its fields as the service returns them, associations included. Secret fields come as secret Outputs, so that exporting them keeps them encrypted in state.
 */
export interface GetNotificationChannelResult {
  /**
   * The notification channel's id.
   */
  readonly id: string;

  /**
   * Display name.
   *
   * API field: `name`.
   */
  readonly name?: string;

  /**
   * The destination type (`email`, `slack`, `msteams`, `sms`, `pagerduty`, `webhook`); changing it replaces the channel.
   *
   * Changing it replaces the notification channel.
   *
   * API field: `kind`.
   *
   * Assumption (not shown by the spec): the channel kinds are not shown; a kind this package does not know is sent as written, without checks of its settings.
   */
  readonly kind?: "email" | "slack" | "msteams" | "sms" | "pagerduty" | "webhook" | (string & {});

  /**
   * Id (UUID) of the client (agency partition) the channel lives in; changing it replaces the channel.
   *
   * Changing it replaces the notification channel.
   *
   * API field: `client_id`.
   */
  readonly clientId?: string;

  /**
   * Kind-specific settings (address, channel, phone number, URL).
   *
   * API field: `config`.
   *
   * Assumption (not shown by the spec): which settings a kind needs and which keys it takes are not shown (spec 2.6): the keys declared are the ones this package knows, with their rules; another key is sent as written and preview warns about it; a missing setting is the server's to refuse.
   */
  readonly config?: NotificationChannelConfig;

  /**
   * Kind-specific secrets (webhook URL, integration key, headers).
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * Write-only: the service never returns it; the value is kept from state.
   *
   * API field: `credentials`.
   *
   * Assumption (not shown by the spec): the service is assumed not to return them, so read keeps them from state (the importer turns every credential into a placeholder, returned or not); which keys a kind takes is not shown (spec 2.6): the keys declared are the ones this package knows, with their rules; another key is sent as written and preview warns about it.
   */
  readonly credentials?: pulumi.Output<NotificationChannelCredentials>;
}

/**
 * A notification channel config as given to the provider.
 */
export interface NotificationChannelConfigArgs {
  /**
   * `email`: the address notified.
   *
   * API field: `address`.
   */
  address?: pulumi.Input<string>;

  /**
   * `slack`: the channel posted to, e.g. `#alerts`.
   *
   * API field: `channel`.
   */
  channel?: pulumi.Input<string>;

  /**
   * `sms`: the number texted, in E.164 form (`+14155550100`).
   *
   * API field: `phone_number`.
   */
  phoneNumber?: pulumi.Input<string>;

  /**
   * `webhook`: the http(s) URL called.
   *
   * API field: `url`.
   */
  url?: pulumi.Input<string>;
}

/**
 * A notification channel credentials header as given to the provider.
 */
export interface NotificationChannelCredentialsHeaderArgs {
  /**
   * Header name.
   *
   * API field: `name`.
   */
  name: pulumi.Input<string>;

  /**
   * Header value.
   *
   * API field: `value`.
   */
  value: pulumi.Input<string>;
}

/**
 * A notification channel credentials as given to the provider.
 */
export interface NotificationChannelCredentialsArgs {
  /**
   * `slack`, `msteams`: the incoming-webhook URL.
   *
   * API field: `webhook_url`.
   */
  webhookUrl?: pulumi.Input<string>;

  /**
   * `pagerduty`: the Events API integration key.
   *
   * API field: `integration_key`.
   */
  integrationKey?: pulumi.Input<string>;

  /**
   * `webhook`: headers sent with every call, e.g. an authorization token.
   *
   * API field: `headers`.
   */
  headers?: pulumi.Input<pulumi.Input<NotificationChannelCredentialsHeaderArgs>[]>;
}

/**
 * A notification channel config as the provider reports it.
 */
export interface NotificationChannelConfig {
  /**
   * `email`: the address notified.
   *
   * API field: `address`.
   */
  address?: string;

  /**
   * `slack`: the channel posted to, e.g. `#alerts`.
   *
   * API field: `channel`.
   */
  channel?: string;

  /**
   * `sms`: the number texted, in E.164 form (`+14155550100`).
   *
   * API field: `phone_number`.
   */
  phoneNumber?: string;

  /**
   * `webhook`: the http(s) URL called.
   *
   * API field: `url`.
   */
  url?: string;
}

/**
 * A notification channel credentials header as the provider reports it.
 */
export interface NotificationChannelCredentialsHeader {
  /**
   * Header name.
   *
   * API field: `name`.
   */
  name: string;

  /**
   * Header value.
   *
   * API field: `value`.
   */
  value: string;
}

/**
 * A notification channel credentials as the provider reports it.
 */
export interface NotificationChannelCredentials {
  /**
   * `slack`, `msteams`: the incoming-webhook URL.
   *
   * API field: `webhook_url`.
   */
  webhookUrl?: string;

  /**
   * `pagerduty`: the Events API integration key.
   *
   * API field: `integration_key`.
   */
  integrationKey?: string;

  /**
   * `webhook`: headers sent with every call, e.g. an authorization token.
   *
   * API field: `headers`.
   */
  headers?: NotificationChannelCredentialsHeader[];
}
