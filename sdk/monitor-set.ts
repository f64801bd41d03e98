/**
 * `MonitorSet`: many monitors as one resource (provider/monitor-set.ts). Choose it over one
 * `Monitor` per check when a stack holds hundreds or thousands of monitors: one engine step and
 * one state entry for the whole fleet, batch creates, and a refresh that reads the list page by page.
 *
 *   new mon.MonitorSet("fleet", {
 *     monitors: { storefront: { url: "https://shop.example.com" }, checkout: { url: "https://shop.example.com/checkout", intervalSeconds: 30 } },
 *   });
 */
import * as pulumi from "@pulumi/pulumi";
import { serializableProvider } from "../provider/dynamic.js";
import { internal } from "../provider/fields.js";
import { MONITOR_SET_KIND } from "../provider/monitor-set.js";
import { monitor } from "../schema/resources/monitor.js";
import type { Monitor, MonitorArgs } from "./generated/monitor.js";
import { TYPE_MODULE, typeTokenOf } from "../schema/type-token.js";
import { urnOf } from "./runtime.js";

/** One monitor of a set: a `Monitor`'s inputs. */
export type MonitorSetMonitorArgs = MonitorArgs;

export interface MonitorSetArgs {
  /** The monitors by key. The key names a monitor in the set for good: renaming a key replaces that monitor. */
  monitors: pulumi.Input<Record<string, pulumi.Input<MonitorSetMonitorArgs>>>;
  /** The client every monitor lives in, unless a monitor names its own. */
  clientId?: pulumi.Input<string>;
}

/** A monitor's fields as the service reports them: the values behind a `Monitor`'s outputs. */
type MonitorOutputs = { [K in Exclude<keyof Monitor, keyof pulumi.dynamic.Resource>]: Monitor[K] extends pulumi.Output<infer T> ? T : never };

export class MonitorSet extends pulumi.dynamic.Resource {
  /** Each monitor's id, by key. */
  declare readonly ids: pulumi.Output<Record<string, string>>;
  /** Each monitor's status (`PENDING`, `UP`, `DOWN`, `PAUSED`), by key. */
  declare readonly statuses: pulumi.Output<Record<string, string>>;
  /** Each monitor's fields as the service reports them, by key. */
  declare readonly monitors: pulumi.Output<Record<string, Omit<MonitorOutputs, "status">>>;
  declare readonly clientId: pulumi.Output<string | undefined>;

  constructor(name: string, args: MonitorSetArgs, opts: pulumi.CustomResourceOptions = {}) {
    const { monitors, secret } = withSecretsMarked(args.monitors);
    const props: pulumi.Inputs = {
      monitors,
      clientId: args.clientId,
      ids: undefined,
      statuses: undefined,
      [internal.urn]: urnOf(name, typeTokenOf(MONITOR_SET_KIND), opts.parent),
    };
    // The recorded monitors hold the secret fields too: the whole map is encrypted when any may.
    const additionalSecretOutputs = [...(opts.additionalSecretOutputs ?? []), ...(secret ? ["monitors"] : [])];
    super(serializableProvider(), name, props, { ...opts, additionalSecretOutputs }, TYPE_MODULE, MONITOR_SET_KIND);
  }
}

/**
 * Wraps the secret fields of each monitor (request headers, basic auth password) as secrets, so
 * the inputs recorded in state are encrypted. Monitors given as one Output cannot be looked
 * into: they may hold secrets.
 */
function withSecretsMarked(monitors: MonitorSetArgs["monitors"]): { monitors: MonitorSetArgs["monitors"]; secret: boolean } {
  if (pulumi.Output.isInstance(monitors) || monitors instanceof Promise) return { monitors, secret: true };
  let secret = false;
  const marked = Object.fromEntries(
    Object.entries(monitors as Record<string, pulumi.Input<MonitorSetMonitorArgs>>).map(([key, inputs]) => {
      if (pulumi.Output.isInstance(inputs) || inputs instanceof Promise) {
        secret = true;
        return [key, inputs];
      }
      const fields = { ...(inputs as unknown as Record<string, unknown>) };
      for (const field of monitor.secrets) {
        if (fields[field] === undefined) continue;
        fields[field] = pulumi.secret(fields[field]);
        secret = true;
      }
      return [key, fields];
    }),
  );
  return { monitors: marked, secret };
}
