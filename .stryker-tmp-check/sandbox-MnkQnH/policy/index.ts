/**
 * `pulumi-monitoring/policy`: the package's CrossGuard rules and the helpers to write an
 * organisation's own on top of them (docs/policy.md).
 *
 *   import { createPolicyPack, monitoringPolicies, monitorPolicy } from "pulumi-monitoring/policy";
 *   createPolicyPack("acme-monitoring", [
 *     ...monitoringPolicies(),
 *     monitorPolicy({ name: "acme-named-monitors", description: "Every monitor has a name.", enforcementLevel: "mandatory",
 *       check: ({ inputs }) => (inputs.name ? [] : ["name is not set"]) }),
 *   ]);
 *
 * The pack itself, `node_modules/pulumi-monitoring/policy`, is `createPolicyPack("pulumi-monitoring", monitoringPolicies())`.
 */
// @ts-nocheck

import type { Policy } from "./define.js";

export * from "./define.js";
export * from "./resources.js";
export { alertRouting, clientScope, minimumInterval, minimumRegions, monitoringPolicies, sslExpiryAlert } from "./rules.js";

/**
 * Starts a policy pack of `policies`: call it once, from the pack's entry module. It needs the
 * `@pulumi/policy` package, installed in the pack's folder or above it.
 */
export function createPolicyPack(name: string, policies: Policy[]): void {
  // Required here, not imported: its type declarations break tsc without skipLibCheck (resources.ts).
  const { PolicyPack } = require("@pulumi/policy") as { PolicyPack: new (name: string, args: { policies: Policy[] }) => unknown };
  new PolicyPack(name, { policies });
}
