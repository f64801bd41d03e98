/**
 * A rotation across an agency's client stacks (issue 57, docs/teams-and-ci.md#rotating-the-api-keys),
 * on the real engine: three client stacks of test/programs/clients, each with a key of its own in
 * its configuration (a secret), in a project that refreshes before every preview and up. The
 * stacks are deployed with the old keys, so the state records them with the provider; then the new
 * keys are checked from the environment before the switch (`fleet scopes --check --key-env`), the
 * configurations switched, the old keys revoked, and the next nightly `fleet drift` is still green
 * and sends only the new keys, as does the `fleet destroy` at the end.
 */
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { randomBytes } from "node:crypto";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetReport } from "../../cli/report/fleet.js";
import { SCOPES_EXIT } from "../../cli/scopes/command.js";
import { ALL_SCOPES } from "../../emulator/index.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { fleetTestEnv, repoRoot, stacksInFiles, testCli, testPassphrase } from "../support/pulumi.js";
import { type CommandResult, runFleetHere } from "./support.js";

const STACKS = ["north", "south", "east"] as const;
const STEP_MS = 300_000;

/** A key of the emulator whose first four characters after `pls_test_` tell it in the request log. */
const keyNamed = (tag: string) => `pls_test_${tag}${randomBytes(12).toString("hex")}`;

describe("a rotation of the keys of three client stacks", () => {
  let emulator: TestEmulator;
  let workDir: string;
  let env: NodeJS.ProcessEnv;
  let workspace: LocalWorkspace;
  /** Old and new key of each stack; the old ones are deployed, the new ones replace them. */
  const keys = Object.fromEntries(STACKS.map((stack, index) => [stack, { old: keyNamed(`o${index}${index}${index}`), new: keyNamed(`n${index}${index}${index}`) }])) as Record<(typeof STACKS)[number], { old: string; new: string }>;
  const oldKeyIds: string[] = [];

  const fleet = (...args: string[]): Promise<CommandResult> => runFleetHere([...args, "--cwd", workDir], env);
  const prefix = (key: string) => `${key.slice(0, 13)}…`;
  const keysSent = async (): Promise<string[]> => {
    const log = await emulator.admin.requestLog();
    await emulator.admin.clearRequestLog();
    return [...new Set(log.map((entry) => entry.key_prefix ?? "no key"))].sort();
  };
  const newKeysEnv = (stack: (typeof STACKS)[number], key: string) => ({ [`NEW_KEY_${stack.toUpperCase()}`]: key });

  beforeAll(async () => {
    emulator = await startTestEmulator();
    workDir = join(repoRoot, ".work", `key-rotation-fleet-${randomBytes(4).toString("hex")}`);
    await mkdir(join(workDir, ".state"), { recursive: true });
    await cp(join(repoRoot, "test/programs/clients/index.ts"), join(workDir, "index.ts"));
    // As every project here: a refresh before every preview and up.
    await writeFile(join(workDir, "Pulumi.yaml"), `${await readFile(join(repoRoot, "test/programs/clients/Pulumi.yaml"), "utf8")}options:\n  refresh: always\n`);
    for (const stack of STACKS) oldKeyIds.push((await emulator.admin.createKey(ALL_SCOPES, `${stack} old`, keys[stack].old)).id);
    await stacksInFiles(workDir, join(workDir, ".state"), STACKS, (stack) => ({
      "clients:monitorCount": { value: "1" },
      "monitoring:apiKey": { value: keys[stack as (typeof STACKS)[number]].old, secret: true },
    }));
    // Each stack's key is its configuration's: none in the environment.
    env = { ...fleetTestEnv(workDir, emulator), MONITORING_API_KEY: "" };
    workspace = await LocalWorkspace.create({ workDir, envVars: { PULUMI_BACKEND_URL: env.PULUMI_BACKEND_URL!, PULUMI_CONFIG_PASSPHRASE: testPassphrase }, pulumiCommand: testCli() });
    const up = await fleet("up", "--yes", "--json");
    expect(up.code, up.stderr).toBe(0);
    await emulator.admin.clearRequestLog();
  }, STEP_MS);
  afterAll(async () => {
    await emulator?.stop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  it("fleet scopes --check --key-env proves the new keys from the environment, not the configured old ones, before the switch", async () => {
    for (const stack of STACKS) await emulator.admin.createKey(ALL_SCOPES, `${stack} new`, keys[stack].new);
    await emulator.admin.clearRequestLog();
    const newKeys = Object.assign({}, ...STACKS.map((stack) => newKeysEnv(stack, keys[stack].new))) as Record<string, string>;
    const checked = await runFleetHere(["scopes", "--check", "--json", "--key-env", "NEW_KEY_{stack}", "--cwd", workDir], { ...env, ...newKeys });
    expect(checked.code, checked.stdout + checked.stderr).toBe(SCOPES_EXIT.ok);
    const report = JSON.parse(checked.stdout) as { keys: Array<{ from: string[]; stacks: string[] }> };
    expect(report.keys.map((key) => [key.from, key.stacks]).sort()).toEqual(STACKS.map((stack) => [[`NEW_KEY_${stack.toUpperCase()}`], [stack]]).sort());
    expect(await keysSent()).toEqual(STACKS.map((stack) => prefix(keys[stack].new)).sort());
  }, STEP_MS);

  it("after the configurations switch and the old keys are revoked, the next fleet drift is green and sends only the new keys, and so does fleet destroy", async () => {
    for (const stack of STACKS) await workspace.setConfig(stack, "monitoring:apiKey", { value: keys[stack].new, secret: true });
    for (const id of oldKeyIds) await emulator.admin.revokeKey(id);
    await emulator.admin.clearRequestLog();

    const drift = await fleet("drift", "--json");
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);
    expect((JSON.parse(drift.stdout) as FleetReport).stacks.map((stack) => [stack.stack, stack.result]).sort()).toEqual(STACKS.map((stack) => [stack, "in sync"]).sort());
    expect(await keysSent()).toEqual(STACKS.map((stack) => prefix(keys[stack].new)).sort());

    const destroy = await fleet("destroy", "--yes", "--json");
    expect(destroy.code, destroy.stderr).toBe(0);
    expect(await keysSent()).toEqual(STACKS.map((stack) => prefix(keys[stack].new)).sort());
    expect((await workspace.listStacks()).map((stack) => stack.resourceCount ?? 0)).toEqual([0, 0, 0]);
  }, STEP_MS);
});
