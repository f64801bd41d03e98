/**
 * Configuration for one run of one stack without touching the user's files: a copy of the
 * stack's settings file (with its secrets and encryption salt) plus the values of this run,
 * handed to the CLI with `--config-file`. The copy lives only while the operation runs.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Document, parseDocument } from "yaml";

/** The stack settings `text` with plain configuration `values` set (replacing what it holds). */
export function withConfigValues(text: string, values: Record<string, string>): string {
  const document: Document = text.trim() === "" ? new Document({}) : parseDocument(text);
  for (const [key, value] of Object.entries(values)) document.setIn(["config", key], value);
  return document.toString();
}

/** A plain configuration value of stack settings `text`, if it holds one. */
export function configValue(text: string, key: string): unknown {
  return (parseDocument(text).toJS() as { config?: Record<string, unknown> } | null)?.config?.[key];
}

/** A private directory for the run's configuration copies, removed by `dispose`. */
export async function createRunConfigDir(): Promise<{ write(stack: string, text: string): Promise<string>; dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "pulumi-monitoring-fleet-"));
  return {
    async write(stack, text) {
      // Stack names may carry an organization and project (`org/project/stack`).
      const file = join(dir, `Pulumi.${stack.replaceAll("/", "_")}.yaml`);
      await writeFile(file, text, { mode: 0o600 });
      return file;
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
