/**
 * Errors the user sees. Each names the resource kind and the Pulumi resource name, the operation,
 * the input fields the service complained about (camelCase, as the user wrote them) and the
 * service's request id, and never contains the value of a secret.
 */
import type { AnyResourceDefinition } from "../schema/define.js";
import type { ApiError } from "./http.js";
import { internal } from "./fields.js";
import { fieldPathToCamelCase, isRecord } from "./naming.js";

/** A failed provider operation, with a message ready for the user. */
export class OperationError extends Error {
  override readonly name = "OperationError";

  static fromApiError(definition: AnyResourceDefinition, values: Record<string, unknown>, operation: string, error: ApiError): OperationError {
    const subject = `${describeResource(definition, values)}: ${operation} failed`;
    const message =
      error.code === "validation_failed" && Object.keys(error.details).length > 0
        ? `${subject}: the service rejected ${Object.entries(error.details)
            .map(([field, rule]) => `${fieldPathToCamelCase(field)}: ${typeof rule === "string" ? rule : JSON.stringify(rule)}`)
            .join("; ")} [${error.method} ${error.path}: ${error.status} ${error.code}, request_id ${error.requestId ?? "none"}]`
        : `${subject}: ${error.message}`;
    return new OperationError(redactSecrets(definition, values, message), { cause: error });
  }
}

/**
 * An object that was created but could not be fully set up (e.g. attaching a channel failed).
 * The dynamic provider host reads `id` and `properties` and records the object in state, so the
 * next deployment updates it instead of creating another one.
 */
export class ResourceInitError extends Error {
  override readonly name = "ResourceInitError";
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];

  constructor(id: string, properties: Record<string, unknown>, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${reason} (the object ${id} was created and is kept; the next update finishes setting it up)`, { cause });
    this.id = id;
    this.properties = properties;
    this.reasons = [reason];
  }
}

/** `Monitor "web"` from the create seed `<project>/<stack>/<name>`, or the kind alone without a seed. */
export function describeResource(definition: AnyResourceDefinition, values: Record<string, unknown>): string {
  const seed = values[internal.createKeySeed];
  const name = typeof seed === "string" ? seed.split("/").slice(2).join("/") : "";
  return name === "" ? definition.kind : `${definition.kind} "${name}"`;
}

/** Replaces every string held in a secret field of `values` by `[secret]`. */
function redactSecrets(definition: AnyResourceDefinition, values: Record<string, unknown>, text: string): string {
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
