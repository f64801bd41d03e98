/**
 * The service's interface as its document states it (shared/api/service-api.md, beside the
 * checkout, as CI has it too): the endpoint tables of section 4, read from the document itself, so
 * that what the project transcribes of them (schema/routes.json) is held to the source and not to
 * another transcription.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const IN_SHARED = join("shared", "api", "service-api.md");

/**
 * The spec: in the `shared/` folder beside the repository, or beside a folder further up, for a
 * copy of the repository made inside it (Stryker's sandboxes are in `.stryker-tmp/`). Where none
 * is found, the path beside the repository, which the error then names.
 */
function specPath(): string {
  const besideRepository = join(__dirname, "..", "..", "..");
  for (let folder = besideRepository; ; folder = dirname(folder)) {
    if (existsSync(join(folder, IN_SHARED))) return join(folder, IN_SHARED);
    if (dirname(folder) === folder) return join(besideRepository, IN_SHARED);
  }
}

export const SPEC_PATH = specPath();

/** One row of an endpoint table: the section that lists it (`4.2`), the method, the path template, the scope (null where none is listed). */
export interface SpecRow {
  section: string;
  method: string;
  path: string;
  scope: string | null;
}

/** The spec's words for an operation without a scope (section 4.5's `GET /incidents/{incidentID}/ai`). */
const NOT_LISTED = "(scope not listed)";
/** A scope's name (spec 5.3): `<resource>.<read|write|delete>`. */
const SCOPE = /^[a-z_]+\.(read|write|delete)$/;

function cellsOf(line: string): string[] {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((cell) => cell.trim());
}

/**
 * Every row of the tables of section 4 whose columns include Method and Path, in the document's
 * order. A table without a Scope column (4.10) lists no scope for its rows. A scope cell that is
 * neither a scope's name nor the words for none is refused, naming the row: the document changed
 * in a way this reading does not know.
 */
export function specEndpointRows(text = readSpec()): SpecRow[] {
  const rows: SpecRow[] = [];
  let section: string | undefined;
  let columns: string[] | undefined;
  for (const line of text.split("\n")) {
    const heading = /^(#{2,3}) (\d+(?:\.\d+)?)\b/.exec(line);
    if (heading !== null) {
      section = heading[2]!.startsWith("4.") ? heading[2] : undefined;
      columns = undefined;
      continue;
    }
    if (section === undefined) continue;
    if (!line.trim().startsWith("|")) {
      columns = undefined;
      continue;
    }
    const cells = cellsOf(line);
    if (columns === undefined) {
      columns = cells;
      continue;
    }
    if (cells.every((cell) => /^-+$/.test(cell)) || !columns.includes("Method") || !columns.includes("Path")) continue;
    const cell = (name: string) => (columns!.includes(name) ? cells[columns!.indexOf(name)] : undefined);
    const scope = cell("Scope");
    if (scope !== undefined && scope !== NOT_LISTED && !SCOPE.test(scope)) throw new Error(`${SPEC_PATH}, section ${section}: the scope of "${line.trim()}" is neither a scope's name nor "${NOT_LISTED}"`);
    rows.push({ section, method: cell("Method")!, path: cell("Path")!, scope: scope === undefined || scope === NOT_LISTED ? null : scope });
  }
  return rows;
}

function readSpec(): string {
  try {
    return readFileSync(SPEC_PATH, "utf8");
  } catch (error) {
    throw new Error(`the service's spec is read from ${SPEC_PATH}, the shared/ folder beside the checkout: ${(error as Error).message}`);
  }
}
