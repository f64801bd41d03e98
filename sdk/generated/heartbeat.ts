// Generated from the resource definitions by `npm run build && npm run generate` (scripts/sdk-source.ts). Do not edit.
import * as pulumi from "@pulumi/pulumi";
import { resourceArguments } from "../runtime.js";

/**
 * The arguments of the {@link Heartbeat} resource: A check-in monitor for scheduled jobs: the job calls `pingUrl` on every run, and silence longer than the expected interval plus the grace period opens an incident.
 */
export interface HeartbeatArgs {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  name?: pulumi.Input<string>;

  /**
   * How often the job checks in, in seconds. A client's template may apply another default.
   *
   * Default: `3600` (applied by the service).
   *
   * API field: `expected_interval_seconds`.
   *
   * Assumption (not shown by the spec): the default and the smallest interval the service accepts are not shown.
   */
  expectedIntervalSeconds?: pulumi.Input<number>;

  /**
   * Slack in seconds added to the interval before silence opens an incident. A client's template may apply another default.
   *
   * Default: `300` (applied by the service).
   *
   * API field: `grace_period_seconds`.
   *
   * Assumption (not shown by the spec): the default is not shown.
   */
  gracePeriodSeconds?: pulumi.Input<number>;

  /**
   * Id (UUID) of the heartbeat group (folder) the heartbeat is filed in.
   *
   * API field: `heartbeat_group_id`.
   *
   * Assumption (not shown by the spec): PATCH accepts it like create does, and null takes the heartbeat out of its group.
   */
  heartbeatGroupId?: pulumi.Input<string>;

  /**
   * Id (UUID) of the client (agency partition) the heartbeat lives in; changing it replaces the heartbeat.
   *
   * Changing it replaces the heartbeat.
   *
   * API field: `client_id`.
   *
   * Assumption (not shown by the spec): a heartbeat cannot move between clients.
   */
  clientId?: pulumi.Input<string>;

  /**
   * Pause (`true`) or resume (`false`) alerting. Left out, the pause state is not managed unless `pauses` is declared.
   *
   * API field: `paused`.
   *
   * Assumption (not shown by the spec): the heartbeat object reports it as `paused`.
   */
  paused?: pulumi.Input<boolean>;

  /**
   * Windows during which the heartbeat is paused, each `{ from, to, reason }` with ISO 8601 instants with an offset. A deploy inside a window pauses it, the first deploy after the window resumes it; a window that has ended changes nothing, even left in the program. Declaring it makes the provider manage the pause state: outside windows, `paused` as declared, else resumed. See docs/overrides-and-maintenance.md.
   *
   * Steers the provider: never sent to the service.
   */
  pauses?: pulumi.Input<pulumi.Input<HeartbeatPauseArgs>[]>;

  /**
   * Id of an existing object to take over instead of creating one: the first deployment reads it and converges it to the declared inputs. Pulumi's `import` does not work for dynamic resources, so this is the way to bring objects created elsewhere under management. Ignored after creation.
   *
   * Steers the provider: never sent to the service.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * A check-in monitor for scheduled jobs: the job calls `pingUrl` on every run, and silence longer than the expected interval plus the grace period opens an incident.
 *
 * Assumption: response fields are not shown: the object is assumed to echo the request fields under their request names.
 */
export class Heartbeat extends pulumi.dynamic.Resource {
  /**
   * Display name.
   *
   * API field: `name`.
   */
  declare public readonly name: pulumi.Output<string | undefined>;

  /**
   * How often the job checks in, in seconds. A client's template may apply another default.
   *
   * Default: `3600` (applied by the service).
   *
   * API field: `expected_interval_seconds`.
   *
   * Assumption (not shown by the spec): the default and the smallest interval the service accepts are not shown.
   */
  declare public readonly expectedIntervalSeconds: pulumi.Output<number | undefined>;

  /**
   * Slack in seconds added to the interval before silence opens an incident. A client's template may apply another default.
   *
   * Default: `300` (applied by the service).
   *
   * API field: `grace_period_seconds`.
   *
   * Assumption (not shown by the spec): the default is not shown.
   */
  declare public readonly gracePeriodSeconds: pulumi.Output<number | undefined>;

  /**
   * Id (UUID) of the heartbeat group (folder) the heartbeat is filed in.
   *
   * API field: `heartbeat_group_id`.
   *
   * Assumption (not shown by the spec): PATCH accepts it like create does, and null takes the heartbeat out of its group.
   */
  declare public readonly heartbeatGroupId: pulumi.Output<string | undefined>;

  /**
   * Id (UUID) of the client (agency partition) the heartbeat lives in; changing it replaces the heartbeat.
   *
   * Changing it replaces the heartbeat.
   *
   * API field: `client_id`.
   *
   * Assumption (not shown by the spec): a heartbeat cannot move between clients.
   */
  declare public readonly clientId: pulumi.Output<string | undefined>;

  /**
   * Pause (`true`) or resume (`false`) alerting. Left out, the pause state is not managed unless `pauses` is declared.
   *
   * API field: `paused`.
   *
   * Assumption (not shown by the spec): the heartbeat object reports it as `paused`.
   */
  declare public readonly paused: pulumi.Output<boolean | undefined>;

  /**
   * Windows during which the heartbeat is paused, each `{ from, to, reason }` with ISO 8601 instants with an offset. A deploy inside a window pauses it, the first deploy after the window resumes it; a window that has ended changes nothing, even left in the program. Declaring it makes the provider manage the pause state: outside windows, `paused` as declared, else resumed. See docs/overrides-and-maintenance.md.
   *
   * Steers the provider: never sent to the service.
   */
  declare public readonly pauses: pulumi.Output<HeartbeatPause[] | undefined>;

  /**
   * `NEW` until the first ping, then `UP`, `LATE` or `DOWN`; `PAUSED` while paused.
   *
   * API field: `status`.
   *
   * Assumption (not shown by the spec): the states of heartbeats are not shown.
   */
  declare public readonly status: pulumi.Output<"NEW" | "UP" | "LATE" | "DOWN" | "PAUSED" | (string & {})>;

  /**
   * The URL the job calls (GET or POST) on every run. Secret: anyone holding it can check in for the job.
   *
   * Secret: kept encrypted in state and never shown in messages.
   *
   * API field: `ping_url` (also read as `check_in_url`).
   *
   * Assumption (not shown by the spec): the field's name is not shown; servers are known to call it `ping_url` or `check_in_url`.
   */
  declare public readonly pingUrl: pulumi.Output<string>;

  /**
   * Declares a heartbeat.
   *
   * A check-in monitor for scheduled jobs: the job calls `pingUrl` on every run, and silence longer than the expected interval plus the grace period opens an incident.
   *
   * @param name The unique name of the resource.
   * @param args The arguments of the heartbeat.
   * @param opts A bag of options that control this resource's behavior.
   */
  constructor(name: string, args: HeartbeatArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArguments("Heartbeat", name, args, opts));
  }
}

/**
 * A heartbeat pause as given to the provider.
 */
export interface HeartbeatPauseArgs {
  /**
   * When the window starts (ISO 8601 with an offset, e.g. `2030-11-28T22:00:00Z`): the first deploy from then on pauses the object.
   *
   * API field: `from`.
   */
  from: pulumi.Input<string>;

  /**
   * When the window ends, after `from`: the first deploy from then on resumes the object.
   *
   * API field: `to`.
   */
  to: pulumi.Input<string>;

  /**
   * Why, shown by preview and up (`Black Friday freeze`).
   *
   * API field: `reason`.
   */
  reason: pulumi.Input<string>;
}

/**
 * A heartbeat pause as the provider reports it.
 */
export interface HeartbeatPause {
  /**
   * When the window starts (ISO 8601 with an offset, e.g. `2030-11-28T22:00:00Z`): the first deploy from then on pauses the object.
   *
   * API field: `from`.
   */
  from: string;

  /**
   * When the window ends, after `from`: the first deploy from then on resumes the object.
   *
   * API field: `to`.
   */
  to: string;

  /**
   * Why, shown by preview and up (`Black Friday freeze`).
   *
   * API field: `reason`.
   */
  reason: string;
}
