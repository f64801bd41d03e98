/**
 * A rotated or corrected key works at once (issue 57), on the real engine, in a project that
 * refreshes before every preview and up (`options: refresh: always`). Pulumi records the stack's
 * whole configuration with the default provider at every deploy, and configures a refresh or
 * destroy that runs without the program with those recorded settings: each story starts from a
 * state a deploy with the old key wrote, changes the key in the stack's configuration, and then
 * expects every command to send the configured key, and never the old one again.
 *
 * - Rotation: key B deployed, C configured and B revoked: preview, up, refresh, drift, pause,
 *   apply-due and destroy send C; B configured again is refused, named by its prefix and last four characters,
 *   with where it came from and what to run.
 * - A key lacking a scope in place of a full one fails the next preview naming the scope and the
 *   key, where it passed before on the recorded key; a full key in its place works at the next preview.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../emulator/index.js";
import { runHere } from "../support/commands.js";
import { commandEnv, deploy, type Deployment, runCommandOn } from "./support.js";

const resources = [
  { kind: "NotificationChannel", name: "ops", args: { name: "Ops email", kind: "email", config: { address: "ops@example.com" } } },
  { kind: "Monitor", name: "web", args: { name: "Web", url: "https://example.com" } },
];

/** A key of the emulator whose first four characters after `pls_test_` name it in the request log (`pls_test_bbbb…`). */
const keyNamed = (letter: string) => `pls_test_${letter.repeat(4)}${randomBytes(12).toString("hex")}`;
/** How a message shows a key: its prefix and last four characters (provider/config.ts, shownKey). */
const shown = (key: string) => `pls_test_…${key.slice(-4)}`;

describe("a key rotated in the stack's configuration", () => {
  let deployment: Deployment;
  let stackName: string;
  const keys = { old: keyNamed("b"), now: keyNamed("c"), lacking: keyNamed("d"), full: keyNamed("e") };
  const ids: Record<string, string> = {};

  const setKey = (key: string) => deployment.harness.stack.setConfig("monitoring:apiKey", { value: key, secret: true });
  /** The keys the service saw since the last call, by the prefix the request log shows (`pls_test_cccc…`). */
  const keysSent = async (): Promise<string[]> => {
    const log = await deployment.emulator.admin.requestLog();
    await deployment.emulator.admin.clearRequestLog();
    return [...new Set(log.map((entry) => entry.key_prefix ?? "no key"))].sort();
  };
  const prefix = (key: string) => `${key.slice(0, 13)}…`;
  const cli = (...args: string[]) => runCommandOn(deployment, ...args, "--stack", stackName);
  const failureOf = (operation: Promise<unknown>) => operation.then(() => "succeeded", (error: Error) => error.message);

  beforeAll(async () => {
    deployment = await deploy({ program: "test/programs/declared", config: { resources: { value: JSON.stringify(resources) } } });
    stackName = deployment.harness.stack.name;
    for (const [name, key] of Object.entries(keys)) {
      const scopes = name === "lacking" ? ALL_SCOPES.filter((scope) => scope !== "monitor.delete") : ALL_SCOPES;
      ids[name] = (await deployment.emulator.admin.createKey(scopes, name, key)).id;
    }
    // The state a deploy with the old key wrote: Pulumi records that key with the provider.
    await setKey(keys.old);
    await deployment.harness.stack.up();
    await setKey(keys.now);
    await deployment.emulator.admin.revokeKey(ids.old!);
    await deployment.emulator.admin.clearRequestLog();
  });
  // The story's last step destroys the stack; the emulator goes with it.
  afterAll(async () => deployment?.dispose({ keepObjects: true }));

  it("preview and up, each refreshing first, then refresh and drift send the configured key, never the revoked one", async () => {
    await deployment.harness.stack.preview();
    await deployment.harness.stack.up();
    await deployment.harness.stack.refresh();
    const drift = await cli("drift", "--json");
    expect(drift.code, drift.stderr).toBe(0);
    expect(await keysSent()).toEqual([prefix(keys.now)]);
  });

  it("pause, which deploys the override it records, and apply-due, which resumes the monitor once the override ended, send the configured key", async () => {
    const paused = await cli("pause", "web", "--for", "2h", "--reason", "key rotation drill");
    expect(paused.code, paused.stderr).toBe(0);
    const inThreeHours = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const due = await runHere(["apply-due", "--stack", stackName, "--cwd", deployment.harness.workDir], { ...commandEnv(deployment), PULUMI_MONITORING_NOW: inThreeHours });
    expect(due.code, due.stderr).toBe(0);
    expect(due.stdout).toContain("applied: resume web");
    expect(await keysSent()).toEqual([prefix(keys.now)]);
  });

  it("the revoked key configured again is refused at the next preview, named by its prefix and last four characters, as the configuration's value now, with the command that sets another", async () => {
    await setKey(keys.old);
    const failure = await failureOf(deployment.harness.stack.preview());
    expect(failure).toContain(`the API key from monitoring:apiKey of stack ${stackName} was refused`);
    expect(failure).toContain(`It sent ${shown(keys.old)}, the value it holds now. To send another: pulumi config set --secret monitoring:apiKey <key> --stack ${stackName}`);
    expect(failure).not.toContain(keys.old);
    await keysSent();
  });

  it("a key lacking a scope in place of a full one fails the next preview, naming the scope and the key, and a full key in its place works at the next preview", async () => {
    // The state was written by the up above, with the full key `now`.
    await setKey(keys.lacking);
    const failure = await failureOf(deployment.harness.stack.preview());
    expect(failure).toContain(`the API key from monitoring:apiKey of stack ${stackName} does not hold the scope monitor.delete`);
    expect(failure).toContain(`It sent ${shown(keys.lacking)}, the value it holds now`);
    expect(await keysSent()).toEqual([prefix(keys.lacking)]);

    await setKey(keys.full);
    await deployment.harness.stack.preview();
    expect(await keysSent()).toEqual([prefix(keys.full)]);
  });

  it("destroy, which runs without the program, deletes with the configured key", async () => {
    await deployment.harness.stack.destroy();
    expect(await keysSent()).toEqual([prefix(keys.full)]);
    expect(await deployment.listAll("/monitors")).toEqual([]);
  });
});
