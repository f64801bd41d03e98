/**
 * Assembles the emulator: the state, the operation table, the webhook deliverer, the admin API,
 * the ping and share-link pages, and one HTTP server on 127.0.0.1 that serves them all.
 */
// @ts-nocheck

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { ADMIN_PREFIX, createAdminHandler, staticAdminInfo } from "./admin.js";
import { registerAdvisorRoutes } from "./api/advisor.js";
import { ALL_SCOPES, apiKeyRecord, isWellFormedKey, newSandboxKey } from "./api/auth.js";
import { clientKind, refreshShareUrls, registerClientRoutes, sharedStatus } from "./api/clients.js";
import type { ApiHandler, Services } from "./api/context.js";
import { registerPolicyRoutes } from "./api/escalation-policies.js";
import { fieldTables, type TableName } from "./api/fields.js";
import { heartbeatKind, PingTokens, recordPing, refreshPingUrls, registerHeartbeatRoutes, sweepHeartbeats } from "./api/heartbeats.js";
import { Idempotency } from "./api/idempotency.js";
import { incidentKind, registerIncidentRoutes } from "./api/incidents.js";
import { monitorKind, registerMonitorRoutes } from "./api/monitors.js";
import { registerChannelRoutes } from "./api/notification-channels.js";
import { asShownError, createApiPipeline } from "./api/pipeline.js";
import { accountIdOf, createPresenter } from "./api/presentation.js";
import { FieldRules } from "./api/validation.js";
import type { KindSpec } from "./api/common.js";
import { DEFAULT_PROFILE, profileNamed, type ProfileName } from "./profile.js";
import { RateLimit } from "./api/rate-limit.js";
import { registerSubscriptionRoutes } from "./api/webhook-subscriptions.js";
import { Clock } from "./clock.js";
import { HttpError } from "./http/errors.js";
import { FaultTable } from "./http/faults.js";
import { newRequestId, readBody, send, sendError } from "./http/io.js";
import { RequestLog } from "./http/request-log.js";
import { Router } from "./http/router.js";
import { NotificationOutbox } from "./notifications.js";
import { Store } from "./state/store.js";
import { DEFAULT_DELIVERY_OPTIONS, WebhookDeliverer, type DeliveryOptions } from "./webhooks/deliverer.js";
import { EventBus, type EventType } from "./webhooks/events.js";

export interface EmulatorOptions {
  /** TCP port on 127.0.0.1; 0 or absent picks a free one. */
  port?: number;
  /** JSON file the state is kept in across restarts; in memory only when absent. */
  dataFile?: string;
  /** The full-access sandbox key (`pls_test_…`); otherwise the one saved in the data file, or a new one. */
  apiKey?: string;
  /** Do not print the startup banner. */
  quiet?: boolean;
  /** At most this many requests per key per second (429 beyond); unlimited when absent. */
  rateLimit?: number;
  /** Webhook delivery attempts, backoff and timeout. */
  webhooks?: Partial<DeliveryOptions>;
  /** How often time-driven transitions (heartbeats going late) are evaluated. Default 1000 ms. */
  tickMs?: number;
  /** The choices where the spec is silent: `default` (emulator/README.md) or `alt`. Default `default`. */
  profile?: ProfileName;
  /** `false` ignores `Idempotency-Key` entirely: every request runs as new. Default `true`. */
  idempotency?: boolean;
}

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT/__emulator` */
  adminUrl: string;
  /** The full-access sandbox key. */
  apiKey: string;
  port: number;
  stop(): Promise<void>;
}

const IDEMPOTENCY_PURGE_INTERVAL_MS = 60_000;

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  if (options.apiKey !== undefined && !isWellFormedKey(options.apiKey)) {
    throw new Error("The API key must be pls_test_ followed by 16 to 128 characters of A-Z a-z 0-9 _ -");
  }
  const profile = options.profile === undefined ? DEFAULT_PROFILE : profileNamed(options.profile);
  const clock = new Clock();
  const fullAccess = (key: string) => apiKeyRecord(key, ALL_SCOPES, "default (full access)", clock.nowIso());
  const store = await Store.open({
    dataFile: options.dataFile,
    requestedDefaultKey: options.apiKey,
    newDefaultKey: () => fullAccess(newSandboxKey()),
    fullAccess,
  });
  // Saves the default key at once (a restart then prints the same one) and fails early when the data file cannot be written.
  await store.commit();

  let origin = "http://127.0.0.1";
  const tables = fieldTables(profile);
  const rules = Object.fromEntries(
    Object.entries(tables).map(([name, table]) => [name, new FieldRules(table, profile)]),
  ) as Record<TableName, FieldRules>;
  const presenter = createPresenter(profile, tables, () => origin, accountIdOf(store.defaultKey.key));
  const deliverer = new WebhookDeliverer(store, clock, { ...DEFAULT_DELIVERY_OPTIONS, ...options.webhooks });
  const events = new EventBus(store, clock, deliverer, (type, object) => presenter.data(object, kindOfEvent(type)));
  const outbox = new NotificationOutbox();
  const services: Services = { store, clock, events, outbox, origin: () => origin, profile, rules, present: presenter.object };
  const router = new Router<ApiHandler>();
  const route = (method: string, pattern: string, scope: string | null, handler: ApiHandler) => router.add(method, pattern, scope, handler);
  const pingTokens = new PingTokens(services);
  registerMonitorRoutes(route, services);
  registerHeartbeatRoutes(route, services, pingTokens);
  registerIncidentRoutes(route, services);
  registerPolicyRoutes(route, services);
  registerChannelRoutes(route, services);
  registerSubscriptionRoutes(route, services, deliverer);
  registerClientRoutes(route, services);
  registerAdvisorRoutes(route, services);

  const faults = new FaultTable();
  const requestLog = new RequestLog();
  const idempotency = options.idempotency === false ? undefined : new Idempotency(store, clock);
  const handleApi = createApiPipeline({
    store,
    clock,
    router,
    faults,
    requestLog,
    idempotency,
    rateLimit: options.rateLimit === undefined ? undefined : new RateLimit(options.rateLimit),
    profile,
    presenter,
  });
  /** Errors outside /v1 (ping URLs, share pages) in the profile's codes. */
  const sendApiError = (response: ServerResponse, error: HttpError) => sendError(response, asShownError(profile, presenter, error));
  const runTimeDrivenTransitions = () => {
    if (sweepHeartbeats(services)) store.commit()?.catch((error: unknown) => console.error("emulator: could not save:", error));
  };
  const handleAdmin = createAdminHandler({
    store,
    clock,
    faults,
    requestLog,
    outbox,
    onClockAdvanced: runTimeDrivenTransitions,
    onReset: () => deliverer.cancelAll(),
    info: () => ({
      base_url: `${origin}/v1`,
      admin_url: `${origin}${ADMIN_PREFIX}`,
      persistent: store.persistent,
      ...staticAdminInfo(profile),
    }),
  });

  const server: Server = createServer((request, response) => {
    void dispatch(request, response).catch((error: unknown) => {
      console.error("emulator: request failed:", error);
      if (!response.headersSent) sendError(response, new HttpError(500, "internal_error", "Unexpected failure"));
      else response.destroy();
    });
  });

  async function dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = request.url ?? "/";
    const queryStart = target.indexOf("?");
    const path = queryStart === -1 ? target : target.slice(0, queryStart);
    const query = queryStart === -1 ? "" : target.slice(queryStart + 1);
    if (path === "/v1" || path.startsWith("/v1/")) return handleApi(request, response, path.slice(3) || "/", query);
    if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) return handleAdmin(request, response, path);
    const ping = /^\/ping\/([A-Za-z0-9_-]+)$/.exec(path);
    if (ping !== null && (request.method === "GET" || request.method === "POST" || request.method === "HEAD")) {
      return handlePing(request, response, ping[1]!);
    }
    const share = /^\/share\/([A-Za-z0-9_-]+)$/.exec(path);
    if (share !== null && request.method === "GET") {
      const status = sharedStatus(services, share[1]!);
      if (status !== undefined) return send(response, 200, JSON.stringify({ data: presenter.ids(status) }), { "x-request-id": newRequestId() });
      return sendApiError(response, new HttpError(404, "not_found", "Unknown or expired share link"));
    }
    sendApiError(response, new HttpError(404, "not_found", `Nothing at ${path}; the API is under /v1`, { path }));
  }

  async function handlePing(request: IncomingMessage, response: ServerResponse, token: string): Promise<void> {
    await readBody(request);
    const heartbeat = pingTokens.heartbeat(token);
    if (heartbeat === undefined) {
      return sendApiError(response, new HttpError(404, "not_found", "Unknown ping URL"));
    }
    recordPing(services, heartbeat, {
      method: request.method ?? "GET",
      sourceIp: request.socket.remoteAddress ?? "",
      userAgent: request.headers["user-agent"] ?? null,
    });
    await store.commit();
    const answer = { data: presenter.ids({ heartbeat_id: heartbeat.doc["id"], status: heartbeat.doc["status"] }) };
    send(response, 200, JSON.stringify(answer), { "x-request-id": newRequestId() });
  }

  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  refreshPingUrls(services);
  refreshShareUrls(services);
  deliverer.resumePending();

  const tick = setInterval(runTimeDrivenTransitions, options.tickMs ?? 1000);
  tick.unref();
  const purge = setInterval(() => idempotency?.purgeExpired(), IDEMPOTENCY_PURGE_INTERVAL_MS);
  purge.unref();

  const running: RunningEmulator = {
    baseUrl: `${origin}/v1`,
    adminUrl: `${origin}${ADMIN_PREFIX}`,
    apiKey: store.defaultKey.key,
    port,
    async stop() {
      clearInterval(tick);
      clearInterval(purge);
      await deliverer.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await store.commit();
    },
  };
  if (!options.quiet) printBanner(running, options.dataFile, profile.name);
  return running;
}

/** The kind of the object an event carries (`webhook.test` carries none). */
function kindOfEvent(type: EventType): KindSpec | undefined {
  const kinds: Record<string, KindSpec> = { monitor: monitorKind, heartbeat: heartbeatKind, incident: incidentKind, client: clientKind };
  return kinds[type.split(".")[0]!];
}

function printBanner(running: RunningEmulator, dataFile: string | undefined, profile: ProfileName): void {
  console.log(`Monitoring API emulator listening on ${running.baseUrl} (profile ${profile})`);
  console.log(`  admin API: ${running.adminUrl}`);
  console.log(`  state: ${dataFile === undefined ? "in memory" : `data file ${dataFile}`}`);
  console.log(`  sandbox API key (full access): ${running.apiKey}`);
}
