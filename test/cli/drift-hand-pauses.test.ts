/**
 * A pause made by hand under each `monitoring:handPauses` value: the deploys do what the setting
 * says, and drift, between them, says the same of the next deploy, judged by the provider's own
 * pause plan at the same instant (`monitoring:now`). A monitor that declares `paused: false` is
 * paused in the service's console; then, at each step, drift's refresh (a preview: nothing
 * recorded) says what the next deploy does, and a deploy (its refresh recorded, then diff and
 * update) does it. In the provider's process, through its dispatcher, as the engine drives it; the
 * check's settings read from the stack's configuration as `drift` reads them.
 */
import type { StepEventMetadata } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import { findingsOf, type HandPause } from "../../cli/drift/changes.js";
import { pauseSettingsFrom } from "../../cli/drift/stack-findings.js";
import { dispatcher } from "../../provider/index.js";
import { useEmulatorWith } from "../support/emulator.js";
import { providerClientOn } from "../support/provider-client.js";

type Values = Record<string, unknown>;

const TYPE = "pulumi-nodejs:dynamic/monitoring:Monitor";
const start = Date.parse("2030-03-01T09:00:00Z");
const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();

/** At `minutes`: what drift says of the hand pause (undefined: no drift), and whether the deploy then leaves the monitor paused. */
interface Step {
  minutes: number;
  drift: HandPause | undefined;
  pausedAfterDeploy: boolean;
}

const STORIES: ReadonlyArray<[string, Step[]]> = [
  ["putBack", [
    { minutes: 10, drift: { managed: true, nextDeploy: "resumes", rule: "putBack" }, pausedAfterDeploy: false },
    { minutes: 20, drift: undefined, pausedAfterDeploy: false },
  ]],
  ["keep", [
    { minutes: 10, drift: { managed: true, nextDeploy: "keeps", rule: "keep" }, pausedAfterDeploy: true },
    { minutes: 7 * 24 * 60, drift: { managed: true, nextDeploy: "keeps", rule: "keep", seen: at(10) }, pausedAfterDeploy: true },
  ]],
  ["90m", [
    { minutes: 10, drift: { managed: true, nextDeploy: "keeps", rule: "90m" }, pausedAfterDeploy: true },
    { minutes: 60, drift: { managed: true, nextDeploy: "keeps", rule: "90m", seen: at(10), until: at(100) }, pausedAfterDeploy: true },
    { minutes: 105, drift: { managed: true, nextDeploy: "resumes", rule: "90m", seen: at(10), until: at(100) }, pausedAfterDeploy: false },
    { minutes: 110, drift: undefined, pausedAfterDeploy: false },
  ]],
];

describe("a pause made by hand, under each monitoring:handPauses value: drift says what the deploys then do", () => {
  const config: Record<string, string> = {};
  /** The stack's configuration as the Automation API gives it. */
  const on = useEmulatorWith(providerClientOn);
  beforeAll(async () => {
    Object.assign(config, { "monitoring:apiUrl": on.emulator.baseUrl, "monitoring:apiKey": on.emulator.apiKey });
    await dispatcher.configure({ config: { get: (key: string) => config[key], require: (key: string) => config[key] as string } });
  });

  it.each(STORIES)("%s", async (rule, steps) => {
    Object.assign(config, { "monitoring:handPauses": rule, "monitoring:now": at(0) });
    const urn = `urn:pulumi:drift::declared::${TYPE}::web-${rule}`;
    const { inputs } = await dispatcher.check({}, { name: "Web", url: "https://acme.example", paused: false, __urn: urn });
    const { id, outs } = await dispatcher.create(inputs!);
    let recorded: Values = outs ?? {};
    await on.emulator.byHand("POST", `/monitors/${id}/pause`);

    for (const { minutes, drift, pausedAfterDeploy } of steps) {
      config["monitoring:now"] = at(minutes);
      // Drift: a refresh preview, judged with the stack's settings; nothing recorded.
      const refreshed = (await dispatcher.read(id, recorded)).props!;
      const step = { op: "same", urn, type: TYPE, provider: "", old: { id, inputs, outputs: recorded }, new: { id, outputs: refreshed } } as unknown as StepEventMetadata;
      const found = findingsOf(step, pauseSettingsFrom((key) => config[`monitoring:${key}`], {}));
      expect(found.drift.map((entry) => entry.paused), `drift at +${minutes} min`).toEqual(drift === undefined ? [] : [drift]);
      // The deploy: its own refresh, recorded, then what the plan wants.
      recorded = (await dispatcher.read(id, recorded)).props!;
      if ((await dispatcher.diff(id, recorded, inputs!)).changes) recorded = (await dispatcher.update(id, recorded, inputs!)).outs ?? {};
      expect(await on.emulator.byHand<Values>("GET", `/monitors/${id}`), `the deploy at +${minutes} min`).toMatchObject({ paused: pausedAfterDeploy });
    }
  });
});
