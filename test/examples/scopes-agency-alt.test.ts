/**
 * Least-privilege keys for a client stack of examples/agency (acme, without the shared template)
 * on the emulator's alt profile, whose region names differ: the client's spec names the alt
 * profile's regions (`regions`, which ClientMonitoring reads from the stack's configuration). The
 * computed key runs up, refresh, drift, verify and destroy, and `scopes --check` names the two
 * scopes a key lacks (test/examples/least-privilege.ts). That each scope is needed, and the full
 * key's check, are scopes-agency.test.ts's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { repoRoot } from "../support/pulumi.js";
import { describeLeastPrivilege } from "./least-privilege.js";

const acme = (parse(readFileSync(join(repoRoot, "examples/agency/Pulumi.acme.yaml"), "utf8")) as { config: Record<string, unknown> }).config["agency:client"] as Record<string, unknown>;

describeLeastPrivilege({
  name: "the agency example (acme, without the shared template) on the alt profile",
  profile: "alt",
  program: "examples/agency",
  stackName: "acme",
  files: ["Pulumi.yaml", "index.ts", "Pulumi.acme.yaml", "shared/Pulumi.yaml", "shared/index.ts"],
  config: {
    "agency:client": { value: JSON.stringify({ ...acme, regions: ["us-east", "eu-west"] }) },
    "agency:chatWebhookUrl": { value: "https://hooks.slack.com/services/T000/B000/acmesecret", secret: true },
  },
  eachScopeNeeded: false,
});
