/**
 * Least-privilege keys for the demo stack (Pulumi.yaml and index.ts at the root): the scopes
 * `pulumi-monitoring scopes` computes are enough and each is needed (test/examples/least-privilege.ts).
 */
import { describeLeastPrivilege } from "./least-privilege.js";

describeLeastPrivilege({ name: "the demo stack", profile: "default", program: ".", files: ["Pulumi.yaml", "index.ts"], eachScopeNeeded: true });
