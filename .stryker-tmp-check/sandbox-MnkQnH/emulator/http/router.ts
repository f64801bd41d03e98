/**
 * Matches a method and a path (relative to the base URL) against the operation table.
 * Literal segments win over parameters, so `/monitors/batch` is not read as a monitor id.
 */
// @ts-nocheck

export interface Route<Handler> {
  method: string;
  /** e.g. `/monitors/{monitorID}/pause` */
  pattern: string;
  /** The scope the operation demands, or `null` when any valid key will do. */
  scope: string | null;
  handler: Handler;
  segments: readonly string[];
  /** Names of the `{param}` segments, by position. */
  parameterNames: readonly (string | null)[];
  literalCount: number;
}

export type RouteMatch<Handler> =
  | { kind: "found"; route: Route<Handler>; params: Record<string, string> }
  | { kind: "method_not_allowed"; allowed: string[] }
  | { kind: "not_found" };

export class Router<Handler> {
  private readonly bySegmentCount = new Map<number, Route<Handler>[]>();

  add(method: string, pattern: string, scope: string | null, handler: Handler): void {
    const segments = pattern.split("/").slice(1);
    const parameterNames = segments.map((segment) => (segment.startsWith("{") ? segment.slice(1, -1) : null));
    const route: Route<Handler> = {
      method,
      pattern,
      scope,
      handler,
      segments,
      parameterNames,
      literalCount: parameterNames.filter((name) => name === null).length,
    };
    const routes = this.bySegmentCount.get(segments.length) ?? [];
    routes.push(route);
    routes.sort((left, right) => right.literalCount - left.literalCount);
    this.bySegmentCount.set(segments.length, routes);
  }

  routes(): Route<Handler>[] {
    return [...this.bySegmentCount.values()].flat();
  }

  match(method: string, path: string): RouteMatch<Handler> {
    const segments = path.split("/").slice(1);
    const candidates = this.bySegmentCount.get(segments.length) ?? [];
    const allowed: string[] = [];
    let bestLiteralCount = -1;
    for (const route of candidates) {
      if (route.literalCount < bestLiteralCount) break;
      if (!segmentsMatch(route, segments)) continue;
      if (route.method === method) return { kind: "found", route, params: extractParams(route, segments) };
      bestLiteralCount = route.literalCount;
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: "method_not_allowed", allowed } : { kind: "not_found" };
  }
}

function segmentsMatch(route: Route<unknown>, segments: readonly string[]): boolean {
  return route.segments.every(
    (segment, index) => route.parameterNames[index] !== null ? segments[index] !== "" : segment === segments[index],
  );
}

function extractParams(route: Route<unknown>, segments: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  route.parameterNames.forEach((name, index) => {
    if (name !== null) params[name] = decodeSegment(segments[index]!);
  });
  return params;
}

/** A malformed escape is kept as sent; the parameter's own validation then rejects it. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
