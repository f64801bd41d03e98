/**
 * A throwaway PostgreSQL for a test file: a cluster of its own in a temporary directory, on a free
 * port of 127.0.0.1, with one database for Pulumi's state, removed by `stop`. The server programs
 * are Debian's (scripts/setup.sh installs the postgresql package when missing and names their
 * directory in PULUMI_MONITORING_POSTGRES_BIN). initdb and postgres refuse to run as root, so as
 * root they run as the `postgres` user the package creates.
 *
 *   const postgres = await startTestPostgres();
 *   env: { PULUMI_BACKEND_URL: postgres.backendUrl, ...postgres.env }   // credentials as libpq reads them
 *   await postgres.query("SELECT key FROM pulumi_state");
 *   await postgres.stop();
 */
import { execFile } from "node:child_process";
import { chown, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface TestPostgres {
  /** `postgres://127.0.0.1:PORT/pulumi`: no credentials in it. */
  backendUrl: string;
  /** The libpq environment the CLI (and psql) connect with: PGUSER, PGPASSWORD, PGSSLMODE. */
  env: Record<string, string>;
  /** Rows of a query as arrays of text values. */
  query(sql: string): Promise<string[][]>;
  stop(): Promise<void>;
}

const USER = "pulumi";
const DATABASE = "pulumi";

function serverPrograms(): string {
  const bin = process.env["PULUMI_MONITORING_POSTGRES_BIN"];
  if (!bin) {
    throw new Error(
      "PostgreSQL's server programs (initdb, pg_ctl) are missing: PULUMI_MONITORING_POSTGRES_BIN is unset. " +
        "Run the tests through `npm test` or `bash scripts/run.sh`, whose setup installs Debian's postgresql package.",
    );
  }
  return bin;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = serverPrograms();
  const dir = await mkdtemp(join(tmpdir(), "pulumi-monitoring-postgres-"));
  const asRoot = process.getuid?.() === 0;
  // As root, the cluster belongs to the `postgres` user, which runs its programs.
  const asServer = async (program: string, args: string[]): Promise<void> => {
    const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, program), ...args]] : [join(bin, program), args];
    await run(command, argv, { cwd: dir });
  };
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const passwordFile = join(dir, "password");
  await writeFile(passwordFile, password, { mode: 0o600 });
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    await chown(dir, Number(stdout), Number(group));
    await chown(passwordFile, Number(stdout), Number(group));
  }
  const data = join(dir, "data");
  let port = 0;
  const env = { PGUSER: USER, PGPASSWORD: password, PGSSLMODE: "disable" };
  const psql = (database: string, sql: string) =>
    run(join(bin, "psql"), ["-h", "127.0.0.1", "-p", String(port), "-d", database, "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql], {
      env: { ...process.env, ...env },
    });
  try {
    await asServer("initdb", ["-D", data, "-U", USER, "--auth=scram-sha-256", `--pwfile=${passwordFile}`, "-E", "UTF8", "--no-sync"]);
    // A port freed a moment ago may be given to another process (an engine's gRPC server) before
    // the server binds it: a refused bind tries another.
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      // Only on 127.0.0.1, its socket in its own directory; durability is not needed for a test.
      const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      const log = join(dir, `server-${attempt}.log`);
      try {
        await asServer("pg_ctl", ["-D", data, "-o", settings, "-l", log, "-w", "start"]);
        break;
      } catch (error) {
        const refused = /could not bind|Address already in use/.test(await readFile(log, "utf8").catch(() => ""));
        if (!refused || attempt === 3) throw error;
      }
    }
    await psql("postgres", `CREATE DATABASE ${DATABASE}`);
  } catch (error) {
    await asServer("pg_ctl", ["-D", data, "-m", "immediate", "stop"]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    throw new Error(`could not start a PostgreSQL cluster in ${dir}: ${(error as Error).message}`);
  }
  return {
    backendUrl: `postgres://127.0.0.1:${port}/${DATABASE}`,
    env,
    async query(sql) {
      const { stdout } = await psql(DATABASE, sql);
      return stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => line.split("\t"));
    },
    async stop() {
      try {
        await asServer("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
