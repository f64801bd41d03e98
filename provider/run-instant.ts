/**
 * The instant of one run, as the provider process takes it. The dynamic provider host is one
 * process per deployment (a preview, an up, a refresh), and every decision of that run is made
 * at one instant: check, diff, create, update and read of every resource alike. Read at every
 * call instead, the clock would move between a resource's diff and its update, and at a window's
 * boundary the update would write what the diff did not announce.
 *
 * The clock is read once, at the first call that needs it. An instant the settings fix
 * (`monitoring:now`, `PULUMI_MONITORING_NOW`: provider/config.ts `fixedInstant`) is that instant,
 * read from the settings at each call, since they hold for the whole run. Such a setting left in
 * a stack's configuration would freeze every window, override and hand pause of real deploys
 * without a word, so the run says so once, naming the instant and the setting.
 */
import { type ConfigKeyName, type ConfigSource, fixedInstant } from "./config.js";

export interface RunInstantSources {
  /** The stack's configuration, as `configure` handed it over. */
  config: () => ConfigSource;
  /** How the configuration key is named in the notice and errors (`monitoring:now of stack acme`). */
  keyName: () => ConfigKeyName;
  env?: NodeJS.ProcessEnv;
  /** The system clock by default; tests pass one they move by hand. */
  clock?: () => number;
}

export class RunInstant {
  readonly #sources: RunInstantSources;
  #clockTaken: number | undefined;
  #noticeGiven = false;

  constructor(sources: RunInstantSources) {
    this.#sources = sources;
  }

  /** Now, for every decision of this run, in milliseconds since the epoch. */
  now(): number {
    const { clock = Date.now } = this.#sources;
    return this.#fixed()?.ms ?? (this.#clockTaken ??= clock());
  }

  /**
   * The warning that the settings fix this run's instant, the first time it is asked for; nothing
   * after that, and nothing when the run takes the clock.
   */
  notice(): string | undefined {
    if (this.#noticeGiven) return undefined;
    this.#noticeGiven = true;
    const fixed = this.#fixed();
    if (fixed === undefined) return undefined;
    return (
      `${fixed.source} is set: this run takes ${new Date(fixed.ms).toISOString()} for now, not the clock, ` +
      "for every pause window, override and hand pause; unset it for deploys at the real time"
    );
  }

  #fixed() {
    return fixedInstant(this.#sources.config(), this.#sources.env ?? process.env, this.#sources.keyName());
  }
}
