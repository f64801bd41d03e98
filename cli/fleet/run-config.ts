/** A plain configuration value of a stack's settings file, as the fleet reads it without the CLI. */
import { parseDocument } from "yaml";

/** A plain configuration value of stack settings `text`, if it holds one. */
export function configValue(text: string, key: string): unknown {
  return (parseDocument(text).toJS() as { config?: Record<string, unknown> } | null)?.config?.[key];
}
