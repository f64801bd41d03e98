// @ts-nocheck
// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { type LookupQuery, lookupObject } from "../lookups.js";
import { resourceArguments } from "../runtime.js";

/**
 * The arguments of the {@link EscalationPolicy} resource: An alert plan: who is notified when a monitor fails, in which order and after which delays. Monitors reference it with `escalationPolicyId`.
 */
export interface EscalationPolicyArgs {
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
   * Id (UUID) of the client (agency partition) the policy lives in; changing it replaces the policy.
   *
   * Changing it replaces the escalation policy.
   *
   * API field: `client_id`.
   */
  clientId?: pulumi.Input<string>;

  /**
   * How many times the whole sequence repeats while the incident stays unacknowledged.
   *
   * Default: `0` (applied by the service).
   *
   * API field: `repeat_count`.
   */
  repeatCount?: pulumi.Input<number>;

  /**
   * Notification steps, run in this order.
   *
   * API field: `steps`.
   *
   * Assumption (not shown by the spec): the keys of a policy step are not shown (spec 2.6): these are the ones this package knows; others are sent as written, and preview warns about them.
   */
  steps: pulumi.Input<pulumi.Input<EscalationPolicyStepArgs>[]>;

  /**
   * Id of an existing object to take over instead of creating one: the first deployment reads it and converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is the way to bring objects created elsewhere under management. Ignored after creation.
   *
   * Steers the provider: never sent to the service.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * An alert plan: who is notified when a monitor fails, in which order and after which delays. Monitors reference it with `escalationPolicyId`.
 *
 * Assumption: the fields of escalation policies are not shown (spec 2.6): names, urgencies and limits are this package's.
 */
export class EscalationPolicy extends pulumi.dynamic.Resource {
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
   * Id (UUID) of the client (agency partition) the policy lives in; changing it replaces the policy.
   *
   * Changing it replaces the escalation policy.
   *
   * API field: `client_id`.
   */
  declare public readonly clientId: pulumi.Output<string | undefined>;

  /**
   * How many times the whole sequence repeats while the incident stays unacknowledged.
   *
   * Default: `0` (applied by the service).
   *
   * API field: `repeat_count`.
   */
  declare public readonly repeatCount: pulumi.Output<number | undefined>;

  /**
   * Notification steps, run in this order.
   *
   * API field: `steps`.
   *
   * Assumption (not shown by the spec): the keys of a policy step are not shown (spec 2.6): these are the ones this package knows; others are sent as written, and preview warns about them.
   */
  declare public readonly steps: pulumi.Output<EscalationPolicyStep[]>;

  /**
   * Declares an escalation policy.
   *
   * An alert plan: who is notified when a monitor fails, in which order and after which delays. Monitors reference it with `escalationPolicyId`.
   *
   * @param name The unique name of the resource.
   * @param args The arguments of the escalation policy.
   * @param opts A bag of options that control this resource's behavior.
   */
  constructor(name: string, args: EscalationPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArguments("EscalationPolicy", name, args, opts));
  }
}

/**
 * Finds an escalation policy managed elsewhere, by id or by exact name (among the objects of one client, or outside any client).
 * The connection comes from the stack configuration (`monitoring:apiUrl`, `monitoring:apiKey`) or MONITORING_API_URL / MONITORING_API_KEY.
 */
export function getEscalationPolicy(query: LookupQuery): Promise<GetEscalationPolicyResult> {
  return lookupObject<GetEscalationPolicyResult>("EscalationPolicy", query);
}

/**
 * An escalation policy found by {@link getEscalationPolicy}: its fields as the service returns them, associations included. Secret fields come as secret Outputs, so that exporting them keeps them encrypted in state.
 */
export interface GetEscalationPolicyResult {
  /**
   * The escalation policy's id.
   */
  readonly id: string;

  /**
   * Display name.
   *
   * API field: `name`.
   */
  readonly name?: string;

  /**
   * Free text.
   *
   * API field: `description`.
   */
  readonly description?: string;

  /**
   * Id (UUID) of the client (agency partition) the policy lives in; changing it replaces the policy.
   *
   * Changing it replaces the escalation policy.
   *
   * API field: `client_id`.
   */
  readonly clientId?: string;

  /**
   * How many times the whole sequence repeats while the incident stays unacknowledged.
   *
   * Default: `0` (applied by the service).
   *
   * API field: `repeat_count`.
   */
  readonly repeatCount?: number;

  /**
   * Notification steps, run in this order.
   *
   * API field: `steps`.
   *
   * Assumption (not shown by the spec): the keys of a policy step are not shown (spec 2.6): these are the ones this package knows; others are sent as written, and preview warns about them.
   */
  readonly steps?: EscalationPolicyStep[];
}

/**
 * An escalation policy step as given to the provider.
 */
export interface EscalationPolicyStepArgs {
  /**
   * Minutes after the incident opens (or after the previous step) before this step notifies.
   *
   * API field: `delay_minutes`.
   */
  delayMinutes: pulumi.Input<number>;

  /**
   * Channels this step notifies (ids, order does not matter).
   *
   * API field: `notification_channel_ids`.
   */
  notificationChannelIds: pulumi.Input<pulumi.Input<string>[]>;

  /**
   * How loudly the step notifies (`low`, `high`).
   *
   * Default: `"high"` (applied by the provider).
   *
   * API field: `urgency`.
   */
  urgency?: pulumi.Input<"low" | "high" | (string & {})>;
}

/**
 * An escalation policy step as the provider reports it.
 */
export interface EscalationPolicyStep {
  /**
   * Minutes after the incident opens (or after the previous step) before this step notifies.
   *
   * API field: `delay_minutes`.
   */
  delayMinutes: number;

  /**
   * Channels this step notifies (ids, order does not matter).
   *
   * API field: `notification_channel_ids`.
   */
  notificationChannelIds: string[];

  /**
   * How loudly the step notifies (`low`, `high`).
   *
   * Default: `"high"` (applied by the provider).
   *
   * API field: `urgency`.
   */
  urgency: "low" | "high" | (string & {});
}
