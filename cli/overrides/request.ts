/**
 * What `pause` asks for, checked before anything runs: until when (`--for` a duration from now,
 * or `--until` an instant with an offset, in the future), why (`--reason`, not empty) and who
 * (docs/overrides-and-maintenance.md lists where the author comes from, in order).
 */
import { execFile } from "node:child_process";
import { userInfo } from "node:os";
import { durationMs } from "../../provider/duration.js";
import { instant } from "../../schema/rules.js";
import { UsageError } from "../command/usage.js";

/** The options whose value may start with a dash (`--for -1h`): refused by their own rule (cli/command/args.ts joinedValues). */
export const VALUED_OPTIONS = ["--for", "--until", "--reason"];

export interface PauseAsked {
  /** `--for`, in milliseconds. */
  forMs?: number;
  /** `--until`, as written. */
  until?: string;
  reason: string;
}

/** `--for`, `--until` and `--reason` as given; each rule broken is a usage error naming the option. */
export function pauseAsked(values: { for?: string | undefined; until?: string | undefined; reason?: string | undefined }): PauseAsked {
  if ((values.for === undefined) === (values.until === undefined)) throw new UsageError("say until when: either --for DURATION (2h, 90m, 1d) or --until INSTANT (2030-11-28T22:00:00Z)");
  const reason = values.reason?.trim() ?? "";
  if (reason === "") throw new UsageError("--reason must say why (not empty): deploys and `overrides` show it");
  if (values.for !== undefined) {
    const forMs = durationMs(values.for);
    if (forMs === undefined) throw new UsageError(`--for must be a positive duration such as 2h, 90m, 1d or 1h30m, got ${JSON.stringify(values.for)}`);
    return { forMs, reason };
  }
  const until = values.until!.trim();
  if (!instant.safeParse(until).success) throw new UsageError(`--until must be an ISO 8601 instant with an offset (Z or ±hh:mm), such as 2030-11-28T22:00:00Z, got ${JSON.stringify(values.until)}`);
  return { until, reason };
}

/** The override's end as an instant, from `now` (the deploys' clock); an end not after `now` is a usage error. */
export function untilOf(asked: PauseAsked, now: number): string {
  const end = asked.forMs !== undefined ? now + asked.forMs : Date.parse(asked.until!);
  if (!(end > now)) throw new UsageError(`--until ${asked.until} is not in the future (now is ${new Date(now).toISOString()})`);
  return new Date(end).toISOString();
}

/** The environment variables that name who runs the command, in the order they are read. */
export const ACTOR_VARIABLES = ["PULUMI_MONITORING_ACTOR", "GITHUB_ACTOR", "GITLAB_USER_LOGIN"] as const;

/**
 * Who records the override: PULUMI_MONITORING_ACTOR, else the CI's actor (GITHUB_ACTOR,
 * GITLAB_USER_LOGIN), else git's user.name in `cwd`, else the operating system's user.
 */
export async function actorOf(env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  for (const name of ACTOR_VARIABLES) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  const gitUser = await new Promise<string>((resolve) =>
    execFile("git", ["config", "user.name"], { cwd, timeout: 5000 }, (error, stdout) => resolve(error === null ? stdout.trim() : "")),
  );
  if (gitUser !== "") return gitUser;
  try {
    return userInfo().username || "unknown";
  } catch {
    return "unknown";
  }
}
