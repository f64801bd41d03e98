/**
 * What loading the provider costs a provider host, which the CLI starts for every operation: the
 * HTTP client's library (undici, about 0.1 CPU-s) loads at the first request, so a host that sends
 * none (a preview, a deploy with nothing to change) spares it. In a process of its own, as a host
 * is, on the built provider.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { repoRoot } from "../support/pulumi.js";

it("loads undici at the HTTP client's first request, before its grant, not with the provider", async () => {
  const script = `
    const loaded = () => Object.keys(require.cache).some((file) => file.includes("/node_modules/undici/"));
    require(${JSON.stringify(join(repoRoot, "dist/provider/index.js"))});
    const { ApiClient } = require(${JSON.stringify(join(repoRoot, "dist/provider/http/client.js"))});
    let atGrant;
    const rateLimiter = { acquire: async () => { atGrant = loaded(); return 0; }, throttled() {}, succeeded() {} };
    // A service that refuses the key (401), which the client does not retry: no address where
    // nothing listens, whose refused connection is tried again a second later.
    const server = require("node:http").createServer((request, response) => {
      response.writeHead(401, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { code: "unauthenticated", message: "Missing or invalid API key" } }));
    });
    server.listen(0, "127.0.0.1", () => {
      const client = new ApiClient({ baseUrl: \`http://127.0.0.1:\${server.address().port}/v1\`, apiKey: "pls_test", maxRetries: 0, rateLimiter });
      const before = loaded();
      client.request("GET", "/monitors").catch(() => undefined).finally(() => client.close().then(() => {
        server.close();
        console.log(JSON.stringify({ before, atGrant, after: loaded() }));
      }));
    });
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], { cwd: repoRoot });
  // Loaded before the rate limit's grant, which a fleet's budget spends on sending: not on loading undici.
  expect(JSON.parse(stdout)).toEqual({ before: false, atGrant: true, after: true });
});
