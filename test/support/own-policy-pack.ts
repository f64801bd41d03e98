/**
 * An organisation's own policy pack, written with the package's helpers as docs/policy.md shows:
 * typed monitor inputs, the stack's configuration (`consumer:namePrefix`), its name and project.
 * test/e2e/policy.test.ts runs it beside the package's pack on the real CLI; test/sdk/editor.test.ts
 * type-checks it in the same compile as its program, the package's declaration files checked too.
 */
export const OWN_POLICY_PACK = `import * as pulumi from "@pulumi/pulumi";
import { createPolicyPack, monitorPolicy } from "pulumi-monitoring/policy";

const prefix = new pulumi.Config("consumer").require("namePrefix");
createPolicyPack("acme-monitoring", [
  monitorPolicy({
    name: "acme-monitor-names",
    description: "Monitor names start with the team's prefix.",
    check: ({ inputs }) =>
      typeof inputs.name === "string" && inputs.name.startsWith(prefix)
        ? []
        : [\`name does not start with \${prefix} (stack \${pulumi.getStack()} of project \${pulumi.getProject()})\`],
  }),
]);
`;
