/** The command line of `pulumi-monitoring fleet` (also installed as `pulumi-monitoring-fleet`). */
import { availableParallelism } from "node:os";
import { type CommandLine, parseCommandLine, parseDuration, positiveNumber } from "../command/args.js";
import { UsageError } from "../command/usage.js";
import { DEFAULT_STALE_AFTER_MS } from "./runners/lease.js";
import { parseShard, type Shard } from "./runners/shard.js";

export const USAGE = `Usage: pulumi-monitoring fleet <command> [options]
       pulumi-monitoring-fleet <command> [options]

Runs one Pulumi operation on every stack of a project (one stack per client), several at once,
sharing the API rate budget between them. Uses the Pulumi CLI on PATH and the backend it is
logged in to (or PULUMI_BACKEND_URL); secrets providers as for the CLI (PULUMI_CONFIG_PASSPHRASE).

Commands:
  preview    Show what \`up\` would change in each stack the change affects, after reading what the
             service holds
  up         Deploy each stack the change affects (asks for confirmation in a terminal unless
             --yes): read what the service holds first (a refresh), then put back what the program
             declares. A stack (a client's or the shared one) is affected when no successful
             \`fleet up\` of it is recorded (its last run failed or was interrupted); its program
             files, package.json, lockfile, pulumi-monitoring version, settings file or the shared
             outputs it reads changed since; its state was written since or holds pending
             operations; a pause or resume is due in it; or one read of the service for all
             stacks finds its objects changed. The others run no engine and are listed as skipped
             with why; --all runs them too. Records are kept on file:// and postgres://
             backends (beside the state); on other backends every stack runs
  refresh    Record in each stack's state what the service holds now
  destroy    Delete each stack's resources (asks for confirmation in a terminal unless --yes);
             the shared stack goes last, and only when every client stack is destroyed with it
  drift      Check, without changing anything, what was done outside Pulumi: per stack, declared
             fields changed (the next up puts them back), fields the program leaves out changed
             (the next up keeps them; known, no drift, once a deploy kept them), objects deleted,
             monitors and heartbeats paused by hand (under monitoring:handPauses), overrides and
             windows (no drift), and
             objects in the stack's scope that no stack manages (Pulumi.yaml \`drift:\` section;
             see docs/reconcile-and-drift.md). Same report as \`pulumi-monitoring drift\`.
             No Pulumi engine runs: each account's lists are read once for every stack
  verify     Prove that what each stack's last deploy created or changed works: a check of each
             monitor, a test delivery of each webhook subscription, with --alerts one test per
             notification channel; one report (--junit FILE too). Same as \`pulumi-monitoring verify\`
  apply-due  Apply the pauses and resumes due now in each stack, and nothing else (a scheduled
             job's command): a stack with nothing due, found from its state, runs no Pulumi
             operation; the others one \`up --target <urn>... --refresh=false\` that sends only
             those pauses and resumes. Prints the requests sent beside the minimum. Same as
             \`pulumi-monitoring apply-due\`
  pause      Pause the objects --resource names in each stack now, until --for/--until, with
             --reason, and record the override in the stack's state: every deploy keeps them
             paused until the end (docs/overrides-and-maintenance.md). One targeted run per stack,
             within --max-rps; prints the requests sent beside the minimum, one write per object
  resume     End the overrides of the objects --resource names in each stack early (the same way)
  overrides  List the overrides recorded in each stack's state (--resource filters them)
  list       Print the selected stacks; with --json as a CI matrix: {"include":[{"stack":"acme"},...]};
             with --shards N the N shares instead: {"include":[{"shard":"1/2","stacks":"acme globex"},...]}
  scopes     The scopes an API key needs for each command, the union over the selected client
             stacks and the shared stack, with the operations behind each scope (as
             \`pulumi-monitoring scopes\`, which reads one stack); sends nothing. With --check, proves
             with GETs only that each distinct key the stacks use holds every scope they need:
             one key for the fleet or one per client, each checked once (exit 3: a scope missing)
  init       Create a stack for each spec file of the clients folder (clients/<stack>.yaml)
             that has none, and update the configuration of those whose spec changed
  report merge FILE...
             One table (or --json report) and one exit status from the --json reports of several
             runners: the shared stack's and each shard's. A shard missing from the files fails it.

Options:
  --cwd DIR        The Pulumi project directory (default: the current directory)
  --stack GLOB     Only stacks whose name matches (repeatable; * and ? wildcards)
  --exclude GLOB   Leave out stacks whose name matches (repeatable)
  --parallel N     Stacks run at once (default: the number of cores, at most 8)
  --max-rps N      The API budget in requests per second, shared by every stack of the run: no
                   second sees more than N requests across all stacks, and a stack running alone
                   may use all of it. A 429 from the service halves the shared rate for every
                   stack, which grows back with each success; 503s and dropped connections are
                   retried without slowing the others
                   (default: monitoring:maxRequestsPerSecond of Pulumi.yaml's config)
  --no-shared      Do not run the shared stack named in Pulumi.yaml (fleet.shared); its current
                   outputs are still passed on to the client stacks
  --no-refresh     preview/up: do not read the service first (faster); a change made by hand then
                   stays until the program itself changes that object
  --dry-run        preview: each stack's preview also asks the service to validate the monitors it
                   would create or change (POST /monitors/batch/dry-run, 100 a request), as
                   monitoring:dryRun does; a refusal fails that stack, naming resource and field
  --isolated       Run each stack's program in a Node.js process of its own, as \`pulumi up\` does,
                   rather than once per stack inside the fleet's process (see "Programs" below)
  --shard I/N      Run share I of N of the client stacks (1 <= I <= N), one share per CI runner. A
                   stack's share follows from a hash of its name alone: adding a stack moves no
                   other. The shared stack is left to a run of its own (--shared-only) that comes
                   before the shards; each shard passes on its outputs and gets 1/N of the budget
  --shard-rps N    This runner's budget instead of 1/N of --max-rps (e.g. when the runners do not
                   all run at the same time)
  --shards N       list: print the N shares as a CI matrix (with --json)
  --shared-only    Run only the shared stack named in Pulumi.yaml; destroy refuses while a client
                   stack still holds resources
  --wait-lock DURATION
                   When another run holds a stack's lock, retry for up to this long (90s, 5m;
                   a number alone is seconds) instead of reporting the stack as locked
  --stale-lock-after DURATION
                   up/refresh/destroy on a file:// or postgres:// backend: while a stack runs, the
                   fleet renews a lease on its lock beside the state; a lock whose lease has not
                   been renewed for longer than this (default 60s; 90s, 5m, 1h) belongs to a run
                   that died and is taken over: deleted, then the stack is refreshed and run
  --break-locks-older-than DURATION
                   Also take over locks with no lease (a plain \`pulumi up\`, or a run elsewhere
                   that keeps none) once they are older than this. Off by default
  --no-pid-check   Do not judge a lock of this host by whether its process still exists (it is
                   stale at once when it does not). Use it where runners share a host name but
                   not their processes, as containers may
  --clients DIR    init: the folder of client spec files (default: fleet.clients.dir, else clients)
  --all            up/preview: every selected stack, not only those the change affects (below);
                   verify: every object of each stack, not only what its last deploy created or changed
  --alerts         verify: send each notification channel in scope one test notification
  --timeout DURATION
                   verify: how long to wait for a check's result or a delivery's outcome (default
                   120s; a number alone is seconds)
  --junit FILE     verify: also write the report as JUnit XML to FILE
  --resource GLOB  pause/resume/overrides: the objects, by the program's name (web) or a set's
                   member (fleet[web]); repeatable; * and ? wildcards
  --for DURATION   pause: how long from now (2h, 90m, 1d)
  --until INSTANT  pause: until when, an ISO 8601 instant with an offset
  --reason TEXT    pause: why (not empty)
  --check          scopes: prove that the stacks' keys hold the scopes (GETs only)
  --key-env NAME   scopes --check: prove the key in environment variable NAME instead of each
                   stack's configured one, e.g. new keys before a rotation switches to them; {stack}
                   in NAME stands for the stack's name in capitals (NEW_KEY_{stack}: NEW_KEY_ACME)
  --check-scopes   preview/up/refresh/destroy/drift: first prove, with one GET per scope and
                   distinct key, that each key holds the scopes that command needs for its stacks;
                   a missing one stops the run before any stack runs (exit 1). Computing what the
                   stacks need costs a preview without refresh of each stack (no request)
  --json           Write the report (list: the matrix) as JSON on stdout instead of a table
  --markdown       drift, report merge of drift reports: write the report as markdown, for a CI
                   job to post as a comment or an issue
  --yes, -y        up/destroy: do not ask for confirmation
  --help, -h       Show this text

The shared stack: when Pulumi.yaml has a \`fleet.shared\` section (dir, stack, outputs), that stack
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

export const VERBS = ["preview", "up", "refresh", "destroy", "drift", "verify", "apply-due", "pause", "resume", "overrides", "list", "scopes", "init", "report"] as const;
export type FleetCommand = (typeof VERBS)[number];
/** The verbs `--check-scopes` goes with: each checks the scopes of the command of its name (cli/fleet/scopes.ts). */
export const CHECKED_VERBS = ["preview", "up", "refresh", "destroy", "drift"] as const satisfies readonly FleetCommand[];
export type CheckedVerb = (typeof CHECKED_VERBS)[number];

/** The verbs of cli/overrides/fleet.ts. */
const OVERRIDE_VERBS: readonly string[] = ["pause", "resume", "overrides"];
export const isOverrideVerb = (command: string): command is "pause" | "resume" | "overrides" => OVERRIDE_VERBS.includes(command);

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

/** The options of every fleet verb (each verb refuses those it does not take). */
export const FLEET_OPTIONS = {
  cwd: { type: "string" },
  stack: { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  parallel: { type: "string" },
  "max-rps": { type: "string" },
  "shard-rps": { type: "string" },
  "no-shared": { type: "boolean" },
  "no-refresh": { type: "boolean" },
  isolated: { type: "boolean" },
  "dry-run": { type: "boolean" },
  clients: { type: "string" },
  shard: { type: "string" },
  shards: { type: "string" },
  "shared-only": { type: "boolean" },
  "wait-lock": { type: "string" },
  "stale-lock-after": { type: "string" },
  "break-locks-older-than": { type: "string" },
  "no-pid-check": { type: "boolean" },
  json: { type: "boolean" },
  markdown: { type: "boolean" },
  all: { type: "boolean" },
  alerts: { type: "boolean" },
  timeout: { type: "string" },
  junit: { type: "string" },
  resource: { type: "string", multiple: true },
  for: { type: "string" },
  until: { type: "string" },
  reason: { type: "string" },
  yes: { type: "boolean", short: "y" },
  check: { type: "boolean" },
  "key-env": { type: "string" },
  "check-scopes": { type: "boolean" },
} as const;

/** The fleet's options from its command line, or "help" for `--help`; bad usage throws a {@link UsageError}. */
export function parseFleetArgs(argv: readonly string[], cwd: string): FleetOptions | "help" {
  const line = parseCommandLine(argv, FLEET_OPTIONS, true);
  return line.values.help ? "help" : fleetOptionsOf(line, cwd);
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

/** The fleet's options from its parsed command line (the verb first among the words). */
export function fleetOptionsOf({ values, positionals }: CommandLine<typeof FLEET_OPTIONS>, cwd: string): FleetOptions {
  const [command, ...extra] = positionals;
  if (command === undefined) throw new UsageError(`a command is required: ${VERBS.join(", ")}`);
  if (!(VERBS as readonly string[]).includes(command)) throw new UsageError(`unknown command ${JSON.stringify(command)}: expected one of ${VERBS.join(", ")}`);
  if (command === "report") {
    const [subcommand, ...files] = extra;
    if (subcommand !== "merge") throw new UsageError("report takes one subcommand: report merge FILE...");
    if (files.length === 0) throw new UsageError("report merge needs the --json report files of the runs to merge");
  } else if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}; stacks are chosen with --stack GLOB`);

  const options: FleetOptions = {
    ...defaultFleetOptions(command as FleetCommand, values.cwd ?? cwd),
    stacks: values.stack ?? [],
    exclude: values.exclude ?? [],
    shared: !values["no-shared"],
    refresh: !values["no-refresh"],
    isolated: values.isolated ?? false,
    dryRun: values["dry-run"] ?? false,
    json: values.json ?? false,
    markdown: values.markdown ?? false,
    yes: values.yes ?? false,
    pidCheck: !values["no-pid-check"],
  };
  if (values["stale-lock-after"] !== undefined) options.staleLockAfterMs = parseDuration("--stale-lock-after", values["stale-lock-after"]);
  if (values["break-locks-older-than"] !== undefined) options.breakLocksOlderThanMs = parseDuration("--break-locks-older-than", values["break-locks-older-than"]);
  if (options.markdown && options.command !== "drift" && options.command !== "report") throw new UsageError("--markdown is for the drift report only (drift, report merge)");
  if (options.dryRun && options.command !== "preview") throw new UsageError("--dry-run goes with preview; to ask at every deploy, set monitoring:dryRun in the stacks' configuration");
  if (options.markdown && options.json) throw new UsageError("--markdown and --json exclude each other");
  if (values.parallel !== undefined) {
    const parallel = Number(values.parallel);
    if (!Number.isInteger(parallel) || parallel < 1) throw new UsageError(`--parallel must be a whole number of at least 1, got ${values.parallel}`);
    options.parallel = parallel;
  }
  if (values["max-rps"] !== undefined) options.maxRps = positiveNumber("--max-rps", values["max-rps"]);
  if (values["shard-rps"] !== undefined) {
    if (values.shard === undefined) throw new UsageError("--shard-rps goes with --shard I/N (this runner's budget); without a shard, --max-rps is the budget");
    options.shardRps = positiveNumber("--shard-rps", values["shard-rps"]);
  }
  if (values.clients !== undefined) options.clients = values.clients;
  if (command === "report") options.reports = extra.slice(1);
  if (values.shard !== undefined) {
    try {
      options.shard = parseShard(values.shard);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (values.shards !== undefined) {
    const shards = Number(values.shards);
    if (command !== "list") throw new UsageError("--shards N goes with list (the CI matrix); a runner takes its share with --shard I/N");
    if (!Number.isInteger(shards) || shards < 1) throw new UsageError(`--shards must be a whole number of at least 1, got ${values.shards}`);
    options.shards = shards;
  }
  if (values["shared-only"]) {
    if (values["no-shared"] || values.shard !== undefined || values.stack !== undefined) {
      throw new UsageError("--shared-only runs the shared stack alone: it goes with neither --no-shared, --shard nor --stack");
    }
    options.sharedOnly = true;
  }
  // --all of up and preview: every stack, affected or not; of verify: every object.
  const deployAll = values.all !== undefined && (command === "up" || command === "preview");
  if (deployAll) options.all = values.all;
  if ((values.all !== undefined && !deployAll) || values.alerts !== undefined || values.timeout !== undefined || values.junit !== undefined) {
    if (command !== "verify") throw new UsageError("--alerts, --timeout and --junit go with verify; --all with up, preview and verify");
    const timeout = values.timeout === undefined ? undefined : parseDuration("--timeout", values.timeout);
    Object.assign(options, { verifyAll: values.all ?? false, alerts: values.alerts ?? false, ...(timeout === undefined ? {} : { timeoutMs: timeout }), ...(values.junit === undefined ? {} : { junit: values.junit }) });
  }
  if (values.resource !== undefined) {
    if (!isOverrideVerb(command)) throw new UsageError("--resource goes with pause, resume and overrides");
    options.resources = values.resource;
  }
  if (values.for !== undefined || values.until !== undefined || values.reason !== undefined) {
    if (command !== "pause") throw new UsageError("--for, --until and --reason go with pause");
    options.pause = { ...(values.for === undefined ? {} : { for: values.for }), ...(values.until === undefined ? {} : { until: values.until }), ...(values.reason === undefined ? {} : { reason: values.reason }) };
  }
  if (values.check) {
    if (command !== "scopes") throw new UsageError("--check goes with scopes; before another verb, --check-scopes proves the scopes that verb needs");
    options.check = true;
  }
  if (values["key-env"] !== undefined) {
    if (!options.check) throw new UsageError("--key-env goes with scopes --check");
    options.keyEnv = values["key-env"];
  }
  if (values["check-scopes"]) {
    if (!(CHECKED_VERBS as readonly string[]).includes(command)) throw new UsageError(`--check-scopes goes with ${CHECKED_VERBS.join(", ")}`);
    options.checkScopes = true;
  }
  if (values["wait-lock"] !== undefined) options.waitLockMs = parseDuration("--wait-lock", values["wait-lock"]);
  return options;
}
