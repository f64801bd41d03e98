/**
 * The resources of a stack's exported state (`pulumi stack export`) as the commands that work from
 * the state alone read them (overrides, what is due): no request to the service.
 */
import { isRecord } from "../schema/naming.js";

export interface ExportedResource {
  urn: string;
  /** The kind: the last part of the type token (`Monitor`, `MonitorSet`). */
  type: string;
  /** The program's name of the resource: what follows the URN's last `::`. */
  name: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/** Every resource of the export that has a URN, a type and outputs, in the state's order. */
export function exportedResources(exported: unknown): ExportedResource[] {
  const deployment = isRecord(exported) && isRecord(exported["deployment"]) ? exported["deployment"] : undefined;
  const resources = Array.isArray(deployment?.["resources"]) ? deployment["resources"] : [];
  return resources.flatMap((resource: unknown) => {
    if (!isRecord(resource) || typeof resource["urn"] !== "string" || typeof resource["type"] !== "string" || !isRecord(resource["outputs"])) return [];
    const { urn, type } = resource;
    return [{ urn, type: type.slice(type.lastIndexOf(":") + 1), name: urn.slice(urn.lastIndexOf("::") + 2), inputs: isRecord(resource["inputs"]) ? resource["inputs"] : {}, outputs: resource["outputs"] }];
  });
}
