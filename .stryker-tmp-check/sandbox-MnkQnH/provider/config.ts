/**
 * Provider settings: stack configuration in the `monitoring` namespace, with environment
 * variables as the fallback for the connection. Resolved when a request is about to be made,
 * never when a module loads, and never stored in the serialized provider.
 *
 * | stack config                       | environment          | meaning                                         |
 * |------------------------------------|----------------------|-------------------------------------------------|
 * | `monitoring:apiKey` (secret)       | `MONITORING_API_KEY` | bearer key                                      |
 * | `monitoring:apiUrl`                | `MONITORING_API_URL` | service root, ending in `/v1`                   |
 * | `monitoring:retryBudgetSeconds`    |                      | how long a request is retried (default 120)     |
 * | `monitoring:maxRetries`            |                      | retries per request at most (default: no bound) |
 * | `monitoring:requestTimeoutSeconds` |                      | limit per attempt (default 30)                  |
 * | `monitoring:maxRequestsPerSecond`  |                      | shared by every resource of a deploy            |
 * | `monitoring:offeredRegions`        |                      | regions check accepts (default: any)            |
 */
// @ts-nocheck


/** Reads one key of the `monitoring` namespace (`apiKey` for `monitoring:apiKey`). */
export type ConfigSource = (key: string) => string | undefined;

export interface ProviderSettings {
  apiUrl: string;
  apiKey: string;
  retryBudgetMs?: number;
  maxRetries?: number;
  requestTimeoutMs?: number;
  maxRequestsPerSecond?: number;
}

export const CONFIG_NAMESPACE = "monitoring";

/**
 * The regions the service offers, when the stack lists them (`monitoring:offeredRegions`, a list in
 * stack config, or comma-separated): check then refuses others at preview, with no API call. The
 * spec never lists the regions, so without it any name passes and the server decides.
 */
export function offeredRegions(config: ConfigSource): string[] | undefined {
  const text = nonEmpty(config("offeredRegions"));
  if (text === undefined) return undefined;
  let regions: unknown;
  try {
    regions = text.trimStart().startsWith("[") ? JSON.parse(text) : text.split(",").map((region) => region.trim());
  } catch {
    regions = undefined;
  }
  if (!Array.isArray(regions) || regions.length === 0 || !regions.every((region) => typeof region === "string" && region !== "")) {
    throw new Error(`${CONFIG_NAMESPACE}:offeredRegions must be a list of region names, e.g. ["us-east-1","eu-west-1"], got ${JSON.stringify(text)}`);
  }
  return regions as string[];
}

export function resolveSettings(config: ConfigSource, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const setting = (key: string): string | undefined => nonEmpty(config(key));
  const apiKey = setting("apiKey") ?? nonEmpty(env["MONITORING_API_KEY"]);
  const apiUrl = setting("apiUrl") ?? nonEmpty(env["MONITORING_API_URL"]);
  if (apiKey === undefined) {
    throw new Error(
      `No API key for the monitoring service: set it with \`pulumi config set --secret ${CONFIG_NAMESPACE}:apiKey <key>\` ` +
        "or the MONITORING_API_KEY environment variable",
    );
  }
  if (apiUrl === undefined) {
    throw new Error(
      `No URL for the monitoring service: set it with \`pulumi config set ${CONFIG_NAMESPACE}:apiUrl https://.../v1\` ` +
        "or the MONITORING_API_URL environment variable",
    );
  }
  if (!URL.canParse(apiUrl) || !/^https?:$/.test(new URL(apiUrl).protocol)) {
    throw new Error(`${CONFIG_NAMESPACE}:apiUrl must be an http(s) URL, got ${JSON.stringify(apiUrl)}`);
  }
  const settings: ProviderSettings = { apiUrl, apiKey };
  const budgetSeconds = numberSetting(setting, "retryBudgetSeconds", (value) => value > 0, "a positive number of seconds");
  const maxRetries = numberSetting(setting, "maxRetries", (value) => Number.isInteger(value) && value >= 0, "a whole number, 0 or more");
  const timeoutSeconds = numberSetting(setting, "requestTimeoutSeconds", (value) => value > 0, "a positive number of seconds");
  const rate = numberSetting(setting, "maxRequestsPerSecond", (value) => value > 0, "a positive number");
  if (budgetSeconds !== undefined) settings.retryBudgetMs = budgetSeconds * 1000;
  if (maxRetries !== undefined) settings.maxRetries = maxRetries;
  if (timeoutSeconds !== undefined) settings.requestTimeoutMs = timeoutSeconds * 1000;
  if (rate !== undefined) settings.maxRequestsPerSecond = rate;
  return settings;
}

function numberSetting(
  setting: (key: string) => string | undefined,
  key: string,
  valid: (value: number) => boolean,
  rule: string,
): number | undefined {
  const text = setting(key);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || !valid(value)) {
    throw new Error(`${CONFIG_NAMESPACE}:${key} must be ${rule}, got ${JSON.stringify(text)}`);
  }
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
