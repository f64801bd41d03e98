/**
 * The provider object handed to `pulumi.dynamic.Resource`. Pulumi serializes it, with everything
 * its functions reference, into the inputs and the outputs of every resource, and the dynamic
 * provider host keeps one deserialized copy per distinct text. So it is one text for every kind,
 * as short as the serializer allows (about 500 bytes): a single `configure`, which the host calls
 * once, before anything else, on the deserialized object. It replaces the object's methods with
 * the package's dispatcher (provider/index.ts `dispatcher`), loaded from the installed package
 * inside the provider process, which finds each call's kind in its properties. No kind, no
 * credentials, no schema, no code beyond this one function.
 */
import type * as pulumi from "@pulumi/pulumi";

const loader = {
  configure(request: pulumi.dynamic.ConfigureRequest) {
    return Object.assign(this, require("pulumi-monitoring/provider").dispatcher).configure(request);
  },
};

/**
 * The provider of every kind. Its `create` and the other methods exist only once `configure` ran,
 * which the host does before any of them: the type says what the object becomes.
 */
export const serializableProvider = loader as typeof loader & pulumi.dynamic.ResourceProvider;
