/**
 * Provider settings: stack configuration in the `monitoring` namespace, with environment variables
 * as the fallback for the connection and the clock. Resolved when a request is about to be made,
 * never when a module loads, and never stored in the serialized provider. Every setting, its
 * fallback and its default: README.md's configuration table.
 */
import { instant } from "../schema/rules.js";
import { durationMs } from "./duration.js";
import type { HandPauses } from "./pause-plan.js";

/** Reads one key of the `monitoring` namespace (`apiKey` for `monitoring:apiKey`). */
export type ConfigSource = (key: string) => string | undefined;

/**
 * Where the URL and the key came from, for the messages about a setting that cannot work:
 * `monitoring:apiUrl of stack acme`, `MONITORING_API_URL`, `--api-url`. Never the key itself.
 */
export interface SettingSources {
  apiUrl: string;
  apiKey: string;
}

/** The environment variables the URL and the key fall back to. */
const SETTING_ENVIRONMENT: SettingSources = { apiUrl: "MONITORING_API_URL", apiKey: "MONITORING_API_KEY" };

/**
 * Every name {@link resolveSettings} can give the source of `setting` in stack `stack`, most
 * specific first (a name that another starts with comes after it): the stack's configuration key
 * as the last deploy recorded it, then as it is now, the same when the stack is not known, the variable.
 */
export function settingSourceNames(setting: keyof SettingSources, stack: string): string[] {
  return [recordedConfigKeyName(stack)(setting), stackConfigKeyName(stack)(setting), recordedConfigKeyName()(setting), stackConfigKeyName()(setting), SETTING_ENVIRONMENT[setting]];
}

/** How a `monitoring:` key of the configuration is named in messages (`monitoring:apiUrl of stack acme`). */
export type ConfigKeyName = (key: string) => string;

/** `monitoring:apiUrl of stack acme`, or `monitoring:apiUrl` when the stack is not known: the stack's configuration now. */
export function stackConfigKeyName(stack?: string): ConfigKeyName {
  return (key) => `${CONFIG_NAMESPACE}:${key}${stack === undefined ? "" : ` of stack ${stack}`}`;
}

/** What a recorded source's name ends with: the provider's settings as the last deploy recorded them, not the configuration now. */
export const RECORDED_SUFFIX = " as the last deploy recorded it";

/**
 * `monitoring:apiKey of stack acme as the last deploy recorded it`: a value of the settings Pulumi
 * recorded with the provider at the last deploy and handed to a refresh or destroy that runs
 * without the program, used only when the stack's configuration now cannot be known (see
 * provider/settings-now.ts).
 */
export function recordedConfigKeyName(stack?: string): ConfigKeyName {
  return (key) => `${stackConfigKeyName(stack)(key)}${RECORDED_SUFFIX}`;
}

/**
 * The key as messages show it, never whole: its prefix up to its last underscore among the first
 * ten characters (`pls_test_`), then its last four characters (`pls_test_…0f0e`). Enough to tell a
 * rotated key from its successor, too little to use. A key shorter than 16 characters shows only its length.
 */
export function shownKey(key: string): string {
  if (key.length < 16) return `a key of ${key.length} characters`;
  const prefix = key.slice(0, key.slice(0, 10).lastIndexOf("_") + 1);
  return `${prefix}…${key.slice(-4)}`;
}

export interface ProviderSettings {
  apiUrl: string;
  apiKey: string;
  sources: SettingSources;
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

/**
 * Whether check asks the service to validate the monitors it is about to create or change
 * (`monitoring:dryRun: true`, provider/dry-run.ts). Off by default: check then makes no API call.
 */
export function dryRunEnabled(config: ConfigSource): boolean {
  const text = nonEmpty(config("dryRun"))?.trim().toLowerCase();
  if (text === undefined || text === "false") return false;
  if (text === "true") return true;
  throw new Error(`${CONFIG_NAMESPACE}:dryRun must be true or false, got ${JSON.stringify(config("dryRun"))}`);
}

/**
 * The settings, from `config` with the environment as the fallback for the connection. `keyName`
 * names a configuration key in messages: by default `monitoring:apiUrl`; a caller that knows the
 * stack passes `stackConfigKeyName(stack)`.
 */
export function resolveSettings(config: ConfigSource, env: NodeJS.ProcessEnv = process.env, keyName: ConfigKeyName = stackConfigKeyName()): ProviderSettings {
  const setting = (key: string): string | undefined => nonEmpty(config(key));
  const configuredKey = setting("apiKey");
  const configuredUrl = setting("apiUrl");
  const apiKey = configuredKey ?? nonEmpty(env[SETTING_ENVIRONMENT.apiKey]);
  const apiUrl = configuredUrl ?? nonEmpty(env[SETTING_ENVIRONMENT.apiUrl]);
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
    throw new Error(`${configuredUrl === undefined ? "MONITORING_API_URL" : keyName("apiUrl")} must be an http(s) URL, got ${JSON.stringify(apiUrl)}`);
  }
  const sources: SettingSources = {
    apiUrl: configuredUrl === undefined ? SETTING_ENVIRONMENT.apiUrl : keyName("apiUrl"),
    apiKey: configuredKey === undefined ? SETTING_ENVIRONMENT.apiKey : keyName("apiKey"),
  };
  const settings: ProviderSettings = { apiUrl, apiKey, sources };
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

/** The environment variable that fixes the deploy's instant when the stack's configuration does not. */
const NOW_VARIABLE = "PULUMI_MONITORING_NOW";

/** An instant the settings fix for a deploy, and the setting that fixed it, for the notice every run gives of it. */
export interface FixedInstant {
  ms: number;
  /** `monitoring:now` (the stack's configuration) or `PULUMI_MONITORING_NOW` (the environment). */
  source: string;
}

/**
 * The instant the settings fix for a deploy: `monitoring:now`, else `PULUMI_MONITORING_NOW`, an ISO
 * 8601 instant with its offset; `undefined` when neither is set and the deploy takes the clock.
 * `keyName` names the configuration key in the notice and the error (`monitoring:now of stack acme`).
 */
export function fixedInstant(config: ConfigSource, env: NodeJS.ProcessEnv = process.env, keyName: ConfigKeyName = stackConfigKeyName()): FixedInstant | undefined {
  const configured = nonEmpty(config("now"));
  const text = configured ?? nonEmpty(env[NOW_VARIABLE]);
  if (text === undefined) return undefined;
  const source = configured === undefined ? NOW_VARIABLE : keyName("now");
  if (!instant.safeParse(text.trim()).success) {
    throw new Error(`${source} must be an ISO 8601 instant with an offset (Z or ±hh:mm), such as 2030-01-31T12:00:00Z, got ${JSON.stringify(text)}`);
  }
  return { ms: Date.parse(text.trim()), source };
}

/**
 * The instant a deploy (check, diff, create, update, read) takes for now, in milliseconds:
 * `monitoring:now`, else `PULUMI_MONITORING_NOW`, else the clock. Set, it answers "what would a deploy
 * at this instant do", and lets tests advance time instead of waiting. The provider process reads the
 * clock once per run (provider/run-instant.ts); the command line reads it once per command.
 */
export function deployInstant(config: ConfigSource, env: NodeJS.ProcessEnv = process.env, clock: () => number = Date.now): number {
  return fixedInstant(config, env)?.ms ?? clock();
}

/** What deploys do with a pause made in the service's console when `monitoring:handPauses` is not set. */
export const DEFAULT_HAND_PAUSES = "4h";

/**
 * `monitoring:handPauses`: what deploys do with a pause made in the service's console while the
 * program manages the pause state and nothing recorded asks for it: `putBack` (the next deploy
 * resumes it), `keep` (deploys leave it until someone resumes it), or a duration such as `4h`
 * (deploys keep it that long after a refresh first saw it, then resume it). Default 4h: see
 * docs/overrides-and-maintenance.md for why.
 */
export function handPauses(config: ConfigSource): HandPauses {
  const text = nonEmpty(config("handPauses"))?.trim() ?? DEFAULT_HAND_PAUSES;
  if (text === "putBack" || text === "keep") return { rule: text };
  const ms = durationMs(text);
  if (ms === undefined) throw new Error(`${CONFIG_NAMESPACE}:handPauses must be putBack, keep or a duration such as 4h, 90m or 1d, got ${JSON.stringify(text)}`);
  return { rule: "for", ms, text };
}
