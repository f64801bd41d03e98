// @ts-nocheck
// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { resourceArguments } from "../runtime.js";

/**
 * The arguments of the {@link HeartbeatGroup} resource: A folder for heartbeats. A group that still holds heartbeats cannot be deleted: move or delete them first (Pulumi does this on its own when the heartbeats reference the group's id).
 */
export interface HeartbeatGroupArgs {
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
   * Id (UUID) of the client (agency partition) the group lives in; changing it replaces the group.
   *
   * Changing it replaces the heartbeat group.
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
 * A folder for heartbeats. A group that still holds heartbeats cannot be deleted: move or delete them first (Pulumi does this on its own when the heartbeats reference the group's id).
 *
 * Assumption: the fields of heartbeat groups are not shown (spec 2.6): names and rules are this package's.
 */
export class HeartbeatGroup extends pulumi.dynamic.Resource {
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
   * Id (UUID) of the client (agency partition) the group lives in; changing it replaces the group.
   *
   * Changing it replaces the heartbeat group.
   *
   * API field: `client_id`.
   */
  declare public readonly clientId: pulumi.Output<string | undefined>;

  /**
   * Declares a heartbeat group.
   *
   * A folder for heartbeats. A group that still holds heartbeats cannot be deleted: move or delete them first (Pulumi does this on its own when the heartbeats reference the group's id).
   *
   * @param name The unique name of the resource.
   * @param args The arguments of the heartbeat group.
   * @param opts A bag of options that control this resource's behavior.
   */
  constructor(name: string, args: HeartbeatGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArguments("HeartbeatGroup", name, args, opts));
  }
}
