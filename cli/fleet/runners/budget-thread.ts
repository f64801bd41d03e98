/**
 * The fleet's token server (budget.ts) on a thread of its own, so that the work of the fleet's
 * main thread (loading and running the stacks' programs, following their engines) never holds up
 * a grant. Started by `startSharedBudget`; the first message back is the socket's address, a
 * `close` message closes the server and is answered with what the run spent.
 */
import { parentPort, workerData } from "node:worker_threads";
import { BudgetServer } from "./budget.js";

const port = parentPort!;
BudgetServer.start((workerData as { budget: number }).budget).then(
  (server) => {
    port.postMessage({ address: server.address });
    port.once("message", () => void server.close().then(() => port.postMessage({ use: server.use })));
  },
  (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) }),
);
