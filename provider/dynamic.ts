/**
 * The provider object handed to `pulumi.dynamic.Resource`. Pulumi serializes it, with everything
 * its functions reference, into the state of every resource, so it references only the kind name
 * and `require`: each call loads the real implementation (provider/index.ts) from the installed
 * package inside the provider process. No credentials, no schema, no code beyond these lines.
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * The implementation of a kind, loaded at call time through the package's self-reference
 * (package.json `exports["./provider"]`). Changing how the provider is loaded is this one line.
 */
const implementation = (kind: string): Required<pulumi.dynamic.ResourceProvider> =>
  require("pulumi-monitoring/provider").providerFor(kind);

/** A provider for `kind` whose serialized form stays a few hundred bytes. */
export function serializableProvider(kind: string): pulumi.dynamic.ResourceProvider {
  return {
    configure: (request) => implementation(kind).configure(request),
    check: (olds, news) => implementation(kind).check(olds, news),
    diff: (id, olds, news) => implementation(kind).diff(id, olds, news),
    create: (inputs) => implementation(kind).create(inputs),
    read: (id, props) => implementation(kind).read(id, props),
    update: (id, olds, news) => implementation(kind).update(id, olds, news),
    delete: (id, props) => implementation(kind).delete(id, props),
  };
}
