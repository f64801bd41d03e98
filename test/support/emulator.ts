/**
 * Starts an emulator for a test file: on a free port, in memory unless a data file is given,
 * quiet, with a fast webhook retry schedule. Other test files import this instead of the
 * emulator's internals.
 *
 *   const emulator = await startTestEmulator();          // or ({ profile: "alt" }), ({ idempotency: false })
 *   await fetch(`${emulator.baseUrl}/monitors`, { headers: { authorization: `Bearer ${emulator.apiKey}` } });
 *   const id = (await emulator.byHand<{ id: string }>("POST", "/monitors", { url: "https://x.example" })).id;
 *   await emulator.admin.injectFault({ method: "POST", path: "/monitors", status: 503, times: 1 });
 *   expect(await emulator.admin.requestLog()).toHaveLength(0);
 *   await emulator.stop();
 */
import { inject } from "vitest";
import { useStarted } from "./use-started.js";
import { startEmulator, type EmulatorOptions, type Fault, type FaultSpec, type Notification, type RequestLogEntry } from "../../emulator/index.js";

export interface CreatedKey {
  id: string;
  key: string;
  scopes: string[];
}

export interface EmulatorAdmin {
  /** A new sandbox key holding exactly `scopes`; `key` chooses it (`pls_test_` and 16 to 128 characters). */
  createKey(scopes: readonly string[], label?: string, key?: string): Promise<CreatedKey>;
  /** Revokes a key made with createKey: the service answers 401 to it from now on. */
  revokeKey(id: string): Promise<void>;
  /** Every request under /v1 so far, oldest first, faulted ones included. */
  requestLog(): Promise<RequestLogEntry[]>;
  clearRequestLog(): Promise<void>;
  injectFault(fault: FaultSpec): Promise<Fault>;
  faults(): Promise<Fault[]>;
  clearFaults(): Promise<void>;
  /** What the emulator would have sent to notification channels. */
  notifications(): Promise<Notification[]>;
  /** Moves the emulator's clock forward and runs what time triggers (heartbeats going late). */
  advanceClock(seconds: number): Promise<void>;
  /** Back to a fresh start: no objects, only the default key, no faults, an empty log. */
  reset(): Promise<void>;
}

export interface TestEmulator {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT/__emulator` */
  adminUrl: string;
  /** A full-access sandbox key. */
  apiKey: string;
  admin: EmulatorAdmin;
  /**
   * A change made by hand through the API, as a person with the full-access key would: the
   * envelope's `data` (undefined for a 204). A refusal fails the test, naming the request.
   */
  byHand<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Webhook retries for tests: 3 attempts, 50 ms then 100 ms apart, 2 s per attempt; delivered to
 * loopback receivers only, since tests talk to 127.0.0.1 alone. (The programs' made-up hosts,
 * such as hooks.example.com, each took a DNS lookup per attempt: the lookups queued in the test
 * process's four resolver threads, and an emulator's stop waited for them, up to 20 s.)
 */
export const FAST_WEBHOOKS = { maxAttempts: 3, backoffBaseMs: 50, timeoutMs: 2000, loopbackOnly: true } as const;

/** An emulator that `npm run test:e2e` started once for the run (test/support/warm-emulators.ts). */
export interface WarmEmulator {
  baseUrl: string;
  adminUrl: string;
  apiKey: string;
}

/** Profiles whose warm emulator a stack of this process holds now. */
const leasedProfiles = new Set<string>();

/**
 * The run's warm emulator of the profile, reset to a fresh start, when `npm run test:e2e` started
 * one, the options ask for nothing but a profile, and no other caller in this process holds it;
 * otherwise undefined. Stopping it hands it back and leaves it running, as it was at the end of
 * the test, until the run ends.
 */
async function leaseWarmEmulator(options: Omit<EmulatorOptions, "port" | "quiet">): Promise<TestEmulator | undefined> {
  const { profile = "default", ...others } = options;
  if (Object.keys(others).length > 0 || leasedProfiles.has(profile)) return undefined;
  let warm: WarmEmulator | undefined;
  try {
    warm = inject("warmEmulators")?.[profile];
  } catch {
    // Called outside a test run (a benchmark): no warm emulator.
    return undefined;
  }
  if (warm === undefined) return undefined;
  leasedProfiles.add(profile);
  const admin = emulatorAdmin(warm.adminUrl);
  await admin.reset();
  return { ...warm, admin, byHand: byHandOn(warm.baseUrl, warm.apiKey), stop: async () => void leasedProfiles.delete(profile) };
}

export async function startTestEmulator(options: Omit<EmulatorOptions, "port" | "quiet"> = {}): Promise<TestEmulator> {
  const warm = await leaseWarmEmulator(options);
  if (warm !== undefined) return warm;
  const running = await startEmulator({ ...options, quiet: true, webhooks: { ...FAST_WEBHOOKS, ...options.webhooks } });
  return { baseUrl: running.baseUrl, adminUrl: running.adminUrl, apiKey: running.apiKey, admin: emulatorAdmin(running.adminUrl), byHand: byHandOn(running.baseUrl, running.apiKey), stop: running.stop };
}

/** Changes made by hand through the API of the emulator at `baseUrl`, with its full-access key. */
function byHandOn(baseUrl: string, apiKey: string): TestEmulator["byHand"] {
  async function byHand<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} by hand: ${response.status} ${text}`);
    return (text === "" ? undefined : (JSON.parse(text) as { data: T }).data) as T;
  }
  return byHand;
}

/** Typed calls to the admin API of an emulator, running here or in another process. */
export function emulatorAdmin(adminUrl: string): EmulatorAdmin {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${adminUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`admin ${method} ${path} failed with ${response.status}: ${text}`);
    return (text === "" ? undefined : (JSON.parse(text) as { data: T }).data) as T;
  }
  return {
    createKey: (scopes, label, key) => call("POST", "/keys", { scopes, ...(label === undefined ? {} : { label }), ...(key === undefined ? {} : { key }) }),
    revokeKey: (id) => call("DELETE", `/keys/${encodeURIComponent(id)}`),
    requestLog: () => call("GET", "/requests"),
    clearRequestLog: () => call("DELETE", "/requests"),
    injectFault: (fault) => call("POST", "/faults", fault),
    faults: () => call("GET", "/faults"),
    clearFaults: () => call("DELETE", "/faults"),
    notifications: () => call("GET", "/notifications"),
    advanceClock: async (seconds) => {
      await call("POST", "/clock", { advance_seconds: seconds });
    },
    reset: () => call("POST", "/reset"),
  };
}

/** An emulator and a client on it: the pair most test files start with. */
export interface EmulatorWithClient<C> {
  emulator: TestEmulator;
  api: C;
}

/**
 * Starts an emulator and makes a client on it with `clientOn`, the provider's
 * (test/support/provider-client.ts) or the contract tests' own (test/emulator/support/api.ts):
 *
 *   beforeAll(async () => ({ emulator, api } = await startEmulatorWith(providerClientOn)));
 *   afterAll(() => stopEmulatorWith({ emulator, api }));
 */
export async function startEmulatorWith<C>(clientOn: (emulator: TestEmulator) => C, options: Parameters<typeof startTestEmulator>[0] = {}): Promise<EmulatorWithClient<C>> {
  const emulator = await startTestEmulator(options);
  return { emulator, api: clientOn(emulator) };
}

/**
 * An emulator and a client on it for the tests of the file or `describe` block that calls this:
 * started before them, stopped after them, read as `on.emulator` and `on.api`.
 *
 *   const on = useEmulatorWith(providerClientOn, { profile: "alt" });
 *   it("…", async () => { await on.api.request("GET", "/monitors"); expect(await on.emulator.admin.requestLog()).toHaveLength(1); });
 */
export function useEmulatorWith<C>(clientOn: (emulator: TestEmulator) => C, options: Parameters<typeof startTestEmulator>[0] = {}): EmulatorWithClient<C> {
  return useStarted(() => startEmulatorWith(clientOn, options), stopEmulatorWith);
}

/** Closes the client's connections, when it keeps any, then stops the emulator. */
export async function stopEmulatorWith<C>(pair: Partial<EmulatorWithClient<C>>): Promise<void> {
  const closable = pair.api as { close?: () => Promise<void> } | undefined;
  await closable?.close?.();
  await pair.emulator?.stop();
}
