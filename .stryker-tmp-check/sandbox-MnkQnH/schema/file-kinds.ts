/**
 * The kinds a monitoring file declares and how its sections are named. Free of zod, so that the
 * YAML loader's public types (sdk/yaml.ts) can name them without pulling zod into the package's
 * declaration files.
 */
// @ts-nocheck


/** The kinds a monitoring file declares: those living inside one account or client, in the order of the registry. */
export const FILE_KINDS = [
  "Monitor",
  "Heartbeat",
  "HeartbeatGroup",
  "EscalationPolicy",
  "NotificationChannel",
  "WebhookSubscription",
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

type Plural<Word extends string> = Word extends `${infer Stem}y` ? `${Stem}ies` : `${Word}s`;
/** The section of a kind: `Monitor` → `monitors`, `EscalationPolicy` → `escalationPolicies`. */
export type SectionName<Kind extends string> = Plural<Uncapitalize<Kind>>;

export function sectionName<Kind extends string>(kind: Kind): SectionName<Kind> {
  const word = lowerFirst(kind);
  return (word.endsWith("y") ? `${word.slice(0, -1)}ies` : `${word}s`) as SectionName<Kind>;
}

export function lowerFirst<Word extends string>(word: Word): Uncapitalize<Word> {
  return `${word.charAt(0).toLowerCase()}${word.slice(1)}` as Uncapitalize<Word>;
}
