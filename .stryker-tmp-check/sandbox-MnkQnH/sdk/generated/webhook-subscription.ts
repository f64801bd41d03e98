// @ts-nocheck
// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { resourceArguments } from "../runtime.js";

/**
 * The arguments of the {@link WebhookSubscription} resource: Signed outbound webhooks (beta): the service POSTs the chosen events to `url`, signed with `signingSecret`. The service reveals the signing secret only when the subscription is created; it is kept in state from then on.
 */
export interface WebhookSubscriptionArgs {
  /**
   * The http(s) URL events are delivered to.
   *
   * API field: `url`.
   */
  url: pulumi.Input<string>;

  /**
   * Event kinds delivered (order does not matter), or `["*"]` for all.
   *
   * API field: `events`.
   */
  events: pulumi.Input<pulumi.Input<string>[]>;

  /**
   * Free text.
   *
   * API field: `description`.
   */
  description?: pulumi.Input<string>;

  /**
   * Whether deliveries are made.
   *
   * Default: `true` (applied by the service).
   *
   * API field: `enabled`.
   */
  enabled?: pulumi.Input<boolean>;

  /**
   * Id (UUID) of the client (agency partition) the subscription lives in; changing it replaces the subscription.
   *
   * Changing it replaces the webhook subscription.
   *
   * API field: `client_id`.
   */
  clientId?: pulumi.Input<string>;

  /**
   * Id of an existing object to take over instead of creating one: the first deployment reads it and converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is the way to bring objects created elsewhere under management. Ignored after creation.
   *
   * Steers the provider: never sent to the service.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * Signed outbound webhooks (beta): the service POSTs the chosen events to `url`, signed with `signingSecret`. The service reveals the signing secret only when the subscription is created; it is kept in state from then on.
 *
 * Assumption: the fields of webhook subscriptions and the event kinds are not shown (spec 2.6, 6): names and rules are this package's.
 */
export class WebhookSubscription extends pulumi.dynamic.Resource {
  /**
   * The http(s) URL events are delivered to.
   *
   * API field: `url`.
   */
  declare public readonly url: pulumi.Output<string>;

  /**
   * Event kinds delivered (order does not matter), or `["*"]` for all.
   *
   * API field: `events`.
   */
  declare public readonly events: pulumi.Output<string[]>;

  /**
   * Free text.
   *
   * API field: `description`.
   */
  declare public readonly description: pulumi.Output<string | undefined>;

  /**
   * Whether deliveries are made.
   *
   * Default: `true` (applied by the service).
   *
   * API field: `enabled`.
   */
  declare public readonly enabled: pulumi.Output<boolean | undefined>;

  /**
   * Id (UUID) of the client (agency partition) the subscription lives in; changing it replaces the subscription.
   *
   * Changing it replaces the webhook subscription.
   *
   * API field: `client_id`.
   */
  declare public readonly clientId: pulumi.Output<string | undefined>;

  /**
   * Secret the service signs deliveries with (`whsec_...`). Returned by the service only at creation.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * Returned by the service only at creation; the value is kept from state.
   *
   * API field: `signing_secret` (also read as `secret`).
   *
   * Assumption (not shown by the spec): the field's name is not shown; servers are known to call it `signing_secret` or `secret`.
   */
  declare public readonly signingSecret: pulumi.Output<string>;

  /**
   * Last four characters of the signing secret, to tell secrets apart.
   *
   * API field: `signing_secret_last4` (also read as `secret_last4`).
   */
  declare public readonly signingSecretLast4: pulumi.Output<string>;

  /**
   * Declares a webhook subscription.
   *
   * Signed outbound webhooks (beta): the service POSTs the chosen events to `url`, signed with `signingSecret`. The service reveals the signing secret only when the subscription is created; it is kept in state from then on.
   *
   * @param name The unique name of the resource.
   * @param args The arguments of the webhook subscription.
   * @param opts A bag of options that control this resource's behavior.
   */
  constructor(name: string, args: WebhookSubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArguments("WebhookSubscription", name, args, opts));
  }
}
