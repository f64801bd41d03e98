/**
 * The lists a stack's refresh read, handed to the `fleet drift` run that started it, so that its
 * check for unmanaged objects need not read them again. The message and why it carries no key are
 * in docs/architecture.md (Lists handed to fleet drift).
 */
import { createHash } from "node:crypto";
import { createConnection, type Socket } from "node:net";
import type { Query } from "./http/request.js";
import type { CompleteListSink } from "./list-reads.js";

/** The environment variable that names the fleet's socket for lists, set by `fleet drift` only. */
export const FLEET_LISTS_ENV = "PULUMI_MONITORING_FLEET_LISTS";

/** One complete list, as it travels. */
export interface HandedList {
  account: string;
  path: string;
  query: Query;
  items: unknown[];
}

/** The account a list belongs to: the service and the key, digested so that the key never travels. */
export function accountKey(apiUrl: string, apiKey: string): string {
  return createHash("sha256").update(`${apiUrl}\0${apiKey}`).digest("hex");
}

/**
 * Which question a list answers: its path and query. Lower case, as the ids in them are UUIDs,
 * the same whatever their case (RFC 4122): the state records a client's id as the service spelled
 * it, the check asks with it in lower case.
 */
export function listKey(path: string, query: Query): string {
  return JSON.stringify([path, Object.entries(query).sort()]).toLowerCase();
}

/**
 * The sink that sends the refresh's complete lists to the fleet, when the environment names its
 * socket; `account` gives the account of the process's settings. Sending never fails a read: a
 * list that does not arrive is read again by the check.
 */
export function fleetListSink(account: () => string, env: NodeJS.ProcessEnv = process.env): CompleteListSink | undefined {
  const address = env[FLEET_LISTS_ENV]?.trim();
  if (!address) return undefined;
  let socket: Socket | undefined;
  /** Lists still being written: a socket that closes first settles them. */
  const writing = new Set<() => void>();
  return (path, query, items) => {
    if (socket === undefined) {
      socket = createConnection(address);
      // The provider process must be free to exit; an error only means the check reads for itself.
      socket.unref();
      socket.on("error", () => undefined);
      socket.on("close", () => writing.forEach((done) => done()));
    }
    const message: HandedList = { account: account(), path, query, items: [...items] };
    const open = socket;
    // Settled once the line is with the system, so the fleet has it before the refresh can end.
    return new Promise<void>((resolve) => {
      if (open.destroyed) return resolve();
      const done = (): void => {
        writing.delete(done);
        resolve();
      };
      writing.add(done);
      open.write(`${JSON.stringify(message)}\n`, done);
    });
  };
}
