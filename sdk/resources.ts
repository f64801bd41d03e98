/**
 * SDK classes, one per kind, derived from the definitions: the argument type is the kind's input
 * schema with every value a Pulumi input, the instance has a `pulumi.Output` for every input and
 * server field, and secret fields are encrypted in state.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ResourceDefinition, providerInputs } from "../schema/define.js";
import { serializableProvider } from "../provider/dynamic.js";
import { internal } from "../provider/fields.js";

/** The module of the type token, which Pulumi forms as `pulumi-nodejs:dynamic/monitoring:<Kind>`. */
export const TYPE_MODULE = "monitoring";

type AnyDefinition = ResourceDefinition<z.ZodObject, z.ZodObject>;

/** A value that may be given as a plain value or a Pulumi input, at any depth. */
export type DeepInput<T> = [T] extends [readonly (infer Item)[]]
  ? pulumi.Input<DeepInput<Item>[]>
  : [T] extends [Record<string, unknown>]
    ? pulumi.Input<{ [K in keyof T]: DeepInput<Exclude<T[K], undefined>> }>
    : pulumi.Input<T>;

type InputsOf<D extends AnyDefinition> = z.input<D["inputs"]> & z.input<typeof providerInputs>;
type OutputsOf<D extends AnyDefinition> = z.output<D["inputs"]> & z.output<D["outputs"]>;

/** Constructor arguments of a kind's class: its inputs (optional where the schema says so) and `adoptId`. */
export type ResourceArgs<D extends AnyDefinition> = { [K in keyof InputsOf<D>]: DeepInput<Exclude<InputsOf<D>[K], undefined>> };

/** Instance properties of a kind's class: every input and server field, `undefined` where not set. */
export type ResourceOutputs<D extends AnyDefinition> = { readonly [K in keyof OutputsOf<D>]-?: pulumi.Output<OutputsOf<D>[K]> };

export interface ResourceClass<D extends AnyDefinition> {
  new (name: string, args: ResourceArgs<D>, opts?: pulumi.CustomResourceOptions): pulumi.CustomResource & ResourceOutputs<D>;
  /** The definition the class is derived from. */
  readonly definition: D;
}

/**
 * The class of a kind. Each instance passes the provider its URN as a hidden `__urn`: unique in
 * the stack whatever the parents, it names the resource in messages and seeds create's idempotency key.
 */
export function resourceClass<D extends AnyDefinition>(definition: D): ResourceClass<D> {
  // Pulumi creates an output property only for keys present in the props, so every field is listed.
  const outputNames = [...Object.keys(definition.inputs.shape), ...Object.keys(definition.outputs.shape)];
  const secretInputs: readonly string[] = definition.secrets;
  const secretOutputs = [...definition.secrets, ...definition.secretOutputs];

  class MonitoringResource extends pulumi.dynamic.Resource {
    static readonly definition = definition;

    constructor(name: string, args: ResourceArgs<D>, opts: pulumi.CustomResourceOptions = {}) {
      const props: pulumi.Inputs = Object.fromEntries(outputNames.map((field) => [field, undefined]));
      for (const [field, value] of Object.entries(args as Record<string, unknown>)) {
        // Secret inputs are wrapped too, so that the inputs recorded in state are encrypted as well.
        if (value !== undefined) props[field] = secretInputs.includes(field) ? pulumi.secret(value) : value;
      }
      props[internal.urn] = pulumi.createUrn(name, `pulumi-nodejs:dynamic/${TYPE_MODULE}:${definition.kind}`, opts.parent);
      const additionalSecretOutputs = [...(opts.additionalSecretOutputs ?? []), ...secretOutputs];
      super(serializableProvider, name, props, { ...opts, additionalSecretOutputs }, TYPE_MODULE, definition.kind);
    }
  }
  Object.defineProperty(MonitoringResource, "name", { value: definition.kind });
  return MonitoringResource as unknown as ResourceClass<D>;
}
