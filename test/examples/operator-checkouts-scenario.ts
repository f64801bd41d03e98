/**
 * Operator commands touch only what they name, whatever the checkout they run from
 * (docs/overrides-and-maintenance.md). One stack is deployed with a Monitor `web`, a Heartbeat
 * `backup` and a MonitorSet `fleet` of two members; then `pause` and `resume` run from checkouts
 * that are not at the deployed commit: behind it, ahead of it with pending edits, without the
 * resource, without the set member, with the resource moved under an alias, and from a directory
 * with no program at all (the stack named in full, its key and backend from the environment).
 * For a Monitor, a Heartbeat and a set's member, each `pause` sends exactly its one call (the
 * emulator's answer shows the outcome, so no read follows), and `pulumi stack export` before and
 * after differs only in that object's pause state and override record; `fleet resume` then ends
 * them all with one call each. Nothing is created, updated, replaced or deleted: the objects the
 * checkouts leave out are all still there.
 * A `pause` killed with SIGKILL once its call reached the service (the runner gone, as an
 * ephemeral CI runner goes) leaves nothing for a person to clean up: the next `pause`, from
 * another runner, sends the call again (a paused object stays paused: no duplicate) and records
 * the one override.
 */
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportedState } from "../../cli/project/state.js";
import { startTestEmulator, type TestEmulator } from "../support/emulator.js";
import { runKilledWhen } from "../support/kill-session.js";
import { startTestPostgres, type TestPostgres } from "../support/postgres.js";
import { repoRoot, testCli } from "../support/pulumi.js";
import { type CommandResult, runHere, runnerEnvironment } from "./support.js";

const STEP_MS = 400_000;
const STACK = "acme";
const T = Date.parse("2030-11-28T20:00:00Z");
const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();

type Declaration = { kind: string; name: string; args: Record<string, unknown>; options?: Record<string, unknown> };
const web: Declaration = { kind: "Monitor", name: "web", args: { name: "Web", url: "https://shop.example" } };
const backup: Declaration = { kind: "Heartbeat", name: "backup", args: { name: "Backup", expectedIntervalSeconds: 3600 } };
const member = (key: string) => ({ name: key.toUpperCase(), url: `https://shop.example/${key}` });
const fleet = (...keys: string[]): Declaration => ({ kind: "MonitorSet", name: "fleet", args: { monitors: Object.fromEntries(keys.map((key) => [key, member(key)])) } });
const DEPLOYED = [web, backup, fleet("a", "b")];

/** What each checkout's program declares; `undefined`: a directory with no program. */
const CHECKOUTS: Record<string, Declaration[] | undefined> = {
  "at the deployed commit": DEPLOYED,
  "behind it (before the heartbeat and the second member were added)": [web, fleet("a")],
  "ahead of it, with pending edits": [{ ...web, args: { ...web.args, name: "Web v2" } }, { ...backup, args: { ...backup.args, expectedIntervalSeconds: 7200 } }, fleet("a", "b", "c")],
  "without the resource": [backup, fleet("a", "b")],
  "without the set member": [web, backup, fleet("a")],
  "with the resource moved under an alias": [{ ...web, name: "site", options: { aliases: [{ name: "web" }] } }, backup, fleet("a", "b")],
  "with no program": undefined,
};

/** Which object each checkout pauses and resumes: each object from several checkouts, each checkout once. */
const CASES: Array<{ checkout: keyof typeof CHECKOUTS; object: string }> = [
  { checkout: "at the deployed commit", object: "backup" },
  { checkout: "behind it (before the heartbeat and the second member were added)", object: "fleet[b]" },
  { checkout: "ahead of it, with pending edits", object: "web" },
  { checkout: "without the resource", object: "web" },
  { checkout: "without the set member", object: "fleet[b]" },
  { checkout: "with the resource moved under an alias", object: "web" },
  { checkout: "with no program", object: "backup" },
];

type Resource = { urn: string; type: string; id?: string; outputs?: Record<string, unknown> };

/**
 * The state's resources without what a pause or resume of `object` may change: its pause state
 * (`paused`, `status`) and its override record; everything else must be as it was. A secret stays
 * encrypted, under a fresh nonce each time the CLI writes the state: only its ciphertext differs.
 */
function withoutPauseOf(resources: Resource[], object: string): Resource[] {
  const [, resource, key] = /^([^[]+)(?:\[(.+)\])?$/.exec(object)!;
  const sealed = JSON.parse(JSON.stringify(resources).replace(/"ciphertext":"v1:[^"]+"/g, '"ciphertext":"(encrypted)"')) as Resource[];
  return sealed.map((one) => {
    if (!one.urn.endsWith(`::${resource}`)) return one;
    const outputs = structuredClone(one.outputs ?? {}) as Record<string, Record<string, unknown>>;
    if (key === undefined) {
      for (const field of ["paused", "status", "__override"]) delete (outputs as Record<string, unknown>)[field];
    } else {
      delete (outputs["monitors"]![key] as Record<string, unknown>)["paused"];
      delete outputs["statuses"]?.[key];
      delete outputs["__override"]?.[key];
      if (outputs["__override"] !== undefined && Object.keys(outputs["__override"]).length === 0) delete outputs["__override"];
    }
    return { ...one, outputs };
  });
}

/**
 * The scenario on the emulator's `profile` with the state in a file backend or PostgreSQL; `cases`
 * the checkouts it runs from (all of them by default).
 */
export function describeOperatorCheckouts({ profile, backend, cases = CASES }: { profile: "default" | "alt"; backend: "file" | "postgres"; cases?: typeof CASES }): void {
  describe(`pause and resume from checkouts away from the deployed commit, ${backend} backend, ${profile} profile`, () => {
    const base = join(repoRoot, ".work", `operator-checkouts-${profile}-${process.pid}`);
    const deployDir = join(base, "deployed");
    let emulator: TestEmulator;
    let postgres: TestPostgres | undefined;
    let env: Record<string, string>;
    const dirs: Record<string, string> = {};
    let ids: Record<string, string>;

    const workspace = () => LocalWorkspace.create({ workDir: deployDir, envVars: env, pulumiCommand: testCli() });
    /** A runner of its own: its own Pulumi home, as another CI machine has. */
    const runnerEnv = (runner: string) => ({ ...env, PULUMI_HOME: join(base, `home-${runner}`) });
    const resources = async () => (await exportedState(await workspace(), STACK)).deployment.resources as Resource[];
    /** `pulumi-monitoring <args>` from `dir` at T + minutes, and every request it sent. */
    async function run(dir: string, minutes: number, args: string[], runner = "oncall"): Promise<CommandResult & { requests: string[] }> {
      await emulator.admin.clearRequestLog();
      const result = await runHere([...args, "--cwd", dir], { ...runnerEnv(runner), PULUMI_MONITORING_NOW: at(minutes), PULUMI_MONITORING_ACTOR: "oncall" });
      return { ...result, requests: (await emulator.admin.requestLog()).map(({ method, path }) => `${method} ${path}`) };
    }
    const callOf = (object: string, verb: "pause" | "resume") => `POST /${object === "backup" ? "heartbeats" : "monitors"}/${ids[object]}/${verb}`;

    beforeAll(async () => {
      [postgres, emulator] = await Promise.all([backend === "postgres" ? startTestPostgres() : undefined, startTestEmulator({ profile })]);
      const backendEnv = postgres === undefined ? { PULUMI_BACKEND_URL: `file://${join(base, ".state")}` } : { PULUMI_BACKEND_URL: postgres.backendUrl, ...postgres.env };
      env = runnerEnvironment(base, "oncall", backendEnv, emulator);
      await mkdir(join(base, ".state"), { recursive: true });
      for (const [name, declared] of Object.entries({ deployed: DEPLOYED, ...CHECKOUTS })) {
        const dir = join(base, name.replace(/\W+/g, "-"));
        dirs[name] = dir;
        await mkdir(dir, { recursive: true });
        if (declared === undefined) continue;
        for (const file of ["Pulumi.yaml", "index.ts"]) await cp(join(repoRoot, "test/programs/declared", file), join(dir, file));
      }
      const stack = await LocalWorkspace.createStack({ stackName: STACK, workDir: deployDir }, { envVars: env, pulumiCommand: testCli() });
      await stack.setConfig("resources", { value: JSON.stringify(DEPLOYED) });
      for (const [name, declared] of Object.entries(CHECKOUTS)) {
        if (declared !== undefined) await writeFile(join(dirs[name]!, `Pulumi.${STACK}.yaml`), `config:\n  declared:resources: '${JSON.stringify(declared)}'\n`);
      }
      const { code, stderr } = await run(deployDir, 0, ["fleet", "up", "--yes"]);
      expect(code, stderr).toBe(0);
      const deployed = await resources();
      const set = deployed.find((resource) => resource.urn.endsWith("::fleet"))!;
      ids = {
        ...Object.fromEntries(deployed.filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic/monitoring:") && resource.id !== undefined).map((resource) => [resource.urn.slice(resource.urn.lastIndexOf("::") + 2), resource.id!])),
        ...Object.fromEntries(Object.entries(set.outputs!["ids"] as Record<string, string>).map(([key, id]) => [`fleet[${key}]`, id])),
      };
    }, STEP_MS);
    afterAll(async () => {
      await Promise.all([postgres?.stop(), emulator?.stop(), rm(base, { recursive: true, force: true })]);
    });

    /** The state as the previous step left it: each step may change only what it names. */
    let previous: Resource[];

    it.each(cases)("from a checkout $checkout, `pause $object` sends its one call and changes only that object's pause state and override record", async ({ checkout, object }) => {
      const dir = dirs[checkout]!;
      const stack = CHECKOUTS[checkout] === undefined ? `organization/declared/${STACK}` : STACK;
      previous ??= await resources();

      const paused = await run(dir, 10, ["pause", object, "--for", "1h", "--reason", `INC-10 ${checkout}`, "--stack", stack]);
      expect(paused.code, paused.stderr).toBe(0);
      expect(paused.stdout).toContain(`${object} in stack ${stack} until ${at(70)} for 'INC-10 ${checkout}', by oncall: deploys keep it paused until then.`);
      expect(paused.requests).toEqual([callOf(object, "pause")]);
      const now = await resources();
      expect(withoutPauseOf(now, object)).toEqual(withoutPauseOf(previous, object));
      expect(JSON.stringify(now)).toContain(`"reason":"INC-10 ${checkout}"`);
      previous = now;
    }, STEP_MS);

    it("`fleet resume` from a checkout without the resource ends every override with one resume call each, and the state is as deployed again but for the objects' status", async () => {
      const deployedState = withoutPauseOf(withoutPauseOf(withoutPauseOf(await resources(), "web"), "backup"), "fleet[b]");
      const objects = [...new Set(cases.map((one) => one.object))];
      const resumed = await run(dirs["without the resource"]!, 20, ["fleet", "resume", "--stack", STACK, "--resource", "*"]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.requests.sort()).toEqual(objects.map((object) => callOf(object, "resume")).sort());
      const after = await resources();
      expect(JSON.stringify(after)).not.toContain("INC-10");
      expect(withoutPauseOf(withoutPauseOf(withoutPauseOf(after, "web"), "backup"), "fleet[b]")).toEqual(deployedState);
      // Every object of the deployed stack is still on the service, active.
      for (const [name, id] of Object.entries(ids)) {
        if (name === "fleet") continue;
        const held = await emulator.byHand<{ paused: boolean }>("GET", `/${name === "backup" ? "heartbeats" : "monitors"}/${id}`);
        expect({ name, paused: held.paused }).toEqual({ name, paused: false });
      }
    }, STEP_MS);

    it("`pause` killed once its call reached the service is completed by the next `pause` from another runner: the call once more, one override recorded, nothing else", async () => {
      const before = await resources();
      // Held until the runner is dead (until_cleared; the minute is a bound for a hang), then completed.
      const held = await emulator.admin.injectFault({ method: "POST", path: `/monitors/${ids["web"]}/pause`, latency_ms: 60_000, until_cleared: true });
      await emulator.admin.clearRequestLog();
      try {
        const reached = async () => ((await emulator.admin.faults()).find((fault) => fault.id === held.id)?.fired ?? 0) >= 1;
        const args = ["pause", "web", "--for", "1h", "--reason", "INC-12", "--stack", STACK, "--cwd", deployDir];
        await runKilledWhen(join(repoRoot, "dist/cli/main.js"), args, { ...process.env, ...runnerEnv("killed"), PULUMI_MONITORING_NOW: at(40) }, reached, 30_000);
      } finally {
        // The runner is dead: the service completes the call it held.
        await emulator.admin.clearFaults();
      }
      // The service completes the call its client went away from; the state records nothing of it.
      for (let tries = 0; !(await emulator.byHand<{ paused: boolean }>("GET", `/monitors/${ids["web"]}`)).paused; tries++) {
        if (tries > 100) throw new Error("the service never completed the killed runner's pause");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(JSON.stringify(await resources())).not.toContain("INC-12");

      const again = await run(deployDir, 41, ["pause", "web", "--for", "1h", "--reason", "INC-12", "--stack", STACK], "next");
      expect(again.code, again.stderr).toBe(0);
      expect(again.requests).toEqual([callOf("web", "pause")]);
      const after = await resources();
      expect(withoutPauseOf(after, "web")).toEqual(withoutPauseOf(before, "web"));
      expect(JSON.stringify(after).match(/INC-12/g)).toHaveLength(1);
      expect((await run(deployDir, 42, ["resume", "web", "--stack", STACK], "next")).requests).toEqual([callOf("web", "resume")]);
    }, STEP_MS);

    it("a name the deployed stack lacks is refused from any checkout, with nothing sent or written", async () => {
      const before = await resources();
      const refused = await run(dirs["ahead of it, with pending edits"]!, 30, ["pause", "fleet[c]", "--for", "1h", "--reason", "INC-11", "--stack", STACK]);
      expect({ code: refused.code, stderr: refused.stderr }).toMatchObject({ code: 2, stderr: expect.stringContaining(`stack ${STACK} has no monitor, heartbeat or set member named "fleet[c]"`) });
      expect(refused.requests).toEqual([]);
      expect(await resources()).toEqual(before);
    }, STEP_MS);
  });
}
