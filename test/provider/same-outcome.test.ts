/**
 * A monitor has the same outcome whether it is a single `Monitor` or a member of a `MonitorSet`:
 * each case runs once per shape, through the provider as the dynamic-provider host runs it
 * (`dispatcher`), driven as the engine drives it, against the emulator, and both runs must give
 * the same outcome: the requests of a replacement in their order, a replaced object whose delete
 * failed (kept, and deleted by the next up), a create whose answer was lost,
 * a monitor created but not set up, a refusal (403), a setting that cannot work (a key the service
 * does not know, refused at once). Messages are
 * compared with the monitor's name put aside (`Monitor "web"`, `Monitor "fleet[web]"`).
 * A check's warnings, which no monitor input gives, are compared for a group of channels.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationChannel } from "../../schema/index.js";
import { type GroupDefinition, monitorSet, recordedMembers } from "../../schema/members.js";
import { check, checkGroup } from "../../provider/check.js";
import { dispatcher } from "../../provider/index.js";
import { type TestEmulator, startTestEmulator } from "../support/emulator.js";

type Values = Record<string, unknown>;
interface Deployed {
  id: string;
  outs: Values;
}

const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::pulumi-nodejs:dynamic/monitoring:${kind}::${name}`;

/** How a shape declares one monitor named `name`, finds it in what it recorded, and how its messages name the monitor. */
interface Shape {
  declare(name: string, monitor: Values): Values;
  monitorOf(name: string, recorded: Deployed): Deployed | undefined;
  /** The reason of the monitor's own failure in the message of the resource's, its name put aside. */
  reasonOf(name: string, message: string): string;
}

const shapes: Record<string, Shape> = {
  "a single Monitor": {
    declare: (name, monitor) => ({ ...monitor, __urn: urn("Monitor", name) }),
    monitorOf: (_name, recorded) => recorded,
    reasonOf: (name, message) => message.replaceAll(`Monitor "${name}"`, "<monitor>"),
  },
  "a MonitorSet member": {
    declare: (name, monitor) => ({ monitors: { [name]: monitor }, __urn: urn("MonitorSet", `set-${name}`) }),
    monitorOf: (name, recorded) => {
      const member = recordedMembers(monitorSet, recorded.outs).get(name);
      return member === undefined ? undefined : { id: member.id, outs: member.values };
    },
    reasonOf: (name, message) => {
      const own = new RegExp(`^MonitorSet "set-${name}": 1 monitor\\(s\\) failed \\([^)]*\\): set-${name}\\[${name}\\]: `);
      expect(message).toMatch(own);
      return message.replace(own, "").replaceAll(`Monitor "set-${name}[${name}]"`, "<monitor>");
    },
  },
};

let emulator: TestEmulator;

/** Points the provider at the emulator with `apiKey` (the emulator's unless told otherwise). */
async function configure(apiKey = emulator.apiKey): Promise<void> {
  const config: Record<string, string> = { "monitoring:apiUrl": emulator.baseUrl, "monitoring:apiKey": apiKey };
  await dispatcher.configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key] as string } });
}

beforeAll(async () => {
  emulator = await startTestEmulator();
  await configure();
});
afterAll(() => emulator.stop());

/**
 * A `pulumi up` of `declared` over what `previous` recorded, as the engine drives it: create; or
 * diff, then update, or replace (the new object first, then the old one deleted: a monitor's diff
 * never deletes first). An old object whose delete fails stays in the state, pending: the up
 * fails, and the next one deletes it first.
 */
async function up(declared: Values, previous?: Deployed & { pending?: Deployed }): Promise<Deployed> {
  if (previous?.pending !== undefined) await dispatcher.delete(previous.pending.id, previous.pending.outs);
  const { inputs, failures } = await dispatcher.check({}, declared);
  expect(failures ?? []).toEqual([]);
  if (previous === undefined) return dispatcher.create(inputs!) as Promise<Deployed>;
  const diff = await dispatcher.diff(previous.id, previous.outs, inputs!);
  expect(diff.deleteBeforeReplace ?? false).toBe(false);
  if ((diff.replaces ?? []).length > 0) {
    const made = (await dispatcher.create(inputs!)) as Deployed;
    await dispatcher.delete(previous.id, previous.outs).catch((error: Error) => {
      throw Object.assign(error, { id: made.id, properties: made.outs, pending: previous });
    });
    return made;
  }
  return { id: previous.id, outs: (await dispatcher.update(previous.id, previous.outs, inputs!)).outs! };
}

/** The requests since the log was cleared, ids put aside. */
const requests = async () => (await emulator.admin.requestLog()).map((entry) => `${entry.method} ${entry.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ":id")}`);
const onServer = async (name: string) => (await emulator.byHand<{ id: string; name: string; paused: boolean }[]>("GET", "/monitors?all_clients=true")).filter((monitor) => monitor.name === name);
const failureOf = (attempt: Promise<unknown>) => attempt.then(() => expect.fail("the up succeeded"), (error: Error & Partial<Deployed & { properties: Values; pending: Deployed }>) => error);

const cases: Record<string, (shape: Shape, name: string) => Promise<unknown>> = {
  "replaces a monitor whose client changes: the new object first, then the old one deleted": async (shape, name) => {
    const clientId = (await emulator.byHand<{ id: string }>("POST", "/clients", { name: `Client of ${name}` })).id;
    const first = await up(shape.declare(name, { name, url: "https://example.com" }));
    await emulator.admin.clearRequestLog();
    const moved = await up(shape.declare(name, { name, url: "https://example.com", clientId }), first);
    const monitor = shape.monitorOf(name, moved)!;
    return { requests: await requests(), onServer: (await onServer(name)).map((object) => object.id === monitor.id) };
  },
  "keeps the replaced monitor when its delete fails, and the next up deletes it": async (shape, name) => {
    const clientId = (await emulator.byHand<{ id: string }>("POST", "/clients", { name: `Client of ${name}` })).id;
    const first = await up(shape.declare(name, { name, url: "https://example.com" }));
    await emulator.admin.injectFault({ method: "DELETE", path: "/monitors/*", status: 403, times: 1 });
    await emulator.admin.clearRequestLog();
    const moved = shape.declare(name, { name, url: "https://example.com", clientId });
    const failure = await failureOf(up(moved, first));
    const failed = await requests();
    const both = (await onServer(name)).length;
    await emulator.admin.clearRequestLog();
    const next = await up(moved, { id: failure.id!, outs: failure.properties!, pending: failure.pending });
    const monitor = shape.monitorOf(name, next)!;
    return { failed, both, next: await requests(), onServer: (await onServer(name)).map((object) => object.id === monitor.id) };
  },
  "takes over a create whose answer was lost, fetched by id": async (shape, name) => {
    await emulator.admin.injectFault({ method: "POST", path: "/monitors", drop_response: true, times: 1 });
    const made = await up(shape.declare(name, { name, url: "https://example.com" }));
    return { requests: await requests(), onServer: (await onServer(name)).map((object) => object.id === shape.monitorOf(name, made)?.id) };
  },
  "records a monitor created but not set up, and the next up finishes it": async (shape, name) => {
    await emulator.admin.injectFault({ method: "POST", path: "/monitors/*/pause", status: 403, times: 1 });
    const declared = shape.declare(name, { name, url: "https://example.com", paused: true });
    const failure = await failureOf(up(declared));
    const recorded = shape.monitorOf(name, { id: failure.id!, outs: failure.properties! });
    const kept = (await onServer(name)).map((object) => object.id === recorded?.id && !object.paused);
    await emulator.admin.clearRequestLog();
    await up(declared, { id: failure.id!, outs: failure.properties! });
    return { kept, next: await requests(), paused: (await onServer(name)).map((object) => object.paused) };
  },
  "names the monitor in a refusal (403) and creates nothing": async (shape, name) => {
    await emulator.admin.injectFault({ method: "POST", path: "/monitors", status: 403, times: 1 });
    const failure = await failureOf(up(shape.declare(name, { name, url: "https://example.com" })));
    return { reason: shape.reasonOf(name, failure.message).replace(/request_id \w+/, "request_id <id>"), id: failure.id, onServer: await onServer(name) };
  },
  "names the setting that cannot work": async (shape, name) => {
    // A key the service does not know: refused at once (401), where a URL nothing listens at is
    // tried again a second later, for each shape.
    await configure("pls_test_unknown0000000000000000");
    const failure = await failureOf(up(shape.declare(name, { name, url: "https://example.com" }))).finally(() => configure());
    expect(failure.message).toMatch(/the API key from monitoring:apiKey\b.* was refused/);
    return { reason: shape.reasonOf(name, failure.message).replace(/request_id \w+/, "request_id <id>"), id: failure.id };
  },
};

describe.each(Object.entries(cases))("%s", (_case, run) => {
  it("as a single Monitor and as a MonitorSet member", async () => {
    const outcomes: unknown[] = [];
    for (const [index, shape] of Object.values(shapes).entries()) {
      await emulator.admin.clearFaults();
      await emulator.admin.clearRequestLog();
      outcomes.push(await run(shape, `${_case.split(" ")[0]}-${index}`.replace(/\W/g, "-")));
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
  });
});

describe("a check's warnings", () => {
  const channels: GroupDefinition = { kind: "ChannelSet", member: notificationChannel, membersField: "channels", shared: [], perMember: { ids: "id" }, sparse: [] };
  const slack = { name: "s", kind: "slack", config: { channel: "#ops", threadTs: "1" } };

  it("name the member of a group as a single resource's name the resource", () => {
    const single = check(notificationChannel, { ...slack, __urn: urn("NotificationChannel", "alerts") }).warnings;
    const member = checkGroup(channels, { channels: { alerts: slack }, __urn: urn("ChannelSet", "team") }).warnings;
    expect(single).toEqual(['NotificationChannel "alerts": config.threadTs is not a key this package knows; it is sent as written and the server decides (check the spelling)']);
    expect(member).toEqual(single.map((warning) => warning.replace('NotificationChannel "alerts"', 'ChannelSet "team[alerts]"')));
  });
});
