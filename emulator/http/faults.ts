/**
 * Injected faults: answers a real service gives under stress (429, 5xx), slow answers and dropped
 * connections, for the requests under the base URL that match a method and a path pattern.
 */
import { randomUUID } from "node:crypto";

export interface FaultSpec {
  /** Upper-case HTTP method; any method when absent. */
  method?: string;
  /**
   * Matched against the path after `/v1` (no query). A glob where `*` matches within one segment
   * and `**` across segments, or a regular expression when it starts with `^`. Any path when absent.
   */
  path?: string;
  /** Answer with this status and the matching error envelope instead of processing the request. */
  status?: number;
  /** Sent as `Retry-After` (and in `error.details`) with `status`. */
  retry_after_seconds?: number;
  /** Wait this long before answering (or before the fault's status or drop). */
  latency_ms?: number;
  /**
   * With `latency_ms`: the wait also ends when the faults are cleared (`DELETE /__emulator/faults`,
   * reset), whichever comes first. A test holds requests in flight until the moment it has made
   * (a client killed, a run refused), then lets the service complete them, with no delay to guess.
   */
  until_cleared?: boolean;
  /** Close the connection without any response; the request is not processed. */
  drop_connection?: boolean;
  /** Process the request, then close the connection without sending its response: a lost answer. */
  drop_response?: boolean;
  /**
   * Let this many matching requests through before the fault fires: a fault at a set point of a
   * client's run, where injecting it by watching the request log would race the client.
   */
  after?: number;
  /** Only the next N matching requests (after `after`); unlimited when absent. */
  times?: number;
  /** Each matching request is faulted with this probability (0..1); always when absent. */
  probability?: number;
}

export interface Fault extends FaultSpec {
  id: string;
  /** How many requests this fault has shaped so far. */
  fired: number;
  /** How many matching requests it has let through, of `after`. */
  passed: number;
}

interface ActiveFault {
  fault: Fault;
  pathPattern: RegExp | undefined;
}

export class FaultTable {
  private active: ActiveFault[] = [];
  private clearing = new AbortController();

  constructor(private readonly random: () => number = Math.random) {}

  /** `spec` must already be validated (see `validateFaultSpec`). */
  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: randomUUID(), fired: 0, passed: 0 };
    this.active.push({ fault, pathPattern: spec.path === undefined ? undefined : compilePathPattern(spec.path) });
    return fault;
  }

  list(): Fault[] {
    return this.active.map((entry) => entry.fault);
  }

  clear(): void {
    this.active = [];
    this.clearing.abort();
    this.clearing = new AbortController();
  }

  /** Aborted at the next `clear()`: ends the waits of `until_cleared` faults that fired before it. */
  get cleared(): AbortSignal {
    return this.clearing.signal;
  }

  /** The first fault that matches and fires for this request, counted as used; faults are tried in creation order. */
  take(method: string, path: string): Fault | undefined {
    for (const entry of this.active) {
      const { fault } = entry;
      if (fault.method !== undefined && fault.method !== method) continue;
      if (entry.pathPattern !== undefined && !entry.pathPattern.test(path)) continue;
      if (fault.passed < (fault.after ?? 0)) {
        fault.passed += 1;
        continue;
      }
      if (fault.probability !== undefined && !(this.random() < fault.probability)) continue;
      fault.fired += 1;
      if (fault.times !== undefined && fault.fired >= fault.times) {
        this.active = this.active.filter((other) => other !== entry);
      }
      return fault;
    }
    return undefined;
  }
}

/** Problems with a fault spec, keyed by field; empty when it is usable. */
export function validateFaultSpec(value: unknown): { spec?: FaultSpec; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { problems: { body: "must be a JSON object" } };
  }
  const input = value as Record<string, unknown>;
  const spec: FaultSpec = {};
  if (input["method"] !== undefined) {
    if (typeof input["method"] !== "string" || !/^[A-Za-z]+$/.test(input["method"])) problems["method"] = "must be an HTTP method";
    else spec.method = input["method"].toUpperCase();
  }
  if (input["path"] !== undefined) {
    if (typeof input["path"] !== "string" || input["path"] === "") problems["path"] = "must be a non-empty string";
    else {
      try {
        compilePathPattern(input["path"]);
        spec.path = input["path"];
      } catch {
        problems["path"] = "not a valid regular expression";
      }
    }
  }
  readInteger(input, "status", 400, 599, problems, (status) => (spec.status = status));
  readInteger(input, "retry_after_seconds", 0, 86_400, problems, (seconds) => (spec.retry_after_seconds = seconds));
  readInteger(input, "latency_ms", 0, 600_000, problems, (latency) => (spec.latency_ms = latency));
  readInteger(input, "after", 0, 1_000_000, problems, (after) => (spec.after = after));
  readInteger(input, "times", 1, 1_000_000, problems, (times) => (spec.times = times));
  if (input["drop_connection"] !== undefined) {
    if (typeof input["drop_connection"] !== "boolean") problems["drop_connection"] = "must be a boolean";
    else if (input["drop_connection"]) spec.drop_connection = true;
  }
  if (input["drop_response"] !== undefined) {
    if (typeof input["drop_response"] !== "boolean") problems["drop_response"] = "must be a boolean";
    else if (input["drop_response"]) spec.drop_response = true;
  }
  if (input["until_cleared"] !== undefined) {
    if (typeof input["until_cleared"] !== "boolean") problems["until_cleared"] = "must be a boolean";
    else if (input["until_cleared"]) spec.until_cleared = true;
  }
  if (input["probability"] !== undefined) {
    const probability = input["probability"];
    if (typeof probability !== "number" || !(probability >= 0 && probability <= 1)) problems["probability"] = "must be a number from 0 to 1";
    else spec.probability = probability;
  }
  if (spec.status === undefined && spec.latency_ms === undefined && spec.drop_connection === undefined && spec.drop_response === undefined) {
    problems["status"] ??= "one of status, latency_ms, drop_connection or drop_response is required";
  }
  if (spec.until_cleared && spec.latency_ms === undefined) problems["until_cleared"] = "needs latency_ms, the longest the wait lasts";
  if (spec.status !== undefined && spec.drop_connection) problems["drop_connection"] = "cannot be combined with status";
  if ((spec.status !== undefined || spec.drop_connection) && spec.drop_response) {
    problems["drop_response"] = "cannot be combined with status or drop_connection";
  }
  return Object.keys(problems).length > 0 ? { problems } : { spec, problems };
}

function readInteger(
  input: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  problems: Record<string, string>,
  accept: (value: number) => void,
): void {
  const value = input[field];
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    problems[field] = `must be an integer from ${min} to ${max}`;
  } else {
    accept(value);
  }
}

function compilePathPattern(pattern: string): RegExp {
  if (pattern.startsWith("^")) return new RegExp(pattern);
  const source = pattern
    .split(/(\*\*|\*|\?)/)
    .map((part) => {
      if (part === "**") return ".*";
      if (part === "*") return "[^/]*";
      if (part === "?") return "[^/]";
      return part.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return new RegExp(`^${source}$`);
}
