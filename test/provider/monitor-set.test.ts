/**
 * A MonitorSet's check and diff: each monitor checked as a Monitor, failures named by key, and a
 * change of one monitor never replacing the set.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN, checkGroup } from "../../provider/check.js";
import { diffGroup } from "../../provider/diff.js";
import { monitorSet } from "../../schema/members.js";

const recorded = {
  ids: { storefront: "11111111-1111-4111-8111-111111111111", checkout: "22222222-2222-4222-8222-222222222222" },
  statuses: { storefront: "UP", checkout: "UP" },
  monitors: {
    storefront: { name: "Storefront", url: "https://shop.example.com", intervalSeconds: 60, monitorType: "http" },
    checkout: { name: "Checkout", url: "https://shop.example.com/checkout", intervalSeconds: 60, monitorType: "http" },
  },
  __declaredInputs: { storefront: ["name", "url"], checkout: ["name", "url", "intervalSeconds"] },
};
const declared = {
  storefront: { name: "Storefront", url: "https://shop.example.com" },
  checkout: { name: "Checkout", url: "https://shop.example.com/checkout", intervalSeconds: 60 },
};

describe("checking a MonitorSet", () => {
  it("checks every monitor as a Monitor and names the failing one by key", () => {
    const { failures } = checkGroup(monitorSet, { monitors: { ...declared, checkout: { ...declared.checkout, intervalSeconds: 5 } } });
    expect(failures).toEqual([
      { property: 'monitors["checkout"].intervalSeconds', reason: 'MonitorSet.monitors["checkout"].intervalSeconds: must be at least 10 (got 5)' },
    ]);
  });

  it("applies a Monitor's cross-field rules", () => {
    const { failures } = checkGroup(monitorSet, { monitors: { db: { name: "DB", monitorType: "tcp", tcpHost: "db.example.com" } } });
    expect(failures.map((failure) => failure.reason)).toEqual(['MonitorSet.monitors["db"].tcpPort: is required for tcp monitors']);
  });

  it("refuses an empty set and unknown fields", () => {
    expect(checkGroup(monitorSet, { monitors: {} }).failures.map((failure) => failure.reason)).toEqual(["MonitorSet.monitors: must be a map of at least one monitor by key"]);
    expect(checkGroup(monitorSet, { monitors: declared, interval: 5 }).failures).toEqual([{ property: "interval", reason: "MonitorSet.interval: unknown field (known: monitors, clientId)" }]);
  });

  it("refuses a member that is no object, naming it, and shows no warning beside a failure", () => {
    expect(checkGroup(monitorSet, { monitors: { ...declared, broken: "https://x.example" } })).toEqual({
      inputs: { monitors: { ...declared, broken: "https://x.example" } },
      failures: [{ property: 'monitors["broken"]', reason: 'MonitorSet.monitors["broken"]: must be a monitor\'s inputs (an object)' }],
      warnings: [],
    });
  });

  it("names no property for a member's secret field, as for a single Monitor's: the engine would print the value beside it", () => {
    const { failures } = checkGroup(monitorSet, { monitors: { web: { name: "Web", url: "https://shop.example.com", authPassword: 5 } } });
    expect(failures.map((failure) => failure.property)).toEqual([""]);
  });

  it("leaves members not known yet at preview to be checked once they are", () => {
    expect(checkGroup(monitorSet, { monitors: UNKNOWN })).toEqual({ inputs: { monitors: UNKNOWN }, failures: [], warnings: [] });
  });

  it("keeps the inputs as written, the set's client not copied into each monitor", () => {
    const clientId = "33333333-3333-4333-8333-333333333333";
    const { inputs, failures } = checkGroup(monitorSet, { monitors: declared, clientId });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ monitors: declared, clientId });
  });
});

describe("diffing a MonitorSet", () => {
  it("finds no change when every monitor matches what was recorded", () => {
    expect(diffGroup(monitorSet, recorded, { monitors: declared })).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  });

  it("finds an edited, an added and a removed monitor, and never replaces the set", () => {
    expect(diffGroup(monitorSet, recorded, { monitors: { ...declared, checkout: { ...declared.checkout, intervalSeconds: 120 } } }).changes).toBe(true);
    expect(diffGroup(monitorSet, recorded, { monitors: { ...declared, search: { url: "https://shop.example.com/search" } } }).changes).toBe(true);
    const { storefront } = declared;
    expect(diffGroup(monitorSet, recorded, { monitors: { storefront } })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("finds a change when the monitors are not known yet at preview, or not given", () => {
    expect(diffGroup(monitorSet, recorded, { monitors: UNKNOWN }).changes).toBe(true);
    expect(diffGroup(monitorSet, recorded, {}).changes).toBe(true);
  });

  it("finds a change when one monitor's value is not known yet at preview, whatever the state holds", () => {
    const unknownUrl = { ...recorded, monitors: { ...recorded.monitors, storefront: { ...recorded.monitors.storefront, url: UNKNOWN } } };
    expect(diffGroup(monitorSet, unknownUrl, { monitors: { ...declared, storefront: { ...declared.storefront, url: UNKNOWN } } }).changes).toBe(true);
  });

  it("creates a monitor the state holds no id for, even when its inputs match what was recorded", () => {
    const { storefront: _lost, ...ids } = recorded.ids;
    expect(diffGroup(monitorSet, { ...recorded, ids }, { monitors: declared }).changes).toBe(true);
  });

  it("treats a moved client as a change inside the set, not a replacement of it", () => {
    const clientId = "33333333-3333-4333-8333-333333333333";
    expect(diffGroup(monitorSet, recorded, { monitors: declared, clientId })).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });
});
