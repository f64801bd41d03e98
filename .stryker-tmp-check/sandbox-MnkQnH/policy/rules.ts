/**
 * The package's rules: what a platform team asks of every team's monitors. Each is named, states
 * its threshold in every message, and is tuned through `--policy-pack-config` (docs/policy.md).
 * Messages carry field names and numbers only, never a field's text: policies see secrets in clear.
 */
// @ts-nocheck

import { factsOf } from "../schema/index.js";
import { monitor as monitorDefinition } from "../schema/resources/monitor.js";
import { type Policy, monitorPolicy, stackPolicy } from "./define.js";
import { CLIENT_SCOPED_KINDS, type PolicyResource, UNKNOWN, isSet, kindOf, labelOf, monitorsOf, read } from "./resources.js";

/** The interval the service applies to a monitor that sets none. */
const DEFAULT_INTERVAL_SECONDS = factsOf(monitorDefinition.inputs.shape.intervalSeconds)?.default as number;

/** Monitors route their incidents somewhere: a notification channel or an escalation policy. */
export const alertRouting = monitorPolicy({
  name: "monitoring-alert-routing",
  description:
    "Every monitor routes its alerts: at least one notificationChannelIds entry or an escalationPolicyId. " +
    "An id of a channel or policy created in the same update counts.",
  enforcementLevel: "mandatory",
  check: ({ inputs }) =>
    isSet(inputs, "notificationChannelIds") || isSet(inputs, "escalationPolicyId")
      ? []
      : ["routes its alerts nowhere: set notificationChannelIds (at least 1 channel) or escalationPolicyId"],
});

/** Checks no more often than the team's budget allows. */
export const minimumInterval = monitorPolicy<{ minIntervalSeconds: number }>({
  name: "monitoring-min-interval",
  description: "Every monitor checks at most once per minIntervalSeconds (intervalSeconds, or the service's default when left out).",
  config: { minIntervalSeconds: { type: "integer", default: 60, minimum: 10, description: "The shortest interval allowed, in seconds." } },
  check: ({ inputs }, { minIntervalSeconds }) => {
    const interval = read(inputs, "intervalSeconds");
    if (interval === UNKNOWN) return [];
    if (interval === undefined || interval === null) {
      return DEFAULT_INTERVAL_SECONDS >= minIntervalSeconds
        ? []
        : [`intervalSeconds is not set and the service's default of ${DEFAULT_INTERVAL_SECONDS} s is below the minimum of ${minIntervalSeconds} s (minIntervalSeconds)`];
    }
    return Number(interval) >= minIntervalSeconds ? [] : [`intervalSeconds is ${Number(interval)}, below the minimum of ${minIntervalSeconds} s (minIntervalSeconds)`];
  },
});

/** Checks from several places, so that one region's outage neither hides nor fakes an incident. */
export const minimumRegions = monitorPolicy<{ minRegions: number }>({
  name: "monitoring-min-regions",
  description: "Every monitor names at least minRegions regions (the service's default regions are not shown, so leaving regions out does not count).",
  config: { minRegions: { type: "integer", default: 2, minimum: 1, description: "The fewest regions allowed." } },
  check: ({ inputs }, { minRegions }) => {
    const regions = read(inputs, "regions");
    if (regions === UNKNOWN) return [];
    if (!Array.isArray(regions)) return [`regions is not set: name at least ${minRegions} regions (minRegions)`];
    return regions.length >= minRegions ? [] : [`regions names ${regions.length}, below the minimum of ${minRegions} (minRegions)`];
  },
});

/** An expiring certificate is announced before it breaks the site. */
export const sslExpiryAlert = monitorPolicy<{ minDays: number }>({
  name: "monitoring-ssl-expiry-alert",
  description: "Every http monitor of an https URL warns of certificate expiry at least minDays days ahead (sslExpiryAlertDays).",
  config: { minDays: { type: "integer", default: 14, minimum: 1, description: "The fewest days of warning allowed." } },
  check: ({ inputs }, { minDays }) => {
    const type = read(inputs, "monitorType");
    const url = read(inputs, "url");
    if ((type !== undefined && type !== null && type !== "http") || typeof url !== "string" || !/^https:\/\//i.test(url)) return [];
    const days = read(inputs, "sslExpiryAlertDays");
    if (days === UNKNOWN) return [];
    if (days === undefined || days === null) return [`sslExpiryAlertDays is not set on an https monitor: set it to at least ${minDays} days (minDays)`];
    return Number(days) >= minDays ? [] : [`sslExpiryAlertDays is ${Number(days)}, below the minimum of ${minDays} days (minDays)`];
  },
});

/** One object of a stack that may live in a client. */
interface ScopedObject {
  label: string;
  urn: string;
  inClient: boolean;
}

/** In an agency, a client's stack keeps every object inside that client. */
export const clientScope = stackPolicy({
  name: "monitoring-client-scope",
  description:
    "In a stack where any object carries a clientId, every object that can carry one does (each MonitorSet entry, " +
    "directly or through the set's clientId), so that nothing of a client's stack lands outside the client.",
  enforcementLevel: "mandatory",
  check: (resources) => {
    const objects = resources.flatMap(scopedObjectsOf);
    const inClient = objects.filter((object) => object.inClient);
    if (inClient.length === 0) return [];
    const example = inClient[0]!.label;
    return objects
      .filter((object) => !object.inClient)
      .map(({ label, urn }) => ({
        urn,
        message: `${label}: clientId is not set, while ${inClient.length} object(s) of this stack carry a client (${example} does): every object of a client stack lives in a client`,
      }));
  },
});

function scopedObjectsOf(resource: PolicyResource): ScopedObject[] {
  const kind = kindOf(resource);
  if (kind === undefined || !CLIENT_SCOPED_KINDS.includes(kind)) return [];
  if (kind === "MonitorSet") {
    return monitorsOf(resource).map((monitor) => ({ label: monitor.label, urn: resource.urn, inClient: isSet(monitor.inputs, "clientId") }));
  }
  return [{ label: labelOf(resource), urn: resource.urn, inClient: isSet(resource.props, "clientId") }];
}

/** The package's policies, in the order the docs list them. */
export function monitoringPolicies(): Policy[] {
  return [alertRouting, minimumInterval, minimumRegions, sslExpiryAlert, clientScope];
}
