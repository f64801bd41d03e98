/**
 * The command line of `pulumi-monitoring fleet` (also installed as `pulumi-monitoring-fleet`).
 * Each option is declared once (how it is parsed, its help, its part of the parsed options), each
 * verb lists the options it takes, and the rest follows from those two declarations: the parser's
 * table, the refusal of an option a verb does not take, the help (`fleet --help`, and `fleet <verb>
 * --help` with that verb's options only) and the typed {@link FleetOptions}. The rules between
 * options that are not which verbs take them live in {@link CROSS_OPTION_RULES}.
 */
import { availableParallelism } from "node:os";
import { type CommandLine, type CommandOptions, parseDuration, positiveNumber } from "../command/args.js";
import { UsageError } from "../command/usage.js";
import { DEFAULT_STALE_AFTER_MS } from "./runners/lease.js";
import { parseShard, type Shard } from "./runners/shard.js";

/** The fleet's verbs, in the order its help lists them; what each takes is in {@link VERB_DECLARATIONS}. */
export const VERBS = ["preview", "up", "refresh", "destroy", "drift", "verify", "apply-due", "pause", "resume", "overrides", "list", "scopes", "init", "report"] as const;
export type FleetCommand = (typeof VERBS)[number];

export interface FleetOptions {
  command: FleetCommand;
  cwd: string;
  stacks: string[];
  exclude: string[];
  parallel: number;
  maxRps?: number;
  /** This runner's own budget under --shard, instead of 1/N of `maxRps`. */
  shardRps?: number;
  shared: boolean;
  /** preview/up read what the service holds first (a refresh), so that hand changes are put back. */
  refresh: boolean;
  /** Each stack's program in a process of its own (the CLI's way), never in the fleet's. */
  isolated: boolean;
  /** preview: `monitoring:dryRun: true` for this run (provider/dry-run.ts). */
  dryRun: boolean;
  clients?: string;
  json: boolean;
  /** drift: the report as markdown. */
  markdown: boolean;
  yes: boolean;
  /** This runner's share of the client stacks (shard.ts). */
  shard?: Shard;
  /** list: print this many shares as a CI matrix. */
  shards?: number;
  /** Only the shared stack. */
  sharedOnly?: boolean;
  /** How long to retry a stack another run holds locked. */
  waitLockMs?: number;
  /** Locks whose lease has not been renewed for this long are taken over (lease.ts). */
  staleLockAfterMs: number;
  /** Locks with no lease older than this are taken over too. */
  breakLocksOlderThanMs?: number;
  /** A lock of this host whose process is gone is stale at once. */
  pidCheck: boolean;
  /** pause/resume/overrides: globs of the objects (`web`, `fleet[*]`). */
  resources?: string[];
  /** pause: `--for`, `--until` and `--reason` as given (checked by cli/overrides/request.ts). */
  pause?: { for?: string; until?: string; reason?: string };
  /** report merge: the --json reports to merge. */
  reports?: string[];
  /** verify: every object, not only what the last deploy created or changed. */
  verifyAll?: boolean;
  /** up/preview: every selected client stack, not only those the change affects (cli/fleet/affected/). */
  all?: boolean;
  /** verify: test each notification channel. */
  alerts?: boolean;
  /** verify: the time limit of a check or a test delivery. */
  timeoutMs?: number;
  /** verify: where to write the JUnit report. */
  junit?: string;
  /** scopes: prove that the stacks' keys hold the scopes. */
  check?: boolean;
  /** scopes --check: the environment variable (`{stack}` for the stack's name) whose key is proven instead of each stack's configured one. */
  keyEnv?: string;
  /** preview/up/refresh/destroy/drift: prove first that the keys hold the scopes of the verb. */
  checkScopes?: boolean;
}

/** At most 8 at once by default: beyond that the CLI processes mostly wait on each other. */
export const defaultParallel = (): number => Math.min(8, availableParallelism());

/** One option of the fleet, declared once. */
interface FleetOption {
  /** Its form for the one parser (cli/command/args.ts). */
  parse: { type: "string" | "boolean"; multiple?: true; short?: string };
  /** The word after the option in the help: `GLOB` in `--stack GLOB`. */
  value?: string;
  /** What it does, as the help of a verb that takes it says. */
  help: string;
  /** What it does for a verb that gives it another meaning (`--all` of verify). */
  helpFor?: Partial<Record<FleetCommand, string>>;
  /** Where to turn instead, said after the refusal in a verb that does not take it. */
  instead?: string;
  /** Its part of the parsed options, from its value as parsed (`true` for a flag, every value of a repeated one). */
  read(value: unknown, options: Readonly<FleetOptions>): Partial<FleetOptions>;
}

type OptionText = Pick<FleetOption, "help" | "helpFor" | "instead">;

/** A flag: given or not. */
const flag = (text: OptionText, read: (options: Readonly<FleetOptions>) => Partial<FleetOptions>, short?: string): FleetOption => ({
  parse: { type: "boolean", ...(short === undefined ? {} : { short }) },
  ...text,
  read: (_given, options) => read(options),
});

/** An option with a value, `value` naming it in the help. */
const valued = (value: string, text: OptionText, read: (text: string, options: Readonly<FleetOptions>) => Partial<FleetOptions>): FleetOption => ({
  parse: { type: "string" },
  value,
  ...text,
  read: (given, options) => read(given as string, options),
});

/** An option that may be given several times. */
const repeated = (value: string, text: OptionText, read: (texts: string[]) => Partial<FleetOptions>): FleetOption => ({
  parse: { type: "string", multiple: true },
  value,
  ...text,
  read: (given) => read(given as string[]),
});

/** A whole number of at least 1 (`--parallel`, `--shards`). */
function atLeastOne(option: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${option} must be a whole number of at least 1, got ${text}`);
  return value;
}

/** Every option of the fleet; a verb takes those its declaration in {@link VERB_DECLARATIONS} lists. */
const OPTIONS = {
  cwd: valued("DIR", { help: "The Pulumi project directory (default: the current directory)" }, (cwd) => ({ cwd })),
  stack: repeated("GLOB", { help: "Only stacks whose name matches (repeatable; * and ? wildcards)" }, (stacks) => ({ stacks })),
  exclude: repeated("GLOB", { help: "Leave out stacks whose name matches (repeatable)" }, (exclude) => ({ exclude })),
  shard: valued(
    "I/N",
    {
      help:
        "Run share I of N of the client stacks (1 <= I <= N), one share per CI runner. A stack's share follows from a hash of its name alone: adding a stack moves no other. " +
        "The shared stack is left to a run of its own (--shared-only) that comes before the shards; each shard passes on its outputs and gets 1/N of the budget",
    },
    (text) => {
      try {
        return { shard: parseShard(text) };
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    },
  ),
  parallel: valued("N", { help: "Stacks run at once (default: the number of cores, at most 8)" }, (text) => ({ parallel: atLeastOne("--parallel", text) })),
  "max-rps": valued(
    "N",
    {
      help:
        "The API budget in requests per second, shared by every stack of the run: no second sees more than N requests across all stacks, and a stack running alone may use all of it. " +
        "A 429 from the service halves the shared rate for every stack, which grows back with each success; 503s and dropped connections are retried without slowing the others " +
        "(default: monitoring:maxRequestsPerSecond of Pulumi.yaml's config)",
    },
    (text) => ({ maxRps: positiveNumber("--max-rps", text) }),
  ),
  "shard-rps": valued("N", { help: "This runner's budget instead of 1/N of --max-rps (e.g. when the runners do not all run at the same time)" }, (text) => ({
    shardRps: positiveNumber("--shard-rps", text),
  })),
  "no-shared": flag(
    {
      help: "Do not run the shared stack named in Pulumi.yaml (fleet.shared); its current outputs are still passed on to the client stacks",
      helpFor: { init: "Do not create the shared stack named in Pulumi.yaml (fleet.shared) when it has none" },
    },
    () => ({ shared: false }),
  ),
  "shared-only": flag({ help: "Run only the shared stack named in Pulumi.yaml; destroy refuses while a client stack still holds resources" }, () => ({ sharedOnly: true })),
  "no-refresh": flag({ help: "Do not read the service first (faster); a change made by hand then stays until the program itself changes that object" }, () => ({ refresh: false })),
  "dry-run": flag(
    {
      help: "Each stack's preview also asks the service to validate the monitors it would create or change (POST /monitors/batch/dry-run, 100 a request), as monitoring:dryRun does; a refusal fails that stack, naming resource and field",
      instead: "to ask at every deploy, set monitoring:dryRun in the stacks' configuration",
    },
    () => ({ dryRun: true }),
  ),
  isolated: flag({ help: 'Run each stack\'s program in a Node.js process of its own, as `pulumi up` does, rather than once per stack inside the fleet\'s process (see "Programs" in `fleet --help`)' }, () => ({
    isolated: true,
  })),
  all: flag(
    {
      help: "Every selected stack, not only those the change affects (`fleet up --help` says which)",
      helpFor: { verify: "Every object of each stack, not only what its last deploy created or changed" },
    },
    (options) => (options.command === "verify" ? { verifyAll: true } : { all: true }),
  ),
  "wait-lock": valued("DURATION", { help: "When another run holds a stack's lock, retry for up to this long (90s, 5m; a number alone is seconds) instead of reporting the stack as locked" }, (text) => ({
    waitLockMs: parseDuration("--wait-lock", text),
  })),
  "stale-lock-after": valued(
    "DURATION",
    {
      help:
        "On a file:// or postgres:// backend: while a stack runs, the fleet renews a lease on its lock beside the state; a lock whose lease has not been renewed for longer than this " +
        "(default 60s; 90s, 5m, 1h) belongs to a run that died and is taken over: deleted, then the stack is refreshed and run",
    },
    (text) => ({ staleLockAfterMs: parseDuration("--stale-lock-after", text) }),
  ),
  "break-locks-older-than": valued(
    "DURATION",
    { help: "Also take over locks with no lease (a plain `pulumi up`, or a run elsewhere that keeps none) once they are older than this. Off by default" },
    (text) => ({ breakLocksOlderThanMs: parseDuration("--break-locks-older-than", text) }),
  ),
  "no-pid-check": flag(
    { help: "Do not judge a lock of this host by whether its process still exists (it is stale at once when it does not). Use it where runners share a host name but not their processes, as containers may" },
    () => ({ pidCheck: false }),
  ),
  "check-scopes": flag(
    {
      help:
        "First prove, with one GET per scope and distinct key, that each key holds the scopes this command needs for its stacks; a missing one stops the run before any stack runs (exit 1). " +
        "Computing what the stacks need costs a preview without refresh of each stack (no request)",
    },
    () => ({ checkScopes: true }),
  ),
  alerts: flag({ help: "Send each notification channel in scope one test notification" }, () => ({ alerts: true })),
  timeout: valued("DURATION", { help: "How long to wait for a check's result or a delivery's outcome (default 120s; a number alone is seconds)" }, (text) => ({
    timeoutMs: parseDuration("--timeout", text),
  })),
  junit: valued("FILE", { help: "Also write the report as JUnit XML to FILE" }, (junit) => ({ junit })),
  resource: repeated("GLOB", { help: "The objects, by the program's name (web) or a set's member (fleet[web]); repeatable; * and ? wildcards" }, (resources) => ({ resources })),
  for: valued("DURATION", { help: "How long from now (2h, 90m, 1d)" }, (text, options) => ({ pause: { ...options.pause, for: text } })),
  until: valued("INSTANT", { help: "Until when, an ISO 8601 instant with an offset" }, (text, options) => ({ pause: { ...options.pause, until: text } })),
  reason: valued("TEXT", { help: "Why (not empty)" }, (text, options) => ({ pause: { ...options.pause, reason: text } })),
  shards: valued(
    "N",
    { help: "Print the N shares as a CI matrix (with --json)", instead: "a runner takes its share with --shard I/N" },
    (text) => ({ shards: atLeastOne("--shards", text) }),
  ),
  check: flag(
    { help: "Prove that the stacks' keys hold the scopes (GETs only)", instead: "before another verb, --check-scopes proves the scopes that verb needs" },
    () => ({ check: true }),
  ),
  "key-env": valued(
    "NAME",
    {
      help:
        "With --check, prove the key in environment variable NAME instead of each stack's configured one, e.g. new keys before a rotation switches to them; " +
        "{stack} in NAME stands for the stack's name in capitals (NEW_KEY_{stack}: NEW_KEY_ACME)",
    },
    (keyEnv) => ({ keyEnv }),
  ),
  clients: valued("DIR", { help: "The folder of client spec files (default: fleet.clients.dir, else clients)" }, (clients) => ({ clients })),
  json: flag({ help: "Write the report as JSON on stdout instead of a table", helpFor: { list: 'Write the stacks as a CI matrix: {"include":[{"stack":"acme"},...]}; with --shards N, the shares' } }, () => ({
    json: true,
  })),
  markdown: flag({ help: "Write the drift report as markdown, for a CI job to post as a comment or an issue" }, () => ({ markdown: true })),
  yes: flag(
    // A CI job runs one command line as preview on a merge request and as up on the main branch.
    { help: "Do not ask for confirmation", helpFor: { preview: "Nothing to confirm (a preview changes nothing): taken so that one command line serves preview and up" } },
    () => ({ yes: true }),
    "y",
  ),
} satisfies Record<string, FleetOption>;

type OptionName = keyof typeof OPTIONS;

/** The options of every verb that runs on the project's stacks. */
const ON_STACKS = ["cwd", "stack", "exclude", "shard", "parallel"] as const satisfies readonly OptionName[];
/** The options of a verb that runs the shared stack too. */
const SHARED = ["no-shared", "shared-only"] as const satisfies readonly OptionName[];
/** The options of a verb that sends requests within the fleet's budget. */
const BUDGET = ["max-rps", "shard-rps"] as const satisfies readonly OptionName[];
/** The options of a verb that writes stacks' states under their locks, taking over those of dead runs. */
const LOCKS = ["wait-lock", "stale-lock-after", "break-locks-older-than", "no-pid-check"] as const satisfies readonly OptionName[];

interface VerbDeclaration {
  /** What the verb does, as the help says. */
  summary: string;
  /** The words it takes after its name, as the help shows them. */
  words?: string;
  /** The options it takes, in the order its help shows them. */
  options: readonly OptionName[];
}

/** Every verb of the fleet and the options it takes. */
const VERB_DECLARATIONS = {
  preview: {
    summary: "Show what `up` would change in each stack the change affects, after reading what the service holds",
    options: [...ON_STACKS, ...SHARED, ...BUDGET, "no-refresh", "dry-run", "isolated", "all", "wait-lock", "check-scopes", "yes", "json"],
  },
  up: {
    summary:
      "Deploy each stack the change affects (asks for confirmation in a terminal unless --yes): read what the service holds first (a refresh), then put back what the program declares. " +
      "A stack (a client's or the shared one) is affected when no successful `fleet up` of it is recorded (its last run failed or was interrupted); its program files, package.json, lockfile, " +
      "pulumi-monitoring version, settings file or the shared outputs it reads changed since; its state was written since or holds pending operations; a pause or resume is due in it; " +
      "or one read of the service for all stacks finds its objects changed. The others run no engine and are listed as skipped with why; --all runs them too. " +
      "Records are kept on file:// and postgres:// backends (beside the state); on other backends every stack runs",
    options: [...ON_STACKS, ...SHARED, ...BUDGET, "no-refresh", "isolated", "all", ...LOCKS, "check-scopes", "yes", "json"],
  },
  refresh: {
    summary: "Record in each stack's state what the service holds now",
    options: [...ON_STACKS, ...SHARED, ...BUDGET, ...LOCKS, "check-scopes", "json"],
  },
  destroy: {
    summary:
      "Delete each stack's resources (asks for confirmation in a terminal unless --yes); the shared stack goes last, and only when every client stack is destroyed with it",
    options: [...ON_STACKS, ...SHARED, ...BUDGET, ...LOCKS, "check-scopes", "yes", "json"],
  },
  drift: {
    summary:
      "Check, without changing anything, what was done outside Pulumi: per stack, declared fields changed (the next up puts them back), fields the program leaves out changed " +
      "(the next up keeps them; known, no drift, once a deploy kept them), objects deleted, monitors and heartbeats paused by hand (under monitoring:handPauses), overrides and windows (no drift), " +
      "and objects in the stack's scope that no stack manages (Pulumi.yaml `drift:` section; see docs/reconcile-and-drift.md). Same report as `pulumi-monitoring drift`. " +
      "No Pulumi engine runs: each account's lists are read once for every stack",
    options: [...ON_STACKS, ...SHARED, ...BUDGET, "check-scopes", "json", "markdown"],
  },
  verify: {
    summary:
      "Prove that what each stack's last deploy created or changed works: a check of each monitor, a test delivery of each webhook subscription, with --alerts one test per notification channel; " +
      "one report (--junit FILE too). Same as `pulumi-monitoring verify`",
    options: [...ON_STACKS, ...SHARED, ...BUDGET, "all", "alerts", "timeout", "junit", "json"],
  },
  "apply-due": {
    summary:
      "Apply the pauses and resumes due now in each stack, and nothing else (a scheduled job's command): a stack with nothing due, found from its state, sends and writes nothing; " +
      "for the others, exactly those pause and resume calls go straight to the service, and the stack's state records them in one write (`pulumi stack import`, under its lock). " +
      "No program or Pulumi operation runs. Prints the requests sent beside the minimum. Same as `pulumi-monitoring apply-due`",
    options: [...ON_STACKS, ...SHARED, ...BUDGET, "wait-lock", "json"],
  },
  pause: {
    summary:
      "Pause the objects --resource names in each stack now, until --for/--until, with --reason: one pause call per object straight to the service, within --max-rps, and the override " +
      "recorded in the stack's state in one write (`pulumi stack import`, under its lock); every deploy keeps them paused until the end (docs/overrides-and-maintenance.md). " +
      "No program runs. Prints the requests sent beside the minimum, one call per object",
    options: [...ON_STACKS, ...BUDGET, "resource", "for", "until", "reason"],
  },
  resume: {
    summary: "End the overrides of the objects --resource names in each stack early, the same way: one resume call per object that needs one, and one write of the state",
    options: [...ON_STACKS, ...BUDGET, "resource"],
  },
  overrides: {
    summary: "List the overrides recorded in each stack's state (--resource filters them); sends no request",
    options: [...ON_STACKS, "resource", "json"],
  },
  list: {
    summary: 'Print the selected stacks; with --json as a CI matrix: {"include":[{"stack":"acme"},...]}; with --shards N the N shares instead: {"include":[{"shard":"1/2","stacks":"acme globex"},...]}',
    options: ["cwd", "stack", "exclude", "shard", "shards", "json"],
  },
  scopes: {
    summary:
      "The scopes an API key needs for each command, the union over the selected client stacks and the shared stack, with the operations behind each scope " +
      "(as `pulumi-monitoring scopes`, which reads one stack); sends nothing. With --check, proves with GETs only that each distinct key the stacks use holds every scope they need: " +
      "one key for the fleet or one per client, each checked once (exit 3: a scope missing)",
    options: [...ON_STACKS, ...SHARED, "check", "key-env", "json"],
  },
  init: {
    summary: "Create a stack for each spec file of the clients folder (clients/<stack>.yaml) that has none, and update the configuration of those whose spec changed",
    options: ["cwd", "clients", "parallel", "no-shared"],
  },
  report: {
    words: "merge FILE...",
    summary: "One table (or --json report) and one exit status from the --json reports of several runners: the shared stack's and each shard's. A shard missing from the files fails it.",
    options: ["cwd", "json", "markdown"],
  },
} as const satisfies Record<FleetCommand, VerbDeclaration>;

type Declared = typeof VERB_DECLARATIONS;
/** The verbs `--check-scopes` goes with: each checks the scopes of the command of its name (cli/fleet/scopes.ts). */
export type CheckedVerb = { [V in FleetCommand]: "check-scopes" extends Declared[V]["options"][number] ? V : never }[FleetCommand];

/** Whether `verb` takes `option`. */
const takes = (verb: FleetCommand, option: OptionName): boolean => (VERB_DECLARATIONS[verb].options as readonly OptionName[]).includes(option);

export const isCheckedVerb = (verb: FleetCommand): verb is CheckedVerb => takes(verb, "check-scopes");

/** The verbs of cli/overrides/fleet.ts. */
const OVERRIDE_VERBS: readonly string[] = ["pause", "resume", "overrides"];
export const isOverrideVerb = (command: string): command is "pause" | "resume" | "overrides" => OVERRIDE_VERBS.includes(command);

/** The parser's table: every option of every verb; each verb refuses those it does not take. */
export const FLEET_OPTIONS = Object.fromEntries(Object.entries(OPTIONS).map(([name, option]) => [name, option.parse])) as { [N in OptionName]: (typeof OPTIONS)[N]["parse"] } satisfies CommandOptions;

/**
 * The rules between options, beyond which verbs take them: an option that needs or excludes
 * another. Each is broken when `broken` says so, and refused with its message.
 */
const CROSS_OPTION_RULES: ReadonlyArray<{ broken: (given: ReadonlySet<OptionName>) => boolean; message: string }> = [
  { broken: (given) => given.has("shard-rps") && !given.has("shard"), message: "--shard-rps goes with --shard I/N (this runner's budget); without a shard, --max-rps is the budget" },
  {
    broken: (given) => given.has("shared-only") && (given.has("no-shared") || given.has("shard") || given.has("stack")),
    message: "--shared-only runs the shared stack alone: it goes with neither --no-shared, --shard nor --stack",
  },
  { broken: (given) => given.has("markdown") && given.has("json"), message: "--markdown and --json exclude each other" },
  { broken: (given) => given.has("key-env") && !given.has("check"), message: "--key-env goes with scopes --check" },
];

/** The verb as its help and messages name it (`report merge`). */
const verbName = (verb: FleetCommand): string => (verb === "report" ? "report merge" : verb);

/** `a`, `a and b`, `a, b and c`. */
function wordList(words: readonly string[]): string {
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** The refusal of `option`, given to a verb that does not take it: the verbs it goes with, and where to turn instead when its declaration says. */
function notTaken(option: OptionName, verb: FleetCommand): UsageError {
  const goesWith = VERBS.filter((other) => takes(other, option)).map(verbName);
  const { instead } = OPTIONS[option];
  return new UsageError(`--${option} goes with ${wordList(goesWith)}, not with ${verbName(verb)}${instead === undefined ? "" : `; ${instead}`}`);
}

/** The options of a verb run as it is run with none given (`drift` narrows one to its stack). */
export function defaultFleetOptions(command: FleetCommand, cwd: string): FleetOptions {
  return {
    command,
    cwd,
    stacks: [],
    exclude: [],
    parallel: defaultParallel(),
    shared: true,
    refresh: true,
    isolated: false,
    dryRun: false,
    json: false,
    markdown: false,
    yes: false,
    staleLockAfterMs: DEFAULT_STALE_AFTER_MS,
    pidCheck: true,
  };
}

/** The verb of the command line and the words after it, or a usage error. */
function verbOf(positionals: readonly string[]): { verb: FleetCommand; words: string[] } {
  const [verb, ...words] = positionals;
  if (verb === undefined) throw new UsageError(`a command is required: ${VERBS.join(", ")}`);
  if (!(VERBS as readonly string[]).includes(verb)) throw new UsageError(`unknown command ${JSON.stringify(verb)}: expected one of ${VERBS.join(", ")}`);
  if (verb === "report") {
    const [subcommand, ...files] = words;
    if (subcommand !== "merge") throw new UsageError("report takes one subcommand: report merge FILE...");
    if (files.length === 0) throw new UsageError("report merge needs the --json report files of the runs to merge");
  } else if (words.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(words[0])}; stacks are chosen with --stack GLOB`);
  return { verb: verb as FleetCommand, words };
}

/** The fleet's options from its parsed command line (the verb first among the words); bad usage throws a {@link UsageError}. */
export function fleetOptionsOf({ values, positionals }: CommandLine<typeof FLEET_OPTIONS>, cwd: string): FleetOptions {
  const { verb, words } = verbOf(positionals);
  const given = (Object.keys(OPTIONS) as OptionName[]).filter((name) => values[name] !== undefined);
  const refused = given.find((option) => !takes(verb, option));
  if (refused !== undefined) throw notTaken(refused, verb);
  const broken = CROSS_OPTION_RULES.find((rule) => rule.broken(new Set(given)));
  if (broken !== undefined) throw new UsageError(broken.message);
  let options = defaultFleetOptions(verb, cwd);
  for (const name of given) options = { ...options, ...OPTIONS[name].read(values[name], options) };
  if (verb === "report") options.reports = words.slice(1);
  return options;
}

/** The width the help is wrapped at. */
const WIDTH = 100;
/** Where an option's help starts (its name and value before it), and a verb's summary in the list of verbs. */
const OPTION_COLUMN = 19;
const VERB_COLUMN = 13;

/** `text` in lines of at most `width` characters, broken between words. */
function wrapped(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  // A `quoted command` stays on one line.
  for (const word of text.match(/(?:`[^`]*`|[^\s`])+/g) ?? []) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** One entry of a list in the help: `text` from `column` on, beside `label` when there is room, else below it. */
function helpEntry(label: string, text: string, column: number): string {
  const indent = " ".repeat(column);
  const [first = "", ...rest] = wrapped(text, WIDTH - column);
  const head = `  ${label}`;
  const lines = head.length + 2 <= column ? [`${head.padEnd(column)}${first}`] : [head, `${indent}${first}`];
  return [...lines, ...rest.map((line) => `${indent}${line}`)].join("\n");
}

const optionLabel = (name: OptionName): string => {
  const { value, parse } = OPTIONS[name];
  return `--${name}${value === undefined ? "" : ` ${value}`}${parse.short === undefined ? "" : `, -${parse.short}`}`;
};

const HELP_ENTRY = helpEntry("--help, -h", "Show this text", OPTION_COLUMN);

/** `What it does`, as it follows a `verb:` that says for which verbs: `what it does`. */
const afterVerbs = (text: string): string => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;

/**
 * What `option` does, in the help of every verb: for the verbs it goes with, unless more than half
 * of them take it; then what it does for a verb that gives it another meaning.
 */
function generalHelpOf(name: OptionName): string {
  const option = OPTIONS[name];
  const otherwise = Object.entries(option.helpFor ?? {}) as Array<[FleetCommand, string]>;
  const plainly = VERBS.filter((verb) => takes(verb, name) && option.helpFor?.[verb] === undefined);
  const general = plainly.length > VERBS.length / 2 ? option.help : `${plainly.map(verbName).join("/")}: ${afterVerbs(option.help)}`;
  return [general, ...otherwise.map(([verb, text]) => `${verbName(verb)}: ${afterVerbs(text)}`)].join("; ");
}

const USAGE_LINE = `Usage: pulumi-monitoring fleet <command> [options]
       pulumi-monitoring-fleet <command> [options]`;

const INTRO = `Runs one Pulumi operation on every stack of a project (one stack per client), several at once,
sharing the API rate budget between them. Uses the Pulumi CLI on PATH and the backend it is
logged in to (or PULUMI_BACKEND_URL); secrets providers as for the CLI (PULUMI_CONFIG_PASSPHRASE).`;

const ABOUT = `The shared stack: when Pulumi.yaml has a \`fleet.shared\` section (dir, stack, outputs), that stack
runs first (last for destroy), and its outputs are written into each client stack's configuration
under the keys \`outputs\` names before the clients preview or deploy.

Programs: a Node.js project's program runs inside the fleet's own process, once per stack, so
that @pulumi/pulumi, TypeScript and the installed packages load once rather than for every stack.
The project's own modules run again for each stack, with that stack's configuration. Installed
packages are shared by the stacks, and the program's console output goes to its stack's engine
log. A project with another runtime, an ES module program, runtime.options.nodeargs or a
@pulumi/pulumi of its own runs each stack's program in a process of its own, as with --isolated.

Teams and CI: with the state in PostgreSQL (PULUMI_BACKEND_URL=postgres://host:5432/db, the
credentials in PGUSER, PGPASSWORD and the other libpq variables), runners on many machines share
the stacks. The fleet runs the CLI with PULUMI_DIY_BACKEND_PARALLEL below the backend's connection
pool, which Pulumi 3.259's \`pulumi stack ls\` otherwise exhausts and waits on forever, and refuses
stack names that the backend's LIKE match mixes up (c_1 and c-1). A stack another run is updating
is reported as \`locked (by user@host, pid N, since TIME)\`; a lock left by a run that died is taken
over and named in the report (--stale-lock-after). See docs/teams-and-ci.md.

Progress goes to stderr: one line per stack, redrawn in a terminal, one line per change otherwise,
and a line of the stacks done of all, their pace and the time left (with --json, a JSON event
{"event":"progress",...} after each stack that ran).
Exit status: 0 success, 1 a stack failed or was locked (report merge: or a shard sent no report),
2 bad usage, 3 drift or unmanaged objects found (drift) or an object failed (verify), 130 interrupted.
Ctrl-C stops starting stacks and cancels running operations; the report names the stacks that were
interrupted and how to recover them.`;

/** The text of \`fleet --help\`: every verb, and every option with the verbs it goes with. */
export const USAGE = [
  USAGE_LINE,
  INTRO,
  `Commands:\n${VERBS.map((verb) => helpEntry([verb, (VERB_DECLARATIONS[verb] as VerbDeclaration).words].filter(Boolean).join(" "), VERB_DECLARATIONS[verb].summary, VERB_COLUMN)).join("\n")}`,
  `Options (\`fleet <command> --help\` shows a command's own; a command refuses the others):\n${[...(Object.keys(OPTIONS) as OptionName[]).map((name) => helpEntry(optionLabel(name), generalHelpOf(name), OPTION_COLUMN)), HELP_ENTRY].join("\n")}`,
  ABOUT,
].join("\n\n");

/** The text of \`fleet <verb> --help\`: what the verb does and the options it takes, as it takes them. */
export function verbUsage(verb: FleetCommand): string {
  const { summary, words, options } = VERB_DECLARATIONS[verb] as VerbDeclaration;
  const entries = options.map((name) => helpEntry(optionLabel(name), OPTIONS[name].helpFor?.[verb] ?? OPTIONS[name].help, OPTION_COLUMN));
  return [
    `Usage: pulumi-monitoring fleet ${[verb, words].filter(Boolean).join(" ")} [options]`,
    wrapped(/[.)]$/.test(summary) ? summary : `${summary}.`, WIDTH).join("\n"),
    `Options:\n${[...entries, HELP_ENTRY].join("\n")}`,
    "The shared stack, programs in the fleet's process, teams and CI, progress and exit statuses:\n`pulumi-monitoring fleet --help`.",
  ].join("\n\n");
}

/** The help the words of a command line ask for: their verb's, else the fleet's. */
export const usageFor = (positionals: readonly string[]): string => {
  const [verb] = positionals;
  return verb !== undefined && (VERBS as readonly string[]).includes(verb) ? verbUsage(verb as FleetCommand) : USAGE;
};
