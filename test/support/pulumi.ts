/**
 * Drives real Pulumi programs with the Automation API on a local file backend.
 *
 * Each stack gets a private copy of its program under `.work/` (inside the repository, so the
 * program resolves @pulumi/pulumi and pulumi-monitoring from the repository's node_modules) and
 * a private file backend with a passphrase secrets provider. Nothing talks to Pulumi Cloud.
 *
 * Every operation goes through the real CLI and engine, and the provider runs in the real
 * dynamic-provider host. The program itself runs, by default, inside the test process as an
 * Automation API inline program, the way `pulumi-monitoring fleet` runs it (cli/fleet/stacks/in-process.ts):
 * the CLI then starts no language host and no Node.js process for it, which is most of what an
 * operation costs. `runner: "cli"` runs it as `pulumi up` does; tests of what users run with the
 * CLI (the examples, the demo, the package) use that.
 */
import { LocalWorkspace, PulumiCommand, Stack, type LocalWorkspaceOptions, type ConfigMap, type EngineEvent, type OutputMap, type PulumiFn, type UpdateSummary } from "@pulumi/pulumi/automation";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { type Document, parseDocument, Scalar } from "yaml";
import { readProject, stackConfigPath } from "../../cli/project/project.js";
import { encryptedForTestStacks, testEncryptionSalt, testPassphrase } from "./passphrase.js";
import { exportedFromStateFile, outputsOf, stateFilePath } from "./state-file.js";

export const repoRoot = join(__dirname, "..", "..");

let cli: PulumiCommand | undefined;

/**
 * The Pulumi CLI that the toolchain check found (test/support/toolchain.ts), for every workspace a
 * test file makes. `PulumiCommand.get()` would run `pulumi version` again in each test process
 * (a quarter of a CPU-second, sixty times a run) for what the check already knows. The class's
 * constructor, left out of its typings, takes the command and the version as `get()` parses it,
 * with the semver that @pulumi/pulumi itself uses.
 */
export function testCli(): PulumiCommand {
  if (cli !== undefined) return cli;
  const { command, version } = inject("pulumiCli");
  const semver = createRequire(require.resolve("@pulumi/pulumi/automation"))("semver") as { parse(version: string): unknown };
  cli = new (PulumiCommand as unknown as new (command: string, version: unknown) => PulumiCommand)(command, semver.parse(version));
  return cli;
}
export { testPassphrase };

/**
 * The environment of fleet commands run on a project in `workDir`: its own file backend in
 * `.state`, the connection from the environment (so every stack `fleet init` creates can deploy),
 * and no type-check per stack run (npm test type-checks the programs once, in
 * test/architecture/types.test.ts).
 */
export function fleetTestEnv(workDir: string, emulator: { baseUrl: string; apiKey: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${join(workDir, ".state")}`,
    PULUMI_CONFIG_PASSPHRASE: testPassphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    MONITORING_API_URL: emulator.baseUrl,
    MONITORING_API_KEY: emulator.apiKey,
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
}

export interface TestStack {
  stack: Stack;
  /** The program's private copy. */
  workDir: string;
  /** Directory of the file backend holding this stack's state. */
  backendDir: string;
  /** The raw state file, as written by the file backend. */
  readStateFile(): Promise<string>;
  /**
   * Destroys what is left, if anything, and removes the stack, its state and its program copy.
   * `keepObjects`: no destroy on a private backend, for a test whose objects go away with its
   * emulator (a destroy costs an engine run and proves nothing the test asked).
   */
  dispose(options?: { keepObjects?: boolean }): Promise<void>;
}

export interface TestStackOptions {
  /** Directory with Pulumi.yaml and the program, relative to the repository root (`.` for the root's own). */
  program: string;
  stackName?: string;
  /**
   * Copy only these files of the program directory, e.g. a stack's own `Pulumi.<stack>.yaml` or
   * the program at the repository root. By default everything is copied except state and stack
   * configuration files.
   */
  files?: readonly string[];
  config?: ConfigMap;
  /**
   * Extra environment for the CLI, the program and the providers it starts. A program that runs
   * inline sees the variables not named PULUMI_* in `process.env` while it runs (a YAML file's
   * `${env:NAME}`, say); two inline programs that need different values at once fail, naming the
   * variable.
   */
  env?: Record<string, string>;
  /**
   * Where the program runs: `"inline"` inside the test process (the default); `"cli"` in a
   * language host and a Node.js process per operation, as under `pulumi up`; `"cli-up"` so for
   * each up, while a preview runs the same program inline (an example proves that `pulumi up` runs
   * it; a preview of it through the CLI again would only start one more Node.js process).
   * PULUMI_MONITORING_TEST_RUNNER=cli (or inline) in the environment overrides it for every stack,
   * to tell whether a failure depends on where the program runs.
   */
  runner?: "inline" | "cli" | "cli-up";
  /**
   * Select the stack in its folder, as `pulumi stack init` does, for a test that runs a command
   * which names no stack (a line the product prints for the user to run, say). Operations through
   * `stack` name theirs.
   */
  selected?: boolean;
}

export async function createTestStack(options: TestStackOptions): Promise<TestStack> {
  if (process.env.PULUMI_MONITORING_TEST_PROJECT === "unit") {
    throw new Error("this test starts a Pulumi engine: list its file among the engine files in vitest.config.mts, not in `npm run test:unit`");
  }
  const id = randomBytes(4).toString("hex");
  const programLabel = options.program === "." ? "root" : options.program.replaceAll("/", "-");
  const workDir = join(repoRoot, ".work", `${programLabel}-${id}`);
  const backendDir = join(workDir, ".state");
  await mkdir(backendDir, { recursive: true });
  if (options.files) {
    for (const file of options.files) await cp(join(repoRoot, options.program, file), join(workDir, file));
  } else {
    await cp(join(repoRoot, options.program), workDir, {
      recursive: true,
      filter: (source) => !/(^|\/)(\.state|Pulumi\.[^/]+\.yaml)$/.test(source) || source.endsWith("Pulumi.yaml"),
    });
  }

  const stackName = options.stackName ?? `test-${id}`;
  const ownBackend = options.env?.["PULUMI_BACKEND_URL"] === undefined;
  const workspaceOptions = {
    pulumiCommand: testCli(),
    envVars: {
      PULUMI_BACKEND_URL: `file://${backendDir}`,
      PULUMI_CONFIG_PASSPHRASE: testPassphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      // npm test type-checks every program in the repository with tsc (stricter than
      // ts-node's defaults); each operation need not load the type checker again.
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      ...options.env,
    },
  };
  // A private backend gets the stack's files written; a shared one a `stack init` (not a select first).
  const stack = ownBackend ? await stackInFiles(stackName, workDir, backendDir, workspaceOptions, options.selected === true) : await LocalWorkspace.createStack({ stackName, workDir }, workspaceOptions);
  if (ownBackend) stateFromFile(stack, readStateFile);
  answerFromEngineEvents(stack);
  settingsInFile(stack, workDir);
  if (options.config) await stack.setAllConfig(options.config);
  const runner = process.env.PULUMI_MONITORING_TEST_RUNNER ?? options.runner ?? "inline";
  if (runner === "inline") {
    stack.workspace.program = await inlineProgram(workDir, options.env ?? {});
  } else if (runner === "cli-up") {
    previewInline(stack, await inlineProgram(workDir, options.env ?? {}));
  }

  async function readStateFile(): Promise<string> {
    const project = stack.workspace.projectSettings ? (await stack.workspace.projectSettings()).name : "";
    return readFile(stateFilePath(backendDir, project, stackName), "utf8");
  }

  /**
   * Whether the private backend's state holds a resource or an operation left pending. Most tests
   * end with a destroy of their own, and a second one finds nothing yet costs a CLI run.
   */
  async function holdsAnything(): Promise<boolean> {
    let state: string;
    try {
      state = await readStateFile();
    } catch (error) {
      // No update ever ran: the stack has no state file.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
    const latest = (JSON.parse(state) as { checkpoint?: { latest?: { resources?: unknown[]; pending_operations?: unknown[] } } }).checkpoint?.latest;
    return (latest?.resources?.length ?? 0) > 0 || (latest?.pending_operations?.length ?? 0) > 0;
  }

  return {
    stack,
    workDir,
    backendDir,
    readStateFile,
    async dispose(disposal = {}) {
      try {
        if (!ownBackend || (disposal.keepObjects !== true && (await holdsAnything()))) await stack.destroy();
        // A private backend goes with the folder; a shared one (PostgreSQL, say) keeps no empty stack.
        if (!ownBackend) await stack.workspace.removeStack(stackName);
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },
  };
}

const builtModules = createRequire(__filename);

/**
 * A module of this package as built in dist/, loaded by Node.js itself (not through Vitest), for
 * code that runs a program in this process (the fleet's in-process runner): the program then
 * shares the @pulumi/pulumi the Automation API runs in, and the runner tells this package's built
 * modules (kept between runs) from the program's own (run again each time). `path` is the
 * module's source path from the repository's root (`cli/scopes/command.ts`).
 */
export function builtModule<T>(path: string): T {
  return builtModules(join(repoRoot, "dist", path.replace(/\.ts$/, ".js"))) as T;
}

/**
 * After `up`, `refresh` and `destroy`, the Automation API runs three more CLIs: `stack history`
 * for the summary and `stack output` twice for the outputs, each of which loads the stack and
 * derives the passphrase's key again (a tenth of the suite's CPU). The engine has already sent
 * both in its events: the summary's resource changes, and the stack's outputs with every secret
 * masked. The results here come from those events; outputs that hold a secret come from the
 * state (stateFromFile), or the CLI, which alone can show them on a shared backend.
 * `stack.history()` outside an operation still asks the CLI.
 */
function answerFromEngineEvents(stack: Stack): void {
  const asked = { info: stack.info.bind(stack), outputs: stack.outputs.bind(stack) };
  let running: { kind: UpdateSummary["kind"]; startTime: Date; summary?: UpdateSummary["resourceChanges"]; outputs?: Record<string, unknown> } | undefined;
  const operations = { up: "update", refresh: "refresh", destroy: "destroy" } as const;
  for (const [operation, kind] of Object.entries(operations) as [keyof typeof operations, UpdateSummary["kind"]][]) {
    const run = stack[operation].bind(stack) as (opts?: { onEvent?: (event: EngineEvent) => void }) => Promise<unknown>;
    (stack as unknown as Record<string, unknown>)[operation] = async (opts?: { onEvent?: (event: EngineEvent) => void }) => {
      const current: NonNullable<typeof running> = { kind, startTime: new Date() };
      const onEvent = (event: EngineEvent) => {
        if (event.summaryEvent) current.summary = event.summaryEvent.resourceChanges;
        const step = event.resOutputsEvent?.metadata;
        if (step?.type === "pulumi:pulumi:Stack") current.outputs = step.new?.outputs ?? {};
        opts?.onEvent?.(event);
      };
      running = current;
      try {
        return await run({ ...opts, onEvent });
      } finally {
        running = undefined;
      }
    };
  }
  stack.info = async (showSecrets?: boolean) => {
    if (running?.summary === undefined) return asked.info(showSecrets);
    const { kind, startTime, summary } = running;
    return { kind, startTime, endTime: new Date(), result: "succeeded", resourceChanges: summary, message: "", environment: {}, config: {}, version: 0 };
  };
  stack.outputs = async (): Promise<OutputMap> => {
    const outputs = running?.outputs;
    if (outputs === undefined || JSON.stringify(outputs).includes(`"[secret]"`)) return asked.outputs();
    return Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, { value, secret: false }]));
  };
}

/**
 * `exportStack` and `outputs` of a stack on a private file backend read its state file
 * (test/support/state-file.ts) rather than run the CLI, which loads the stack and derives the
 * passphrase's key again, once for the export and twice for the outputs. A state the tests' key
 * cannot open still goes to the CLI.
 */
function stateFromFile(stack: Stack, readStateFile: () => Promise<string>): void {
  const cli = { exportStack: stack.exportStack.bind(stack), outputs: stack.outputs.bind(stack) };
  const exported = async () => exportedFromStateFile(await readStateFile());
  stack.exportStack = async () => (await exported()) ?? cli.exportStack();
  stack.outputs = async () => {
    const deployment = await exported();
    return deployment === undefined ? cli.outputs() : outputsOf(deployment);
  };
}

/**
 * New stacks on a file backend, written as `pulumi stack init` writes them: the backend's layout
 * marker, a checkpoint with no update yet, and a settings file with the tests' salt
 * (test/support/passphrase.ts) and `config` (each key under the project's namespace when it has
 * none, a secret sealed as `config set --secret` seals it). `stack init` would load the CLI and
 * derive the passphrase's key for three small files, and each `config set` again. A settings file
 * the program brings for a stack (an example's own) keeps its values, as under `stack init`,
 * which adds the salt when the file has none.
 */
export async function stacksInFiles(workDir: string, backendDir: string, stacks: readonly string[], config: (stack: string) => ConfigMap = () => ({})): Promise<void> {
  const project = await readProject(workDir);
  await mkdir(join(backendDir, ".pulumi"), { recursive: true });
  await mkdir(project.stackConfigDir, { recursive: true });
  await writeFile(join(backendDir, ".pulumi", "meta.yaml"), "version: 1\n");
  for (const stackName of stacks) {
    const stateFile = stateFilePath(backendDir, project.name, stackName);
    await mkdir(dirname(stateFile), { recursive: true });
    await writeFile(stateFile, JSON.stringify({ version: 3, checkpoint: { stack: `organization/${project.name}/${stackName}` } }));
    const settingsFile = stackConfigPath(project, stackName);
    const settings = parseDocument(await readFile(settingsFile, "utf8").catch(() => ""));
    if (!settings.has("encryptionsalt")) settings.set("encryptionsalt", testEncryptionSalt);
    for (const [key, { value, secret }] of Object.entries(config(stackName))) setSetting(settings, project.name, key, value, secret === true);
    await writeFile(settingsFile, String(settings));
  }
}

/**
 * A setting in a stack's settings file as `pulumi config set` writes it: under `key`, the
 * project's name as its namespace when it has none, a quoted string, or `secure:` when secret.
 */
function setSetting(settings: Document, project: string, key: string, value: string, secret: boolean): void {
  const scalar = new Scalar(value);
  scalar.type = Scalar.QUOTE_DOUBLE;
  settings.setIn(["config", key.includes(":") ? key : `${project}:${key}`], secret ? settings.createNode({ secure: encryptedForTestStacks(value) }) : scalar);
}

/**
 * A new stack on a private file backend ({@link stacksInFiles}), selected in its folder only if the
 * test asks (`selected`): every operation names its stack (`--stack`).
 */
async function stackInFiles(stackName: string, workDir: string, backendDir: string, workspaceOptions: LocalWorkspaceOptions, selected: boolean): Promise<Stack> {
  await stacksInFiles(workDir, backendDir, [stackName]);
  const workspace = await LocalWorkspace.create({ workDir, ...workspaceOptions });
  if (selected) await workspace.selectStack(stackName);
  workspace.selectStack = async () => undefined;
  return Stack.select(stackName, workspace);
}

/**
 * `setConfig` and `setAllConfig` write into the stack's settings file themselves, as `pulumi
 * config set` writes it (a quoted string, or a `secure:` value, under the key, the project's name
 * as its namespace when it has none, in the project's stackConfigDir): a CLI run would load the
 * stack and derive the passphrase's key again for one line of YAML. Secrets go through the CLI
 * when the file's salt is not the tests' own (a stack on a shared backend), and so do paths into
 * a value.
 */
function settingsInFile(stack: Stack, workDir: string): void {
  const cli = { setConfig: stack.setConfig.bind(stack), setAllConfig: stack.setAllConfig.bind(stack) };
  /** Writes what it can of `config`, and returns the rest, for the CLI. */
  async function write(config: ConfigMap): Promise<ConfigMap> {
    const project = await readProject(workDir);
    const file = stackConfigPath(project, stack.name);
    const document = parseDocument(await readFile(file, "utf8").catch(() => ""));
    const encrypts = document.get("encryptionsalt") === testEncryptionSalt;
    const rest: ConfigMap = {};
    for (const [key, { value, secret }] of Object.entries(config)) {
      if (secret && !encrypts) rest[key] = { value, secret };
      else setSetting(document, project.name, key, value, secret === true);
    }
    if (Object.keys(rest).length < Object.keys(config).length) await writeFile(file, String(document));
    return rest;
  }
  stack.setConfig = async (key, value, path) => {
    if (path || Object.keys(await write({ [key]: value })).length > 0) await cli.setConfig(key, value, path);
  };
  stack.setAllConfig = async (config, path) => {
    const rest = path ? config : await write(config);
    if (Object.keys(rest).length > 0) await cli.setAllConfig(rest, path);
  };
}

/** `stack.preview` runs `program` inline; every other operation runs the project's program through the CLI. */
function previewInline(stack: Stack, program: PulumiFn): void {
  const preview = stack.preview.bind(stack);
  stack.preview = async (options) => {
    stack.workspace.program = program;
    try {
      return await preview(options);
    } finally {
      stack.workspace.program = undefined;
    }
  };
}

/** Variables an inline program has set in `process.env` while it runs, with the value, by name. */
const claimedEnvironment = new Map<string, { value: string; runs: number }>();

/** Sets `env` in `process.env` for one run of an inline program; undo() puts back what was there. */
function claimEnvironment(env: Record<string, string>): () => void {
  const variables = Object.entries(env).filter(([name]) => !name.startsWith("PULUMI_"));
  for (const [name, value] of variables) {
    const claim = claimedEnvironment.get(name);
    if (claim !== undefined && claim.value !== value) {
      throw new Error(`two inline programs need different values of ${name} at once: create one of their stacks with runner: "cli"`);
    }
  }
  const previous = variables.map(([name]) => [name, process.env[name]] as const);
  for (const [name, value] of variables) {
    const claim = claimedEnvironment.get(name);
    if (claim === undefined) claimedEnvironment.set(name, { value, runs: 1 });
    else claim.runs += 1;
    process.env[name] = value;
  }
  return () => {
    for (const [name, value] of previous) {
      const claim = claimedEnvironment.get(name)!;
      if (--claim.runs > 0) continue;
      claimedEnvironment.delete(name);
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** The program in `workDir`, run in this process, transpiled only, like the CLI's (see createTestStack). */
async function inlineProgram(workDir: string, env: Record<string, string>): Promise<PulumiFn> {
  const { readProject } = builtModule<typeof import("../../cli/project/project.js")>("cli/project/project.ts");
  const { inProcessRunner } = builtModule<typeof import("../../cli/fleet/stacks/in-process.js")>("cli/fleet/stacks/in-process.ts");
  const runner = inProcessRunner(await readProject(workDir), { ...process.env, PULUMI_NODEJS_TRANSPILE_ONLY: "true" });
  if (!runner.inProcess) throw new Error(`${workDir} cannot run inline (${runner.reason}); create its stack with runner: "cli"`);
  const { program } = runner;
  return async () => {
    const undo = claimEnvironment(env);
    try {
      return await program();
    } finally {
      undo();
      // The runner moves into the program's folder, which dispose() deletes.
      process.chdir(repoRoot);
    }
  };
}
