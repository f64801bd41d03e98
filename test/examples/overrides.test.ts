/**
 * An override by command with the state in PostgreSQL, shared by two runners, on the emulator's
 * default profile: test/examples/overrides-scenario.ts. How the provider records and keeps
 * overrides is test/provider/pauses.test.ts's; the arguments' rules, test/cli/overrides.test.ts's.
 */
import { describeOverrideByCommand } from "./overrides-scenario.js";

describeOverrideByCommand({ profile: "default", backend: "postgres", acrossStacks: false, badInput: true });
