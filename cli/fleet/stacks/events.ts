/**
 * What one stack's run looks like, folded from the engine events the Automation API streams
 * (`onEvent`): the step under way, change counts and the first error.
 */
import type { EngineEvent, OpMap, StepEventMetadata } from "@pulumi/pulumi/automation";
import { nameOf, shortType } from "../../drift/changes.js";
import { errorSummary } from "../../project/errors.js";
import { type ChangeCounts, noChanges } from "../../report/fleet.js";

/** The counts of an engine summary (`same`, `read` and the like are not changes). */
export function countsOf(summary: OpMap): ChangeCounts {
  return { create: summary.create ?? 0, update: summary.update ?? 0, delete: summary.delete ?? 0, replace: summary.replace ?? 0 };
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

/** Engine messages that only say that something failed, not what. */
const GENERIC_FAILURE = /^(error: )?(update|preview|refresh|destroy) failed$|^an unhandled error occurred/i;

export class StackEvents {
  step: string | undefined;
  counts = noChanges();
  /** Set from the engine's summary at the end of a run that completed. */
  summary: ChangeCounts | undefined;
  readonly #resourceErrors: string[] = [];
  readonly #otherErrors: string[] = [];

  observe(event: EngineEvent): void {
    if (event.resourcePreEvent) {
      this.step = describeStep(event.resourcePreEvent.metadata) ?? this.step;
    } else if (event.resOutputsEvent) {
      const { metadata } = event.resOutputsEvent;
      if (metadata.op in this.counts) this.counts[metadata.op as keyof ChangeCounts] += 1;
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
}

/** The type part of a URN (`urn:pulumi:stack::project::parent$type::name`). */
function urnType(urn: string): string {
  const parts = urn.split("::");
  return (parts[2] ?? "").split("$").pop() ?? "";
}
