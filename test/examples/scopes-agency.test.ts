/**
 * Least-privilege keys for a client stack of examples/agency (acme, without the shared template):
 * the scopes `pulumi-monitoring scopes` computes are enough and each is needed
 * (test/examples/least-privilege.ts).
 */
import { describeLeastPrivilege } from "./least-privilege.js";

describeLeastPrivilege({
  name: "the agency example (acme, without the shared template)",
  profile: "default",
  program: "examples/agency",
  stackName: "acme",
  files: ["Pulumi.yaml", "index.ts", "Pulumi.acme.yaml", "shared/Pulumi.yaml", "shared/index.ts"],
  config: { "agency:chatWebhookUrl": { value: "https://hooks.slack.com/services/T000/B000/acmesecret", secret: true } },
  eachScopeNeeded: true,
});
