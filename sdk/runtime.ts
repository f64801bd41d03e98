/**
 * What the generated SDK classes (sdk/generated/*.ts) do at runtime, written once: each class's
 * constructor hands its arguments here and passes the result to `pulumi.dynamic.Resource`.
 */
import * as pulumi from "@pulumi/pulumi";
import { serializableProvider } from "../provider/dynamic.js";
import { internal } from "../provider/fields.js";
import { definitionOf } from "../schema/index.js";
import { TYPE_MODULE, typeTokenOf } from "../schema/type-token.js";

/**
 * The arguments of `pulumi.dynamic.Resource` for a resource of `kind`. Each resource passes the
 * provider its URN as a hidden `__urn`: unique in the stack whatever the parents, it names the
 * resource in messages and seeds create's idempotency key.
 */
export function resourceArguments(
  kind: string,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions = {},
): [pulumi.dynamic.ResourceProvider, string, pulumi.Inputs, pulumi.CustomResourceOptions, string, string] {
  const definition = definitionOf(kind);
  const secretInputs: readonly string[] = definition.secrets;
  const props: pulumi.Inputs = Object.fromEntries(propertyNamesOf(kind).map((field) => [field, undefined]));
  for (const [field, value] of Object.entries(args)) {
    // Secret inputs are wrapped too, so that the inputs recorded in state are encrypted as well.
    if (value !== undefined) props[field] = secretInputs.includes(field) ? pulumi.secret(value) : value;
  }
  props[internal.urn] = urnOf(name, typeTokenOf(kind), opts.parent);
  const additionalSecretOutputs = [...(opts.additionalSecretOutputs ?? []), ...definition.secrets, ...definition.secretOutputs];
  return [serializableProvider(), name, props, { ...opts, additionalSecretOutputs }, TYPE_MODULE, kind];
}

/**
 * The property names a resource of `kind` declares to the engine: every input and output field,
 * since Pulumi creates an output property only for keys present in the props.
 */
export function propertyNamesOf(kind: string): string[] {
  const definition = definitionOf(kind);
  return [...Object.keys(definition.inputs.shape), ...Object.keys(definition.outputs.shape)];
}

/**
 * The URN the engine will give a resource, computed at once from its name, type and parents (the
 * format of pulumi.createUrn). createUrn's Output depends on the parent, and depending on a
 * component means waiting for all its children, this resource among them, which never ends.
 * The stack resource at the root is not part of URNs.
 */
export function urnOf(name: string, type: string, parent: pulumi.Resource | undefined): string {
  const types = [type];
  for (let ancestor = parent; ancestor !== undefined; ancestor = parentOf(ancestor)) {
    const ancestorType = pulumi.resourceType(ancestor);
    if (ancestorType !== "pulumi:pulumi:Stack") types.unshift(ancestorType);
  }
  return `urn:pulumi:${pulumi.getStack()}::${pulumi.getProject()}::${types.join("$")}::${name}`;
}

/** The SDK keeps a resource's parent in this field; it offers no public accessor. */
function parentOf(resource: pulumi.Resource): pulumi.Resource | undefined {
  return (resource as unknown as { __parentResource?: pulumi.Resource }).__parentResource;
}
