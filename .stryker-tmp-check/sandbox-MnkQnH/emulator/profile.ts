/**
 * Profiles: the emulator's answers where the spec says "not shown". The `default` profile is the
 * contract written in emulator/README.md; the `alt` profile makes the other reasonable choice
 * everywhere the spec is silent, so a client can show that it relies on the spec only.
 * Both follow the spec exactly where it speaks.
 */
// @ts-nocheck

import type { CursorFormat } from "./api/pagination.js";

export type ProfileName = "default" | "alt";
export const PROFILE_NAMES: readonly ProfileName[] = ["default", "alt"];

export interface RegionInfo {
  /** Display name, as `GET /monitors/{id}/regions` shows it. */
  name: string;
  /** Typical latency of a simulated check from there. */
  baseLatencyMs: number;
}

export interface Profile {
  name: ProfileName;
  /** Regions offered (spec 7.3: "only offered regions are accepted"), with their display data. */
  regions: Readonly<Record<string, RegionInfo>>;
  /** Regions of a monitor that names none. */
  defaultRegions: readonly string[];
  /** The order of stored lists when the request names no `sort`. */
  defaultSort: "created_at" | "-created_at";
  /** How cursors are written; each profile reads only its own. */
  cursorFormat: CursorFormat;
  /** `error.code` for each condition, keyed by the default profile's code. */
  errorCodes: Readonly<Record<string, string>>;
  /** `null` is refused (422) for fields with a fixed scalar server default, instead of resetting them. */
  refuseNullForScalarDefaults: boolean;
  /** How objects are shown in responses and webhook payloads. */
  responses: {
    /** Every known request field of a kind that is not set appears as `null`. */
    nullForUnset: boolean;
    /** `account_id`, `etag` and `links` on every object of a stored kind. */
    extraFields: boolean;
    upperCaseIds: boolean;
    /** Response field names that differ from the stored ones, per collection. */
    renames: Readonly<Record<string, Readonly<Record<string, string>>>>;
    /** Fields that list items leave out (a GET of the object shows them), per collection (stored names). */
    listOmits: Readonly<Record<string, readonly string[]>>;
  };
  /** The body of `POST /heartbeat-groups/assign`. */
  assignBody: "one heartbeat" | "many heartbeats";
  /** Notification channels, whose fields the spec does not show at all. */
  channels: {
    /** `credentials` appear in answers like any other field, instead of being write-only. */
    returnCredentials: boolean;
    /** Any non-empty `kind`, and any key inside `config` and `credentials`, is accepted and stored as sent. */
    acceptUnknownSettings: boolean;
  };
}

const IDENTITY_CODES: Record<string, string> = {};

export const DEFAULT_PROFILE: Profile = {
  name: "default",
  regions: {
    "us-east-1": { name: "US East (N. Virginia)", baseLatencyMs: 35 },
    "us-west-2": { name: "US West (Oregon)", baseLatencyMs: 60 },
    "ca-central-1": { name: "Canada (Central)", baseLatencyMs: 45 },
    "sa-east-1": { name: "South America (São Paulo)", baseLatencyMs: 140 },
    "eu-west-1": { name: "Europe (Ireland)", baseLatencyMs: 80 },
    "eu-central-1": { name: "Europe (Frankfurt)", baseLatencyMs: 90 },
    "eu-north-1": { name: "Europe (Stockholm)", baseLatencyMs: 100 },
    "ap-south-1": { name: "Asia Pacific (Mumbai)", baseLatencyMs: 190 },
    "ap-southeast-1": { name: "Asia Pacific (Singapore)", baseLatencyMs: 210 },
    "ap-southeast-2": { name: "Asia Pacific (Sydney)", baseLatencyMs: 240 },
    "ap-northeast-1": { name: "Asia Pacific (Tokyo)", baseLatencyMs: 170 },
  },
  defaultRegions: ["us-east-1", "eu-west-1"],
  defaultSort: "created_at",
  cursorFormat: "base64url-json",
  errorCodes: IDENTITY_CODES,
  refuseNullForScalarDefaults: false,
  responses: { nullForUnset: false, extraFields: false, upperCaseIds: false, renames: {}, listOmits: {} },
  assignBody: "one heartbeat",
  channels: { returnCredentials: false, acceptUnknownSettings: false },
};

export const ALT_PROFILE: Profile = {
  name: "alt",
  regions: {
    "us-east": { name: "Virginia, USA", baseLatencyMs: 30 },
    "us-west": { name: "California, USA", baseLatencyMs: 55 },
    "eu-west": { name: "Dublin, Ireland", baseLatencyMs: 75 },
    "eu-central": { name: "Frankfurt, Germany", baseLatencyMs: 85 },
    "ap-south": { name: "Mumbai, India", baseLatencyMs: 185 },
    "ap-east": { name: "Hong Kong", baseLatencyMs: 200 },
  },
  defaultRegions: ["us-east", "eu-west"],
  defaultSort: "-created_at",
  cursorFormat: "hex-lines",
  errorCodes: {
    invalid_json: "malformed_body",
    invalid_parameter: "bad_request",
    unauthorized: "authentication_required",
    forbidden: "insufficient_scope",
    not_found: "resource_not_found",
    method_not_allowed: "unsupported_method",
    conflict: "state_conflict",
    idempotency_key_reused: "idempotency_mismatch",
    payload_too_large: "request_too_large",
    validation_failed: "invalid_request",
    rate_limited: "too_many_requests",
    internal_error: "server_error",
    bad_gateway: "upstream_error",
    unavailable: "service_unavailable",
    gateway_timeout: "upstream_timeout",
    injected_fault: "server_error",
  },
  refuseNullForScalarDefaults: true,
  responses: {
    nullForUnset: true,
    extraFields: true,
    upperCaseIds: true,
    renames: {
      heartbeats: { ping_url: "check_in_url" },
      webhook_subscriptions: { signing_secret: "secret", signing_secret_last4: "secret_last4" },
    },
    listOmits: { monitors: ["request_body"] },
  },
  assignBody: "many heartbeats",
  channels: { returnCredentials: true, acceptUnknownSettings: true },
};

export function profileNamed(name: string): Profile {
  if (name === "default") return DEFAULT_PROFILE;
  if (name === "alt") return ALT_PROFILE;
  throw new Error(`Unknown profile ${name}; known profiles: ${PROFILE_NAMES.join(", ")}`);
}

/** The `error.code` a profile gives to a condition named by its default code. */
export function errorCodeIn(profile: Profile, defaultCode: string): string {
  return profile.errorCodes[defaultCode] ?? defaultCode;
}
