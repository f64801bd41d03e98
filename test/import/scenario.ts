/**
 * The import, end to end: an account made by hand, `pulumi-monitoring import` in one format, the
 * generated program deployed by the real Pulumi engine. The lines the command prints fill every
 * secret placeholder (the test runs them: each `export`, and of the `pulumi config set --secret`
 * lines, all one command, one as printed), and no secret value shows in the program or the output,
 * whether or not the server returns it (the alt profile returns channel credentials). The first
 * `up` adopts every object and creates none, a refresh then finds nothing to change (in the
 * scenarios with `refresh`), and an edit of one field changes only that object: that up, which
 * refreshes first (options: refresh: always), is also the preview that finds every other object
 * unchanged. Importing the same account twice
 * gives the same text.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ImportResult, importAccount } from "../../cli/import/main.js";
import type { Placeholder } from "../../cli/import/plan.js";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";
import { type TestStack, createTestStack, repoRoot, testPassphrase } from "../support/pulumi.js";
import { COLLECTION_PATH, type SeededAccount, countFileObjects, countObjects, seedAccount } from "./support.js";

const PROJECT = "imported";
const run = promisify(execFile);
const DEPLOY_TIMEOUT_MS = 1_200_000;

export interface ImportScenario {
  profile: "default" | "alt";
  format: "ts" | "yaml";
  /** Objects of every kind in the account. */
  count: number;
  /**
   * A `pulumi refresh` of its own after the first up, which must find nothing to change. One
   * scenario's is enough for the engine's part; what a refresh reads on a profile is the
   * provider's (test/provider/every-kind-alt.test.ts reads every kind back on the alt profile).
   */
  refresh: boolean;
}

export function describeImport({ profile, format, count, refresh }: ImportScenario): void {
  describe(`pulumi-monitoring import --format ${format}, ${profile} profile, ${count} objects of every kind`, () => {
    let emulator: TestEmulator;
    let seeded: SeededAccount;
    let before: Record<string, number>;
    let imports: { file: string; argv: string[]; result: ImportResult; output: string }[];
    let programDir: string;
    let harness: TestStack;

    /** The result and everything the command printed (the program on stdout, the summary on stderr). */
    const runImport = async (argv: string[]): Promise<{ result: ImportResult; output: string }> => {
      let stdout = "";
      let stderr = "";
      const result = await importAccount(argv, {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        env: { MONITORING_API_URL: emulator.baseUrl, MONITORING_API_KEY: emulator.apiKey },
      });
      if (result === undefined) throw new Error("the import printed its help instead of importing");
      expect(stdout).toBe(result.text);
      return { result, output: stdout + stderr };
    };

    /** The command of the printed line that fills `placeholder`, without its comment. */
    const printedCommand = (placeholder: Placeholder, output: string): string => {
      const name = format === "ts" ? placeholder.key : placeholder.environmentVariable;
      const line = output.split("\n").find((text) => (format === "ts" ? text.includes(`--secret ${name} `) : text.includes(`export ${name}=`)));
      if (line === undefined) throw new Error(`no printed line fills ${name}`);
      return line.trim().replace(/\s+#.*$/, "");
    };

    /** The printed line that fills `placeholder`, run with its secret: a config value (ts) or an environment variable (yaml). */
    const fillIn = async (placeholder: Placeholder, output: string, workDir: string, environment: Record<string, string>): Promise<void> => {
      const name = format === "ts" ? placeholder.key : placeholder.environmentVariable;
      const command = printedCommand(placeholder, output);
      if (format === "ts") {
        // `pulumi config set --secret KEY` reads the value from standard input when no terminal is attached.
        const child = execFile("bash", ["-c", command], {
          cwd: workDir,
          env: { ...process.env, PULUMI_BACKEND_URL: `file://${harness.backendDir}`, PULUMI_CONFIG_PASSPHRASE: testPassphrase, PULUMI_SKIP_UPDATE_CHECK: "true" },
        });
        child.stdin?.end(secretOf(placeholder));
        await new Promise<void>((resolve, reject) => child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`)))));
      } else {
        const quoted = `'${secretOf(placeholder).replaceAll("'", "'\\''")}'`;
        const { stdout } = await run("bash", ["-c", `${command.replace("'...'", quoted)}; printenv ${name}`]);
        environment[name] = stdout.replace(/\n$/, "");
      }
    };

    /** The secret each placeholder stands for, as the account was seeded with it. */
    const secretOf = (placeholder: Placeholder): string => {
      const value = seeded.secrets.get(placeholder.declaration.id.toLowerCase())?.[placeholder.path];
      if (value === undefined) throw new Error(`the import asks for ${placeholder.key}, a secret the account was not given`);
      return value;
    };

    beforeAll(async () => {
      emulator = await startTestEmulator({ profile });
      seeded = await seedAccount(emulator, count);
      before = await countObjects(emulator);
    }, DEPLOY_TIMEOUT_MS);
    afterAll(async () => {
      // The emulator and its objects go away with it: no destroy needed.
      if (harness !== undefined) await rm(harness.workDir, { recursive: true, force: true });
      if (programDir !== undefined) await rm(programDir, { recursive: true, force: true });
      await emulator?.stop();
    });

    it("writes a program declaring every object in scope, the same twice, with placeholders for the secrets", async () => {
      const [acme] = seeded.clients;
      imports =
        format === "ts"
          ? [{ file: "index.ts", argv: ["--all-clients", "--quiet"] }].map((entry) => ({ ...entry, result: undefined as never, output: "" }))
          : [
              { file: "account.yaml", argv: ["--format", "yaml", "--quiet"], result: undefined as never, output: "" },
              { file: "acme.yaml", argv: ["--format", "yaml", "--client-id", acme, "--quiet"], result: undefined as never, output: "" },
            ];
      for (const entry of imports) Object.assign(entry, await runImport(entry.argv));
      // The same account twice gives the same text, byte for byte.
      for (const { argv, result } of imports) expect((await runImport(argv)).result.text).toBe(result.text);

      const declared = imports.reduce((sum, { result }) => sum + result.plan.declarations.length, 0);
      if (format === "ts") {
        expect(declared).toBe(Object.values(before).reduce((sum, value) => sum + value, 0));
      } else {
        expect(declared).toBe((await countFileObjects(emulator)) + (await countFileObjects(emulator, acme)));
      }
      const placeholders = imports.flatMap(({ result }) => result.plan.placeholders);
      expect(placeholders.length).toBeGreaterThan(0);
      expect(placeholders.map(secretOf)).toHaveLength(placeholders.length);
      // Every credential of the objects imported is a placeholder, returned by the server or not.
      const imported = new Set(imports.flatMap(({ result }) => result.plan.declarations.map(({ id }) => id.toLowerCase())));
      const channelSecrets = [...seeded.secrets]
        .filter(([id]) => imported.has(id))
        .flatMap(([id, paths]) => Object.keys(paths).filter((path) => path.startsWith("credentials.")).map((path) => `${id} ${path}`));
      expect(channelSecrets.length).toBeGreaterThan(0);
      const declaredChannelSecrets = placeholders.filter(({ path }) => path.startsWith("credentials.")).map(({ declaration, path }) => `${declaration.id.toLowerCase()} ${path}`);
      expect(channelSecrets.filter((secret) => !declaredChannelSecrets.includes(secret))).toEqual([]);
      for (const { output } of imports) {
        for (const secret of seeded.secrets.values()) for (const value of Object.values(secret)) expect(output).not.toContain(value);
      }

      programDir = join(repoRoot, ".work", `import-program-${randomBytes(4).toString("hex")}`);
      await mkdir(programDir, { recursive: true });
      await writeFile(join(programDir, "Pulumi.yaml"), `name: ${PROJECT}\nmain: index.ts\nruntime:\n  name: nodejs\n  options:\n    typescript: true\noptions:\n  refresh: always\n`);
      for (const { file, result } of imports) await writeFile(join(programDir, file), result.text);
      if (format === "yaml") {
        await writeFile(
          join(programDir, "index.ts"),
          [
            'import * as mon from "pulumi-monitoring";',
            'mon.loadMonitoringYaml("account.yaml");',
            `mon.loadMonitoringYaml("acme.yaml", { clientId: ${JSON.stringify(acme)}, namePrefix: "acme-" });`,
            "",
          ].join("\n"),
        );
      }
      const secretEnvironment: Record<string, string> = {};
      if (format === "yaml") {
        for (const { result, output } of imports) for (const placeholder of result.plan.placeholders) await fillIn(placeholder, output, programDir, secretEnvironment);
      }
      harness = await createTestStack({
        program: join(".work", programDir.split("/").at(-1) as string),
        config: {
          "monitoring:apiUrl": { value: emulator.baseUrl },
          "monitoring:apiKey": { value: emulator.apiKey, secret: true },
        },
        env: secretEnvironment,
        // The printed `pulumi config set --secret` lines name no stack.
        selected: format === "ts",
      });
      if (format === "ts") {
        // Every printed line is `pulumi config set --secret KEY`, which reads the value it prompts
        // for. The first is run as printed; the others, the same command for another key, are set
        // in one `pulumi config set-all`: a CLI run apiece cost about half a CPU-second each (the
        // passphrase's key derivation). The first up proves every key right: the program's
        // config.requireSecret fails on a missing one.
        const [first, ...others] = imports.flatMap(({ result, output }) => result.plan.placeholders.map((placeholder) => ({ placeholder, output })));
        await fillIn(first!.placeholder, first!.output, harness.workDir, secretEnvironment);
        for (const { placeholder, output } of others) expect(printedCommand(placeholder, output)).toBe(`pulumi config set --secret ${placeholder.key}`);
        await harness.stack.setAllConfig(Object.fromEntries(others.map(({ placeholder }) => [placeholder.key, { value: secretOf(placeholder), secret: true }])));
      }
    }, DEPLOY_TIMEOUT_MS);

    it("adopts every object on the first up, creating none", async () => {
      await emulator.admin.clearRequestLog();
      const started = performance.now();
      const up = await harness.stack.up();
      console.info(`import ${format}/${profile}: first up of ${up.summary.resourceChanges?.create} resources took ${Math.round(performance.now() - started)} ms`);
      const declared = imports.reduce((sum, { result }) => sum + result.plan.declarations.length, 0);
      expect(up.summary.resourceChanges).toEqual({ create: declared + 1 });
      expect(await countObjects(emulator)).toEqual(before);
      const creates = (await emulator.admin.requestLog()).filter(({ method, path }) => method === "POST" && COLLECTION_PATH.test(path));
      expect(creates).toEqual([]);
    }, DEPLOY_TIMEOUT_MS);

    if (refresh) {
      it("then refreshes no changes", async () => {
        await harness.stack.refresh({ expectNoChanges: true });
      }, DEPLOY_TIMEOUT_MS);
    }

    it("changes only the object whose field is edited in the program, and finds every other one unchanged", async () => {
      const [file, from, to] =
        format === "ts" ? ["index.ts", 'name: "Monitor 03",', 'name: "Monitor 03 (edited)",'] : ["account.yaml", "name: Monitor 03\n", "name: Monitor 03 (edited)\n"];
      const path = join(harness.workDir, file);
      const program = await readFile(path, "utf8");
      expect(program).toContain(from);
      await writeFile(path, program.replace(from, to));
      await emulator.admin.clearRequestLog();
      const up = await harness.stack.up();
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(Object.keys(up.summary.resourceChanges ?? {}).sort()).toEqual(["same", "update"]);
      const writes = (await emulator.admin.requestLog()).filter(({ method }) => method !== "GET");
      expect(writes.map(({ method, path }) => `${method} ${path.replace(/[0-9a-f-]{36}/i, "{id}")}`)).toEqual(["PATCH /monitors/{id}"]);
    }, DEPLOY_TIMEOUT_MS);
  });
}
