/**
 * Operator commands from checkouts away from the deployed commit, on the emulator's default
 * profile with the state in a file backend: test/examples/operator-checkouts-scenario.ts.
 */
import { describeOperatorCheckouts } from "./operator-checkouts-scenario.js";

describeOperatorCheckouts({ profile: "default", backend: "file" });
