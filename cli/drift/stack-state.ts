/**
 * A checked stack's state, as `pulumi stack export` shows it (secrets still encrypted), read
 * straight from the backend's file where the backend is a local folder (`file://`). A drift check
 * of a fleet reads every stack's state: `pulumi stack export` costs a CLI run of about 0.2 s and
 * 0.16 s of CPU a stack (500 stacks: 80 s of CPU, more than the whole check may take), the file a
 * millisecond. The file is the same document the CLI would print (`checkpoint.latest` is the
 * export's `deployment`), and the CLI writes it whole and renames it into place, so a read never
 * sees half of one. Any other backend, or a layout this does not know, is read through the CLI.
 */
import type { Deployment, Workspace } from "@pulumi/pulumi/automation";
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { isRecord } from "../../schema/naming.js";
import { fileBackendRoot } from "../fleet/runners/file-lock-store.js";
import { exportedState } from "../project/state.js";

/** Where a project-scoped stack's checkpoint lives in a file backend (Pulumi's DIY layout, version 1), plain or gzipped. */
export function checkpointPaths(backendUrl: string, project: string, stack: string): string[] {
  const file = join(fileBackendRoot(backendUrl), ".pulumi", "stacks", project, `${basename(stack)}.json`);
  return [file, `${file}.gz`];
}

/** The export of the checkpoint document `text`, or undefined when it is not one. */
export function exportOfCheckpoint(text: string): Deployment | undefined {
  const document: unknown = JSON.parse(text);
  if (!isRecord(document) || !isRecord(document["checkpoint"])) return undefined;
  const latest = document["checkpoint"]["latest"];
  // A stack created and never deployed has no `latest` yet: an empty state, as the CLI exports it.
  return { version: Number(document["version"] ?? 3), deployment: isRecord(latest) ? latest : {} } as Deployment;
}

/**
 * `stack`'s state: from the checkpoint file when `backendUrl` is a `file://` backend that holds
 * one for `project`, else `pulumi stack export`.
 */
export async function stackState(workspace: Workspace, project: string, stack: string, backendUrl: string | undefined): Promise<Deployment> {
  if (backendUrl?.startsWith("file://")) {
    for (const path of checkpointPaths(backendUrl, project, stack)) {
      const bytes = await readFile(path).catch(() => undefined);
      if (bytes === undefined) continue;
      const exported = exportOfCheckpoint((path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"));
      if (exported !== undefined) return exported;
    }
  }
  return exportedState(workspace, stack);
}
