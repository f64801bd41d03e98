/**
 * What a policy sees of this package's resources, typed: a resource's inputs by kind (the types of
 * the generated SDK, as plain values), the monitors a resource declares (a `Monitor`, or each entry
 * of a `MonitorSet`), and reads that tell a value unknown at preview from a value left out.
 *
 * The types here are this package's own, shaped like `@pulumi/policy`'s: that package's type
 * declarations do not compile without `skipLibCheck` (its index re-exports names that its
 * proxy.d.ts strips), so nothing public here refers to them.
 */
import type * as pulumi from "@pulumi/pulumi";
import { definitions } from "../schema/index.js";
import { membersOf } from "../schema/members.js";
import { typeTokenOf } from "../schema/type-token.js";
import type * as sdk from "../sdk/index.js";

/** The kinds of resources this package declares, each an SDK class of that name. */
export const KINDS = [
  "Monitor",
  "MonitorSet",
  "Heartbeat",
  "HeartbeatGroup",
  "EscalationPolicy",
  "NotificationChannel",
  "WebhookSubscription",
  "Client",
  "ClientTemplate",
  "ClientShareLink",
] as const satisfies readonly (keyof typeof sdk)[];
export type Kind = (typeof KINDS)[number];

/** The inputs of a resource of `kind` as a policy sees them: its SDK arguments, outputs resolved. */
export type InputsOf<K extends Kind> = pulumi.Unwrap<ConstructorParameters<(typeof sdk)[K]>[1]>;

/** A resource as `@pulumi/policy` hands it to a rule (`ResourceValidationArgs`, `PolicyResource`). */
export interface PolicyResource {
  type: string;
  name: string;
  urn: string;
  props: Record<string, any>;
}

/** The type token Pulumi gives dynamic resources of `kind`: `pulumi-nodejs:dynamic/monitoring:<Kind>`. */
export function typeOf(kind: Kind): string {
  return typeTokenOf(kind);
}

/** The kind of one of this package's resources, or undefined for any other resource. */
export function kindOf(resource: Pick<PolicyResource, "type">): Kind | undefined {
  return KINDS.find((kind) => resource.type === typeOf(kind));
}

/** A resource's inputs when it is of `kind`, else undefined. */
export function inputsOf<K extends Kind>(resource: PolicyResource, kind: K): InputsOf<K> | undefined {
  return kindOf(resource) === kind ? (resource.props as InputsOf<K>) : undefined;
}

/** One monitor a resource declares: a `Monitor`, or one entry of a `MonitorSet`. */
export interface DeclaredMonitor {
  /** The resource that declares it. */
  resource: PolicyResource;
  /** The entry's key when the monitor is an entry of a `MonitorSet`. */
  entry?: string;
  /** Its inputs. A set entry without its own `clientId` takes the set's. */
  inputs: InputsOf<"Monitor">;
  /** How messages name it: `Monitor "web"`, or `MonitorSet "fleet", entry "checkout"`. */
  label: string;
}

/**
 * The monitors `resource` declares: its members (schema/members.ts) that are monitors, so itself
 * when it is a `Monitor`, each entry of a `MonitorSet`, none otherwise. A set whose whole map, or
 * an entry that, is unknown at preview (computed from resources not yet created) cannot be looked
 * into then; it is checked by the preview of `up`.
 */
export function monitorsOf(resource: PolicyResource): DeclaredMonitor[] {
  const kind = kindOf(resource);
  if (kind === undefined) return [];
  return membersOf(kind, resource.props, { read, share: withSetClient })
    .filter((member) => member.definition.kind === "Monitor")
    .map((member) => ({
      resource,
      ...(member.key === undefined ? {} : { entry: member.key }),
      inputs: member.values as InputsOf<"Monitor">,
      label: labelOf(resource, member.key),
    }));
}

/** `Monitor "web"`, or `MonitorSet "fleet", entry "checkout"`. */
export function labelOf(resource: Pick<PolicyResource, "type" | "name">, entry?: string): string {
  const name = `${kindOf(resource) ?? resource.type} "${resource.name}"`;
  return entry === undefined ? name : `${name}, entry "${entry}"`;
}

/** A set entry that takes the set's client; reads of its other fields still go to the entry (and may be unknown at preview). */
function withSetClient(inputs: object, _field: string, clientId: unknown): object {
  return new Proxy(inputs, { get: (target, field, receiver) => (field === "clientId" ? clientId : Reflect.get(target, field, receiver)) });
}

/** Stands for a value unknown at preview: an output of a resource not yet created. */
export const UNKNOWN: unique symbol = Symbol("unknown at preview");

/**
 * `@pulumi/policy` documents no way to ask whether a value is known: reading an unknown one throws
 * its `UnknownValueError`, and a rule that lets it escape is downgraded to advisory with "can't be
 * known during preview". The class is exported at runtime (its type declaration is stripped), so
 * the reads here catch exactly that error. Loaded lazily: typed helpers work without the package.
 */
let unknownValueError: (new (...args: never[]) => Error) | undefined | null = null;
function isUnknownValueError(error: unknown): boolean {
  if (unknownValueError === null) {
    try {
      unknownValueError = (require("@pulumi/policy") as { UnknownValueError?: new (...args: never[]) => Error }).UnknownValueError;
    } catch {
      unknownValueError = undefined;
    }
  }
  return unknownValueError !== undefined && error instanceof unknownValueError;
}

/** `object[field]`, or {@link UNKNOWN} when the value is unknown at preview. */
export function read(object: object, field: string): unknown {
  try {
    return (object as Record<string, unknown>)[field];
  } catch (error) {
    if (isUnknownValueError(error)) return UNKNOWN;
    throw error;
  }
}

/**
 * Whether `object[field]` is set: present and not null, or unknown at preview (an id of a resource
 * being created counts as set). An array counts when it has an element.
 */
export function isSet(object: object, field: string): boolean {
  return isSetValue(read(object, field));
}

function isSetValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** The kinds whose objects can live in a client: those with a `clientId` input, and `MonitorSet`. */
export const CLIENT_SCOPED_KINDS: readonly Kind[] = KINDS.filter(
  (kind) => kind === "MonitorSet" || definitions.some((definition) => definition.kind === kind && "clientId" in definition.inputs.shape),
);
