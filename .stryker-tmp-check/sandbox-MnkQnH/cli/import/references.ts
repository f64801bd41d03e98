/**
 * Which inputs hold ids of other kinds, derived from the definitions by the naming convention the
 * monitoring file also follows (schema/json-schema.ts): a field `<kind>Id` or `<kind>Ids` holds
 * ids of that kind, at any depth (`steps[].notificationChannelIds`). A prefix that is not a whole
 * kind name names the one kind whose name ends with it (`templateId` → ClientTemplate).
 */
// @ts-nocheck

import { z } from "zod";
import type { AnyResourceDefinition } from "../../schema/define.js";
import { definitions } from "../../schema/index.js";
import { unwrap } from "../../schema/rules.js";

/** The kind whose ids a field holds, if its name follows the convention. */
export function referencedDefinition(field: string): AnyResourceDefinition | undefined {
  const prefix = /^([a-z][A-Za-z0-9]*?)Ids?$/.exec(field)?.[1];
  if (prefix === undefined) return undefined;
  const exact = definitions.find(({ kind }) => lowerFirst(kind) === prefix);
  if (exact !== undefined) return exact;
  const endings = definitions.filter(({ kind }) => kind.endsWith(upperFirst(prefix)));
  return endings.length === 1 ? endings[0] : undefined;
}

/** The kinds a schema's reference fields point at, at any depth. */
export function referencedKinds(schema: z.ZodType): Set<AnyResourceDefinition> {
  const found = new Set<AnyResourceDefinition>();
  const visit = (node: z.ZodType): void => {
    const inner = unwrap(node);
    if (inner instanceof z.ZodArray) visit(inner.element as z.ZodType);
    if (!(inner instanceof z.ZodObject)) return;
    for (const [field, fieldSchema] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
      const target = referencedDefinition(field);
      if (target !== undefined) found.add(target);
      else visit(fieldSchema);
    }
  };
  visit(schema);
  return found;
}

/**
 * The kinds in an order where every kind comes after the kinds it references (so a program can
 * name them by variable), the registry's order among kinds free to go next.
 */
export function dependencyOrder(kinds: readonly AnyResourceDefinition[] = definitions): AnyResourceDefinition[] {
  const ordered: AnyResourceDefinition[] = [];
  const remaining = [...kinds];
  while (remaining.length > 0) {
    const next = remaining.find((definition) =>
      [...referencedKinds(definition.inputs)].every((target) => target === definition || ordered.includes(target) || !remaining.includes(target)),
    );
    // The definitions reference each other without cycles; one here is a bug of a definition.
    if (next === undefined) throw new Error(`the kinds ${remaining.map(({ kind }) => kind).join(", ")} reference each other in a cycle`);
    ordered.push(next);
    remaining.splice(remaining.indexOf(next), 1);
  }
  return ordered;
}

export function lowerFirst(word: string): string {
  return `${word.charAt(0).toLowerCase()}${word.slice(1)}`;
}

export function upperFirst(word: string): string {
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}
