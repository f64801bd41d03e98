/**
 * Warnings and notices from the dynamic provider to the Pulumi engine, attached to a resource's row.
 *
 * What a dynamic provider's process prints reaches the user only as an info message (the CLI, 3.259,
 * shows each line of its standard output and standard error at info level), and `pulumi.log` in that
 * process has no engine to talk to, so it falls back to the same output. But the engine starts every
 * provider plugin with its own address as the first argument (`pulumi-resource-pulumi-nodejs
 * 127.0.0.1:PORT`), and its log service takes a severity and a URN: a `warning` sent there shows
 * as one, on the resource's row, in preview and up alike. The SDK passes the URN as an input (`__urn`),
 * so check, which runs at preview, can warn about the resource it checks.
 */
import { createRequire } from "node:module";

interface LogRequest {
  setSeverity(severity: number): void;
  setMessage(message: string): void;
  setUrn(urn: string): void;
}
interface EngineClient {
  log(request: LogRequest, callback: (error: Error | null) => void): void;
}
interface EngineModules {
  client: EngineClient;
  newRequest: () => LogRequest;
  warning: number;
  info: number;
}

let engine: EngineModules | null | undefined;

/** The engine's log service when this process is a provider plugin the engine started; `null` otherwise. */
function engineLog(): EngineModules | null {
  if (engine !== undefined) return engine;
  const address = process.argv[2];
  if (address === undefined || !/^[\w.-]+:\d+$/.test(address)) return (engine = null);
  // The gRPC stubs and the gRPC runtime that @pulumi/pulumi itself uses, so that both agree.
  const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));
  const grpc = fromPulumi("@grpc/grpc-js") as { credentials: { createInsecure(): unknown } };
  const services = fromPulumi("./proto/engine_grpc_pb") as { EngineClient: new (address: string, credentials: unknown) => EngineClient };
  const messages = fromPulumi("./proto/engine_pb") as { LogRequest: new () => LogRequest; LogSeverity: { WARNING: number; INFO: number } };
  engine = {
    client: new services.EngineClient(address, grpc.credentials.createInsecure()),
    newRequest: () => new messages.LogRequest(),
    warning: messages.LogSeverity.WARNING,
    info: messages.LogSeverity.INFO,
  };
  return engine;
}

/**
 * Shows `messages` as warnings on the resource `urn`. Outside a provider plugin (a test calling the
 * provider directly, the importer), or when the engine cannot be reached, they go to standard error.
 */
export async function warn(urn: unknown, messages: readonly string[]): Promise<void> {
  await send("warning", urn, messages);
}

/** Shows `messages` as information on the resource `urn` (what time will do to its pause state); elsewhere, like {@link warn}. */
export async function inform(urn: unknown, messages: readonly string[]): Promise<void> {
  await send("info", urn, messages);
}

async function send(severity: "warning" | "info", urn: unknown, messages: readonly string[]): Promise<void> {
  if (messages.length === 0) return;
  const log = typeof urn === "string" ? engineLog() : null;
  for (const message of messages) {
    const delivered =
      log !== null &&
      (await new Promise<boolean>((resolve) => {
        const request = log.newRequest();
        request.setSeverity(log[severity]);
        request.setMessage(message);
        request.setUrn(urn as string);
        log.client.log(request, (error) => resolve(error === null || error === undefined));
      }));
    if (!delivered) console.error(`pulumi-monitoring (no engine to ${severity === "warning" ? "warn" : "inform"} through): ${message}`);
  }
}
