/**
 * A project's Node.js program run inside the fleet's own process, as an Automation API inline
 * program, so that @pulumi/pulumi, TypeScript and the program's packages load once rather than
 * for every stack. What stays as with `pulumi up` and what differs: docs/architecture.md,
 * "Programs in the fleet's process".
 */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve, sep } from "node:path";
import { format } from "node:util";
import type { FleetProject } from "../../project/project.js";

/** How the fleet runs a project's program: inside its own process, or why not. */
export type ProgramRunner = { inProcess: true; program: PulumiFn } | { inProcess: false; reason: string };

/** The part of @pulumi/pulumi's internal `tsutils` the CLI's own program runner uses. */
interface PulumiTsUtils {
  loadTypeScriptCompilerOptions(tsConfigPath: string): Record<string, unknown>;
  typeScriptRequireStrings(): { tsnodeRequire: string; typescriptRequire: string };
}

const ourRequire = createRequire(__filename);
/** This package's built modules (its SDK among them): a library the programs share, wherever it is installed. */
const ourBuildDir = resolve(__dirname, "..", "..", "..");
/**
 * How TypeScript is registered, and for which project; ts-node's hooks are process-wide, so a
 * later project can share them only when it would get the same setup.
 */
let registered: { setup: string; projectDir: string } | undefined;
/** Whether the process-wide hooks every in-process run relies on are installed. */
let processPrepared = false;

/**
 * The project's program as an inline program, or the reason it must run in a process of its own:
 * another runtime, an ES module program, Node.js flags (`nodeargs`), or a @pulumi/pulumi of its
 * own (the inline program's runtime state lives in the fleet's copy). `environment` holds the
 * PULUMI_NODEJS_* settings of TypeScript, as the CLI would pass them to the program.
 */
export function inProcessRunner(project: FleetProject, environment: NodeJS.ProcessEnv = process.env): ProgramRunner {
  const runtime = project.runtime;
  if (runtime.name !== "nodejs") return { inProcess: false, reason: `the project's runtime is ${runtime.name}` };
  if (typeof runtime.options.nodeargs === "string" && runtime.options.nodeargs.trim() !== "") {
    return { inProcess: false, reason: "the project passes Node.js flags (runtime.options.nodeargs)" };
  }
  // Its modules would be taken for this package's, kept between runs: a second run would declare nothing.
  if (`${resolve(project.dir)}${sep}`.startsWith(`${ourBuildDir}${sep}`)) return { inProcess: false, reason: `the project lies inside this package's own modules (${ourBuildDir})` };
  const packageRoot = packageRootOf(project.dir);
  const packageJson = packageRoot === undefined ? {} : (JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as PackageJson);
  if (packageJson.type === "module") return { inProcess: false, reason: "the program is an ES module (package.json type: module)" };

  const projectRequire = createRequire(join(project.dir, "Pulumi.yaml"));
  let theirs: string;
  try {
    theirs = realpathSync(projectRequire.resolve("@pulumi/pulumi"));
  } catch {
    return { inProcess: false, reason: "@pulumi/pulumi is not installed where the project can load it" };
  }
  const ours = realpathSync(ourRequire.resolve("@pulumi/pulumi"));
  if (theirs !== ours) return { inProcess: false, reason: `the project loads its own @pulumi/pulumi (${dirname(theirs)}), not the fleet's (${dirname(ours)})` };
  if (runtime.options.typescript !== false) {
    if (registered !== undefined && registered.setup !== typeScriptSetup(project.dir, environment)) {
      return { inProcess: false, reason: `TypeScript is already set up for ${registered.projectDir}` };
    }
    if (pulumiTsUtils() === undefined) return { inProcess: false, reason: "this @pulumi/pulumi does not set up TypeScript the way the fleet knows (its tsutils module)" };
  }

  const entry = entryPoint(project, packageRoot, packageJson);
  // Before any run starts: each run sets up its error listeners before its program runs.
  if (!processPrepared) {
    processPrepared = true;
    attributeUncaughtErrorsToTheirRun();
    routeConsoleToEngineLog();
  }
  return {
    inProcess: true,
    program: async () => {
      if (runtime.options.typescript !== false) registerTypeScript(project.dir, environment);
      // Relative paths in the program mean what they mean under `pulumi up`. No process.cwd()
      // first: it throws when the folder an earlier run left the process in has been removed.
      process.chdir(project.dir);
      forgetProjectModules();
      return programRun.run(project.name, async () => {
        const exported: unknown = ourRequire(entry);
        return (exported instanceof Function ? await exported() : exported) as Record<string, unknown>;
      });
    },
  };
}

/**
 * The Automation API option that runs the project's program in this process, or none (the CLI
 * runs it in a process of its own), for one operation outside a fleet run.
 */
export function programOf(project: FleetProject): { program?: PulumiFn } {
  const runner = inProcessRunner(project);
  return runner.inProcess ? { program: runner.program } : {};
}

interface PackageJson {
  type?: string;
  main?: string;
  exports?: string | Record<string, string | { default?: string; require?: string; import?: string }>;
}

/** The nearest folder at or above `dir` that holds a package.json, as the CLI's runner looks for it. */
function packageRootOf(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, "package.json"))) return current;
    if (dirname(current) === current) return undefined;
  }
}

/** The module the CLI would run: Pulumi.yaml `main`, else package.json `exports` or `main`, else the folder's index. */
function entryPoint(project: FleetProject, packageRoot: string | undefined, packageJson: PackageJson): string {
  let entry = project.main !== undefined ? resolve(project.dir, project.main) : project.dir;
  if (project.main === undefined && packageRoot !== undefined) {
    const exported = typeof packageJson.exports === "string" ? packageJson.exports : packageJson.exports?.["."];
    const target = typeof exported === "string" ? exported : (exported?.default ?? exported?.require ?? packageJson.main);
    if (target !== undefined) entry = resolve(packageRoot, target);
  }
  // A folder is required through its index, not an adjacent file of the same name.
  return existsSync(entry) && statSync(entry).isDirectory() ? `${entry}${sep}` : entry;
}

/** @pulumi/pulumi's internal TypeScript helpers, when this version has them as the fleet knows them. */
function pulumiTsUtils(): PulumiTsUtils | undefined {
  try {
    const tsutils = ourRequire("@pulumi/pulumi/tsutils") as Partial<PulumiTsUtils>;
    return typeof tsutils.loadTypeScriptCompilerOptions === "function" && typeof tsutils.typeScriptRequireStrings === "function" ? (tsutils as PulumiTsUtils) : undefined;
  } catch {
    return undefined;
  }
}

function tsConfigPathOf(projectDir: string, environment: NodeJS.ProcessEnv): string {
  return resolve(projectDir, environment.PULUMI_NODEJS_TSCONFIG_PATH ?? "tsconfig.json");
}

/** What decides ts-node's setup for a project: its tsconfig.json (projects without one get the same defaults) and the environment. */
function typeScriptSetup(projectDir: string, environment: NodeJS.ProcessEnv): string {
  const tsConfigPath = tsConfigPathOf(projectDir, environment);
  return JSON.stringify([existsSync(tsConfigPath) ? tsConfigPath : "no tsconfig.json", environment.PULUMI_NODEJS_TRANSPILE_ONLY ?? ""]);
}

/** Registers ts-node once, with what @pulumi/pulumi's `cmd/run` would give it in the project's folder. */
function registerTypeScript(projectDir: string, environment: NodeJS.ProcessEnv): void {
  if (registered !== undefined) return;
  const tsutils = pulumiTsUtils()!;
  const tsConfigPath = tsConfigPathOf(projectDir, environment);
  const compilerOptions = tsutils.loadTypeScriptCompilerOptions(tsConfigPath);
  const transpileOnlyEnv = environment.PULUMI_NODEJS_TRANSPILE_ONLY;
  const transpileOnly = transpileOnlyEnv ? transpileOnlyEnv === "true" : (compilerOptions.noCheck as boolean | undefined);
  const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
  const pulumiRequire = createRequire(ourRequire.resolve("@pulumi/pulumi/tsutils"));
  const version = (pulumiRequire(typescriptRequire) as { version: string }).version;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const nodeNext = major > 4 || (major === 4 && minor >= 7);
  const tsNode = pulumiRequire(tsnodeRequire) as { register(options: Record<string, unknown>): TsNodeService };
  const service = tsNode.register({
    compiler: typescriptRequire,
    transpileOnly,
    project: tsConfigPath,
    skipProject: !existsSync(tsConfigPath),
    compilerOptions: {
      target: "ES2020",
      module: nodeNext ? "nodenext" : "commonjs",
      moduleResolution: nodeNext ? "nodenext" : "node",
      sourceMap: "true",
      ...compilerOptions,
    },
  });
  if (transpileOnly === true) keepTranspiled(service);
  registered = { setup: typeScriptSetup(projectDir, environment), projectDir };
}

/** The part of ts-node's service its require hook calls for each TypeScript module it loads. */
interface TsNodeService {
  compile(code: string, fileName: string, lineOffset?: number): string;
}

/**
 * Keeps each file's transpiled text while its source stays the same: every run executes the
 * program's modules again (forgetProjectModules), and a fleet runs the same files for stack after
 * stack, so transpiling them again each time was only cost (some 30 ms a run). Only without type
 * checking: a file's diagnostics depend on the other files, which may change while it does not.
 */
function keepTranspiled(service: TsNodeService): void {
  const compile = service.compile.bind(service);
  const transpiled = new Map<string, { code: string; output: string }>();
  service.compile = (code, fileName, lineOffset) => {
    const kept = transpiled.get(fileName);
    if (kept !== undefined && kept.code === code && lineOffset === undefined) return kept.output;
    const output = compile(code, fileName, lineOffset);
    transpiled.set(fileName, { code, output });
    return output;
  };
}

/**
 * Drops the project's own modules from the module cache, so that the next run executes them again.
 * Native addons stay: Node.js cannot load one twice.
 */
function forgetProjectModules(): void {
  for (const file of Object.keys(ourRequire.cache)) {
    if (file.includes(`${sep}node_modules${sep}`) || file.startsWith(`${ourBuildDir}${sep}`) || file.endsWith(".node")) continue;
    delete ourRequire.cache[file];
  }
}

/** Set while a program runs in the fleet process: the project's name. */
const programRun = new AsyncLocalStorage<string>();

/**
 * `console` calls made by a program running in the fleet process go to its stack's engine log, as
 * a program's output does under `pulumi up`; everywhere else `console` is left as it is.
 */
function routeConsoleToEngineLog(): void {
  const log = (ourRequire("@pulumi/pulumi") as typeof import("@pulumi/pulumi")).log;
  for (const [method, severity] of [
    ["log", "info"],
    ["info", "info"],
    ["debug", "debug"],
    ["warn", "warn"],
    // An error logged by the program would fail the stack; written to stderr, it does not under `pulumi up`.
    ["error", "warn"],
  ] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]): void => {
      if (programRun.getStore() === undefined) return original(...args);
      // Outside the run's context, so that the log's own fallback to `console` cannot loop.
      programRun.exit(() => void log[severity](format(...args)));
    };
  }
}

/**
 * The Automation API's run of an inline program listens on `process` for uncaught errors and
 * unhandled rejections, and fails its stack on any of them. With several stacks running at once,
 * each would fail on the others' errors too. Node.js calls those listeners in the async context
 * the error came from, so a listener added during a run (inside @pulumi/pulumi's per-run store)
 * is made to hear only the errors of its own run; errors from outside any run reach every listener.
 */
function attributeUncaughtErrorsToTheirRun(): void {
  const runOf = (): object | undefined => (globalThis as { asyncLocalStorage?: AsyncLocalStorage<object> }).asyncLocalStorage?.getStore();
  const errorEvents = new Set<string | symbol>(["uncaughtException", "unhandledRejection"]);
  // By event too: @pulumi/pulumi adds one function for both events.
  const ownRunOnly = new Map([...errorEvents].map((event) => [event, new WeakMap<(...args: unknown[]) => void, (...args: unknown[]) => void>()]));
  type Listen = (event: string | symbol, listener: (...args: unknown[]) => void) => NodeJS.Process;
  const add = process.on as Listen;
  const remove = process.off as Listen;
  const on: Listen = function (this: NodeJS.Process, event, listener) {
    const run = runOf();
    if (!errorEvents.has(event) || run === undefined) return add.call(this, event, listener);
    const filtered = (...args: unknown[]): void => {
      const origin = runOf();
      if (origin === undefined || origin === run) listener(...args);
    };
    ownRunOnly.get(event)!.set(listener, filtered);
    return add.call(this, event, filtered);
  };
  const off: Listen = function (this: NodeJS.Process, event, listener) {
    return remove.call(this, event, ownRunOnly.get(event)?.get(listener) ?? listener);
  };
  process.on = process.addListener = on as typeof process.on;
  process.off = process.removeListener = off as typeof process.off;
}
