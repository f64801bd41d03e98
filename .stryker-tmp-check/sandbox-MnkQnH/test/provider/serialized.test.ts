/**
 * The provider object is serialized into the inputs and the outputs of every resource. It must
 * stay small, be the same text for every kind (the provider host configures one copy per text),
 * and reference nothing but `require` of the installed package: no kind, no schema, no engine,
 * no credentials.
 */
// @ts-nocheck

import { afterEach, describe, expect, it, vi } from "vitest";
import { serializeFunction } from "@pulumi/pulumi/runtime/closure/serializeClosure.js";
import { serializableProvider } from "../../provider/dynamic.js";

/** The serializer's fixed wrapping of one function and of the object around it is about 400 bytes of it. */
const PROVIDER_TEXT_LIMIT = 600;

describe("the serialized provider", () => {
  // The unit files share their processes (vitest.config.mts).
  afterEach(() => vi.unstubAllEnvs());

  // Installed under node_modules it is `require("pulumi-monitoring/host")`: test/e2e/package.test.ts.
  it("is, in a source checkout, a loader of the package's dispatcher, under 600 bytes, with no secret", async () => {
    vi.stubEnv("MONITORING_API_KEY", "pls_test_must_not_be_captured");
    // As pulumi.dynamic.Resource serializes it: `() => provider`.
    const provider = serializableProvider();
    const { text } = await serializeFunction(() => provider, { allowSecrets: false });
    expect(text).toContain('require("pulumi-monitoring/provider").dispatcher');
    expect(text).not.toMatch(/pls_test_|zod|ApiClient|ResourceEngine|monitoring:apiKey|Monitor/);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PROVIDER_TEXT_LIMIT);
  });
});
