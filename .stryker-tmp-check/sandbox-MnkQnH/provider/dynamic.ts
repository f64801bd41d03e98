/**
 * The provider object handed to `pulumi.dynamic.Resource`. Pulumi serializes it, with everything
 * its functions reference, into the inputs and the outputs of every resource, and the dynamic
 * provider host keeps one deserialized copy per distinct text. So it is one short text for every
 * kind, with no kind, credentials, schema or engine in it:
 *
 * - installed (under node_modules), the object is provider/host.ts's export, which the serializer
 *   writes as `require("pulumi-monitoring/host")`: about 300 bytes;
 * - in a source checkout the serializer would copy that module by value, whole, so the object is
 *   instead a loader whose single `configure` (which the host calls once, before anything else)
 *   takes over the dispatcher from `pulumi-monitoring/provider`: about 600 bytes.
 */
// @ts-nocheck

import { sep } from "node:path";
import type * as pulumi from "@pulumi/pulumi";

const loader = {
  configure(request: pulumi.dynamic.ConfigureRequest) {
    return Object.assign(this, require("pulumi-monitoring/provider").dispatcher).configure(request);
  },
};

let chosen: pulumi.dynamic.ResourceProvider | undefined;

/**
 * The provider of every kind. (The loader's `create` and the other methods exist only once
 * `configure` ran, which the host does before any of them: the type says what the object becomes.)
 * Chosen on first use, so that a program loads the provider's modules only when it declares a resource.
 */
export function serializableProvider(): pulumi.dynamic.ResourceProvider {
  chosen ??= __filename.includes(`${sep}node_modules${sep}`) ? (require("./host.js") as pulumi.dynamic.ResourceProvider) : (loader as typeof loader & pulumi.dynamic.ResourceProvider);
  return chosen;
}
