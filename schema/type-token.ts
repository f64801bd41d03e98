/**
 * The Pulumi type token of this package's resources, `pulumi-nodejs:dynamic/monitoring:<Kind>`, and
 * the kind it names. A state is read by the whole token: another package's `Monitor`
 * (`acme:index:Monitor`) is none of ours, whatever its last segment says.
 */

/** The module of the type token, which Pulumi forms as `pulumi-nodejs:dynamic/monitoring:<Kind>`. */
export const TYPE_MODULE = "monitoring";

const TYPE_PREFIX = `pulumi-nodejs:dynamic/${TYPE_MODULE}:`;

/** The type token of a resource of `kind` (a kind of schema/index.ts, or `MonitorSet`). */
export function typeTokenOf(kind: string): string {
  return `${TYPE_PREFIX}${kind}`;
}

/** The kind a type token names when it is one of this package's, else undefined. */
export function kindOfTypeToken(type: string): string | undefined {
  if (!type.startsWith(TYPE_PREFIX)) return undefined;
  const kind = type.slice(TYPE_PREFIX.length);
  return /^[A-Z][A-Za-z]*$/.test(kind) ? kind : undefined;
}
