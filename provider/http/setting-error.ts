/**
 * A setting that cannot work (nothing answers at the URL, its host unknown, not the API there, the
 * key refused) as an error that carries its facts: which setting, where its value came from, the
 * URL. The message is rendered from them and never names the key itself.
 */
import { CONFIG_NAMESPACE, RECORDED_SUFFIX, type SettingSources, settingSourceNames } from "../config.js";
import { ApiError, type ApiErrorInit } from "../errors.js";

export type Setting = keyof SettingSources;

/** What is wrong with the setting; the URL's problems come first, then the key's. */
export type SettingProblem =
  /** Nothing answers at the URL: the connection was refused. */
  | { kind: "refused" }
  /** The URL's host name does not resolve. */
  | { kind: "unresolved" }
  /** Whatever answers at the URL answers something other than JSON. */
  | { kind: "not the API"; contentType: string }
  /** A 401: the service's own words about the key. */
  | { kind: "key refused"; serviceReason: string }
  /** A 403: the service's own words, and what the key lacks in the spec's terms (scope-refusal.ts). */
  | { kind: "no access"; serviceReason: string; lacks: string };

export interface SettingErrorInit extends Omit<ApiErrorInit, "reason"> {
  problem: SettingProblem;
  /** Where the blamed setting's value came from (`MONITORING_API_URL`, `monitoring:apiKey of stack acme`). */
  source: string;
  /** The service root the client was given. */
  url: string;
  /** For a refused key: the key sent, as messages show it (config.ts `shownKey`). */
  keySent?: string;
}

/** An {@link ApiError} that a setting causes: every request with the same setting fails the same way. */
export class SettingError extends ApiError {
  readonly setting: Setting;
  readonly source: string;
  readonly url: string;
  readonly problem: SettingProblem;
  /** For a refused key: the key sent, as messages show it (`pls_test_…0f0e`). */
  readonly keySent: string | undefined;

  constructor(init: SettingErrorInit) {
    super({ ...init, reason: settingReason(init) });
    this.setting = settingOf(init.problem);
    this.source = init.source;
    this.url = init.url;
    this.problem = init.problem;
    this.keySent = init.keySent;
  }
}

/** `the URL from monitoring:apiUrl of stack acme`, `the API key from MONITORING_API_KEY`. */
export function describeSetting(setting: Setting, source: string): string {
  return `${setting === "apiUrl" ? "the URL" : "the API key"} from ${source}`;
}

/**
 * The setting a {@link SettingError} of stack `stack` blamed, when its message reached this process
 * as text only (the fleet reads a stack's failure from the Pulumi engine's events): found by
 * rendering what such an error says for each place the setting can come from, most specific first.
 */
export function settingBlamedIn(text: string, stack: string): { setting: Setting; source: string } | undefined {
  for (const setting of ["apiUrl", "apiKey"] as const) {
    for (const source of settingSourceNames(setting, stack)) {
      const words = describeSetting(setting, source);
      // Followed by what the messages put after it, so that `monitoring:apiUrl` is not read in `monitoring:apiUrlX`.
      if ([")", " ", ":"].some((next) => text.includes(words + next))) return { setting, source };
    }
  }
  return undefined;
}

function settingOf(problem: SettingProblem): Setting {
  return problem.kind === "key refused" || problem.kind === "no access" ? "apiKey" : "apiUrl";
}

function settingReason({ problem, source, url, keySent }: SettingErrorInit): string {
  const setting = describeSetting(settingOf(problem), source);
  switch (problem.kind) {
    case "refused":
      return `nothing answers at ${url} (${setting}): the connection was refused. Start the service there (for the emulator: npx pulumi-monitoring-emulator), or correct the host or the port`;
    case "unresolved":
      return `the host name of ${url} (${setting}) does not resolve: correct the URL (a typo in the host name?), or check this machine's name resolution`;
    case "not the API":
      return `the answer is not JSON (${problem.contentType}): ${url} (${setting}) does not look like the monitoring service's API. Check the URL: the API's root, which ends in /v1, not a web page`;
    case "key refused":
      return `${problem.serviceReason} (${setting} was refused: check that it is a key of the account at ${url}${keyAdvice(source, keySent)})`;
    case "no access":
      return `${problem.serviceReason} (${setting} ${problem.lacks}${keyAdvice(source, keySent)})`;
  }
}

/**
 * Which key was sent, where it came from, and what to run to send another: set in the stack's
 * configuration, exported in the environment, or, when it was the key the last deploy recorded
 * (a refresh or destroy run without the program, on a state whose resources name no stack),
 * how to make the configuration now count.
 */
function keyAdvice(source: string, keySent: string | undefined): string {
  const sent = `. It sent ${keySent ?? "a key"}`;
  if (source.endsWith(RECORDED_SUFFIX)) {
    return (
      `${sent}, the key the last deploy recorded, which may no longer be the configured one: the resources of this state were written before ` +
      "the provider recorded their stack, so it could not read the stack's configuration now. Run `pulumi up --refresh --run-program`: " +
      "it refreshes with the program's settings, and records them for the refreshes and destroys that follow (a resource records its stack when it is next written)"
    );
  }
  const stack = / of stack (\S+)$/.exec(source)?.[1];
  if (source.startsWith(`${CONFIG_NAMESPACE}:`)) {
    return `${sent}, the value it holds now. To send another: pulumi config set --secret ${CONFIG_NAMESPACE}:apiKey <key>${stack === undefined ? "" : ` --stack ${stack}`}`;
  }
  if (source.startsWith("MONITORING_")) return `${sent}, from this run's environment. To send another: export ${source}=<key>, or set ${CONFIG_NAMESPACE}:apiKey in the stack's configuration, which comes first`;
  return sent;
}
