/**
 * A Pulumi project as the commands read it from its Pulumi.yaml: its name, where its stacks'
 * settings live, the agency's rate budget (`monitoring:maxRequestsPerSecond` of its `config:`,
 * unless `--max-rps`), and its `fleet:` and `drift:` sections (docs/agencies-and-fleet.md,
 * docs/reconcile-and-drift.md).
 */
import { readFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { projectValue } from "../../provider/settings-now.js";

export const RATE_LIMIT_KEY = "monitoring:maxRequestsPerSecond";
/** `fleet preview --dry-run` sets it for the run: check asks the service (provider/dry-run.ts). */
export const DRY_RUN_KEY = "monitoring:dryRun";

export interface SharedStack {
  /** Absolute directory of the shared project. */
  dir: string;
  stack: string;
  /** Output name → configuration key of each client stack. */
  outputs: Record<string, string>;
}

/** What, besides this project's stacks, makes an object managed: see {@link FleetProject.drift}. */
export interface DriftSettings {
  /** Other projects whose stacks count as managing (absolute directories; stack globs, empty for every stack). */
  managedBy: Array<{ dir: string; stacks: string[] }>;
  ignore: { ids: string[]; names: string[] };
}

export interface FleetProject {
  dir: string;
  name: string;
  /** Where `Pulumi.<stack>.yaml` files live (`stackConfigDir`, else the project directory). */
  stackConfigDir: string;
  shared?: SharedStack;
  clients: { dir: string; configKey: string };
  /** The project-level `monitoring:maxRequestsPerSecond`. */
  budget?: number;
  /** Pulumi.yaml `runtime`, written as a name or as `{ name, options }`. */
  runtime: { name: string; options: Record<string, unknown> };
  /** Pulumi.yaml `main`: the program's entry point, relative to the project directory. */
  main?: string;
  /** Pulumi.yaml `backend.url`: the state backend, unless PULUMI_BACKEND_URL says otherwise. */
  backendUrl?: string;
  /** Pulumi.yaml `drift`: which objects the unmanaged-object check leaves alone. */
  drift: DriftSettings;
  /** Pulumi.yaml `config`: the project-level values every stack has unless its own file sets them. */
  config?: Record<string, unknown>;
}

const configKey = z.string().regex(/^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/, "must be a configuration key such as agency:templateId");
const fleetSection = z
  .object({
    shared: z
      .object({
        dir: z.string().min(1),
        stack: z.string().min(1),
        outputs: z.record(z.string(), configKey).default({}),
      })
      .strict()
      .optional(),
    clients: z.object({ dir: z.string().min(1).optional(), configKey: configKey.optional() }).strict().optional(),
  })
  .strict();

const driftSection = z
  .object({
    managedBy: z.array(z.object({ dir: z.string().min(1), stacks: z.array(z.string().min(1)).default([]) }).strict()).default([]),
    ignore: z.object({ ids: z.array(z.string().min(1)).default([]), names: z.array(z.string().min(1)).default([]) }).strict().default({ ids: [], names: [] }),
  })
  .strict();

const projectFile = z.object({
  name: z.string().min(1),
  runtime: z.union([z.string().min(1), z.object({ name: z.string().min(1), options: z.record(z.string(), z.unknown()).optional() })]),
  main: z.string().min(1).optional(),
  stackConfigDir: z.string().optional(),
  backend: z.object({ url: z.string().optional() }).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  fleet: fleetSection.optional(),
  drift: driftSection.optional(),
});

/** Parses a project's Pulumi.yaml; errors name the file and the field. */
export function parseProject(dir: string, text: string): FleetProject {
  const parsed = projectFile.safeParse(parse(text) ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${join(dir, "Pulumi.yaml")}: ${issue?.path.join(".") || "(top level)"}: ${issue?.message}`);
  }
  const { name, runtime, main, stackConfigDir, backend, config, fleet, drift } = parsed.data;
  const project: FleetProject = {
    dir,
    name,
    runtime: typeof runtime === "string" ? { name: runtime, options: {} } : { name: runtime.name, options: runtime.options ?? {} },
    ...(main === undefined ? {} : { main }),
    stackConfigDir: resolve(dir, stackConfigDir ?? "."),
    clients: { dir: resolve(dir, fleet?.clients?.dir ?? "clients"), configKey: fleet?.clients?.configKey ?? `${name}:client` },
    drift: {
      managedBy: (drift?.managedBy ?? []).map((other) => ({ dir: resolve(dir, other.dir), stacks: other.stacks })),
      ignore: drift?.ignore ?? { ids: [], names: [] },
    },
  };
  if (backend?.url) project.backendUrl = backend.url;
  if (config !== undefined) project.config = config;
  if (fleet?.shared) project.shared = { ...fleet.shared, dir: resolve(dir, fleet.shared.dir) };
  const budget = projectBudget(config?.[RATE_LIMIT_KEY]);
  if (budget !== undefined) project.budget = budget;
  return project;
}


function projectBudget(setting: unknown): number | undefined {
  const raw = projectValue(setting);
  if (raw === undefined) return undefined;
  const budget = Number(raw);
  if (!(budget > 0)) throw new Error(`Pulumi.yaml config ${RATE_LIMIT_KEY} must be a positive number, got ${JSON.stringify(raw)}`);
  return budget;
}

export async function readProject(dir: string): Promise<FleetProject> {
  const absolute = resolve(dir);
  let text: string;
  try {
    text = await readFile(join(absolute, "Pulumi.yaml"), "utf8");
  } catch {
    throw new Error(`${absolute} holds no Pulumi.yaml: run the fleet in a Pulumi project directory or pass --cwd DIR`);
  }
  return parseProject(absolute, text);
}

/**
 * The project of a command that works from a stack's state alone (`pause`, `resume`, `overrides`,
 * `apply-due`): the checkout's Pulumi.yaml when `dir` holds one; else, from a directory with no
 * program (an on-call laptop), the project a fully qualified stack names
 * (`organization/agency/acme`), its backend and key from the environment.
 */
export async function operatorProject(dir: string, stack: string): Promise<FleetProject> {
  try {
    return await readProject(dir);
  } catch (error) {
    const qualified = /^[^/]+\/([^/]+)\/[^/]+$/.exec(stack);
    if (qualified === null) throw new Error(`${(error as Error).message.replace(/: run the fleet.*$/, "")}: run the command in the stack's project directory, or name the stack in full (--stack organization/<project>/<stack>) to work without a checkout`);
    return parseProject(resolve(dir), `name: ${qualified[1]}\nruntime: nodejs\n`);
  }
}

/** The settings file of a stack: `Pulumi.acme.yaml` for `acme` and `organization/agency/acme`. */
export function stackConfigPath(project: FleetProject, stack: string): string {
  return join(project.stackConfigDir, `Pulumi.${basename(stack)}.yaml`);
}

/** The stack's settings file as written, or an empty one when the stack has none yet. */
export async function readStackSettings(project: FleetProject, stack: string): Promise<string> {
  try {
    return await readFile(stackConfigPath(project, stack), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw error;
  }
}
