/**
 * What the end-to-end files share: an emulator, a stack of a test program connected to it, and
 * views of the emulator's contents and request log.
 */
import { expect } from "vitest";
import { type CommandResult, runHere } from "../support/commands.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { createTestStack, testPassphrase, type TestStack, type TestStackOptions } from "../support/pulumi.js";

export interface Deployment {
  emulator: TestEmulator;
  harness: TestStack;
  /** GET on the API with the emulator's full-access key; the `data` of the envelope. */
  api<T = unknown>(path: string): Promise<T>;
  /** Every object of a collection, across all clients. */
  listAll<T = Record<string, unknown>>(collection: string): Promise<T[]>;
  /** The stack, then the emulator; `keepObjects` skips the stack's destroy (TestStack.dispose). */
  dispose(options?: { keepObjects?: boolean }): Promise<void>;
}

/** Secret values the programs take from config, looked for in state by the secrets tests. */
export const secrets = {
  basicAuthPassword: "pw-7f3a9c1e-basic-auth",
  headerValue: "hv-52b1d0e4-header-token",
  chatWebhookUrl: "https://hooks.chat.example/services/T000/B000/sk-9e8d7c6b",
};

/** The emulator's profiles: its own choices where the spec is silent, and another server's (emulator/README.md). */
export const profiles = [
  { profile: "default", regions: "eu-west-1,us-east-1" },
  { profile: "alt", regions: "eu-west,us-east" },
] as const;

export async function deploy(options: TestStackOptions & { profile?: "default" | "alt" }): Promise<Deployment> {
  const emulator = await startTestEmulator(options.profile === undefined ? {} : { profile: options.profile });
  const harness = await createTestStack({
    ...options,
    config: {
      "monitoring:apiUrl": { value: emulator.baseUrl },
      "monitoring:apiKey": { value: emulator.apiKey, secret: true },
      ...options.config,
    },
  });
  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${emulator.baseUrl}${path}`, { headers: { authorization: `Bearer ${emulator.apiKey}` } });
    const body = (await response.json()) as { data: T };
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(body)}`);
    return body.data;
  }
  async function listAll<T>(collection: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const query = new URLSearchParams({ all_clients: "true", limit: "250", ...(cursor ? { cursor } : {}) });
      const response = await fetch(`${emulator.baseUrl}${collection}?${query}`, { headers: { authorization: `Bearer ${emulator.apiKey}` } });
      const body = (await response.json()) as { data: T[]; pagination: { next_cursor: string | null } };
      items.push(...body.data);
      cursor = body.pagination.next_cursor ?? undefined;
    } while (cursor);
    return items;
  }
  return {
    emulator,
    harness,
    api,
    listAll,
    async dispose(disposal) {
      try {
        await harness.dispose(disposal);
      } finally {
        await emulator.stop();
      }
    },
  };
}

/** The kinds of the API that the provider manages, by collection path. */
export const collections = ["/monitors", "/heartbeats", "/heartbeat-groups", "/escalation-policies", "/notification_channels", "/webhook-subscriptions", "/client-templates"] as const;

/** The environment of this package's commands on the deployment's stack: its file backend and passphrase. */
export function commandEnv(deployment: Deployment): Record<string, string> {
  return {
    PULUMI_BACKEND_URL: `file://${deployment.harness.backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: testPassphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
}

/** `pulumi-monitoring <args>` in the deployment's project, in this process (test/support/commands.ts): what it printed and its exit status. */
export function runCommandOn(deployment: Deployment, ...args: string[]): Promise<CommandResult> {
  return runHere([...args, "--cwd", deployment.harness.workDir], commandEnv(deployment));
}

/**
 * What drift finds of the set `fleet` of the hand-change stories (test/e2e/hand-changes.test.ts,
 * test/cli/drift-alt-profile.test.ts) after the same changes by hand: `api` renamed, `docs`
 * deleted, `web` paused with its interval (left out by the program) changed.
 */
export function setMembersChangedByHand(ids: Record<string, string | undefined>, paused: Record<string, unknown>): unknown[] {
  const member = (key: string, finding: Record<string, unknown>) => expect.objectContaining({ type: "MonitorSet", name: `fleet[${key}]`, id: ids[key], ...finding });
  return [
    member("api", { drift: "changed", fields: [{ field: "name", recorded: "Api", actual: "Api renamed by hand", declared: true }] }),
    member("docs", { drift: "deleted", fields: [] }),
    member("web", { drift: "changed", paused, fields: [{ field: "intervalSeconds", recorded: 60, actual: 900, declared: false }] }),
  ];
}
