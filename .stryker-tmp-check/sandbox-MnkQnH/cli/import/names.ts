/**
 * Names of the generated resources: a slug of the object's own name for the Pulumi resource name
 * (and the monitoring file's entry key), its camelCase form for the program's variable. Both are
 * unique across the whole program; a name already taken gets the object's client, then its kind,
 * then a number, in the order the objects are declared, so the same account gives the same names.
 */
// @ts-nocheck


const MAX_SLUG_LENGTH = 48;

/** `Checkout API (EU)` → `checkout-api-eu`; empty when nothing usable is left. */
export function slugOf(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, "");
}

/** The text an object is best known by: its name or label, else a description, else where a URL points. */
export function displayTextOf(inputs: Record<string, unknown>): string | undefined {
  for (const field of ["name", "label", "description"]) {
    const value = inputs[field];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  const url = inputs["url"];
  if (typeof url === "string" && URL.canParse(url)) {
    const { host, pathname } = new URL(url);
    return `${host}${pathname}`;
  }
  return undefined;
}

/** `checkout-api` → `checkoutApi`; a variable name only when it is a valid one (see {@link NameRegistry}). */
export function camelOf(slug: string): string {
  return slug.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** Words a variable may not be, in strict-mode TypeScript modules, and names the program itself uses. */
const TAKEN_IDENTIFIERS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await arguments eval undefined config pulumi mon"
  ).split(" "),
);

export interface Named {
  /** Pulumi resource name and monitoring-file entry key. */
  name: string;
  /** Variable of the generated program. */
  variable: string;
}

export class NameRegistry {
  readonly #names = new Set<string>();
  readonly #variables = new Set<string>();

  /**
   * A unique name for an object: `base` when free, else each of `alternatives` (e.g. the base with
   * the client's and the kind's slug), else the base numbered from 2. `fallback` is used for a base
   * that has no letters or digits, and prefixes variables that would not be valid identifiers.
   */
  take(base: string, alternatives: readonly string[], fallback: string): Named {
    const start = base === "" ? fallback : base;
    for (const candidate of [start, ...alternatives.filter((alternative) => alternative !== "")]) {
      const named = this.#claim(candidate, fallback);
      if (named !== undefined) return named;
    }
    for (let number = 2; ; number++) {
      const named = this.#claim(`${start}-${number}`, fallback);
      if (named !== undefined) return named;
    }
  }

  #claim(name: string, fallback: string): Named | undefined {
    const variable = variableOf(name, fallback);
    if (this.#names.has(name) || this.#variables.has(variable)) return undefined;
    this.#names.add(name);
    this.#variables.add(variable);
    return { name, variable };
  }
}

function variableOf(slug: string, fallback: string): string {
  const camel = camelOf(slug);
  return /^[a-z_$]/i.test(camel) && !TAKEN_IDENTIFIERS.has(camel) ? camel : camelOf(`${fallback}-${slug}`);
}
