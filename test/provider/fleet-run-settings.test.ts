/**
 * What a fleet run hands the runs of its stacks (provider/fleet-run-settings.ts): one settings
 * object, carried to the CLI's child processes as one environment variable of JSON and read back
 * alike, or given directly to a program run in the fleet's process. That the budget reaches the
 * providers this way, in a process per stack and in the fleet's: test/cli/fleet-rate.test.ts,
 * test/cli/fleet-in-process.test.ts.
 */
import { describe, expect, it } from "vitest";
import { FLEET_RUN_SETTINGS_ENV, fleetRunEnvironment, fleetRunSettings, fleetRunSettingsFrom, withFleetRunSettings } from "../../provider/fleet-run-settings.js";

describe("a fleet run's settings", () => {
  it("reach a child run as one environment variable and are read back as they were", () => {
    const env = fleetRunEnvironment({ budget: "/tmp/fleet-budget-x/socket" });
    expect(Object.keys(env)).toEqual([FLEET_RUN_SETTINGS_ENV]);
    expect(fleetRunSettingsFrom(env)).toEqual({ budget: "/tmp/fleet-budget-x/socket" });
  });

  it("are none outside a fleet run", () => {
    expect(fleetRunSettingsFrom({})).toEqual({});
    expect(fleetRunSettingsFrom({ [FLEET_RUN_SETTINGS_ENV]: " " })).toEqual({});
    expect(fleetRunSettingsFrom(fleetRunEnvironment({}))).toEqual({});
  });

  it.each([
    ["text that is not JSON", "not json", /^PULUMI_MONITORING_FLEET_RUN must hold the fleet's run settings as JSON: /],
    ["a setting this version does not know", JSON.stringify({ budget: "/s", accounts: "/a" }), /^PULUMI_MONITORING_FLEET_RUN holds run settings this version cannot read: .*accounts/],
    ["a budget that is no address", JSON.stringify({ budget: 3 }), /^PULUMI_MONITORING_FLEET_RUN holds run settings this version cannot read: .*budget/],
    ["an empty budget address", JSON.stringify({ budget: " " }), /^PULUMI_MONITORING_FLEET_RUN holds run settings this version cannot read: .*budget/],
  ])("refuse %s, naming the variable", (_, text, message) => {
    expect(() => fleetRunSettingsFrom({ [FLEET_RUN_SETTINGS_ENV]: text })).toThrow(message);
  });

  it("are, for a program run in the fleet's process, the object it was given, whatever the environment holds", async () => {
    const env = fleetRunEnvironment({ budget: "/from/the/environment" });
    expect(fleetRunSettings(env)).toEqual({ budget: "/from/the/environment" });
    const seen = await withFleetRunSettings({ budget: "/given" }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return fleetRunSettings(env);
    });
    expect(seen).toEqual({ budget: "/given" });
    // Only for the length of that run.
    expect(fleetRunSettings(env)).toEqual({ budget: "/from/the/environment" });
  });
});
