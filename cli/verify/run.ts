/**
 * The verification of one stack's objects against the service, through the provider's HTTP
 * client: a monitor runs a check and passes when listed UP once a result of that check has landed,
 * a webhook subscription takes a test delivery, a notification channel (`--alerts`) one test.
 * Each step, and what the spec does and does not show: docs/verify-in-ci.md.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { mapBounded } from "../../provider/concurrency.js";
import { ApiError } from "../../provider/errors.js";
import type { ApiClient } from "../../provider/http/client.js";
import type { Query } from "../../provider/http/request.js";
import { isRecord } from "../../schema/naming.js";
import type { Verdict, VerifyEntry } from "./report.js";
import type { Target } from "./targets.js";

export interface VerifyOptions {
  /** How long to wait for a check's result or a delivery's outcome. */
  timeoutMs: number;
  /** Send test notifications to the channels in scope. */
  alerts: boolean;
  /** Polling schedule (tests shorten it): first wait, then doubling up to `maxPollMs`. */
  firstPollMs?: number;
  maxPollMs?: number;
}

/** Objects verified at once (most of the time each waits for its result); the API client's rate limit and connection pool bound the requests. */
const CONCURRENCY = 100;
const PAGE = 250;

/**
 * Verifies `targets`; `routes` are every monitor of the stack, the routes a test alert may take.
 * Entries come back monitors first, then webhook subscriptions, then channels, each kind by name.
 */
export async function verifyTargets(api: ApiClient, targets: readonly Target[], routes: readonly Target[], options: VerifyOptions): Promise<VerifyEntry[]> {
  const lists = new ResultLists(api);
  const monitors = targets.filter((target) => target.kind === "Monitor");
  const subscriptions = targets.filter((target) => target.kind === "WebhookSubscription");
  const channels = options.alerts ? targets.filter((target) => target.kind === "NotificationChannel") : [];
  const entries = new Map<Target, VerifyEntry>();

  const checks = await mapBounded(monitors, CONCURRENCY, (monitor) => checkMonitor(api, lists, monitor, options));
  const statuses = await readStatuses(api, checks.filter((check) => check.landed).map((check) => check.target));
  for (const check of checks) entries.set(check.target, monitorEntry(check, statuses));
  for (const entry of await mapBounded(subscriptions, CONCURRENCY, (subscription) => testSubscription(api, lists, subscription, options))) entries.set(entry.target, entry.entry);
  for (const [target, entry] of await testChannels(api, channels, routes)) entries.set(target, entry);
  const rank = (entry: VerifyEntry): number => KIND_ORDER.indexOf(entry.kind);
  return targets
    .flatMap((target) => {
      const entry = entries.get(target);
      return entry === undefined ? [] : [entry];
    })
    .sort((left, right) => rank(left) - rank(right) || (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

/** Entries are listed monitors first, then subscriptions, then channels, each by name. */
const KIND_ORDER: readonly Target["kind"][] = ["Monitor", "WebhookSubscription", "NotificationChannel"];

// ---------------------------------------------------------------------------------------------
// Monitors

interface CheckRun {
  target: Target;
  startedMs: number;
  /** A result of the run was listed. */
  landed: boolean;
  skipped?: string;
  /** The check could not be started or followed. */
  failure?: { reason: string; error: boolean };
  acknowledgement?: unknown;
  results: unknown[];
}

async function checkMonitor(api: ApiClient, lists: ResultLists, target: Target, options: VerifyOptions): Promise<CheckRun> {
  const run: CheckRun = { target, startedMs: Date.now(), landed: false, results: [] };
  if (target.declaredPaused) return { ...run, skipped: "declared paused: not checked, not resumed" };
  const path = `/monitors/${encodeURIComponent(target.id)}`;
  try {
    const before = await lists.read(`${path}/results`);
    const answer = await api.request<unknown>("POST", `${path}/check`, { idempotencyKey: "auto" });
    run.acknowledgement = answer.data;
    const runId = runIdOf(answer.data);
    const found = await poll(options, run.startedMs, async () => {
      const fresh = newItems(before, await lists.read(`${path}/results`));
      // Results that name the run (as the acknowledgement named it) are that run's; else any new result is.
      const ofRun = runId === undefined ? [] : fresh.filter((result) => isRecord(result) && result[runId.field] === runId.value);
      const namesRuns = runId !== undefined && fresh.some((result) => isRecord(result) && runId.field in result);
      const results = namesRuns ? ofRun : fresh;
      return results.length > 0 ? results : undefined;
    });
    if (found !== undefined) Object.assign(run, { landed: true, results: found });
  } catch (error) {
    run.failure = failureOf(error, "check");
  }
  return run;
}

/** The acknowledgement's name for the run, when it gives one that results may carry. */
function runIdOf(acknowledgement: unknown): { field: string; value: string } | undefined {
  if (!isRecord(acknowledgement)) return undefined;
  for (const field of ["check_id", "run_id"]) {
    const value = acknowledgement[field];
    if (typeof value === "string" && value !== "") return { field, value };
  }
  return undefined;
}

type Status = "UP" | "DOWN";

/** The status of each monitor whose check landed, by lower-case id: one list per status and scope. */
async function readStatuses(api: ApiClient, monitors: readonly Target[]): Promise<Map<string, Status> | Error> {
  const statuses = new Map<string, Status>();
  const scopes = new Set(monitors.map((monitor) => monitor.clientId ?? ""));
  try {
    for (const scope of scopes) {
      for (const status of ["UP", "DOWN"] as const) {
        const query: Query = { status, ...(scope === "" ? {} : { client_id: scope }) };
        for await (const item of api.paginate<unknown>("/monitors", query)) {
          if (isRecord(item) && typeof item["id"] === "string") statuses.set(item["id"].toLowerCase(), status);
        }
      }
    }
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  return statuses;
}

function monitorEntry(run: CheckRun, statuses: Map<string, Status> | Error): VerifyEntry {
  const base = { kind: run.target.kind, name: run.target.name, id: run.target.id, durationMs: Date.now() - run.startedMs };
  if (run.skipped !== undefined) return { ...base, verdict: "skipped", reason: run.skipped, durationMs: 0 };
  const details: Record<string, unknown> = {};
  if (run.acknowledgement !== undefined) details["check"] = run.acknowledgement;
  if (run.results.length > 0) details["results"] = run.results;
  if (run.failure !== undefined) return { ...base, verdict: "failed", reason: run.failure.reason, ...(run.failure.error ? { error: true } : {}), details };
  if (!run.landed) return { ...base, verdict: "failed", reason: "no result of its check within the time limit (a timed-out check counts as failed)", details };
  if (statuses instanceof Error) return { ...base, verdict: "failed", error: true, reason: `status not read: ${statuses.message}`, details };
  const status = statuses.get(run.target.id.toLowerCase());
  if (status !== undefined) details["status"] = status;
  const said = serverSays(run.results);
  if (status === "UP") return { ...base, verdict: "passed", reason: "UP after its check", details };
  if (status === "DOWN") return { ...base, verdict: "failed", reason: `DOWN after its check${said === undefined ? "" : `: ${said}`}`, details };
  return { ...base, verdict: "failed", reason: `listed neither UP nor DOWN after its check${said === undefined ? "" : `: ${said}`}`, details };
}

/** A short line of what failing results say (their `error`, when they carry one), as the server wrote it. */
function serverSays(results: readonly unknown[]): string | undefined {
  const errors = [...new Set(results.flatMap((result) => (isRecord(result) && typeof result["error"] === "string" && result["error"] !== "" ? [result["error"]] : [])))];
  return errors.length === 0 ? undefined : errors.join("; ");
}

// ---------------------------------------------------------------------------------------------
// Webhook subscriptions

async function testSubscription(api: ApiClient, lists: ResultLists, target: Target, options: VerifyOptions): Promise<{ target: Target; entry: VerifyEntry }> {
  const startedMs = Date.now();
  const path = `/webhook-subscriptions/${encodeURIComponent(target.id)}`;
  const base = { kind: target.kind, name: target.name, id: target.id };
  const entry = (verdict: Verdict, reason: string, details: Record<string, unknown>, error = false): { target: Target; entry: VerifyEntry } => ({
    target,
    entry: { ...base, verdict, reason, ...(error ? { error: true } : {}), details, durationMs: Date.now() - startedMs },
  });
  let acknowledgement: unknown;
  try {
    const before = await lists.read(`${path}/deliveries`);
    acknowledgement = (await api.request<unknown>("POST", `${path}/test`, { idempotencyKey: "auto" })).data;
    const ackId = isRecord(acknowledgement) && typeof acknowledgement["id"] === "string" ? acknowledgement["id"].toLowerCase() : undefined;
    let delivery: unknown;
    const outcome = await poll(options, startedMs, async () => {
      const fresh = newItems(before, await lists.read(`${path}/deliveries`));
      delivery = fresh.find((item) => ackId !== undefined && isRecord(item) && String(item["id"]).toLowerCase() === ackId) ?? fresh[0] ?? delivery;
      if (delivery === undefined) return undefined;
      const seen = deliveryOutcome(delivery);
      return seen.state === "pending" ? undefined : seen;
    });
    const details = { test: acknowledgement, ...(delivery === undefined ? {} : { delivery }) };
    if (delivery === undefined) return entry("failed", "the test was accepted but no delivery was listed within the time limit", details);
    if (outcome === undefined) return entry("failed", `the test delivery was still pending at the time limit${describeOutcome(deliveryOutcome(delivery))}`, details);
    if (outcome.state === "failed") return entry("failed", `the test delivery failed${describeOutcome(outcome)}`, details);
    if (outcome.state === "succeeded") return entry("passed", `test delivered${describeOutcome(outcome)}`, details);
    return entry("passed", "test accepted (202); the delivery the service lists shows no outcome this tool can read", details);
  } catch (error) {
    const failure = failureOf(error, "test delivery");
    return entry("failed", failure.reason, acknowledgement === undefined ? {} : { test: acknowledgement }, failure.error);
  }
}

interface DeliveryOutcome {
  state: "succeeded" | "failed" | "pending" | "unknown";
  /** What the delivery says, in its own words: its status, the response status, the error. */
  words: string[];
}

/**
 * What a delivery object plainly says about its outcome. The spec shows no delivery field; a
 * status-like field (`status`, `state`, `result`) naming success, failure or a pending state is
 * read, and a pending delivery whose last attempt failed (a non-2xx answer or an error) counts as
 * failed: the service retries, but the endpoint did not take the test.
 */
export function deliveryOutcome(delivery: unknown): DeliveryOutcome {
  if (!isRecord(delivery)) return { state: "unknown", words: [] };
  const words: string[] = [];
  let state: DeliveryOutcome["state"] = "unknown";
  const label = ["status", "state", "result"].map((field) => delivery[field]).find((value): value is string => typeof value === "string");
  if (label !== undefined) {
    words.push(label);
    if (/succe|deliver|^ok$|^sent$/i.test(label)) state = "succeeded";
    else if (/fail|error|dead|abandon|exhaust/i.test(label)) state = "failed";
    else if (/pend|queue|retr|progress|sched|wait/i.test(label)) state = "pending";
  }
  const attempts = Array.isArray(delivery["attempts"]) ? delivery["attempts"].filter(isRecord) : [];
  const last = attempts[attempts.length - 1] ?? {};
  const status = [delivery["last_response_status"], delivery["response_status"], last["response_status"], last["status_code"]].find((value) => typeof value === "number");
  const error = [delivery["last_error"], delivery["error"], last["error"]].find((value): value is string => typeof value === "string" && value !== "");
  if (typeof status === "number") words.push(`HTTP ${status}`);
  if (error !== undefined) words.push(error);
  const attemptFailed = (typeof status === "number" && (status < 200 || status >= 300)) || error !== undefined;
  if (state === "pending" && attemptFailed) state = "failed";
  if (state === "unknown" && typeof status === "number") state = attemptFailed ? "failed" : "succeeded";
  return { state, words };
}

function describeOutcome(outcome: DeliveryOutcome): string {
  return outcome.words.length === 0 ? "" : ` (${outcome.words.join(", ")})`;
}

// ---------------------------------------------------------------------------------------------
// Notification channels

/**
 * One test per channel. A monitor's test alert takes the route of a real alert, so it is used
 * where it reaches only channels still to test: the monitor is active, has no escalation policy
 * (whose channels the spec does not say a test alert reaches), and attaches channels that are all
 * in scope and none already covered. Larger sets first. The other channels get their own test.
 */
export function planAlerts(channels: readonly Target[], routes: readonly Target[]): { viaMonitor: Array<{ monitor: Target; channels: Target[] }>; direct: Target[] } {
  const byId = new Map(channels.map((channel) => [channel.id.toLowerCase(), channel]));
  const covered = new Set<string>();
  const viaMonitor: Array<{ monitor: Target; channels: Target[] }> = [];
  const candidates = routes
    .filter((monitor) => !monitor.declaredPaused && monitor.escalationPolicyId === undefined && (monitor.channelIds?.length ?? 0) > 0)
    .map((monitor) => ({ monitor, ids: [...new Set(monitor.channelIds!.map((id) => id.toLowerCase()))] }))
    .sort((left, right) => right.ids.length - left.ids.length);
  for (const { monitor, ids } of candidates) {
    if (!ids.every((id) => byId.has(id) && !covered.has(id))) continue;
    for (const id of ids) covered.add(id);
    viaMonitor.push({ monitor, channels: ids.map((id) => byId.get(id)!) });
  }
  return { viaMonitor, direct: channels.filter((channel) => !covered.has(channel.id.toLowerCase())) };
}

async function testChannels(api: ApiClient, channels: readonly Target[], routes: readonly Target[]): Promise<Map<Target, VerifyEntry>> {
  const entries = new Map<Target, VerifyEntry>();
  if (channels.length === 0) return entries;
  const plan = planAlerts(channels, routes);
  const send = async (path: string, route: string, tested: readonly Target[]): Promise<void> => {
    const startedMs = Date.now();
    let result: { verdict: Verdict; reason: string; error?: boolean; details: Record<string, unknown> };
    try {
      const answer = await api.request<unknown>("POST", path, { idempotencyKey: "auto" });
      result = { verdict: "passed", reason: `test accepted (${answer.status}) through ${route}`, details: { route, answer: answer.data } };
    } catch (error) {
      const failure = failureOf(error, `test through ${route}`);
      result = { verdict: "failed", reason: failure.reason, ...(failure.error ? { error: true } : {}), details: { route } };
    }
    for (const channel of tested) entries.set(channel, { kind: channel.kind, name: channel.name, id: channel.id, ...result, durationMs: Date.now() - startedMs });
  };
  await mapBounded(plan.viaMonitor, CONCURRENCY, ({ monitor, channels: reached }) => send(`/monitors/${encodeURIComponent(monitor.id)}/test-alert`, `the test alert of monitor ${monitor.name}`, reached));
  await mapBounded(plan.direct, CONCURRENCY, (channel) => send(`/notification_channels/${encodeURIComponent(channel.id)}/test`, "the channel's own test", [channel]));
  return entries;
}

// ---------------------------------------------------------------------------------------------
// Shared

/**
 * First pages of a monitor's results or a subscription's deliveries, newest first where the
 * server sorts by `-created_at` (a common sort key; spec 4.1 shows `sort` without its values).
 * A server that refuses that sort is asked without one, and then every page is read, so that a
 * new item is seen wherever the server puts it.
 */
class ResultLists {
  #sorted = true;

  constructor(private readonly api: ApiClient) {}

  async read(path: string): Promise<unknown[]> {
    if (this.#sorted) {
      try {
        const page = await this.api.request<unknown>("GET", path, { query: { limit: PAGE, sort: "-created_at" } });
        return Array.isArray(page.data) ? page.data : [];
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 400)) throw error;
        this.#sorted = false;
      }
    }
    return this.api.listAll<unknown>(path);
  }
}

/** Items of `after` that `before` did not list, by id (any letter case) or, without one, by content. */
function newItems(before: readonly unknown[], after: readonly unknown[]): unknown[] {
  const keyOf = (item: unknown): string => (isRecord(item) && typeof item["id"] === "string" ? `id:${item["id"].toLowerCase()}` : JSON.stringify(item));
  const known = new Set(before.map(keyOf));
  return after.filter((item) => !known.has(keyOf(item)));
}

/** Calls `probe` until it returns something, waiting longer each time, until `timeoutMs` after `startedMs`. */
async function poll<T>(options: VerifyOptions, startedMs: number, probe: () => Promise<T | undefined>): Promise<T | undefined> {
  let waitMs = options.firstPollMs ?? 500;
  const deadline = startedMs + options.timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    await sleep(Math.min(waitMs, left));
    waitMs = Math.min(waitMs * 2, options.maxPollMs ?? 5000);
  }
}

/**
 * A refused request is the object's failure (the service answered 4xx about it: paused by hand,
 * deleted by hand); anything else (no connection, a refused key, 5xx after retries) means the
 * object could not be verified.
 */
function failureOf(error: unknown, what: string): { reason: string; error: boolean } {
  if (error instanceof ApiError) {
    const objectFailure = error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403 && error.status !== 429;
    return { reason: `${what} refused: ${error.message}`, error: !objectFailure };
  }
  return { reason: `${what} not done: ${error instanceof Error ? error.message : String(error)}`, error: true };
}
