/**
 * Drives real Pulumi programs with the Automation API on a local file backend.
 *
 * Each stack gets a private copy of its program under `.work/` (inside the repository, so the
 * program resolves @pulumi/pulumi and pulumi-monitoring from the repository's node_modules) and
 * a private file backend with a passphrase secrets provider. Nothing talks to Pulumi Cloud.
 */
import { LocalWorkspace, type Stack, type ConfigMap } from "@pulumi/pulumi/automation";
import { cp, mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

export const repoRoot = join(__dirname, "..", "..");
export const testPassphrase = "correct horse battery staple";

export interface TestStack {
  stack: Stack;
  /** The program's private copy. */
  workDir: string;
  /** Directory of the file backend holding this stack's state. */
  backendDir: string;
  /** The raw state file, as written by the file backend. */
  readStateFile(): Promise<string>;
  /** Destroys what is left and removes the stack, its state and its program copy. */
  dispose(): Promise<void>;
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
  /** Extra environment for the CLI, the program and the providers it starts. */
  env?: Record<string, string>;
}

export async function createTestStack(options: TestStackOptions): Promise<TestStack> {
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
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir },
    {
      envVars: {
        PULUMI_BACKEND_URL: `file://${backendDir}`,
        PULUMI_CONFIG_PASSPHRASE: testPassphrase,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        ...options.env,
      },
    },
  );
  if (options.config) await stack.setAllConfig(options.config);

  return {
    stack,
    workDir,
    backendDir,
    async readStateFile() {
      const project = stack.workspace.projectSettings ? (await stack.workspace.projectSettings()).name : "";
      return readFile(join(backendDir, ".pulumi", "stacks", project, `${stackName}.json`), "utf8");
    },
    async dispose() {
      try {
        await stack.destroy();
        await stack.workspace.removeStack(stackName);
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },
  };
}
