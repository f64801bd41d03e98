/**
 * The entry of the policy pack shipped with the package (policy/package.json points here), run as
 * `pulumi preview --policy-pack node_modules/pulumi-monitoring/policy`.
 */
// @ts-nocheck

import { createPolicyPack, monitoringPolicies } from "./index.js";

createPolicyPack("pulumi-monitoring", monitoringPolicies());
