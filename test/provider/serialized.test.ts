/**
 * The provider object is serialized into the state of every resource. It must stay small and
 * reference nothing but the kind and `require`: no schema, no engine, no credentials.
 */
import { describe, expect, it } from "vitest";
import { serializeFunction } from "@pulumi/pulumi/runtime/closure/serializeClosure.js";
import { definitions } from "../../schema/index.js";
import { serializableProvider } from "../../provider/dynamic.js";

describe.each(definitions.map((definition) => definition.kind))("the serialized %s provider", (kind) => {
  it("loads the implementation at call time and stays under 3 kB", async () => {
    process.env["MONITORING_API_KEY"] = "pls_test_must_not_be_captured";
    const provider = serializableProvider(kind);
    const { text } = await serializeFunction(() => provider, { allowSecrets: false });
    expect(text).toContain('require("pulumi-monitoring/provider").providerFor(kind)');
    expect(text).toContain(`kind: "${kind}"`);
    expect(text).not.toMatch(/pls_test_|zod|ApiClient|ResourceEngine|monitoring:apiKey/);
    expect(text.length).toBeLessThan(3000);
  });
});
