/**
 * A bad minute for the service: on every route, 30 % of requests answer 429 (Retry-After 1 s) or
 * 503 and 5 % of connections drop. The lifecycle of test/programs/fleet (up, refresh, destroy of
 * 40 resources) runs through it with the provider's default retry settings.
 *
 * Shared by test/e2e/flaky-service.test.ts, which runs it once on a fast clock (its 429s say
 * `Retry-After: 0`, so the test proves the handling of every fault without waiting out a second
 * for each) and checks that each command succeeds at once, with no duplicate and nothing left, and
 * scripts/bench-faults.ts (`npm run bench:faults`), which prints the figures of a fault-free run
 * and of three bad minutes as a real service makes them (`Retry-After: 1`).
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

/**
 * 10 % 429 (Retry-After `retryAfterSeconds`, 1 s as a real service sends), 20 % 503, 5 % dropped
 * connections on every route. The first fault that fires wins, so each probability applies to what
 * the ones before left over. Each 429 holds back every request of the deploy for its Retry-After,
 * so its share sets the runtime; with 0 the client still halves its rate after each 429.
 */
export async function injectBadMinute(target: FlakyServiceTarget, retryAfterSeconds: number = REAL_RETRY_AFTER_SECONDS): Promise<void> {
  await admin(target, "POST", "/faults", { path: "**", status: 429, retry_after_seconds: retryAfterSeconds, probability: 0.1 });
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

/**
 * up, refresh (expecting no changes) and destroy of a new generation of the program, through a
 * bad minute when `withFaults` (its 429s asking for `retryAfterSeconds`); faults are lifted only
 * to count what the service holds, and to run `betweenUpAndRefresh` (a test's own step, say an
 * empty preview).
 */
export async function lifecycle(
  target: FlakyServiceTarget,
  generation: number,
  withFaults: boolean,
  retryAfterSeconds: number = REAL_RETRY_AFTER_SECONDS,
  betweenUpAndRefresh?: () => Promise<void>,
): Promise<LifecycleOutcome> {
  const { stack } = target;
  await stack.setConfig("resourceCount", { value: String(RESOURCE_COUNT) });
  await stack.setConfig("generation", { value: String(generation) });
  const figures: CommandFigures[] = [];
  if (withFaults) await injectBadMinute(target, retryAfterSeconds);
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
  if (withFaults) await injectBadMinute(target, retryAfterSeconds);
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
