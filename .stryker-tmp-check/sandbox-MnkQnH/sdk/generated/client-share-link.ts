// @ts-nocheck
// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { resourceArguments } from "../runtime.js";

/**
 * The arguments of the {@link ClientShareLink} resource: A read-only link to a client's status, for the client's own people. Links cannot be changed: any change creates a new link (new token and URL) and deletes the old one.
 */
export interface ClientShareLinkArgs {
  /**
   * Id (UUID) of the client the link shows.
   *
   * Changing it replaces the client share link.
   *
   * API field: `client_id`.
   */
  clientId: pulumi.Input<string>;

  /**
   * Name of the link, to tell links apart.
   *
   * Changing it replaces the client share link.
   *
   * API field: `label`.
   */
  label: pulumi.Input<string>;

  /**
   * When the link stops working (ISO-8601, in the future when created); never when left out.
   *
   * Changing it replaces the client share link.
   *
   * API field: `expires_at`.
   */
  expiresAt?: pulumi.Input<string>;

  /**
   * Id of an existing object to take over instead of creating one: the first deployment reads it and converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is the way to bring objects created elsewhere under management. Ignored after creation.
   *
   * Steers the provider: never sent to the service.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * A read-only link to a client's status, for the client's own people. Links cannot be changed: any change creates a new link (new token and URL) and deletes the old one.
 *
 * Assumption: share links are not shown (spec 1): fields and behaviour are this package's.
 */
export class ClientShareLink extends pulumi.dynamic.Resource {
  /**
   * Id (UUID) of the client the link shows.
   *
   * Changing it replaces the client share link.
   *
   * API field: `client_id`.
   */
  declare public readonly clientId: pulumi.Output<string>;

  /**
   * Name of the link, to tell links apart.
   *
   * Changing it replaces the client share link.
   *
   * API field: `label`.
   */
  declare public readonly label: pulumi.Output<string>;

  /**
   * When the link stops working (ISO-8601, in the future when created); never when left out.
   *
   * Changing it replaces the client share link.
   *
   * API field: `expires_at`.
   */
  declare public readonly expiresAt: pulumi.Output<string | undefined>;

  /**
   * The link's access token. Secret.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * Returned by the service only at creation; the value is kept from state.
   *
   * API field: `token`.
   */
  declare public readonly token: pulumi.Output<string>;

  /**
   * The shareable URL. Secret: it carries the token.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * API field: `url`.
   */
  declare public readonly url: pulumi.Output<string>;

  /**
   * When the link was created (ISO-8601).
   *
   * API field: `created_at`.
   */
  declare public readonly createdAt: pulumi.Output<string>;

  /**
   * Declares a client share link.
   *
   * A read-only link to a client's status, for the client's own people. Links cannot be changed: any change creates a new link (new token and URL) and deletes the old one.
   *
   * @param name The unique name of the resource.
   * @param args The arguments of the client share link.
   * @param opts A bag of options that control this resource's behavior.
   */
  constructor(name: string, args: ClientShareLinkArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArguments("ClientShareLink", name, args, opts));
  }
}
