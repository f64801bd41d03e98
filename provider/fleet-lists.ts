/**
 * The lists a stack's refresh read, handed to the `fleet drift` run that started it. The run's
 * check for unmanaged objects reads the whole list of each kind in the stack's scope after the
 * refresh (cli/drift/unmanaged.ts); the refresh, run by the Pulumi engine in the stack's provider
 * process, reads some of those same lists (its monitors, its channels). So the fleet names a local
 * socket in the environment ({@link FLEET_LISTS_ENV}, only for `drift`), the provider reads such a
 * list whole (provider/list-reads.ts) and sends it there, and the check takes it instead of
 * reading it again: `fleet drift` of a client's stack then sends the spec's minimum.
 *
 * One message per complete list, one way, one line of JSON: `{ account, path, query, items }`.
 * `account` is a digest of the service's URL and key, so that the key itself never travels and
 * lists of different accounts (stacks may name their own) are never mixed up. Items are as the
 * service listed them, secrets included where the service shows them (a channel's credentials on
 * some servers), just as the check would read them: the socket is private to the user (as the
 * fleet's budget socket, cli/fleet/runners/budget.ts), the fleet keeps them in memory for the run, and
 * neither side logs or writes them. Without the variable (a plain `pulumi refresh`, another verb)
 * nothing is sent and reads are as they always were.
 */
import { createHash } from "node:crypto";
import { createConnection, type Socket } from "node:net";
import type { Query } from "./http.js";
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
