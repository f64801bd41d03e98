/**
 * Vitest global setup for `npm run test:e2e -- <pattern>`, the inner loop of one engine scenario:
 * with PULUMI_MONITORING_WARM_EMULATORS=1 it starts one emulator per profile in Vitest's own
 * process, once for the run, and hands their addresses to the test files, whose
 * `startTestEmulator({ profile })` then leases the warm one (reset to a fresh start) instead of
 * starting another (test/support/emulator.ts). Without the variable it does nothing.
 */
import type { TestProject } from "vitest/node";
import { startTestEmulator, type TestEmulator, type WarmEmulator } from "./emulator.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The warm emulators of this run, by profile; empty unless PULUMI_MONITORING_WARM_EMULATORS=1. */
    warmEmulators: Record<string, WarmEmulator>;
  }
}

export const WARM_EMULATORS_VARIABLE = "PULUMI_MONITORING_WARM_EMULATORS";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const running: TestEmulator[] = [];
  const warm: Record<string, WarmEmulator> = {};
  if (process.env[WARM_EMULATORS_VARIABLE] === "1") {
    for (const profile of ["default", "alt"] as const) {
      const emulator = await startTestEmulator({ profile });
      running.push(emulator);
      warm[profile] = { baseUrl: emulator.baseUrl, adminUrl: emulator.adminUrl, apiKey: emulator.apiKey };
    }
    console.log(`[warm emulators] ${Object.entries(warm).map(([profile, emulator]) => `${profile} at ${emulator.baseUrl}`).join(", ")}, shared by the files of this run`);
  }
  project.provide("warmEmulators", warm);
  return async () => {
    await Promise.all(running.map((emulator) => emulator.stop()));
  };
}
