/**
 * What the example and demo tests share: the stack configuration that points a program at a test
 * emulator, reads of the emulator's API to see what a deployment left in the service, and the
 * fleet's command line run as a child process or, for commands that start no stack operation, in this one.
 */
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { type CommandResult, runHere } from "../support/commands.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { useStarted } from "../support/use-started.js";
import { createTestStack, repoRoot, testPassphrase, type TestStack, type TestStackOptions } from "../support/pulumi.js";

/** `monitoring:apiUrl` and the secret `monitoring:apiKey` of the emulator. */
export function connectionConfig(emulator: TestEmulator): ConfigMap {
  return {
    "monitoring:apiUrl": { value: emulator.baseUrl },
    "monitoring:apiKey": { value: emulator.apiKey, secret: true },
  };
}

export type ApiObject = Record<string, unknown> & { id: string };

/** The service as the tests look at it: one GET at a time, with the emulator's full-access key. */
export class ServiceView {
  constructor(private readonly emulator: TestEmulator) {}

  /** The object at `path`, or undefined when the service answers 404. */
  async find(path: string): Promise<ApiObject | undefined> {
    const response = await this.get(path);
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: ApiObject }).data;
  }

  /** Every object of a collection (all pages), filtered by `query` (e.g. `{ client_id }`). */
  async list(collection: string, query: Record<string, string> = {}): Promise<ApiObject[]> {
    const objects: ApiObject[] = [];
    let cursor: string | null = null;
    do {
      const params = new URLSearchParams({ ...query, limit: "250", ...(cursor === null ? {} : { cursor }) });
      const response = await this.get(`${collection}?${params}`);
      if (!response.ok) throw new Error(`GET ${collection} answered ${response.status}: ${await response.text()}`);
      const page = (await response.json()) as { data: ApiObject[]; pagination: { next_cursor: string | null } };
      objects.push(...page.data);
      cursor = page.pagination.next_cursor;
    } while (cursor !== null);
    return objects;
  }

  private get(path: string): Promise<Response> {
    return fetch(`${this.emulator.baseUrl}${path}`, { headers: { authorization: `Bearer ${this.emulator.apiKey}` } });
  }
}

/** An example deployed on an emulator of its own, as the tests of one file see it. */
export interface ExampleStack {
  readonly emulator: TestEmulator;
  readonly service: ServiceView;
  readonly harness: TestStack;
}

/**
 * The example's stack on an emulator of its own, configured to reach it, for the tests of the file
 * or `describe` block that calls this: made before them, removed with the emulator after them.
 */
export function useExampleStack(options: TestStackOptions): ExampleStack {
  return useStarted(
    async () => {
      const emulator = await startTestEmulator();
      try {
        const harness = await createTestStack({ ...options, config: { ...connectionConfig(emulator), ...options.config } });
        return { emulator, service: new ServiceView(emulator), harness };
      } catch (error) {
        await emulator.stop();
        throw error;
      }
    },
    async ({ emulator, harness }) => {
      await harness.dispose();
      await emulator.stop();
    },
  );
}

/**
 * The environment of one CI runner's CLI in a test of teams: its own Pulumi home under `base`, the
 * shared state `backend` (PULUMI_BACKEND_URL and, for PostgreSQL, libpq's variables), the stacks'
 * passphrase and the emulator as the service. The example is type-checked by the suite
 * (test/architecture/types.test.ts), so the many stack runs need not again.
 */
export function runnerEnvironment(base: string, runner: string, backend: Record<string, string>, emulator: Pick<TestEmulator, "baseUrl" | "apiKey">): Record<string, string> {
  return {
    ...backend,
    PULUMI_HOME: join(base, `home-${runner}`),
    PULUMI_CONFIG_PASSPHRASE: testPassphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    MONITORING_API_URL: emulator.baseUrl,
    MONITORING_API_KEY: emulator.apiKey,
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
}

export { type CommandResult, runHere };

/** `pulumi-monitoring fleet <args>` in this process: {@link runHere}. */
export function runFleetHere(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return runHere(["fleet", ...args], env);
}

/** Runs `pulumi-monitoring <args>` as users run it (`node dist/cli/main.js`), with `env`. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return new Promise((resolve) =>
    execFile(process.execPath, [join(repoRoot, "dist/cli/main.js"), ...args], { env, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr }),
    ),
  );
}

/** Runs `pulumi-monitoring fleet <args>` as users run it (`node dist/cli/main.js`), with `env`. */
export function runFleetCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  return runCli(["fleet", ...args], env);
}
