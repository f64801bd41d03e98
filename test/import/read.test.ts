/**
 * How an import reads an account: from list pages, and by id where a list leaves a field out. The
 * default profile's lists carry every field a GET shows (and leave unset fields out of both); the
 * alt profile's monitor list keeps `request_body` out (emulator/README.md), which an import must
 * not lose.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { readAccount } from "../../cli/import/read.js";
import type { ApiClient } from "../../provider/http/client.js";
import { monitor } from "../../schema/index.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

const MONITORS = 12;
const WITH_BODY = 10;

describe.each([
  { profile: "default", getsAtMost: 8 },
  { profile: "alt", getsAtMost: MONITORS },
] as const)("an import of monitors on the $profile profile", ({ profile, getsAtMost }) => {
  const on = useEmulatorWith(providerClientOn, { profile });
  beforeAll(async () => {
    for (let index = 1; index <= MONITORS; index++) {
      const body = index === WITH_BODY ? { http_method: "POST", request_body: '{"probe":true}' } : {};
      await on.emulator.byHand("POST", "/monitors", { name: `Monitor ${index}`, url: `https://example.com/${index}`, ...body });
    }
  });

  it(`keeps every field a GET shows, reading at most ${getsAtMost} monitors by id`, async () => {
    await on.emulator.admin.clearRequestLog();
    const { objects } = await readAccount({ api: on.api, scope: { kind: "account" }, kinds: [monitor] });
    expect(objects).toHaveLength(MONITORS);
    const withBody = objects.find((object) => object.inputs["name"] === `Monitor ${WITH_BODY}`);
    expect(withBody?.inputs).toMatchObject({ httpMethod: "POST", requestBody: '{"probe":true}' });
    expect(objects.filter((object) => object.inputs["requestBody"] !== undefined)).toHaveLength(1);

    const byId = (await on.emulator.admin.requestLog()).filter(({ method, path }) => method === "GET" && /^\/monitors\/[^/?]+$/.test(path));
    expect(byId.length).toBeLessThanOrEqual(getsAtMost);
  });
});
