/**
 * The API speaks snake_case, inputs and outputs are camelCase. Every name converts by rule, at
 * every depth, so no kind keeps a table of API names. Here, in schema/, because the definitions
 * derive their API names from it and every layer above reads values by those names.
 */

/** `requestTimeoutS` → `request_timeout_s`, `signingSecretLast4` → `signing_secret_last4`. */
export function toSnakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `request_timeout_s` → `requestTimeoutS`. */
export function toCamelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** An error-detail path such as `steps[0].delay_minutes` in input names: `steps[0].delayMinutes`. */
export function fieldPathToCamelCase(path: string): string {
  return path.replace(/[A-Za-z0-9_]+/g, (segment) => (/^\d+$/.test(segment) ? segment : toCamelCase(segment)));
}

/** A JSON object (an API body, inputs, a YAML mapping): an object that is not a list. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
