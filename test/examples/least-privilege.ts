/**
 * Least-privilege keys (issue 45), on the emulator, one stack per test file (scopes-*.test.ts),
 * for the demo stack and the agency example. Sufficiency: a key holding exactly the set
 * `pulumi-monitoring scopes` computes runs up, refresh, drift, verify and destroy, and every
 * request each sends resolves to a route of the table that the report predicted for that command.
 * Minimality: for each scope of the set, a key lacking just that scope fails at an operation the
 * report names for it, in the first of refresh, drift, verify and destroy that needs it, and the
 * 403 message names the scope; a refresh's reads and a destroy's deletes run through the
 * provider's dispatcher in this process, with the key, and so do drift's lists of the objects no
 * stack manages (cli/drift/check.ts), the part of drift a refresh does not send. `scopes --check`: GETs only; a key missing
 * two scopes is refused naming both, the computed key passes.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ScopeReads, unmanagedObjects } from "../../cli/drift/check.js";
import { drift as driftCommand } from "../../cli/drift/command.js";
import type { RecordedResource } from "../../cli/drift/unmanaged.js";
import { readProject } from "../../cli/project/project.js";
import type { CommandIO } from "../../cli/command/io.js";
import type * as scopesCommand from "../../cli/scopes/command.js";
import { type CommandName, type ScopesReport } from "../../cli/scopes/needs.js";
import { kindOfTypeToken } from "../../schema/type-token.js";
import { verify as verifyCommand } from "../../cli/verify/command.js";
import { resolveSettings } from "../../provider/config.js";
import { internal } from "../../provider/fields.js";
import { resolveRoute, routeName } from "../../schema/routes.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { builtModule, createTestStack, testPassphrase, type TestStack } from "../support/pulumi.js";
import { connectionConfig } from "./support.js";

export interface Case {
  name: string;
  profile: "default" | "alt";
  program: string;
  stackName?: string;
  files: string[];
  config?: ConfigMap;
  /** Changes the program's copy before anything runs (the alt profile's region names, say). */
  adapt?: (workDir: string) => Promise<void>;
  /**
   * Whether a key lacking each scope in turn is tried, and the full key's `scopes --check`. The rules are the route table's and
   * the same on either profile: a file for the second profile proves sufficiency and the check of a key missing two scopes (the
   * profile's own refusals), and leaves these out to stay short.
   */
  eachScopeNeeded: boolean;
}


/** Built: it runs the stack's program in this process (test/support/pulumi.ts, builtModule). */
const { run, SCOPES_EXIT } = builtModule<typeof scopesCommand>("cli/scopes/command.ts");

/** The commands a missing scope is tried with, in this order: the first that needs it. */
const PROBES = ["refresh", "drift", "verify", "destroy"] as const satisfies readonly CommandName[];

interface Printed {
  code: number;
  output: string;
}

/** The acceptance of issue 45 for one stack of an example. */
export function describeLeastPrivilege(testCase: Case): void {
  describe(`${testCase.name} with a least-privilege key`, () => {
    leastPrivilege(testCase);
  });
}

function leastPrivilege(testCase: Case): void {
  let emulator: TestEmulator;
  let harness: TestStack;
  let report: ScopesReport;

  /** Runs a command of this package's CLI in this process, on the test stack's backend. */
  async function cli(command: (io: CommandIO) => Promise<number>): Promise<Printed> {
    let output = "";
    const sink = { write: (text: string) => ((output += text), true) };
    vi.stubEnv("PULUMI_BACKEND_URL", `file://${harness.backendDir}`);
    vi.stubEnv("PULUMI_CONFIG_PASSPHRASE", testPassphrase);
    vi.stubEnv("PULUMI_SKIP_UPDATE_CHECK", "true");
    vi.stubEnv("PULUMI_NODEJS_TRANSPILE_ONLY", "true");
    try {
      const code = await command({ stdout: sink, stderr: sink, stdin: process.stdin, signals: process, env: process.env });
      return { code, output };
    } finally {
      vi.unstubAllEnvs();
    }
  }
  const stackArgs = (): string[] => ["--cwd", harness.workDir, "--stack", harness.stack.name];
  const scopes = (check: boolean): Promise<Printed> => cli((io) => run({ cwd: harness.workDir, stack: harness.stack.name, json: true, check } satisfies scopesCommand.ScopesOptions, io));
  const useKey = async (held: readonly string[]): Promise<string> => {
    const { key } = await emulator.admin.createKey(held);
    await harness.stack.setConfig("monitoring:apiKey", { value: key, secret: true });
    return key;
  };

  /**
   * The resources of this package the state records, read once after the up: the probes change
   * no state (a refused delete deletes nothing).
   */
  type Recorded = Array<{ type: string; id?: string; outputs?: Record<string, unknown> }>;
  let recorded: Promise<Recorded> | undefined;
  const recordedResources = (): Promise<Recorded> => (recorded ??= harness.stack.exportStack().then(({ deployment }) => (deployment as { resources: Array<{ type: string }> }).resources.filter((entry) => kindOfTypeToken(entry.type) !== undefined)));
  /**
   * The provider's dispatcher in this process, configured with `key`, and the resources of this
   * package the state records, without the stack their outputs name: the dispatcher then sends the
   * key it was configured with, as for a state written before the provider recorded the stack.
   * With the stack, a first read would read the stack's configuration now instead (the same key:
   * useKey set it), at the cost of a CLI run per probe, since each key is a new secret.
   */
  async function providerWith(key: string) {
    const resources = recordedResources().then((all) => all.map(({ outputs, ...resource }) => ({ ...resource, outputs: withoutStack(outputs) })));
    // A fresh provider module per key, as a provider process is: no list page read with another key is reused.
    vi.resetModules();
    const { dispatcher } = await import("../../provider/index.js");
    await dispatcher.configure({ config: new Map([["monitoring:apiUrl", emulator.baseUrl], ["monitoring:apiKey", key]]) } as unknown as pulumi.dynamic.ConfigureRequest);
    return { dispatcher, resources: await resources };
  }
  const withoutStack = (outputs: Record<string, unknown> | undefined): Record<string, unknown> | undefined => {
    if (outputs === undefined) return undefined;
    const { [internal.stack]: _stack, [internal.settingsSeen]: _seen, ...rest } = outputs;
    return rest;
  };
  /** The first failure of `operation` over `resources`, in order; an error when none fails. */
  async function firstFailure<T>(resources: readonly T[], operation: (resource: T) => Promise<unknown>, what: string): Promise<string> {
    for (const resource of resources) {
      const failure = await operation(resource).then(() => undefined, (error: unknown) => error as Error);
      if (failure !== undefined) return failure.message;
    }
    throw new Error(`${what} all succeeded with a key of ${(await emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path} ${entry.status}`).join(", ")}`);
  }

  /**
   * A refresh's reads, through the provider's own dispatcher in this process, of every resource
   * the state records, with `key`: a `pulumi refresh` would send the same requests with the key of
   * the stack's configuration now (test/e2e/key-rotation.test.ts), at the cost of an engine run per scope tried.
   */
  async function refreshInProcess(key: string): Promise<string> {
    const { dispatcher, resources } = await providerWith(key);
    return firstFailure(resources, (resource) => dispatcher.read(resource.id!, resource.outputs), "the refresh's reads");
  }

  /**
   * A destroy's deletes, through the provider's own dispatcher in this process, with `key`, of the
   * objects whose delete the report says needs `scope`: the deletes a destroy would send and stop
   * at (it sends the others too, which need no such scope). The service refuses the first, so
   * nothing is deleted, and the stack's own destroy, last, still finds everything.
   */
  async function deleteInProcess(key: string, scope: string): Promise<string> {
    const kinds = new Set(report.operations[scope]!.filter((need) => need.commands.includes("destroy")).flatMap((need) => need.does.filter((does) => does.endsWith(" delete")).map((does) => does.slice(0, -" delete".length))));
    const { dispatcher, resources } = await providerWith(key);
    const deleted = resources.filter((resource) => kinds.has(kindOfTypeToken(resource.type) ?? ""));
    expect(deleted.length, `a resource whose delete needs ${scope}`).toBeGreaterThan(0);
    return firstFailure(deleted, (resource) => dispatcher.delete(resource.id!, resource.outputs), "the destroy's deletes");
  }
  /**
   * Drift's reads beyond a refresh, in this process, with `key`: the lists of each scope the state's
   * objects live in, which find the objects no stack manages (cli/drift/check.ts). A scope drift
   * needs first (after refresh, in PROBES) is one of those lists'; the drift command would send
   * its refresh, which needs it not, before them.
   */
  async function driftListsInProcess(key: string): Promise<string> {
    const resources = (await recordedResources()) as RecordedResource[];
    const settings = resolveSettings((name) => ({ apiUrl: emulator.baseUrl, apiKey: key })[name], {});
    const reads = new ScopeReads(1, { settingsOf: async () => settings });
    const checked = { label: harness.stack.name, name: harness.stack.name, workspace: harness.stack.workspace as LocalWorkspace, project: await readProject(harness.workDir), resources };
    try {
      const found = (await unmanagedObjects([checked], [], { ids: [], names: [] }, 1, reads)).get(checked.label);
      if (found instanceof Error) return found.message;
      throw new Error(`drift's lists all succeeded with a key lacking the scope: ${(await emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path} ${entry.status}`).join(", ")}`);
    } finally {
      await reads.close();
    }
  }

  /** The requests of the log since it was last cleared, each as its route. */
  const sentRoutes = async (): Promise<Array<{ sent: string; route: string | undefined; scope: string | null | undefined }>> => {
    const log = await emulator.admin.requestLog();
    await emulator.admin.clearRequestLog();
    return log.map((entry) => {
      const path = entry.path.replace(/^\/v1/, "").replace(/\?.*$/, "");
      const route = resolveRoute(entry.method, path);
      return { sent: `${entry.method} ${path}`, route: route && routeName(route), scope: route?.scope };
    });
  };
  /** Every request resolves to a route of the table that the report lists for the command. */
  const expectPredicted = async (command: CommandName): Promise<void> => {
    const predicted = new Set(Object.values(report.operations).flatMap((needs) => needs.filter((need) => need.commands.includes(command) || need.optionalIn.includes(command)).map((need) => need.request)));
    for (const request of await sentRoutes()) {
      expect(request.route, `${request.sent} resolves to a route of schema/routes.ts`).toBeDefined();
      if (request.scope !== null) expect(predicted, `${command} sent ${request.sent}`).toContain(request.route);
    }
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ profile: testCase.profile });
    harness = await createTestStack({
      program: testCase.program,
      files: testCase.files,
      config: { ...connectionConfig(emulator), ...testCase.config },
      ...(testCase.stackName === undefined ? {} : { stackName: testCase.stackName }),
    });
    await testCase.adapt?.(harness.workDir);
    const computed = await scopes(false);
    expect(computed.code, computed.output).toBe(SCOPES_EXIT.ok);
    report = JSON.parse(computed.output) as ScopesReport;
    await emulator.admin.clearRequestLog();
  });
  afterAll(async () => {
    await harness?.dispose();
    await emulator?.stop();
  });

  it("computes the scopes of every command from the program alone, sending no request", async () => {
    expect(report.all.length).toBeGreaterThan(0);
    expect(report.commands.up).toEqual(expect.arrayContaining(report.commands.refresh));
    expect(await sentRoutes()).toEqual([]);
  });

  it("scopes --check with a key missing two scopes names both, sends only GETs and fails", async () => {
    const missing = report.all.slice(0, 2);
    await useKey(report.all.filter((scope) => !missing.includes(scope)));
    const checked = await scopes(true);
    expect(checked.code).toBe(SCOPES_EXIT.missing);
    const proofs = (JSON.parse(checked.output) as { check: Array<{ scope: string; verdict: string }> }).check;
    expect(proofs.filter((proof) => proof.verdict === "missing").map((proof) => proof.scope)).toEqual(missing);
    expect((await sentRoutes()).map((request) => request.sent.split(" ")[0])).toEqual(report.all.map(() => "GET"));
  });

  // The full key's check, a preview more, once per example: on the second profile the key's runs prove it holds.
  const fullCheck = testCase.eachScopeNeeded;
  it(`a key holding exactly the computed set ${fullCheck ? "passes scopes --check, then " : ""}runs up, refresh, drift, verify and destroy`, async () => {
    await useKey(report.all);
    if (fullCheck) {
      const checked = await scopes(true);
      expect(checked.code, checked.output).toBe(SCOPES_EXIT.ok);
      await sentRoutes();
    }

    await harness.stack.up();
    await expectPredicted("up");
    await harness.stack.refresh();
    await expectPredicted("refresh");
    const drift = await cli((io) => driftCommand.run([...stackArgs(), "--json"], io));
    expect(drift.code, drift.output).toBe(0);
    await expectPredicted("drift");
    const verify = await cli((io) => verifyCommand.run([...stackArgs(), "--all", "--timeout", "30", "--json"], io));
    expect(verify.output).not.toContain("does not hold the scope");
    expect([0, 3], verify.output).toContain(verify.code);
    await expectPredicted("verify");
  });

  const destroyWithTheComputedKey = async (): Promise<void> => {
    await useKey(report.all);
    await harness.stack.destroy();
    await expectPredicted("destroy");
  };

  if (!testCase.eachScopeNeeded) it("the computed key destroys the stack", destroyWithTheComputedKey);
  else it("a key lacking any one scope of the set fails at an operation the report names for it, and the 403 names the scope", async () => {
    const cases = report.all.map((scope) => ({ scope, command: PROBES.find((command) => report.commands[command].includes(scope)) }));
    expect(cases.filter((entry) => entry.command === undefined), "every scope is needed by a command tried here").toEqual([]);
    for (const { scope, command } of cases) {
      const held = report.all.filter((other) => other !== scope);
      // verify reads the key from the stack's configuration; what runs in this process takes it as it is.
      const key = command === "verify" ? await useKey(held) : (await emulator.admin.createKey(held)).key;
      await emulator.admin.clearRequestLog();
      const failure = await attempt(command!, scope, key).catch((error: unknown) => {
        throw new Error(`${command} without ${scope}: ${(error as Error).message}`);
      });
      const refused = (await sentRoutes()).filter((request) => request.scope === scope);
      const predicted = report.operations[scope]!.filter((need) => need.commands.includes(command!)).map((need) => need.request);
      expect(refused.length, `${command} without ${scope} sent a request that needs it: ${failure.slice(0, 1500)}`).toBeGreaterThan(0);
      expect(predicted, `${command} without ${scope}`).toContain(refused[0]!.route);
      expect(failure, `${command} without ${scope}`).toContain(`does not hold the scope ${scope}`);
    }
    await destroyWithTheComputedKey();
  });

  /** Runs the command with the stack's key and gives what it printed on failure (it must fail). */
  async function attempt(command: (typeof PROBES)[number], scope: string, key: string): Promise<string> {
    switch (command) {
      case "refresh":
        return refreshInProcess(key);
      case "destroy":
        return deleteInProcess(key, scope);
      case "drift":
        return driftListsInProcess(key);
      case "verify": {
        const verify = await cli((io) => verifyCommand.run([...stackArgs(), "--all", "--timeout", "30", "--json"], io));
        expect(verify.code, `verify without ${scope}`).not.toBe(0);
        return verify.output;
      }
    }
  }
}
