/**
 * Least-privilege keys for the demo stack on the emulator's alt profile, whose region names differ
 * (the program's copy names the alt profile's regions): the computed key runs up, refresh, drift,
 * verify and destroy, and `scopes --check` names the two scopes a key lacks
 * (test/examples/least-privilege.ts). That each scope is needed, and the full key's check, are
 * scopes-demo.test.ts's, on the default profile.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describeLeastPrivilege } from "./least-privilege.js";

/** The demo's regions, and the alt profile's names for the same places (emulator/profile.ts). */
const ALT_REGIONS: Record<string, string> = { '"us-east-1"': '"us-east"', '"eu-west-1"': '"eu-west"', '"ap-southeast-1"': '"ap-east"' };

describeLeastPrivilege({
  name: "the demo stack on the alt profile",
  profile: "alt",
  program: ".",
  files: ["Pulumi.yaml", "index.ts"],
  eachScopeNeeded: false,
  async adapt(workDir) {
    const program = join(workDir, "index.ts");
    const text = await readFile(program, "utf8");
    const adapted = Object.entries(ALT_REGIONS).reduce((result, [from, to]) => result.replaceAll(from, to), text);
    if (adapted === text) throw new Error("the demo names none of the regions this test renames: update ALT_REGIONS");
    await writeFile(program, adapted);
  },
});
