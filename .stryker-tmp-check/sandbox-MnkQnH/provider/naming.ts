/**
 * The API speaks snake_case, inputs and outputs are camelCase. Every name converts by rule, at
 * every depth, so no kind keeps a table of API names.
 */
// @ts-nocheck


/** `requestTimeoutS` → `request_timeout_s`, `signingSecretLast4` → `signing_secret_last4`. */
export function toSnakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `request_timeout_s` → `requestTimeoutS`. */
export function toCamelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** Renames the keys of every object inside `value` (arrays included); other values stay as they are. */
export function renameKeysDeep(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeysDeep(item, rename));
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), renameKeysDeep(item, rename)]));
  }
  return value;
}

/** An error-detail path such as `steps[0].delay_minutes` in input names: `steps[0].delayMinutes`. */
export function fieldPathToCamelCase(path: string): string {
  return path.replace(/[A-Za-z0-9_]+/g, (segment) => (/^\d+$/.test(segment) ? segment : toCamelCase(segment)));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
