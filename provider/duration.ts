/**
 * The one grammar of durations, for the stack settings (`monitoring:handPauses`) and every command
 * line option that takes one (`--for`, `--stale-lock-after`, `--wait-lock`...): one or more terms
 * of a number and a unit, `ms`, `s`, `m` (or `min`), `h` or `d`, spaces ignored: `90s`, `1.5m`,
 * `4h`, `1d`, `1h30m`. Where an option took seconds first, a number alone still counts seconds.
 */
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };
const TERM = String.raw`(\d+(?:\.\d+)?)(ms|min|s|m|h|d)`;
const TERMS = new RegExp(`^(?:${TERM})+$`);

/** `text` as a positive duration in milliseconds; `undefined` for anything else, zero included. */
export function durationMs(text: string, { bareSeconds = false }: { bareSeconds?: boolean } = {}): number | undefined {
  const compact = text.replace(/\s/g, "");
  let ms = Number.NaN;
  if (bareSeconds && /^\d+(?:\.\d+)?$/.test(compact)) ms = Number(compact) * UNIT_MS["s"]!;
  else if (TERMS.test(compact)) ms = [...compact.matchAll(new RegExp(TERM, "g"))].reduce((sum, [, count, unit]) => sum + Number(count) * UNIT_MS[unit!]!, 0);
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}
