/**
 * A bad minute for the service: on every route, 30 % of requests answer 429 (Retry-After 1 s) or
 * 503 and 5 % of connections drop. The lifecycle of test/programs/fleet (up, refresh, destroy of
 * 40 resources) runs through it with the provider's default retry settings.
 *
 * Shared by scripts/bench-faults.ts (`npm run bench:faults`), which prints the figures of a
 * fault-free run and of three bad minutes as a real service makes them, and by
 * test/e2e/flaky-service.test.ts, which runs one on a fast clock (fewer resources, 429s that say
 * `Retry-After: 0` and fire a few times per command: see {@link BadMinute}) and checks that each
 * command succeeds at once, with no duplicate and nothing left.
 */
import type { Stack } from "@pulumi/pulumi/automation";

export const RESOURCE_COUNT = 40;

/** Every collection of the kinds the provider manages, where a stray object could be left. */
const COLLECTIONS = ["/monitors", "/heartbeats", "/heartbeat-groups", "/escalation-policies", "/notification_channels", "/webhook-subscriptions", "/client-templates"] as const;

/** A stack of test/programs/fleet and the emulator it deploys to. */
export interface FlakyServiceTarget {
  stack: Stack;
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT/__emulator` */
  adminUrl: string;
  apiKey: string;
}

export interface CommandFigures {
  command: "up" | "refresh" | "destroy";
  /** The command's own result, `succeeded` unless it failed. */
  result: string;
  seconds: number;
  requests: number;
  /** Attempts that met a fault; each was retried, since every command succeeded. */
  faulted: number;
  throttled: number;
  /** Attempts whose answer an injected latency held back. */
  delayed: number;
  /** `retrying ...` lines in the command's output. */
  notices: number;
  /** The `retrying ...` lines themselves, trimmed. */
  noticeLines: string[];
}

export interface LifecycleOutcome {
  figures: CommandFigures[];
  /** The names the program declared, by collection, sorted. */
  declared: Record<string, string[]>;
  /** The names the service held after up, by collection, sorted, counted with faults off. */
  afterUp: Record<string, string[]>;
  /** The same after destroy. */
  afterDestroy: Record<string, string[]>;
}

async function admin(target: FlakyServiceTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${target.adminUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`admin ${method} ${path} failed with ${response.status}: ${text}`);
  return text === "" ? undefined : (JSON.parse(text) as { data: unknown }).data;
}

/** How long each 429 of a bad minute asks clients to wait, in whole seconds (the header's unit). */
export const REAL_RETRY_AFTER_SECONDS = 1;

/** The shape of a bad minute; the defaults are a real service's. */
export interface BadMinute {
  /** The 429s' Retry-After, in whole seconds. Default {@link REAL_RETRY_AFTER_SECONDS}. */
  retryAfterSeconds?: number;
  /**
   * At most this many 429s per command; default no bound. Each 429 halves the client's rate, even
   * with `Retry-After: 0`, and a tenth of all requests keeps it near a few per second (a real
   * minute's cost, which the bench measures); a few are enough to prove that they are handled.
   */
  throttledAtMost?: number;
}

/**
 * 10 % 429, 20 % 503, 5 % dropped connections on every route. The first fault that fires wins,
 * so each probability applies to what the ones before left over. Each 429 holds back every request
 * of the deploy for its Retry-After, so its share sets the runtime.
 */
export async function injectBadMinute(target: FlakyServiceTarget, shape: BadMinute = {}): Promise<void> {
  const { retryAfterSeconds = REAL_RETRY_AFTER_SECONDS, throttledAtMost } = shape;
  await admin(target, "POST", "/faults", {
    path: "**",
    status: 429,
    retry_after_seconds: retryAfterSeconds,
    probability: 0.1,
    ...(throttledAtMost === undefined ? {} : { times: throttledAtMost }),
  });
  await admin(target, "POST", "/faults", { path: "**", status: 503, probability: 0.2 / 0.9 });
  await admin(target, "POST", "/faults", { path: "**", drop_connection: true, probability: 0.05 / 0.7 });
}

interface LoggedRequest {
  status: number;
  fault: unknown;
}

/** Runs one command with the request log cleared first, and sums up what the service saw. */
async function measured(
  target: FlakyServiceTarget,
  command: CommandFigures["command"],
  run: () => Promise<{ stdout: string; summary: { result: string } }>,
): Promise<CommandFigures> {
  await admin(target, "DELETE", "/requests");
  const started = performance.now();
  const { stdout, summary } = await run();
  const seconds = (performance.now() - started) / 1000;
  const log = (await admin(target, "GET", "/requests")) as LoggedRequest[];
  return {
    command,
    result: summary.result,
    seconds,
    requests: log.length,
    faulted: log.filter((entry) => entry.fault !== null).length,
    throttled: log.filter((entry) => entry.status === 429).length,
    delayed: log.filter((entry) => entry.fault === "latency").length,
    notices: stdout.split("\n").filter((line) => line.includes(": retrying ")).length,
    noticeLines: stdout.split("\n").filter((line) => line.includes(": retrying ")).map((line) => line.trim()),
  };
}

/** Objects of every collection, by name, sorted. */
async function namesInService(target: FlakyServiceTarget): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const collection of COLLECTIONS) {
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ all_clients: "true", limit: "250", ...(cursor === null ? {} : { cursor }) });
      const response = await fetch(`${target.baseUrl}${collection}?${query}`, { headers: { authorization: `Bearer ${target.apiKey}` } });
      if (!response.ok) throw new Error(`GET ${collection} answered ${response.status}: ${await response.text()}`);
      const page = (await response.json()) as { data: { name?: string }[]; pagination: { next_cursor: string | null } };
      names.push(...page.data.map((object) => object.name ?? ""));
      cursor = page.pagination.next_cursor;
    } while (cursor !== null);
    if (names.length > 0) found[collection] = names.sort();
  }
  return found;
}

/** How a lifecycle runs; the defaults are the bench's. */
export interface LifecycleOptions {
  /** Resources the program declares. Default {@link RESOURCE_COUNT}. */
  resourceCount?: number;
  /** The bad minute of each command, when there is one. */
  badMinute?: BadMinute;
  /** A test's own step between up and refresh (say, an empty preview), with the faults lifted. */
  betweenUpAndRefresh?: () => Promise<void>;
}

/**
 * up, refresh (expecting no changes) and destroy of a new generation of the program, through a
 * bad minute when `withFaults`; faults are lifted only to count what the service holds, and to run
 * `betweenUpAndRefresh`.
 */
export async function lifecycle(target: FlakyServiceTarget, generation: number, withFaults: boolean, options: LifecycleOptions = {}): Promise<LifecycleOutcome> {
  const { stack } = target;
  const { resourceCount = RESOURCE_COUNT, badMinute, betweenUpAndRefresh } = options;
  await stack.setConfig("resourceCount", { value: String(resourceCount) });
  await stack.setConfig("generation", { value: String(generation) });
  const figures: CommandFigures[] = [];
  if (withFaults) await injectBadMinute(target, badMinute);
  let declared: Record<string, string[]> = {};
  figures.push(
    await measured(target, "up", async () => {
      const up = await stack.up();
      declared = up.outputs["names"]?.value as Record<string, string[]>;
      return up;
    }),
  );
  await admin(target, "DELETE", "/faults");
  const afterUp = await namesInService(target);
  await betweenUpAndRefresh?.();
  if (withFaults) await injectBadMinute(target, badMinute);
  figures.push(await measured(target, "refresh", () => stack.refresh({ expectNoChanges: true })));
  figures.push(await measured(target, "destroy", () => stack.destroy()));
  await admin(target, "DELETE", "/faults");
  return {
    figures,
    declared: Object.fromEntries(Object.entries(declared).map(([collection, names]) => [collection, [...names].sort()])),
    afterUp,
    afterDestroy: await namesInService(target),
  };
}

/** The figures of one lifecycle as lines of text, under a label. */
export function figuresTable(label: string, figures: CommandFigures[]): string {
  const lines = figures.map(
    (entry) =>
      `  ${entry.command.padEnd(8)} ${entry.seconds.toFixed(1).padStart(6)} s  ${String(entry.requests).padStart(4)} requests, ` +
      `${String(entry.faulted).padStart(3)} faulted and retried (${entry.throttled} of them 429), ${entry.notices} retry notices`,
  );
  const total = figures.reduce((sum, entry) => sum + entry.seconds, 0);
  return `[flaky-service] ${label}: ${total.toFixed(1)} s\n${lines.join("\n")}`;
}
