/**
 * The way a stack's complete lists travel from its provider to the `fleet drift` check
 * (provider/fleet-lists.ts, cli/drift/handed-lists.ts): what arrives is kept by account and
 * question, a UUID's case aside, and nothing is sent outside a drift run. That the check takes
 * them, and the requests that saves, is test/provider/requests.test.ts; on the real engine,
 * test/e2e/hand-changes.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HandedLists } from "../../cli/drift/handed-lists.js";
import { accountKey, FLEET_LISTS_ENV, fleetListSink } from "../../provider/fleet-lists.js";

describe("lists handed from a stack's provider to the drift check", () => {
  let handed: HandedLists;
  beforeEach(async () => {
    handed = await HandedLists.start();
  });
  afterEach(async () => handed.close());

  const acme = accountKey("https://api.example.com/v1", "key-of-acme");
  const other = accountKey("https://api.example.com/v1", "key-of-another-account");
  const client = "5D2F0C1E-8B7A-4C3D-9E1F-2A3B4C5D6E7F";

  it("keeps each list by its account and its path and query, whatever the case of the client's id", async () => {
    const send = fleetListSink(() => acme, { [FLEET_LISTS_ENV]: handed.address })!;
    const items = [{ id: "0B1E2D3C-4B5A-6978-8A9B-0C1D2E3F4A5B", name: "Web", client_id: client }];
    await send("/monitors", { client_id: client }, items);
    await send("/monitors", {}, []);
    // The line is with the fleet's process once sent; its socket reads it on the next turn of the loop.
    await expect.poll(() => handed.get(acme, "/monitors", {})).toEqual([]);

    expect(handed.get(acme, "/monitors", { client_id: client.toLowerCase() })).toEqual(items);
    expect(handed.get(other, "/monitors", { client_id: client.toLowerCase() })).toBeUndefined();
    expect(handed.get(acme, "/notification_channels", { client_id: client.toLowerCase() })).toBeUndefined();
  });

  it("the key never travels: an account is a digest of the service's URL and key", () => {
    expect(acme).toMatch(/^[0-9a-f]{64}$/);
    expect(acme).not.toContain("key-of-acme");
    expect(accountKey("https://other.example.com/v1", "key-of-acme")).not.toBe(acme);
  });

  it("sends nothing outside a drift run (a plain `pulumi refresh`, any other verb)", () => {
    expect(fleetListSink(() => acme, {})).toBeUndefined();
  });

  it("a fleet that is gone costs a read nothing: the list is not handed on, and the read goes on", async () => {
    const address = handed.address;
    await handed.close();
    const send = fleetListSink(() => acme, { [FLEET_LISTS_ENV]: address })!;
    await expect(send("/monitors", {}, [])).resolves.toBeUndefined();
  });
});
