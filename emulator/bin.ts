#!/usr/bin/env node
/**
 * `pulumi-monitoring-emulator --port N [--data FILE] [--key KEY] ...`: runs the emulator until
 * interrupted. See emulator/README.md for every flag.
 */
import { parseArgs } from "node:util";
import { startEmulator } from "./emulator.js";
import { PROFILE_NAMES, profileNamed } from "./profile.js";

const USAGE = `Usage: pulumi-monitoring-emulator [options]

  --port N                 Port on 127.0.0.1 (default 8787; 0 picks a free one)
  --data FILE              Keep the state in FILE across restarts (default: in memory)
  --key KEY                The full-access sandbox key (default: $MONITORING_EMULATOR_KEY,
                           else the one saved in --data, else a new one)
  --rate-limit N           At most N requests per key per second (default: unlimited)
  --webhook-attempts N     Delivery attempts per webhook event (default 5)
  --webhook-backoff-ms N   Wait before the second attempt, doubling after (default 1000)
  --webhook-timeout-ms N   Limit of one delivery attempt (default 10000)
  --webhook-loopback-only  Deliver to loopback hosts only; others fail at once, unresolved
  --profile NAME           The choices where the spec is silent: ${PROFILE_NAMES.join(" or ")} (default: default)
  --check-delay MS         A check's result lands MS milliseconds after POST /monitors/{id}/check
                           answered; the monitor keeps its status until then (default 0)
  --no-idempotency         Ignore Idempotency-Key headers: every request runs as new
  --probe                  Checks reach the monitors' targets for real (HTTP, TCP connect, DNS
                           lookup) instead of being simulated
  --quiet                  Do not print the startup banner
  --help                   Show this text`;

function integerOption(values: Record<string, unknown>, name: string, minimum: number): number | undefined {
  const text = values[name];
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum) {
    throw new Error(`--${name} must be an integer of at least ${minimum}, got ${String(text)}`);
  }
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      data: { type: "string" },
      key: { type: "string" },
      "rate-limit": { type: "string" },
      "webhook-attempts": { type: "string" },
      "webhook-backoff-ms": { type: "string" },
      "webhook-timeout-ms": { type: "string" },
      "webhook-loopback-only": { type: "boolean" },
      profile: { type: "string" },
      "check-delay": { type: "string" },
      "no-idempotency": { type: "boolean" },
      probe: { type: "boolean" },
      quiet: { type: "boolean" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const emulator = await startEmulator({
    port: integerOption(values, "port", 0) ?? 8787,
    dataFile: values.data,
    apiKey: values.key ?? (process.env["MONITORING_EMULATOR_KEY"] || undefined),
    quiet: values.quiet ?? false,
    rateLimit: integerOption(values, "rate-limit", 1),
    profile: profileNamed(values.profile ?? "default").name,
    idempotency: !(values["no-idempotency"] ?? false),
    ...optional("checkDelayMs", integerOption(values, "check-delay", 0)),
    probe: values.probe ?? false,
    webhooks: {
      ...optional("maxAttempts", integerOption(values, "webhook-attempts", 1)),
      ...optional("backoffBaseMs", integerOption(values, "webhook-backoff-ms", 0)),
      ...optional("timeoutMs", integerOption(values, "webhook-timeout-ms", 1)),
      loopbackOnly: values["webhook-loopback-only"] ?? false,
    },
  });
  const shutdown = () => {
    emulator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("emulator: failed to stop cleanly:", error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

main().catch((error: unknown) => {
  console.error(`pulumi-monitoring-emulator: ${error instanceof Error ? error.message : String(error)}`);
  console.error(USAGE);
  process.exit(2);
});
