/**
 * Real checks (`--probe`): `POST /monitors/{id}/check` reaches the monitor's target from this
 * machine instead of simulating it, so that a pipeline can verify the monitors of a service it
 * has just started. One probe stands for every region of the monitor (they all run from here).
 *
 * - http: the monitor's `http_method` (default GET), `request_headers`, `request_body` (methods
 *   other than GET and HEAD), basic auth (`auth_username`, `auth_password`), redirects followed
 *   unless `follow_redirects` is false (at most 10), certificates verified unless
 *   `ssl_verification` is false. It passes on `expected_status_code`, else on any 2xx or 3xx,
 *   and, with a `keyword`, when the body holds it (`alert_type` `keyword`, the default) or lacks it
 *   (`keyword_absence`).
 * - tcp: a connection to `tcp_host`:`tcp_port` is accepted.
 * - dns: `dns_query` resolves (`dns_type`, default `A`), through `dns_server` (`host` or
 *   `host:port`) when set, else the system's resolver (which reads /etc/hosts for A and AAAA);
 *   with `dns_expected`, one answer must equal it (case aside).
 * - ping: the host of `url` resolves (an ICMP echo needs privileges the emulator does not ask for).
 *
 * Every probe is bounded by `request_timeout_s` (default 30); a timeout is a failed check
 * (spec 7.4) with the error `timeout`. A host ending in `.invalid` fails at once, as RFC 6761 asks
 * of resolvers. Not honoured: `proxy_host`/`proxy_port`, `ip_version`, `keep_cookies`.
 */
import { promises as dns } from "node:dns";
import { connect } from "node:net";
import { Agent, request } from "undici";
import type { JsonObject, StoredRecord } from "../state/collection.js";
import { newId } from "./common.js";
import { targetHost } from "./checks.js";

export const PROBE_USER_AGENT = "pulumi-monitoring-emulator-probe/0.1";

const DEFAULT_TIMEOUT_S = 30;
const MAX_REDIRECTS = 10;
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const METHODS_WITHOUT_BODY: ReadonlySet<string> = new Set(["GET", "HEAD"]);

/** What one probe found. */
export interface ProbeOutcome {
  up: boolean;
  responseTimeMs: number | null;
  /** http: the status of the last answer. */
  statusCode: number | null;
  error: string | null;
}

class ProbeFailure extends Error {}

/** Runs probes, and stops those in flight when the emulator stops. */
export class Prober {
  readonly #stopping = new AbortController();
  readonly #verifying = new Agent({ connect: { rejectUnauthorized: true } });
  readonly #trusting = new Agent({ connect: { rejectUnauthorized: false } });
  readonly #running = new Set<Promise<unknown>>();

  /** One probe of `monitor`, as the results of a check: one per region, all with its outcome. */
  async check(record: StoredRecord, checkId: string, checkedAt: string): Promise<JsonObject[]> {
    const monitor = record.doc;
    // The password is write-only: kept beside the object, not in it.
    const password = record.internal["auth_password"];
    const running = this.probe(typeof password === "string" ? { ...monitor, auth_password: password } : monitor);
    this.#running.add(running);
    try {
      return resultsOf(monitor, checkId, checkedAt, await running);
    } finally {
      this.#running.delete(running);
    }
  }

  get stopped(): boolean {
    return this.#stopping.signal.aborted;
  }

  async probe(monitor: JsonObject): Promise<ProbeOutcome> {
    const timeoutMs = positive(monitor["request_timeout_s"], DEFAULT_TIMEOUT_S) * 1000;
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), this.#stopping.signal]);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const host = targetHost(monitor);
      if (host === "" || host.toLowerCase().endsWith(".invalid")) throw new ProbeFailure(`getaddrinfo ENOTFOUND ${host || "(no target)"}`);
      const type = monitor["monitor_type"] ?? "http";
      if (type === "tcp") await probeTcp(host, Number(monitor["tcp_port"]), signal);
      else if (type === "dns") await probeDns(monitor, signal);
      else if (type === "ping") await withSignal(dns.lookup(host), signal);
      else {
        const statusCode = await this.#probeHttp(monitor, signal);
        return { up: true, responseTimeMs: elapsed(), statusCode, error: null };
      }
      return { up: true, responseTimeMs: elapsed(), statusCode: null, error: null };
    } catch (failure) {
      const statusCode = failure instanceof HttpVerdict ? failure.statusCode : null;
      return { up: false, responseTimeMs: null, statusCode, error: signal.aborted && !(failure instanceof HttpVerdict) ? "timeout" : describeFailure(failure) };
    }
  }

  /** Aborts the probes in flight and waits for them, then closes the connections. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await Promise.allSettled([...this.#running]);
    await Promise.all([this.#verifying.close(), this.#trusting.close()]);
  }

  async #probeHttp(monitor: JsonObject, signal: AbortSignal): Promise<number> {
    let url = String(monitor["url"]);
    let method = String(monitor["http_method"] ?? "GET");
    let body = typeof monitor["request_body"] === "string" && !METHODS_WITHOUT_BODY.has(method) ? (monitor["request_body"] as string) : undefined;
    const headers: Record<string, string> = { "user-agent": PROBE_USER_AGENT };
    for (const header of Array.isArray(monitor["request_headers"]) ? (monitor["request_headers"] as JsonObject[]) : []) {
      if (typeof header["name"] === "string" && typeof header["value"] === "string") headers[header["name"].toLowerCase()] = header["value"];
    }
    if (typeof monitor["auth_username"] === "string") {
      const password = typeof monitor["auth_password"] === "string" ? monitor["auth_password"] : "";
      headers["authorization"] = `Basic ${Buffer.from(`${monitor["auth_username"]}:${password}`).toString("base64")}`;
    }
    const dispatcher = monitor["ssl_verification"] === false ? this.#trusting : this.#verifying;
    for (let redirects = 0; ; redirects++) {
      // A fresh connection per probe, as a checker elsewhere would open: `reset` closes it after the answer.
      const response = await request(url, { method: method as "GET", headers, body, signal, dispatcher, reset: true });
      const location = response.headers["location"];
      if (monitor["follow_redirects"] !== false && REDIRECTS.has(response.statusCode) && typeof location === "string" && redirects < MAX_REDIRECTS) {
        await response.body.dump();
        url = new URL(location, url).href;
        if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
        }
        continue;
      }
      const keyword = typeof monitor["keyword"] === "string" ? monitor["keyword"] : undefined;
      const text = keyword === undefined || method === "HEAD" ? (await response.body.dump(), "") : await response.body.text();
      const expected = monitor["expected_status_code"];
      const statusPasses = typeof expected === "number" ? response.statusCode === expected : response.statusCode >= 200 && response.statusCode < 400;
      if (!statusPasses) {
        throw new HttpVerdict(response.statusCode, `HTTP ${response.statusCode}, expected ${typeof expected === "number" ? expected : "2xx or 3xx"}`);
      }
      if (keyword !== undefined) {
        const absence = monitor["alert_type"] === "keyword_absence";
        if (text.includes(keyword) === absence) {
          throw new HttpVerdict(response.statusCode, absence ? `keyword ${JSON.stringify(keyword)} found in the response` : `keyword ${JSON.stringify(keyword)} not found in the response`);
        }
      }
      return response.statusCode;
    }
  }
}

/** An answer that came but does not pass: its status is reported with the failure. */
class HttpVerdict extends ProbeFailure {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

async function probeTcp(host: string, port: number, signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port, signal });
    socket.once("connect", () => {
      socket.destroy();
      resolve();
    });
    socket.once("error", reject);
  });
}

async function probeDns(monitor: JsonObject, signal: AbortSignal): Promise<void> {
  const name = String(monitor["dns_query"]);
  const type = String(monitor["dns_type"] ?? "A").toUpperCase();
  const server = typeof monitor["dns_server"] === "string" && monitor["dns_server"] !== "" ? monitor["dns_server"] : undefined;
  let answers: string[];
  if (server === undefined && (type === "A" || type === "AAAA")) {
    answers = (await withSignal(dns.lookup(name, { family: type === "A" ? 4 : 6, all: true }), signal)).map((entry) => entry.address);
  } else {
    const resolver = new dns.Resolver({ tries: 1 });
    if (server !== undefined) resolver.setServers([server]);
    signal.addEventListener("abort", () => resolver.cancel(), { once: true });
    answers = ((await withSignal(resolver.resolve(name, type), signal)) as unknown[]).map(answerText);
  }
  if (answers.length === 0) throw new ProbeFailure(`no ${type} record for ${name}`);
  const expected = monitor["dns_expected"];
  if (typeof expected === "string" && expected !== "" && !answers.some((answer) => answer.toLowerCase() === expected.toLowerCase())) {
    throw new ProbeFailure(`${type} ${name} answered ${answers.join(", ")}, expected ${expected}`);
  }
}

/** One record of a DNS answer as text: the address, name or value a `dns_expected` would name. */
function answerText(record: unknown): string {
  if (typeof record === "string") return record;
  if (Array.isArray(record)) return record.join("");
  if (record !== null && typeof record === "object") {
    const fields = record as Record<string, unknown>;
    const value = fields["exchange"] ?? fields["value"] ?? fields["nsname"] ?? fields["issue"] ?? fields["iodef"];
    if (fields["name"] !== undefined && fields["port"] !== undefined) return `${String(fields["name"])}:${String(fields["port"])}`;
    if (value !== undefined) return String(value);
  }
  return JSON.stringify(record);
}

/** `work`, or a rejection as soon as `signal` aborts (lookups take no signal of their own). */
function withSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** The results of a check with `outcome`: one per region of the monitor, as the simulation writes them. */
function resultsOf(monitor: JsonObject, checkId: string, checkedAt: string, outcome: ProbeOutcome): JsonObject[] {
  return (monitor["regions"] as string[]).map((region) => ({
    id: newId(),
    monitor_id: monitor["id"],
    check_id: checkId,
    region,
    checked_at: checkedAt,
    created_at: checkedAt,
    status: outcome.up ? "up" : "down",
    response_time_ms: outcome.responseTimeMs,
    status_code: outcome.statusCode,
    error: outcome.error,
  }));
}

function positive(value: unknown, fallback: number): number {
  return typeof value === "number" && value > 0 ? value : fallback;
}

function describeFailure(failure: unknown): string {
  if (failure instanceof ProbeFailure) return failure.message;
  if (failure instanceof Error) {
    const code = (failure as NodeJS.ErrnoException).code;
    const cause = (failure as { cause?: unknown }).cause;
    if (code === undefined && cause instanceof Error) return describeFailure(cause);
    return code === undefined || failure.message.includes(code) ? failure.message : `${code}: ${failure.message}`;
  }
  return String(failure);
}
