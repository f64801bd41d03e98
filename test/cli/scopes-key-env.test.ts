/**
 * `scopes --check --key-env NAME` (and `fleet scopes --check --key-env`): before a rotation, the
 * new key of each stack is proven from the environment, while the stack's configuration still
 * holds the old one (issue 57). The key is never on the command line; messages name the variable.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proveKeyHolds } from "../../cli/scopes/check.js";
import type { ProviderSettings } from "../../provider/config.js";
import { keyVariableOf, withKeyFromEnvironment } from "../../cli/scopes/stack.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";

const configured: ProviderSettings = {
  apiUrl: "https://api.example.com/v1",
  apiKey: "pls_test_old_key_of_acme_0001",
  sources: { apiUrl: "monitoring:apiUrl of stack acme", apiKey: "monitoring:apiKey of stack acme" },
  maxRetries: 2,
};

describe("the variable --key-env names for a stack", () => {
  it.each([
    ["NEW_MONITORING_KEY", "acme", "NEW_MONITORING_KEY"],
    ["NEW_KEY_{stack}", "acme", "NEW_KEY_ACME"],
    ["NEW_KEY_{stack}", "organization/agency/acme-corp.eu", "NEW_KEY_ACME_CORP_EU"],
  ])("%s for stack %s is %s", (template, stack, variable) => {
    expect(keyVariableOf(template, stack)).toBe(variable);
  });
});

describe("the settings a check proves with --key-env", () => {
  it("are the configured ones with the variable's key in place of the configured key, named by the variable", () => {
    const settings = withKeyFromEnvironment(configured, "NEW_KEY_{stack}", "acme", { NEW_KEY_ACME: "pls_test_new_key_of_acme_0002" });
    expect(settings).toEqual({ ...configured, apiKey: "pls_test_new_key_of_acme_0002", sources: { apiUrl: "monitoring:apiUrl of stack acme", apiKey: "NEW_KEY_ACME" } });
  });

  it("are refused when the variable is not set, naming it and the stack", () => {
    expect(() => withKeyFromEnvironment(configured, "NEW_KEY_{stack}", "acme", { NEW_KEY_ACME: " " })).toThrow("--key-env: NEW_KEY_ACME is not set: export the new key of stack acme in it");
  });
});

describe("a new key proven with --key-env", () => {
  let emulator: TestEmulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(() => emulator.stop());

  it("is the one the check sends, so a new key lacking a scope is found while the configured one holds every scope", async () => {
    const lacking = await emulator.admin.createKey(["monitor.delete", "notification_channel.write"], "new, lacking");
    const settings = withKeyFromEnvironment({ ...configured, apiUrl: emulator.baseUrl, apiKey: emulator.apiKey }, "NEW_KEY_{stack}", "acme", { NEW_KEY_ACME: lacking.key });
    const proofs = await proveKeyHolds(settings, ["monitor.delete", "monitor.write", "notification_channel.write"]);
    expect(proofs.map((proof) => [proof.scope, proof.verdict])).toEqual([
      ["monitor.delete", "held"],
      ["monitor.write", "missing"],
      ["notification_channel.write", "held"],
    ]);
    expect(new Set((await emulator.admin.requestLog()).map((entry) => entry.key_prefix))).toEqual(new Set([`${lacking.key.slice(0, 13)}…`]));
  });
});
