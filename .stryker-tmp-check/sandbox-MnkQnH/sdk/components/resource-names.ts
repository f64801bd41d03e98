/** How ClientMonitoring names the resources it creates from free text in its spec. */
// @ts-nocheck


/** A Pulumi resource name part from free text: `/api/health` becomes `api-health`, `/` becomes `root`. */
export function nameSegment(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "root";
}

/** How an endpoint is named among the component's monitors and in their resource names. */
export const endpointKey = (endpoint: { name?: string | undefined; path: string }): string => nameSegment(endpoint.name ?? endpoint.path);
