/**
 * An override by command on the emulator's alt profile (another server's choices), the two runners
 * sharing a file backend, and `fleet pause|overrides|resume` across the stacks:
 * test/examples/overrides-scenario.ts.
 */
import { describeOverrideByCommand } from "./overrides-scenario.js";

describeOverrideByCommand({ profile: "alt", backend: "file", acrossStacks: true, badInput: false });
