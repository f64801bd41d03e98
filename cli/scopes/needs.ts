/**
 * The scopes each command needs for a stack, computed without a request: which operations each
 * command sends for what the program declares and the state holds (schema/operations.ts, derived
 * from the definitions), and the scope the spec lists for each (schema/routes.ts).
 */
import { PAUSABLE_KINDS } from "../../provider/pauses.js";
import { type AnyResourceDefinition, client, definitions, monitor, notificationChannel, webhookSubscription } from "../../schema/index.js";
import { DECLARED_INPUTS, groupOf, membersOf, OVERRIDE } from "../../schema/members.js";
import { type Action, type KindOperation, dryRunOperation, groupOperationsOf, operationText, operationsOf } from "../../schema/operations.js";
import { type Route, routeName, routeOf } from "../../schema/routes.js";
import { planAlerts } from "../verify/run.js";
import { targetsOf } from "../verify/targets.js";
import type { RecordedResource } from "../project/state.js";
import { kindOfTypeToken } from "../../schema/type-token.js";

/** The commands whose scopes are computed, in the order they are reported. */
export const COMMANDS = ["preview", "up", "refresh", "destroy", "drift", "verify", "verify --alerts", "pause", "resume", "apply-due", "import"] as const;
export type CommandName = (typeof COMMANDS)[number];

/** A resource of the stack: as the program declares it (inputs), as the state records it (outputs), or both. */
export type StackResource = Omit<RecordedResource, "created" | "modified">;

export interface StackContents {
  /** The program's resources, as a preview without refresh declares them. */
  program: readonly StackResource[];
  /** The state's resources, as `pulumi stack export` records them. */
  state: readonly StackResource[];
  /** `monitoring:dryRun`: a preview asks the service about the monitors it creates or changes. */
  dryRun?: boolean;
}

/** An operation a command sends; `required: false` when the command works around its refusal (list pages a read by id replaces). */
interface Sent {
  /** What it does, for which kind: `Monitor read`. */
  does: string;
  route: Route;
  required: boolean;
}

export interface OperationNeed {
  /** `GET /monitors/{monitorID}` */
  request: string;
  /** What it does, for which kinds: `Monitor read`. */
  does: string[];
  /** The commands that send it and fail without its scope. */
  commands: CommandName[];
  /** Commands that send it but do without it (a refresh reads by id when list pages are refused). */
  optionalIn: CommandName[];
}

export interface ScopesReport {
  commands: Record<CommandName, string[]>;
  /** Every scope of every command. */
  all: string[];
  /** Per scope, the operations that need it. */
  operations: Record<string, OperationNeed[]>;
  /** Operations the spec lists without a scope that the commands send: any valid key. */
  unscoped: string[];
}

const CLIENT_FIELD = "clientId";

/**
 * The kind of a resource of this package (`Monitor`); of another package's resource, its whole
 * type, which names no kind here: such a resource has no member, so no command sends anything for it.
 */
function kindOf(resource: StackResource): string {
  return kindOfTypeToken(resource.type) ?? resource.type;
}

/** The stack's resources: the program's, with what the state records of each (id, outputs), and the state's that the program dropped. */
function resourcesOf(contents: StackContents): StackResource[] {
  const byUrn = new Map<string, StackResource>();
  for (const resource of contents.state) byUrn.set(resource.urn, resource);
  for (const resource of contents.program) byUrn.set(resource.urn, { ...byUrn.get(resource.urn), ...resource });
  return [...byUrn.values()];
}

/** A member of a resource: its values (inputs, else outputs), and what its outputs record (an operator's override). */
interface StackMember {
  definition: AnyResourceDefinition;
  values: Record<string, unknown>;
  recorded: Record<string, unknown>;
}

/** Each member of a resource (a set's monitors, or the resource itself) with its values: inputs over outputs. */
function membersOfResource(resource: StackResource): StackMember[] {
  const kind = kindOf(resource);
  const inputs = membersOf(kind, resource.inputs ?? {});
  const outputs = membersOf(kind, resource.outputs ?? {});
  const members = inputs.length > 0 ? inputs : outputs;
  // A set with no member known (its members unknown at preview) still is a set of its kind, with
  // the set's own values (its client); a resource of another package has no member at all.
  if (members.length === 0) {
    const definition = groupOf(kind)?.member;
    return definition === undefined ? [] : [{ definition, values: { ...resource.outputs, ...resource.inputs }, recorded: {} }];
  }
  const recorded = (key?: string) => outputs.find((member) => member.key === key)?.values ?? {};
  return members.map((member) => ({ definition: member.definition, values: member.values, recorded: recorded(member.key) }));
}

function declared(values: Record<string, unknown>, field: string): boolean {
  const recorded = values[DECLARED_INPUTS];
  return values[field] !== undefined || (Array.isArray(recorded) && recorded.includes(field));
}

/** The kind's operations of these actions: of the association `field` only, when given. */
function pick(definition: AnyResourceDefinition, actions: readonly Action[], field?: string): KindOperation[] {
  return operationsOf(definition).filter((entry) => actions.includes(entry.action) && (field === undefined || entry.field === field));
}

const sent = (operations: readonly KindOperation[], required = true): Sent[] => operations.map((operation) => ({ does: operationText(operation), route: operation.route, required }));

/** The association through which the provider writes a monitor's or heartbeat's pause state (provider/pauses.ts). */
const PAUSED = "paused";
/** The windows in which the provider pauses an object: declared, they too make it manage the pause state. */
const PAUSES = "pauses";

/**
 * Whether the provider manages the member's pause state (provider/pause-plan.ts): `paused` or
 * `pauses` declared, or an operator's override recorded, which the first deploy after its end resumes.
 */
function pauseStateManaged({ values, recorded }: StackMember): boolean {
  return [PAUSED, PAUSES].some((field) => declared(values, field)) || recorded[OVERRIDE] !== undefined;
}

/** The associations a member declares; the pause state's when the provider manages it. */
function declaredAssociations(member: StackMember): string[] {
  return Object.keys(member.definition.associations).filter((field) => (field === PAUSED ? pauseStateManaged(member) : declared(member.values, field)));
}

/** What a refresh sends for a resource: each object read (by id, or from the list), and its declared associations read from their endpoints. */
function refreshOf(resource: StackResource): Sent[] {
  const inGroup = groupOf(kindOf(resource)) !== undefined;
  return membersOfResource(resource).flatMap((member) => [
    ...sent(pick(member.definition, ["read"])),
    // Reads of many objects share list pages, which a set's members cannot do without; a single
    // object of a kind with a GET by id reads by id when they are refused (of a kind read from its
    // list, the list is its read, needed all the same).
    ...sent(pick(member.definition, ["list"]), inGroup),
    ...declaredAssociations(member).flatMap((field) => sent(pick(member.definition, ["read attached", "read document"], field))),
  ]);
}

/** What an up may send for a resource of the program besides its refresh: create (a set in batches), update, replace, and the writes of its declared associations. */
function upOf(resource: StackResource): Sent[] {
  const group = groupOf(kindOf(resource));
  return [
    ...(group === undefined ? [] : sent(groupOperationsOf(group))),
    ...membersOfResource(resource).flatMap((member) => [
      ...sent(pick(member.definition, ["create", "update", "delete"])),
      ...declaredAssociations(member).flatMap((field) => sent(pick(member.definition, ["turn on", "turn off", "attach", "detach", "write document"], field))),
    ]),
  ];
}

function destroyOf(resource: StackResource): Sent[] {
  return membersOfResource(resource).flatMap(({ definition }) => sent(pick(definition, ["delete"])));
}

/** The lists a drift check reads for unmanaged objects: every kind of each scope the stack's objects live in (cli/drift/unmanaged.ts). */
function unmanagedListsOf(resources: readonly StackResource[]): Sent[] {
  const scopes = new Set<"account" | "client">();
  for (const resource of resources) {
    if (kindOf(resource) === client.kind) scopes.add("client");
    else for (const { values } of membersOfResource(resource)) scopes.add(typeof values[CLIENT_FIELD] === "string" ? "client" : "account");
  }
  const nested = (definition: AnyResourceDefinition) => /\{\w+\}/.test(definition.path);
  const listed = definitions.filter((definition) =>
    nested(definition) ? scopes.has("client") : scopes.has("account") || (scopes.has("client") && CLIENT_FIELD in definition.inputs.shape),
  );
  return listed.flatMap((definition) => sent(pick(definition, ["list"])));
}

/** What verify sends (cli/verify/run.ts): a check of each monitor, a test delivery of each subscription, and with --alerts one test per channel. */
function verifyOf(resources: readonly StackResource[], alerts: boolean): Sent[] {
  const targets = targetsOf(resources.map((resource) => ({ ...resource, id: resource.id ?? "(to be created)" })));
  const request = (definition: AnyResourceDefinition, does: string, method: string, suffix: string): Sent => ({
    does: `${definition.kind} ${does}`,
    route: routeOf(method, `${definition.path}/{id}${suffix}`),
    required: true,
  });
  const ofKind = (kind: AnyResourceDefinition) => targets.filter((target) => target.kind === kind.kind);
  const operations: Sent[] = [];
  // A monitor the program declares paused is not checked.
  if (ofKind(monitor).some((target) => !target.declaredPaused)) {
    operations.push(request(monitor, "results read", "GET", "/results"), request(monitor, "check", "POST", "/check"));
    operations.push({ does: "Monitor statuses listed", route: routeOf("GET", monitor.path), required: true });
  }
  if (ofKind(webhookSubscription).length > 0) {
    operations.push(request(webhookSubscription, "deliveries read", "GET", "/deliveries"), request(webhookSubscription, "test delivery", "POST", "/test"));
  }
  if (alerts) {
    const plan = planAlerts(ofKind(notificationChannel), ofKind(monitor));
    if (plan.viaMonitor.length > 0) operations.push(request(monitor, "test alert", "POST", "/test-alert"));
    if (plan.direct.length > 0) operations.push(request(notificationChannel, "test", "POST", "/test"));
  }
  return operations;
}

/**
 * What `pause` (`turn on`), `resume` (`turn off`) and `apply-due` (both) send: for each monitor and
 * heartbeat the state holds, a set's members included, the call, then the object read back by id
 * to see what it became. They act on the state alone and never run the program (cli/overrides/,
 * cli/apply-due/), so what the program declares but the state lacks is no target of theirs.
 */
function pauseCallsOf(state: readonly StackResource[], actions: readonly Action[]): Sent[] {
  return state
    .flatMap(membersOfResource)
    .filter(({ definition }) => PAUSABLE_KINDS.includes(definition.kind))
    .flatMap(({ definition }) => [...sent(pick(definition, actions, PAUSED)), ...sent(pick(definition, ["read"]))]);
}

/** What import reads of an account (cli/import/read.ts): every kind's list, objects by id where a list leaves a field out, and the associations from their endpoints. */
function importOf(): Sent[] {
  return definitions.flatMap((definition) => sent(pick(definition, ["list", "read", "read attached", "read document"])));
}

/** Every operation each command sends for the stack. */
function commandOperations(contents: StackContents): Record<CommandName, Sent[]> {
  const resources = resourcesOf(contents);
  const programUrns = new Set(contents.program.map((resource) => resource.urn));
  const refresh = resources.flatMap(refreshOf);
  const monitorsInProgram = contents.program.some((resource) => membersOfResource(resource).some(({ definition }) => definition.kind === dryRunOperation.kind));
  const dryRun = contents.dryRun === true && monitorsInProgram ? sent([dryRunOperation]) : [];
  // Every project here refreshes first (`options: refresh: always`): preview, up and destroy read what the state holds.
  return {
    preview: [...refresh, ...dryRun],
    // What the program declares is created, updated or replaced; what it dropped, deleted.
    up: [...refresh, ...dryRun, ...resources.flatMap((resource) => (programUrns.has(resource.urn) ? upOf(resource) : destroyOf(resource)))],
    refresh,
    destroy: [...refresh, ...resources.flatMap(destroyOf)],
    drift: [...refresh, ...dryRun, ...unmanagedListsOf(resources)],
    verify: verifyOf(resources, false),
    "verify --alerts": verifyOf(resources, true),
    pause: pauseCallsOf(contents.state, ["turn on"]),
    resume: pauseCallsOf(contents.state, ["turn off"]),
    "apply-due": pauseCallsOf(contents.state, ["turn on", "turn off"]),
    import: importOf(),
  };
}

/** The scopes each command needs for the stack, their union, and the operations behind each scope. */
export function scopesFor(contents: StackContents): ScopesReport {
  const byCommand = commandOperations(contents);
  const commands = {} as Record<CommandName, string[]>;
  const operations = new Map<string, Map<string, OperationNeed>>();
  const unscoped = new Set<string>();
  for (const command of COMMANDS) {
    const scopes = new Set<string>();
    for (const { does, route, required } of byCommand[command]) {
      if (route.scope === null) {
        unscoped.add(routeName(route));
        continue;
      }
      if (required) scopes.add(route.scope);
      const ofScope = operations.get(route.scope) ?? new Map<string, OperationNeed>();
      operations.set(route.scope, ofScope);
      const need = ofScope.get(routeName(route)) ?? { request: routeName(route), does: [], commands: [], optionalIn: [] };
      ofScope.set(routeName(route), need);
      if (!need.does.includes(does)) need.does.push(does);
      const list = required ? need.commands : need.optionalIn;
      if (!list.includes(command)) list.push(command);
    }
    commands[command] = [...scopes].sort();
  }
  for (const ofScope of operations.values()) for (const need of ofScope.values()) need.optionalIn = need.optionalIn.filter((command) => !need.commands.includes(command));
  const all = [...new Set(COMMANDS.flatMap((command) => commands[command]))].sort();
  return {
    commands,
    all,
    operations: Object.fromEntries([...operations.keys()].sort().map((scope) => [scope, [...operations.get(scope)!.values()].sort((a, b) => a.request.localeCompare(b.request))])),
    unscoped: [...unscoped].sort(),
  };
}

/** The union of several stacks' reports (`fleet scopes`): per command, every scope any stack needs. */
export function unionOf(reports: readonly ScopesReport[]): ScopesReport {
  const commands = Object.fromEntries(COMMANDS.map((command) => [command, [...new Set(reports.flatMap((report) => report.commands[command]))].sort()])) as Record<CommandName, string[]>;
  const operations: Record<string, OperationNeed[]> = {};
  for (const report of reports) {
    for (const [scope, needs] of Object.entries(report.operations)) {
      const merged = (operations[scope] ??= []);
      for (const need of needs) {
        const found = merged.find((candidate) => candidate.request === need.request);
        if (found === undefined) merged.push({ ...need, does: [...need.does], commands: [...need.commands], optionalIn: [...need.optionalIn] });
        else {
          for (const does of need.does) if (!found.does.includes(does)) found.does.push(does);
          found.commands = COMMANDS.filter((command) => found.commands.includes(command) || need.commands.includes(command));
          found.optionalIn = COMMANDS.filter((command) => !found.commands.includes(command) && (found.optionalIn.includes(command) || need.optionalIn.includes(command)));
        }
      }
    }
  }
  return {
    commands,
    all: [...new Set(reports.flatMap((report) => report.all))].sort(),
    operations: Object.fromEntries(Object.keys(operations).sort().map((scope) => [scope, operations[scope]!.sort((a, b) => a.request.localeCompare(b.request))])),
    unscoped: [...new Set(reports.flatMap((report) => report.unscoped))].sort(),
  };
}
