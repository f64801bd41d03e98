/**
 * Errors the user sees. Each names the resource kind and the Pulumi resource name, the operation,
 * the input fields the service complained about (camelCase, as the user wrote them) and the
 * service's request id, and never contains the value of a secret.
 */
import type { z } from "zod";
import type { AnyResourceDefinition } from "../schema/define.js";
import { type GroupDefinition, groups, memberName } from "../schema/members.js";
import type { ApiError } from "./errors.js";
import { internal } from "./fields.js";
import { isRecord } from "../schema/naming.js";
import { inputPathOf } from "./translate.js";

/** A failed provider operation, with a message ready for the user. */
export class OperationError extends Error {
  override readonly name = "OperationError";

  /**
   * The service's refusal in the user's terms. Whatever its `error.code` (the spec shows none), a
   * 4xx whose details name fields of the kind is reported as those inputs, camelCase, with the
   * server's own message and request id.
   */
  static fromApiError(definition: AnyResourceDefinition, values: Record<string, unknown>, operation: string, error: ApiError): OperationError {
    const subject = `${describeResource(definition, values)}: ${operation} failed`;
    const shape = { ...definition.inputs.shape, ...definition.outputs.shape } as Record<string, z.ZodType>;
    const fieldIssues = Object.entries(error.details)
      .map(([path, rule]) => [inputPathOf(shape, path), rule] as const)
      .filter(([path]) => (/^[^.[]*/.exec(path)?.[0] ?? "") in shape);
    const message =
      error.status >= 400 && error.status < 500 && fieldIssues.length > 0
        ? `${subject}: the service rejected ${fieldIssues
            .map(([field, rule]) => `${field}: ${typeof rule === "string" ? rule : JSON.stringify(rule)}`)
            .join("; ")} (${error.message})`
        : `${subject}: ${error.message}`;
    return new OperationError(redactSecrets(definition, values, message), { cause: error });
  }
}

/**
 * A write partly done: an object created but not fully set up (e.g. attaching a channel failed),
 * or some members of a group written and others not. The dynamic provider host reads `id` and
 * `properties` and records them, so the state holds exactly what exists and the next deployment
 * carries on from there instead of creating anything twice.
 */
export class PartialFailure extends Error {
  override readonly name = "PartialFailure";
  readonly id: string;
  readonly properties: Record<string, unknown>;
  /** What the engine shows instead of the message. */
  readonly reasons: string[];

  constructor(id: string, properties: Record<string, unknown>, message: string, options: { reason?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.id = id;
    this.properties = properties;
    this.reasons = [options.reason ?? message];
  }

  /** An object created whose setting up failed with `cause`: kept, the next update finishes it. */
  static created(id: string, properties: Record<string, unknown>, cause: unknown): PartialFailure {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new PartialFailure(id, properties, `${reason} (the object ${id} was created and is kept; the next update finishes setting it up)`, { reason, cause });
  }

  /** The same failure recording `properties` instead. */
  recording(properties: Record<string, unknown>): PartialFailure {
    return new PartialFailure(this.id, properties, this.message, { reason: this.reasons[0] as string, cause: this.cause });
  }
}

/**
 * A member's own `__urn` is its group's with the member's path (`<set URN>.monitors["web"]`,
 * provider/monitor-set.ts), which seeds its create key and so stays as it is; messages name the
 * member `fleet[web]` all the same.
 */
const MEMBER_URN_SUFFIX = /^(.*)\.(\w+)\[("(?:[^"\\]|\\.)*")\]$/;

/** The resource's name in the program, from the URN in `values` (`web`, `fleet[web]` for a set's member); empty without one. */
export function resourceName(values: Record<string, unknown>): string {
  const urn = values[internal.urn];
  const name = typeof urn === "string" ? urn.split("::").slice(3).join("::") : "";
  const member = MEMBER_URN_SUFFIX.exec(name);
  return member !== null && groups.some((group) => group.membersField === member[2]) ? memberName(member[1] as string, JSON.parse(member[3] as string) as string) : name;
}

/** `Monitor "web"`, the resource's name taken from its URN, or the kind alone without one. */
export function describeResource(definition: { kind: string }, values: Record<string, unknown>): string {
  const name = resourceName(values);
  return name === "" ? definition.kind : `${definition.kind} "${name}"`;
}

/** `MonitorSet "fleet[checkout]"`: how warnings and notices name a member of a group, as {@link describeResource} names a resource. */
export function describeMember(group: GroupDefinition, values: Record<string, unknown>, key: string): string {
  const name = resourceName(values);
  return `${group.kind} "${memberName(name === "" ? group.membersField : name, key)}"`;
}

/** Replaces every string held in a secret field of `values` by `[secret]`. */
export function redactSecrets(definition: AnyResourceDefinition, values: Record<string, unknown>, text: string): string {
  const secrets = [...definition.secrets, ...definition.secretOutputs].flatMap((field) => strings(values[field]));
  return secrets
    .filter((secret) => secret.length >= 4)
    .sort((a, b) => b.length - a.length)
    .reduce((redacted, secret) => redacted.split(secret).join("[secret]"), text);
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (isRecord(value)) return Object.values(value).flatMap(strings);
  return [];
}
