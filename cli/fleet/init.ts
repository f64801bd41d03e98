/**
 * `fleet init`: one stack per client spec file. `clients/<stack>.yaml` holds what goes under the
 * project's client configuration key (`agency:client` for the agency example); a stack that does
 * not exist is created with it, one whose spec changed gets the new spec. The shared stack is
 * created too when the project declares one and it does not exist yet.
 */
import { type LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { readdir, readFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parse } from "yaml";
import { refuseCollidingNames } from "./runners/backend.js";
import type { Output } from "../command/io.js";
import { fleetWorkspace } from "../project/workspace.js";
import type { FleetOptions } from "./options.js";
import { type FleetProject, readStackSettings } from "../project/project.js";
import { configValue } from "./stacks/run-config.js";
import { runBounded } from "../../provider/concurrency.js";

const SPEC_FILE = /^([A-Za-z0-9_.-]+)\.ya?ml$/;

export type InitAction = "created" | "updated" | "unchanged";

/** The client specs of a folder: stack name → spec, in name order. */
export async function readClientSpecs(dir: string): Promise<Array<{ stack: string; file: string; spec: Record<string, unknown> }>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    throw new Error(`no clients folder at ${dir}: put one spec file per client there (clients/<stack>.yaml) or name the folder with --clients DIR`);
  }
  const files = names.filter((name) => SPEC_FILE.test(name)).sort();
  if (files.length === 0) throw new Error(`${dir} holds no client spec file (<stack>.yaml)`);
  return Promise.all(
    files.map(async (file) => {
      const spec = parse(await readFile(join(dir, file), "utf8")) as unknown;
      if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
        throw new Error(`${join(dir, file)}: must hold the client's spec as a YAML mapping (name, domain, endpoints, contacts, ...)`);
      }
      return { stack: SPEC_FILE.exec(file)?.[1] ?? file, file, spec: spec as Record<string, unknown> };
    }),
  );
}

export async function initClients(options: FleetOptions, project: FleetProject, workspace: LocalWorkspace, output: Output): Promise<boolean> {
  const dir = options.clients === undefined ? project.clients.dir : resolve(options.cwd, options.clients);
  const specs = await readClientSpecs(dir);
  await refuseCollidingNames(project, workspace, specs.map((spec) => spec.stack));
  const existing = new Set((await workspace.listStacks()).map((stack) => basename(stack.name)));
  const key = project.clients.configKey;

  const setSpec = (stack: Stack, spec: Record<string, unknown>): Promise<void> =>
    // The JSON form of `pulumi config set-all` keeps the spec structured in Pulumi.<stack>.yaml.
    stack.setAllConfigJson(JSON.stringify({ [key]: { value: JSON.stringify(spec), objectValue: spec, secret: false } }));

  const results = await runBounded(specs, options.parallel, async ({ stack: name, spec }): Promise<InitAction> => {
    if (!existing.has(name)) {
      await setSpec(await Stack.create(name, workspace), spec);
      return "created";
    }
    if (isDeepStrictEqual(configValue(await readStackSettings(project, name), key), spec)) return "unchanged";
    await setSpec(await Stack.select(name, workspace), spec);
    return "updated";
  });

  const lines = specs.map(({ stack }, index) => {
    const result = results[index];
    const outcome = result?.status === "fulfilled" ? result.value : result?.status === "rejected" ? `failed: ${(result.reason as Error).message}` : "not started";
    return `${stack.padEnd(Math.max(...specs.map((spec) => spec.stack.length)))}  ${outcome}`;
  });
  if (project.shared && options.shared) {
    const shared = project.shared;
    const sharedWorkspace = await fleetWorkspace(shared.dir);
    const sharedExists = (await sharedWorkspace.listStacks()).some((stack) => basename(stack.name) === shared.stack);
    if (!sharedExists) await Stack.create(shared.stack, sharedWorkspace);
    lines.unshift(`shared stack ${shared.stack} (${shared.dir}): ${sharedExists ? "exists" : "created"}`);
  }
  output.write(`${lines.join("\n")}\n`);
  return results.every((result) => result.status === "fulfilled");
}
