/**
 * Bad values and the rule each breaks, in the words both ways in must use: check at preview
 * (test/provider/check.test.ts) and the YAML loader (test/yaml/errors.test.ts). The same value reads
 * the same in a program and in a monitoring file; only the frame differs (check names the kind and
 * shows a scalar value, the loader names the file, line and column).
 */
import type { AnyResourceDefinition } from "../../schema/define.js";
import { monitor, notificationChannel } from "../../schema/index.js";

export interface BadValue {
  name: string;
  definition: AnyResourceDefinition;
  /** An entry's inputs, all right but for the bad value. */
  inputs: Record<string, unknown>;
  /** Where the bad value is, below the entry: `requestHeaders[0].values`. */
  path: string;
  rule: string;
}

const URL = "https://example.com";

export const BAD_VALUES: readonly BadValue[] = [
  // Out of range
  { name: "a number below its minimum", definition: monitor, inputs: { url: URL, intervalSeconds: 5 }, path: "intervalSeconds", rule: "must be at least 10" },
  { name: "a number above its maximum", definition: monitor, inputs: { monitorType: "tcp", tcpHost: "db.example.com", tcpPort: 70000 }, path: "tcpPort", rule: "must be a port from 1 to 65535" },
  { name: "an empty string", definition: monitor, inputs: { url: URL, name: "" }, path: "name", rule: "must not be empty" },
  { name: "an empty list", definition: monitor, inputs: { url: URL, regions: [] }, path: "regions", rule: "must name at least one region" },
  // Outside an enumeration
  { name: "a value outside an enumeration", definition: monitor, inputs: { url: URL, httpMethod: "TRACE" }, path: "httpMethod", rule: "must be one of GET, HEAD, POST, PUT, PATCH, DELETE" },
  // Bad format
  { name: "a malformed UUID", definition: monitor, inputs: { url: URL, adoptId: "monitor-1" }, path: "adoptId", rule: "must be a UUID" },
  { name: "a malformed email address inside an object", definition: notificationChannel, inputs: { name: "ops", kind: "email", config: { address: "ops-at-example.com" } }, path: "config.address", rule: "must be an email address" },
  // Unknown field
  { name: "an unknown field", definition: monitor, inputs: { url: URL, intervalSecs: 30 }, path: "intervalSecs", rule: "unknown field (did you mean intervalSeconds?)" },
  { name: "an unknown field inside a list item", definition: monitor, inputs: { url: URL, requestHeaders: [{ name: "A", value: "b", values: "c" }] }, path: "requestHeaders[0].values", rule: "unknown field (did you mean value?)" },
  // Missing
  { name: "a required field left out", definition: notificationChannel, inputs: { name: "ops", config: { address: "ops@example.com" } }, path: "kind", rule: "is required" },
  // Wrong type
  { name: "a string for a whole number", definition: monitor, inputs: { url: URL, intervalSeconds: "60" }, path: "intervalSeconds", rule: "must be a whole number" },
  { name: "a fraction for a whole number", definition: monitor, inputs: { url: URL, intervalSeconds: 12.5 }, path: "intervalSeconds", rule: "must be a whole number" },
  { name: "a string for true or false", definition: monitor, inputs: { url: URL, paused: "yes" }, path: "paused", rule: "must be true or false" },
  { name: "a number for a string", definition: monitor, inputs: { url: URL, name: 5 }, path: "name", rule: "must be a string" },
  { name: "a number for a string with a format of its own", definition: monitor, inputs: { url: URL, adoptId: 5 }, path: "adoptId", rule: "must be a UUID" },
  { name: "a string for a list", definition: monitor, inputs: { url: URL, regions: "eu-west-1" }, path: "regions", rule: "must be a list" },
  { name: "a number for a mapping, inside a list", definition: monitor, inputs: { url: URL, requestHeaders: [5] }, path: "requestHeaders[0]", rule: "must be a mapping" },
];

/** The value at `path` (`requestHeaders[0].values`) inside `inputs`. */
export function valueAt(inputs: Record<string, unknown>, path: string): unknown {
  return path
    .split(/\.|\[(\d+)\]/)
    .filter((segment) => segment !== undefined && segment !== "")
    .reduce<unknown>((value, segment) => (value as Record<string, unknown> | undefined)?.[segment], inputs);
}
