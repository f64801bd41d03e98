/**
 * What one stack's run looks like, folded from the engine events the Automation API streams
 * (`onEvent`): the step under way, change counts, the first error, and for a drift check the
 * objects whose state in the service differs from the state Pulumi recorded, field by field.
 */
import type { EngineEvent, OpMap, StepEventMetadata } from "@pulumi/pulumi/automation";
import { isDeepStrictEqual } from "node:util";
import { isInternal } from "../../provider/fields.js";

export interface ChangeCounts {
  create: number;
  update: number;
  delete: number;
  replace: number;
}

export interface FieldChange {
  field: string;
  /** As recorded in the stack's state; `"[secret]"` for secrets, which events never carry. */
  recorded: unknown;
  /** As the service has it now. */
  actual: unknown;
}

export interface DriftedObject {
  /** The kind, e.g. `Monitor`. */
  type: string;
  /** The resource's name in the program, e.g. `acme-root`. */
  name: string;
  urn: string;
  /** `changed`: fields differ; `deleted`: the object is gone from the service. */
  drift: "changed" | "deleted";
  fields: FieldChange[];
}

export const noChanges = (): ChangeCounts => ({ create: 0, update: 0, delete: 0, replace: 0 });

/** The counts of an engine summary (`same`, `read` and the like are not changes). */
export function countsOf(summary: OpMap): ChangeCounts {
  return { create: summary.create ?? 0, update: summary.update ?? 0, delete: summary.delete ?? 0, replace: summary.replace ?? 0 };
}

export const hasChanges = (counts: ChangeCounts): boolean => counts.create + counts.update + counts.delete + counts.replace > 0;

/** `pulumi-nodejs:dynamic/monitoring:Monitor` → `Monitor`. */
export function shortType(type: string): string {
  return type.split(/[:/]/).pop() ?? type;
}

/** The resource's name: what follows the last `::` of its URN. */
export function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

const GERUNDS: Partial<Record<string, string>> = {
  create: "creating",
  update: "updating",
  delete: "deleting",
  replace: "replacing",
  "create-replacement": "replacing",
  "delete-replaced": "deleting the replaced",
  refresh: "reading",
  read: "reading",
  import: "importing",
};

/** `creating Monitor acme-root`, or undefined for steps that change nothing. */
export function describeStep(metadata: StepEventMetadata): string | undefined {
  const gerund = GERUNDS[metadata.op];
  return gerund === undefined ? undefined : `${gerund} ${shortType(metadata.type)} ${nameOf(metadata.urn)}`;
}

/** The fields whose values differ between the recorded and the refreshed outputs. */
export function changedFields(metadata: StepEventMetadata): FieldChange[] {
  const recorded = metadata.old?.outputs ?? {};
  const actual = metadata.new?.outputs ?? {};
  // The engine names the differing keys when it computed a diff; otherwise compare the outputs.
  const keys = metadata.diffs?.length ? metadata.diffs : [...new Set([...Object.keys(recorded), ...Object.keys(actual)])];
  return keys
    .filter((field) => !isInternal(field) && !isDeepStrictEqual(recorded[field], actual[field]))
    .sort()
    .map((field) => ({ field, recorded: recorded[field], actual: actual[field] }));
}

/** Engine messages carry color markup (`<{%reset%}>`) and sometimes ANSI codes. */
export function plainText(message: string): string {
  return message.replace(/<\{%[^%]*%\}>/g, "").replace(/\x1b\[[0-9;]*m/g, "");
}

/**
 * The informative part of an error message: without the stack trace of a program exception and
 * without blank lines, on one line.
 */
export function errorSummary(message: string): string {
  return plainText(message)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("at ") && !/^error: (update|preview|refresh|destroy) failed$/.test(line))
    .join(" ")
    .replace(/^error: /, "");
}

/** Engine messages that only say that something failed, not what. */
const GENERIC_FAILURE = /^(error: )?(update|preview|refresh|destroy) failed$|^an unhandled error occurred/i;

export class StackEvents {
  step: string | undefined;
  counts = noChanges();
  /** Set from the engine's summary at the end of a run that completed. */
  summary: ChangeCounts | undefined;
  readonly drift: DriftedObject[] = [];
  readonly #resourceErrors: string[] = [];
  readonly #otherErrors: string[] = [];

  /** `refreshing`: the run is a refresh, whose changes are drift. */
  constructor(private readonly refreshing: boolean) {}

  observe(event: EngineEvent): void {
    if (event.resourcePreEvent) {
      this.step = describeStep(event.resourcePreEvent.metadata) ?? this.step;
    } else if (event.resOutputsEvent) {
      const { metadata } = event.resOutputsEvent;
      if (metadata.op in this.counts) this.counts[metadata.op as keyof ChangeCounts] += 1;
      if (this.refreshing) this.#recordDrift(metadata);
    } else if (event.summaryEvent) {
      this.summary = countsOf(event.summaryEvent.resourceChanges);
      this.step = undefined;
    } else if (event.diagnosticEvent?.severity === "error") {
      const { urn, message } = event.diagnosticEvent;
      const text = errorSummary(message);
      if (text === "" || GENERIC_FAILURE.test(text)) return;
      // An error about a resource names it and its field; the stack's own errors (a failing
      // program, a broken configuration) come without a resource.
      const aboutResource = urn !== undefined && !urn.includes("::pulumi:pulumi:Stack::");
      (aboutResource ? this.#resourceErrors : this.#otherErrors).push(aboutResource ? `${shortType(urnType(urn))} ${nameOf(urn)}: ${text}` : text);
    }
  }

  /** The first error naming a resource, else the first error of the run. */
  firstError(): string | undefined {
    return this.#resourceErrors[0] ?? this.#otherErrors[0];
  }

  #recordDrift(metadata: StepEventMetadata): void {
    const object = { type: shortType(metadata.type), name: nameOf(metadata.urn), urn: metadata.urn };
    if (metadata.op === "delete") this.drift.push({ ...object, drift: "deleted", fields: [] });
    if (metadata.op === "update") {
      const fields = changedFields(metadata);
      if (fields.length > 0) this.drift.push({ ...object, drift: "changed", fields });
    }
  }
}

/** The type part of a URN (`urn:pulumi:stack::project::parent$type::name`). */
function urnType(urn: string): string {
  const parts = urn.split("::");
  return (parts[2] ?? "").split("$").pop() ?? "";
}
