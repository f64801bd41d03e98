// @ts-nocheck
// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { resourceArguments } from "../runtime.js";

/**
 * The arguments of the {@link ClientTemplate} resource: Defaults for clients created from it: monitors and heartbeats created inside such a client get the template's values for the fields their own inputs leave out.
 */
export interface ClientTemplateArgs {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  name: pulumi.Input<string>;

  /**
   * Free text.
   *
   * API field: `description`.
   */
  description?: pulumi.Input<string>;

  /**
   * Defaults for monitors created inside clients made from this template.
   *
   * API field: `monitor_defaults`.
   *
   * Assumption (not shown by the spec): the keys of template defaults are not shown: these are the ones this package knows; others are sent as written, and preview warns about them.
   */
  monitorDefaults?: pulumi.Input<ClientTemplateMonitorDefaultsArgs>;

  /**
   * Defaults for heartbeats created inside clients made from this template.
   *
   * API field: `heartbeat_defaults`.
   *
   * Assumption (not shown by the spec): the keys of template defaults are not shown: these are the ones this package knows; others are sent as written, and preview warns about them.
   */
  heartbeatDefaults?: pulumi.Input<ClientTemplateHeartbeatDefaultsArgs>;

  /**
   * Id of an existing object to take over instead of creating one: the first deployment reads it and converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is the way to bring objects created elsewhere under management. Ignored after creation.
   *
   * Steers the provider: never sent to the service.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * Defaults for clients created from it: monitors and heartbeats created inside such a client get the template's values for the fields their own inputs leave out.
 *
 * Assumption: the fields of client templates are not shown (spec 1, 2.6): names, rules and how defaults apply are this package's.
 */
export class ClientTemplate extends pulumi.dynamic.Resource {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  declare public readonly name: pulumi.Output<string>;

  /**
   * Free text.
   *
   * API field: `description`.
   */
  declare public readonly description: pulumi.Output<string | undefined>;

  /**
   * Defaults for monitors created inside clients made from this template.
   *
   * API field: `monitor_defaults`.
   *
   * Assumption (not shown by the spec): the keys of template defaults are not shown: these are the ones this package knows; others are sent as written, and preview warns about them.
   */
  declare public readonly monitorDefaults: pulumi.Output<ClientTemplateMonitorDefaults | undefined>;

  /**
   * Defaults for heartbeats created inside clients made from this template.
   *
   * API field: `heartbeat_defaults`.
   *
   * Assumption (not shown by the spec): the keys of template defaults are not shown: these are the ones this package knows; others are sent as written, and preview warns about them.
   */
  declare public readonly heartbeatDefaults: pulumi.Output<ClientTemplateHeartbeatDefaults | undefined>;

  /**
   * Declares a client template.
   *
   * Defaults for clients created from it: monitors and heartbeats created inside such a client get the template's values for the fields their own inputs leave out.
   *
   * @param name The unique name of the resource.
   * @param args The arguments of the client template.
   * @param opts A bag of options that control this resource's behavior.
   */
  constructor(name: string, args: ClientTemplateArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArguments("ClientTemplate", name, args, opts));
  }
}

/**
 * A client template monitor defaults as given to the provider.
 */
export interface ClientTemplateMonitorDefaultsArgs {
  /**
   * Seconds between checks, at least 10.
   *
   * API field: `interval_seconds`.
   */
  intervalSeconds?: pulumi.Input<number>;

  /**
   * Regions checks run from.
   *
   * API field: `regions`.
   */
  regions?: pulumi.Input<pulumi.Input<"us-east-1" | "us-west-2" | "ca-central-1" | "sa-east-1" | "eu-west-1" | "eu-central-1" | "eu-north-1" | "ap-south-1" | "ap-southeast-1" | "ap-southeast-2" | "ap-northeast-1" | (string & {})>[]>;

  /**
   * Seconds a failure must last before a monitor turns DOWN.
   *
   * API field: `confirmation_period`.
   */
  confirmationPeriod?: pulumi.Input<number>;

  /**
   * Seconds a recovery must last before a monitor turns UP again.
   *
   * API field: `recovery_period`.
   */
  recoveryPeriod?: pulumi.Input<number>;

  /**
   * Whether http monitors follow redirects.
   *
   * API field: `follow_redirects`.
   */
  followRedirects?: pulumi.Input<boolean>;

  /**
   * Days before certificate expiry to warn.
   *
   * API field: `ssl_expiry_alert_days`.
   */
  sslExpiryAlertDays?: pulumi.Input<number>;
}

/**
 * A client template heartbeat defaults as given to the provider.
 */
export interface ClientTemplateHeartbeatDefaultsArgs {
  /**
   * How often jobs check in, in seconds.
   *
   * API field: `expected_interval_seconds`.
   */
  expectedIntervalSeconds?: pulumi.Input<number>;

  /**
   * Slack in seconds before silence alerts.
   *
   * API field: `grace_period_seconds`.
   */
  gracePeriodSeconds?: pulumi.Input<number>;
}

/**
 * A client template monitor defaults as the provider reports it.
 */
export interface ClientTemplateMonitorDefaults {
  /**
   * Seconds between checks, at least 10.
   *
   * API field: `interval_seconds`.
   */
  intervalSeconds?: number;

  /**
   * Regions checks run from.
   *
   * API field: `regions`.
   */
  regions?: ("us-east-1" | "us-west-2" | "ca-central-1" | "sa-east-1" | "eu-west-1" | "eu-central-1" | "eu-north-1" | "ap-south-1" | "ap-southeast-1" | "ap-southeast-2" | "ap-northeast-1" | (string & {}))[];

  /**
   * Seconds a failure must last before a monitor turns DOWN.
   *
   * API field: `confirmation_period`.
   */
  confirmationPeriod?: number;

  /**
   * Seconds a recovery must last before a monitor turns UP again.
   *
   * API field: `recovery_period`.
   */
  recoveryPeriod?: number;

  /**
   * Whether http monitors follow redirects.
   *
   * API field: `follow_redirects`.
   */
  followRedirects?: boolean;

  /**
   * Days before certificate expiry to warn.
   *
   * API field: `ssl_expiry_alert_days`.
   */
  sslExpiryAlertDays?: number;
}

/**
 * A client template heartbeat defaults as the provider reports it.
 */
export interface ClientTemplateHeartbeatDefaults {
  /**
   * How often jobs check in, in seconds.
   *
   * API field: `expected_interval_seconds`.
   */
  expectedIntervalSeconds?: number;

  /**
   * Slack in seconds before silence alerts.
   *
   * API field: `grace_period_seconds`.
   */
  gracePeriodSeconds?: number;
}
