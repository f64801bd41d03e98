/**
 * `npm run demo`: deploys the demo program (Pulumi.yaml and index.ts at the repository root)
 * against a local emulator of the service and shows what it made.
 *
 *   1. starts the emulator in the background (state in .work/demo/emulator.json), or reuses the
 *      one an earlier run started;
 *   2. selects stack `demo` on a file backend in .work/demo/state (passphrase `demo`) and points
 *      it at the emulator (`monitoring:apiUrl`, secret `monitoring:apiKey`);
 *   3. runs `pulumi up`, then prints what exists, read back from the API, and how to look at it;
 *   4. previews again and shows that nothing would change.
 *
 * `npm run demo -- --destroy` destroys the stack, stops the emulator and removes .work/demo.
 * Running `npm run demo` again is safe: it converges the same stack on the same emulator.
 *
 * Secrets are never printed: the API key and the heartbeat's ping URL are read by the commands
 * the summary shows, from the encrypted stack configuration and outputs.
 */
// @ts-nocheck

import { type EngineEvent, LocalWorkspace, type OpMap, type Stack } from "@pulumi/pulumi/automation";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, openSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { delimiter, dirname, join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

const root = join(__dirname, "..", "..");
const demoDir = join(root, ".work", "demo");
const paths = {
  emulatorData: join(demoDir, "emulator.json"),
  emulatorProcess: join(demoDir, "emulator-process.json"),
  emulatorLog: join(demoDir, "emulator.log"),
  backend: join(demoDir, "state"),
  emulatorBin: join(__dirname, "..", "emulator", "bin.js"),
};
const STACK = "demo";
/** The passphrase of the demo's secrets provider; the demo's secrets are local and throwaway. */
const PASSPHRASE = "demo";
const PREFERRED_PORT = 8787;
const pulumiEnv = {
  PULUMI_BACKEND_URL: `file://${paths.backend}`,
  PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
  PULUMI_SKIP_UPDATE_CHECK: "true",
};

const say = (line = ""): void => console.log(line);
const shown = (path: string): string => relative(process.cwd(), path) || ".";

// ---------------------------------------------------------------------------------------------
// The emulator, as a background process that outlives this script

interface EmulatorProcess {
  pid: number;
  port: number;
}

interface Emulator extends EmulatorProcess {
  apiUrl: string;
  /** Whether this run started it (rather than finding it running). */
  started: boolean;
}

const apiUrlOf = (port: number): string => `http://127.0.0.1:${port}/v1`;

async function recordedEmulator(): Promise<EmulatorProcess | undefined> {
  if (!existsSync(paths.emulatorProcess)) return undefined;
  return JSON.parse(await readFile(paths.emulatorProcess, "utf8")) as EmulatorProcess;
}

/** Whether the emulator recorded earlier still runs and answers with `apiKey`. */
async function answers(emulator: EmulatorProcess, apiKey: string): Promise<boolean> {
  try {
    process.kill(emulator.pid, 0);
    const response = await fetch(`${apiUrlOf(emulator.port)}/clients?limit=1`, { headers: { authorization: `Bearer ${apiKey}` } });
    return response.ok;
  } catch {
    return false;
  }
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

async function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Reuses the emulator an earlier run started, or starts one on its old port, 8787, or any free port. */
async function ensureEmulator(apiKey: string): Promise<Emulator> {
  const recorded = await recordedEmulator();
  if (recorded !== undefined && (await answers(recorded, apiKey))) {
    return { ...recorded, apiUrl: apiUrlOf(recorded.port), started: false };
  }
  if (recorded !== undefined) await stopEmulator(recorded);
  const candidates = [recorded?.port, PREFERRED_PORT].filter((port): port is number => port !== undefined);
  let port: number | undefined;
  for (const candidate of candidates) if (port === undefined && (await portIsFree(candidate))) port = candidate;
  port ??= await anyFreePort();

  // The key goes in through the environment, not the command line, where `ps` would show it.
  const child = spawn(process.execPath, [paths.emulatorBin, "--port", String(port), "--data", paths.emulatorData, "--quiet"], {
    detached: true,
    stdio: ["ignore", openSync(paths.emulatorLog, "a"), openSync(paths.emulatorLog, "a")],
    env: { ...process.env, MONITORING_EMULATOR_KEY: apiKey },
  });
  child.unref();
  const emulator = { pid: child.pid as number, port };
  await writeFile(paths.emulatorProcess, `${JSON.stringify(emulator)}\n`);
  let exited = false;
  child.once("exit", () => (exited = true));
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (exited) throw new Error(`the emulator stopped right after starting; see ${shown(paths.emulatorLog)}`);
    if (await answers(emulator, apiKey)) return { ...emulator, apiUrl: apiUrlOf(port), started: true };
    await sleep(100);
  }
  throw new Error(`the emulator did not answer on port ${port} within 15 s; see ${shown(paths.emulatorLog)}`);
}

/** Stops the emulator this script started, if it still runs. */
async function stopEmulator(emulator: EmulatorProcess): Promise<void> {
  try {
    process.kill(emulator.pid, "SIGTERM");
  } catch {
    return; // already gone
  }
  for (let waited = 0; waited < 5_000; waited += 100) {
    try {
      process.kill(emulator.pid, 0);
    } catch {
      return;
    }
    await sleep(100);
  }
  throw new Error(`the emulator (pid ${emulator.pid}) did not stop within 5 s`);
}

// ---------------------------------------------------------------------------------------------
// Pulumi progress, one line per resource that changes

const STEP_SYMBOLS: Record<string, string> = { create: "+", update: "~", delete: "-", replace: "+-" };

function progress(): (event: EngineEvent) => void {
  return (event) => {
    const step = event.resOutputsEvent?.metadata;
    // The stack and the default provider are Pulumi's own; the user's resources are the rest.
    if (step !== undefined && !step.type.startsWith("pulumi:")) {
      const symbol = STEP_SYMBOLS[step.op];
      if (symbol !== undefined) say(`  ${symbol.padEnd(2)} ${(step.type.split(":").pop() ?? step.type).padEnd(20)} ${step.urn.split("::").pop()}`);
    }
    const diagnostic = event.diagnosticEvent;
    if (diagnostic !== undefined && diagnostic.severity === "error") say(`  error: ${diagnostic.message.trim()}`);
  };
}

const PAST_TENSE: Record<string, string> = { same: "unchanged", create: "created", update: "updated", delete: "deleted", replace: "replaced" };
/** Pulumi's own count of a run (the stack included), as `pulumi up` prints it. */
const countsText = (changes: OpMap | undefined): string =>
  Object.entries(changes ?? {}).map(([op, count]) => `${count} ${PAST_TENSE[op] ?? op}`).join(", ") || "nothing to do";

// ---------------------------------------------------------------------------------------------
// What exists, read back from the API

type ApiObject = Record<string, unknown>;

function apiReader(apiUrl: string, apiKey: string): (path: string) => Promise<ApiObject[]> {
  return async (path) => {
    const response = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    const { data } = (await response.json()) as { data: ApiObject | ApiObject[] };
    return Array.isArray(data) ? data : [data];
  };
}

/** A section of the summary: a title and rows of name, detail, status and id. */
type Section = [title: string, rows: string[][]];

async function summarySections(apiUrl: string, apiKey: string, clientId: string): Promise<Section[]> {
  const get = apiReader(apiUrl, apiKey);
  const inClient = `?client_id=${clientId}&limit=250`;
  const [client] = await get(`/clients/${clientId}`);
  const [monitors, channels, policies, groups, heartbeats, subscriptions] = await Promise.all(
    ["/monitors", "/notification_channels", "/escalation-policies", "/heartbeat-groups", "/heartbeats", "/webhook-subscriptions"].map((path) => get(`${path}${inClient}`)),
  );
  const text = (value: unknown): string => (value === null || value === undefined ? "" : String(value));
  const monitorTarget = (monitor: ApiObject): string => {
    const type = text(monitor["monitor_type"]);
    const target =
      type === "tcp" ? `${text(monitor["tcp_host"])}:${text(monitor["tcp_port"])}`
      : type === "dns" ? `${text(monitor["dns_type"])} ${text(monitor["dns_query"])}`
      : text(monitor["url"]);
    const notes = [
      monitor["expected_status_code"] && `expects ${text(monitor["expected_status_code"])}`,
      monitor["keyword"] && `must show "${text(monitor["keyword"])}"`,
      monitor["ssl_expiry_alert_days"] && `SSL alert ${text(monitor["ssl_expiry_alert_days"])} d ahead`,
      monitor["maintenance_from"] &&
        `quiet ${text(monitor["maintenance_weekdays"])} ${text(monitor["maintenance_from"])}-${text(monitor["maintenance_to"])} ${text(monitor["maintenance_timezone"])}`,
    ].filter((note) => typeof note === "string");
    return [`${type} ${target}`, ...notes].join(", ");
  };
  const groupName = (id: unknown): string => text(groups?.find((group) => group["id"] === id)?.["name"]);
  return [
    ["Client", [[text(client?.["name"]), text(client?.["website"]), client?.["archived"] ? "archived" : "active", clientId]]],
    ["Monitors", (monitors ?? []).map((monitor) => [text(monitor["name"]), monitorTarget(monitor), text(monitor["status"]), text(monitor["id"])])],
    [
      "Notification channels",
      (channels ?? []).map((channel) => {
        const config = (channel["config"] ?? {}) as ApiObject;
        const target = text(config["address"] ?? config["channel"]);
        const credentials = channel["credentials_set"] ? " (webhook URL stored, write-only)" : "";
        return [text(channel["name"]), `${text(channel["kind"])} ${target}${credentials}`, "", text(channel["id"])];
      }),
    ],
    [
      "Escalation policies",
      (policies ?? []).map((policy) => {
        const steps = (policy["steps"] ?? []) as ApiObject[];
        const plan = steps.map((step) => `${text(step["delay_minutes"])} min: ${(step["notification_channel_ids"] as unknown[]).length} channel(s), ${text(step["urgency"])}`);
        return [text(policy["name"]), plan.join("; "), "", text(policy["id"])];
      }),
    ],
    [
      "Heartbeats",
      (heartbeats ?? []).map((heartbeat) => [
        text(heartbeat["name"]),
        `every ${Number(heartbeat["expected_interval_seconds"]) / 3600} h + ${Number(heartbeat["grace_period_seconds"]) / 60} min grace, in group "${groupName(heartbeat["heartbeat_group_id"])}"`,
        text(heartbeat["status"]),
        text(heartbeat["id"]),
      ]),
    ],
    ["Webhook subscriptions", (subscriptions ?? []).map((subscription) => [text(subscription["url"]), (subscription["events"] as string[]).join(", "), subscription["enabled"] ? "enabled" : "disabled", text(subscription["id"])])],
  ];
}

function printSections(sections: Section[]): void {
  for (const [title, sectionRows] of sections) {
    const widths = [0, 1, 2].map((column) => Math.max(0, ...sectionRows.map((row) => (row[column] ?? "").length)));
    say(`  ${title}`);
    for (const row of sectionRows) {
      const [name = "", detail = "", status = "", id = ""] = row;
      say(`    ${[name.padEnd(widths[0] ?? 0), detail.padEnd(widths[1] ?? 0), status.padEnd(widths[2] ?? 0), id].filter((cell) => cell !== "").join("  ")}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The two commands

async function demoStack(): Promise<Stack> {
  await mkdir(paths.backend, { recursive: true });
  return LocalWorkspace.createOrSelectStack({ stackName: STACK, workDir: root }, { envVars: pulumiEnv });
}

/** Where the toolchain this script runs on lives, for the commands the user runs by hand. */
function toolchainPath(): string {
  const pulumiDir = (process.env["PATH"] ?? "").split(delimiter).find((dir) => existsSync(join(dir, "pulumi")));
  return [...new Set([pulumiDir, dirname(process.execPath)].filter((dir): dir is string => dir !== undefined))].join(delimiter);
}

async function deploy(): Promise<void> {
  const started = Date.now();
  await mkdir(demoDir, { recursive: true });
  say("Monitoring demo: the program in index.ts, deployed against a local emulator of the service.");
  say();

  const stack = await demoStack();
  const config = await stack.getAllConfig();
  let apiKey = config["monitoring:apiKey"]?.value;
  if (apiKey === undefined) {
    // A new stack gets a new emulator: leftovers of an interrupted earlier run are cleared.
    const leftover = await recordedEmulator();
    if (leftover !== undefined) await stopEmulator(leftover);
    await rm(paths.emulatorData, { force: true });
    apiKey = `pls_test_demo_${randomBytes(12).toString("hex")}`;
  }
  const emulator = await ensureEmulator(apiKey);
  say(`Emulator   ${emulator.apiUrl} (${emulator.started ? "started" : "already running"}, pid ${emulator.pid}, log ${shown(paths.emulatorLog)})`);
  say(`Stack      ${STACK}, file backend ${shown(paths.backend)}, passphrase "${PASSPHRASE}"`);
  say(`API key    ${apiKey.slice(0, "pls_test_".length)}… (a sandbox key, kept encrypted as monitoring:apiKey)`);
  await stack.setAllConfig({ "monitoring:apiUrl": { value: emulator.apiUrl }, "monitoring:apiKey": { value: apiKey, secret: true } });

  say();
  say("pulumi up");
  const upStarted = Date.now();
  const up = await stack.up({ onEvent: progress() });
  say(`  done in ${seconds(upStarted)}: ${countsText(up.summary.resourceChanges)}`);

  const clientId = String(up.outputs["clientId"]?.value);
  say();
  say(`What exists now, read back from ${emulator.apiUrl}`);
  printSections(await summarySections(emulator.apiUrl, apiKey, clientId));

  say();
  say("Look at it yourself, from the repository root:");
  const commands: [why: string, command: string][] = [
    ["the Pulumi CLI and Node this demo ran, and where its state is", `export PATH="${toolchainPath()}${delimiter}$PATH"`],
    ["", `export PULUMI_BACKEND_URL="file://${paths.backend}" PULUMI_CONFIG_PASSPHRASE=${PASSPHRASE}`],
    ["", `pulumi stack select ${STACK}`],
    ["the exported ids (the ping URL stays hidden), and a preview of index.ts against what exists", "pulumi stack output"],
    ["", "pulumi preview"],
    ["the API itself, with the sandbox key from the stack configuration", `export MONITORING_API_KEY="$(pulumi config get monitoring:apiKey)"`],
    ["", `curl -s -H "Authorization: Bearer $MONITORING_API_KEY" "${emulator.apiUrl}/monitors?client_id=${clientId}"`],
    ["the nightly backup checks in, and its heartbeat turns UP", `curl -s "$(pulumi stack output nightlyBackupPingUrl --show-secrets)"`],
    ["", `curl -s -H "Authorization: Bearer $MONITORING_API_KEY" "${emulator.apiUrl}/heartbeats/${String(up.outputs["heartbeatId"]?.value)}"`],
  ];
  for (const [why, command] of commands) {
    if (why !== "") say(`  # ${why}`);
    say(`  ${command}`);
  }

  say();
  say("pulumi preview (again: it reads what the service holds first, as Pulumi.yaml says, and expects no changes)");
  const preview = await stack.preview({ expectNoChanges: true });
  say(`  no changes: ${countsText(preview.changeSummary)}`);

  say();
  say(`Done in ${seconds(started)}. The emulator keeps running in the background (pid ${emulator.pid}); \`npm run demo\` again reuses it.`);
  say("Tear everything down (destroy the stack, stop the emulator, remove .work/demo) with:");
  say("  npm run demo -- --destroy");
}

async function destroy(): Promise<void> {
  if (!existsSync(demoDir)) {
    say(`Nothing to tear down: ${shown(demoDir)} does not exist.`);
    return;
  }
  const stack = await demoStack();
  const apiKey = (await stack.getAllConfig())["monitoring:apiKey"]?.value;
  if (apiKey !== undefined) {
    // The destroy deletes through the API, so the emulator must run (with the state it had).
    const emulator = await ensureEmulator(apiKey);
    await stack.setConfig("monitoring:apiUrl", { value: emulator.apiUrl });
    say("pulumi destroy");
    const started = Date.now();
    const destroyed = await stack.destroy({ onEvent: progress() });
    say(`  done in ${seconds(started)}: ${countsText(destroyed.summary.resourceChanges)} (the client is archived: the service cannot delete clients)`);
  }
  await stack.workspace.removeStack(STACK);
  const emulator = await recordedEmulator();
  if (emulator !== undefined) {
    await stopEmulator(emulator);
    say(`Stopped the emulator (pid ${emulator.pid}).`);
  }
  await rm(demoDir, { recursive: true, force: true });
  say(`Removed ${shown(demoDir)}. \`npm run demo\` starts afresh.`);
}

const seconds = (since: number): string => `${Math.round((Date.now() - since) / 1000)} s`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { destroy: { type: "boolean" } }, strict: true });
  await (values.destroy ? destroy() : deploy());
}

main().catch((error: unknown) => {
  // The Automation API's errors carry the CLI's whole output; its stderr is the part that explains.
  const message = error instanceof Error ? error.message : String(error);
  console.error(`\nThe demo failed: ${message.includes("stderr:") ? message.slice(message.indexOf("stderr:") + 7).trim() : message}`);
  process.exit(1);
});
