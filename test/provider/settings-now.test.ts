/**
 * The settings of a provider process that Pulumi configured with the ones the last deploy recorded
 * (a refresh or destroy run without the program): the stack's configuration now takes their place,
 * read from its files; a secret is the recorded value while the fingerprint the resources recorded
 * vouches for it, else the CLI's answer. Issue 57: after a key is rotated, the old key is never sent again.
 */
import type * as pulumi from "@pulumi/pulumi";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { settingsSeen, stackConfigNow } from "../../provider/settings-now.js";
import { readProject, stackConfigPath } from "../../cli/project/project.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { NOTHING_LISTENS } from "../support/nothing-listens.js";
import { repoRoot } from "../support/pulumi.js";

describe("the configuration of a stack now, from its files", () => {
  let project: string;
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), "settings-now-"));
    await mkdir(join(project, "config"));
    await mkdir(join(project, "src"));
    await writeFile(join(project, "Pulumi.yaml"), "name: agency\nruntime: nodejs\nstackConfigDir: config\nconfig:\n  monitoring:apiUrl:\n    value: https://shared.example/v1\n  monitoring:handPauses: keep\n");
    await writeFile(join(project, "config", "Pulumi.acme.yaml"), "config:\n  monitoring:apiUrl: https://acme.example/v1\n  monitoring:apiKey: pls_test_plain_acme_key_0001\n");
    await writeFile(join(project, "config", "Pulumi.globex.yaml"), "config:\n  monitoring:apiKey:\n    secure: v1:bm9uY2U=:c2VhbGVk\n");
    await writeFile(join(project, "config", "Pulumi.initech.yaml"), "environment:\n  - initech-keys\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  const noCli = async (): Promise<string> => {
    throw new Error("the CLI was run");
  };

  it("reads plain values from the stack's settings file in stackConfigDir, then Pulumi.yaml's config, with no CLI run, from a folder below the project", async () => {
    const { config, from } = await stackConfigNow("acme", undefined, join(project, "src"), noCli);
    expect([config("apiUrl"), config("apiKey"), config("handPauses"), config("now")]).toEqual(["https://acme.example/v1", "pls_test_plain_acme_key_0001", "keep", undefined]);
    expect(from).toBe("files");
  });

  it("a stack without a settings file has Pulumi.yaml's values", async () => {
    const { config } = await stackConfigNow("organization/agency/newco", undefined, project, noCli);
    expect(config("apiUrl")).toBe("https://shared.example/v1");
  });

  it.each([
    ["a secret", "globex"],
    ["an imported environment", "initech"],
  ])("asks the CLI once, in the project, for a stack whose settings hold %s", async (_, stack) => {
    const calls: Array<{ args: readonly string[]; cwd: string }> = [];
    const cli = async (args: readonly string[], cwd: string) => {
      calls.push({ args, cwd });
      return JSON.stringify({ "monitoring:apiKey": { value: `pls_test_${stack}_key_now_0002`, secret: true }, "monitoring:apiUrl": { value: "https://now.example/v1", secret: false } });
    };
    const { config, from } = await stackConfigNow(stack, undefined, project, cli);
    expect([config("apiKey"), config("apiUrl")]).toEqual([`pls_test_${stack}_key_now_0002`, "https://now.example/v1"]);
    expect(calls).toEqual([{ args: ["config", "--json", "--show-secrets", "--stack", stack], cwd: project }]);
    expect(from).toBe("cli");
  });

  describe("a secret the recorded fingerprints vouch for", () => {
    const recordedKey = "pls_test_globex_recorded_0003";
    const handed = (key: string) => (name: string) => ({ apiKey: key, apiUrl: "https://recorded.example/v1" })[name];

    it("is the handed value, with no CLI run, when the resources recorded that the file's ciphertext holds it; the plain values come from the files", async () => {
      const seen = await settingsSeen("globex", handed(recordedKey), project);
      expect(Object.keys(seen ?? {})).toEqual(["apiKey"]);
      expect(JSON.stringify(seen)).not.toContain(recordedKey);
      const { config, from } = await stackConfigNow("globex", { config: handed(recordedKey), seen }, project, noCli);
      expect([config("apiKey"), config("apiUrl"), from]).toEqual([recordedKey, "https://shared.example/v1", "handed"]);
    });

    it("is asked of the CLI when the handed value is not the one the fingerprint was taken with (a settings file put back after a deploy recorded another key)", async () => {
      const seen = await settingsSeen("globex", handed(recordedKey), project);
      const cli = async () => JSON.stringify({ "monitoring:apiKey": { value: "pls_test_globex_in_the_file_0004", secret: true } });
      const now = await stackConfigNow("globex", { config: handed("pls_test_another_recorded_0005"), seen }, project, cli);
      expect([now.config("apiKey"), now.from]).toEqual(["pls_test_globex_in_the_file_0004", "cli"]);
      // What the reads then record vouches for the file's value.
      expect(now.seen).toEqual(await settingsSeen("globex", () => "pls_test_globex_in_the_file_0004", project));
    });

    it("is asked of the CLI when the ciphertext changed since (the key was set again)", async () => {
      const seen = { apiKey: "0".repeat(16) };
      const cli = async () => JSON.stringify({ "monitoring:apiKey": { value: "pls_test_globex_set_again_0006", secret: true } });
      const now = await stackConfigNow("globex", { config: handed(recordedKey), seen }, project, cli);
      expect([now.config("apiKey"), now.from]).toEqual(["pls_test_globex_set_again_0006", "cli"]);
    });

    it("never vouches for a settings file with a list in it, which only the CLI renders as the provider reads it", async () => {
      await writeFile(join(project, "config", "Pulumi.hooli.yaml"), "config:\n  monitoring:apiKey:\n    secure: v1:bm9uY2U=:c2VhbGVk\n  monitoring:offeredRegions:\n    - eu-west-1\n");
      expect(await settingsSeen("hooli", handed(recordedKey), project)).toBeUndefined();
      const cli = async () => JSON.stringify({ "monitoring:apiKey": { value: recordedKey, secret: true }, "monitoring:offeredRegions": { value: '["eu-west-1"]', objectValue: ["eu-west-1"] } });
      const now = await stackConfigNow("hooli", { config: handed(recordedKey), seen: { apiKey: "0".repeat(16) } }, project, cli);
      expect([now.config("offeredRegions"), now.from, now.seen]).toEqual(['["eu-west-1"]', "cli", undefined]);
    });

    it("never vouches for an environment's values, which the files do not hold", async () => {
      expect(await settingsSeen("initech", handed(recordedKey), project)).toBeUndefined();
    });
  });
});

// On both profiles: what a refused key means to the provider is the server's answer, which the alt profile words its own way.
describe.each(["default", "alt"] as const)("a provider process configured with the settings the last deploy recorded (%s profile)", (profile) => {
  let emulator: TestEmulator;
  let monitorId: string;
  const keys: Record<"old" | "now", { id: string; key: string }> = {} as never;
  const prefixOf = (key: string) => `${key.slice(0, 13)}…`;

  beforeAll(async () => {
    emulator = await startTestEmulator({ profile });
    const scopes = ["monitor.write", "monitor.delete", "monitor.read"];
    keys.old = await emulator.admin.createKey(scopes, "old");
    keys.now = await emulator.admin.createKey(scopes, "now");
    monitorId = (await emulator.byHand<{ id: string }>("POST", "/monitors", { name: "Web", url: "https://example.com" })).id;
    await emulator.admin.clearRequestLog();
  });
  afterEach(() => vi.unstubAllEnvs());
  afterAll(() => emulator.stop());

  /**
   * A fresh provider module, as a provider process is, configured as a refresh without the program
   * configures it: with the recorded key, and the recorded URL (`url`, the emulator's unless a test
   * says the service moved since).
   */
  async function processConfiguredWithRecordedKey(url = emulator.baseUrl) {
    vi.resetModules();
    const { dispatcher } = await import("../../provider/index.js");
    await dispatcher.configure({ config: new Map([["monitoring:apiUrl", url], ["monitoring:apiKey", keys.old.key]]) } as unknown as pulumi.dynamic.ConfigureRequest);
    return dispatcher;
  }
  const recordedOutputs = (stack?: string) => ({ __kind: "Monitor", name: "Web", url: "https://example.com", ...(stack === undefined ? {} : { __stack: stack }) });
  const keysSent = async () => {
    const log = await emulator.admin.requestLog();
    await emulator.admin.clearRequestLog();
    return [...new Set(log.map((entry) => entry.key_prefix))];
  };

  /**
   * A stack this repository's project (the working directory's Pulumi.yaml) has no settings file
   * for: its configuration now holds no key, so the key now is the environment's.
   */
  const stack = `settings-now-${process.pid}`;
  const keyNowInTheEnvironment = () => {
    vi.stubEnv("MONITORING_API_URL", emulator.baseUrl);
    vi.stubEnv("MONITORING_API_KEY", keys.now.key);
  };

  it("reads and deletes at the URL and with the key of the stack's configuration now, not the recorded ones, and records the stack", async () => {
    keyNowInTheEnvironment();
    const dispatcher = await processConfiguredWithRecordedKey(`${NOTHING_LISTENS}/v1`);
    const read = await dispatcher.read(monitorId, recordedOutputs(stack));
    expect(read.props).toMatchObject({ __stack: stack, __kind: "Monitor" });
    expect(await keysSent()).toEqual([prefixOf(keys.now.key)]);
    const gone = (await emulator.byHand<{ id: string }>("POST", "/monitors", { name: "Gone", url: "https://example.com/gone" })).id;
    await emulator.admin.clearRequestLog();
    await dispatcher.delete(gone, { ...recordedOutputs(stack), id: gone });
    expect(await keysSent()).toEqual([prefixOf(keys.now.key)]);
  });

  it("keeps the configured settings in a process whose first call carries the program's (a check, with the resource's URN)", async () => {
    keyNowInTheEnvironment();
    const dispatcher = await processConfiguredWithRecordedKey();
    await dispatcher.check({}, { __urn: `urn:pulumi:${stack}::agency::pulumi-nodejs:dynamic/monitoring:Monitor::web`, name: "Web", url: "https://example.com" });
    await dispatcher.read(monitorId, recordedOutputs(stack));
    expect(await keysSent()).toEqual([prefixOf(keys.old.key)]);
  });

  it("stops, sending nothing, when a secret of the configuration now can be told by no one (the CLI cannot be run), naming the stack and what to do", async () => {
    const project = await readProject(repoRoot);
    const secretStack = `settings-now-secret-${process.pid}-${profile}`;
    const settingsFile = stackConfigPath(project, secretStack);
    await mkdir(dirname(settingsFile), { recursive: true });
    await writeFile(settingsFile, "config:\n  monitoring:apiKey:\n    secure: v1:bm9uY2U=:c2VhbGVk\n");
    vi.stubEnv("PATH", join(project.dir, "no-such-folder"));
    try {
      const dispatcher = await processConfiguredWithRecordedKey();
      const failure = await dispatcher.read(monitorId, recordedOutputs(secretStack)).then(() => undefined, (error: Error) => error.message);
      expect(failure).toContain(`pulumi-monitoring could not read the configuration of stack ${secretStack} now`);
      expect(failure).toContain(`does not send the settings the last deploy recorded, which may hold a key revoked since: make \`pulumi config --show-secrets --stack ${secretStack}\` work here`);
      expect(await keysSent()).toEqual([]);
    } finally {
      await rm(settingsFile, { force: true });
    }
  });

  it("on a state whose resources name no stack, sends the recorded key and, refused, says it was the recorded one and what to run", async () => {
    await emulator.admin.revokeKey(keys.old.id);
    const dispatcher = await processConfiguredWithRecordedKey();
    const failure = await dispatcher.read(monitorId, recordedOutputs()).then(() => undefined, (error: Error) => error.message);
    expect(failure).toContain("the API key from monitoring:apiKey as the last deploy recorded it was refused");
    expect(failure).toContain(`It sent pls_test_…${keys.old.key.slice(-4)}, the key the last deploy recorded`);
    expect(failure).toContain("pulumi up --refresh --run-program");
    expect(failure).not.toContain(keys.old.key);
  });
});
