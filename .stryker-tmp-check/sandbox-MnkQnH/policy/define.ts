/**
 * Building policies on this package's resources: {@link monitorPolicy} (a rule for every monitor,
 * `MonitorSet` entries included), {@link resourcePolicy} (a rule for one kind) and
 * {@link stackPolicy} (a rule over the whole stack). The package's own rules (rules.ts) are built
 * with them, and so are an organisation's.
 *
 * The policies are plain objects in the shape `@pulumi/policy`'s `PolicyPack` takes; see
 * resources.ts for why the types are this package's own.
 */
// @ts-nocheck

import { type DeclaredMonitor, type InputsOf, type Kind, type PolicyResource, inputsOf, labelOf, monitorsOf } from "./resources.js";

export type EnforcementLevel = "advisory" | "mandatory" | "disabled";

/** One setting of a policy, as JSON Schema; `--policy-pack-config` sets it. */
export interface ConfigProperty<T = unknown> {
  type: "number" | "integer" | "string" | "boolean";
  default: T;
  minimum?: number;
  description?: string;
}

/** A policy's settings, by name, with their defaults. */
export type ConfigSchemaOf<C> = { [K in keyof C]: ConfigProperty<C[K]> };

/** The arguments `@pulumi/policy` passes a resource policy. */
export interface ResourceValidationArgs extends PolicyResource {
  getConfig<T extends object>(): T;
}

/** The arguments `@pulumi/policy` passes a stack policy. */
export interface StackValidationArgs {
  resources: PolicyResource[];
  getConfig<T extends object>(): T;
}

export type ReportViolation = (message: string, urn?: string) => void;

interface PolicyBase {
  name: string;
  description: string;
  enforcementLevel?: EnforcementLevel;
  configSchema?: { properties: Record<string, ConfigProperty> };
}

/** A policy checked on each resource (`@pulumi/policy`'s `ResourceValidationPolicy`). */
export interface ResourcePolicy extends PolicyBase {
  validateResource(args: ResourceValidationArgs, reportViolation: ReportViolation): void;
}

/** A policy checked on the whole stack (`@pulumi/policy`'s `StackValidationPolicy`). */
export interface StackPolicy extends PolicyBase {
  validateStack(args: StackValidationArgs, reportViolation: ReportViolation): void;
}

export type Policy = ResourcePolicy | StackPolicy;

interface RuleSpec<C> {
  /** Unique in the pack; `--policy-pack-config` names the policy by it. */
  name: string;
  /** What the rule asks for and why, shown with every violation. */
  description: string;
  /** How a violation counts unless configured: `mandatory` fails preview and blocks `up`. Default `advisory`. */
  enforcementLevel?: EnforcementLevel;
  /** The rule's settings and their defaults. */
  config?: ConfigSchemaOf<C>;
}

export interface MonitorRuleSpec<C> extends RuleSpec<C> {
  /**
   * What is wrong with one monitor, one message per problem; none when it complies. Each message
   * names the field and the threshold; the rule adds which monitor (and set entry). Never put the
   * value of a secret field in a message: policies see secret inputs in clear.
   */
  check(monitor: DeclaredMonitor, config: C): string[];
}

/** A rule checked on every monitor: each `Monitor`, and each entry of each `MonitorSet`. */
export function monitorPolicy<C extends object = Record<string, never>>(spec: MonitorRuleSpec<C>): ResourcePolicy {
  return {
    ...policyBase(spec),
    validateResource(args, reportViolation) {
      const config = configOf(spec, args);
      for (const monitor of monitorsOf(args)) {
        for (const message of spec.check(monitor, config)) reportViolation(`${monitor.label}: ${message}`);
      }
    },
  };
}

export interface ResourceRuleSpec<K extends Kind, C> extends RuleSpec<C> {
  kind: K;
  /** As {@link MonitorRuleSpec.check}, for one resource of `kind`. */
  check(inputs: InputsOf<K>, resource: PolicyResource, config: C): string[];
}

/** A rule checked on every resource of one kind, given its typed inputs. */
export function resourcePolicy<K extends Kind, C extends object = Record<string, never>>(spec: ResourceRuleSpec<K, C>): ResourcePolicy {
  return {
    ...policyBase(spec),
    validateResource(args, reportViolation) {
      const inputs = inputsOf(args, spec.kind);
      if (inputs === undefined) return;
      for (const message of spec.check(inputs, args, configOf(spec, args))) reportViolation(`${labelOf(args)}: ${message}`);
    },
  };
}

export interface StackRuleSpec<C> extends RuleSpec<C> {
  /** The violations of the stack, each with the URN of the resource it is about. */
  check(resources: PolicyResource[], config: C): { message: string; urn: string }[];
}

/** A rule checked on the whole stack at once. */
export function stackPolicy<C extends object = Record<string, never>>(spec: StackRuleSpec<C>): StackPolicy {
  return {
    ...policyBase(spec),
    validateStack(args, reportViolation) {
      for (const { message, urn } of spec.check(args.resources, configOf(spec, args))) reportViolation(message, urn);
    },
  };
}

function policyBase<C>(spec: RuleSpec<C>): PolicyBase {
  return {
    name: spec.name,
    description: spec.description,
    enforcementLevel: spec.enforcementLevel ?? "advisory",
    ...(spec.config === undefined ? {} : { configSchema: { properties: spec.config as Record<string, ConfigProperty> } }),
  };
}

/** The rule's settings: the defaults, overridden by what `--policy-pack-config` sets. */
function configOf<C>(spec: RuleSpec<C>, args: { getConfig<T extends object>(): T }): C {
  const defaults = Object.fromEntries(Object.entries(spec.config ?? {}).map(([name, property]) => [name, (property as ConfigProperty).default]));
  return { ...defaults, ...args.getConfig<object>() } as C;
}
