/**
 * Operator commands from checkouts away from the deployed commit, on the emulator's alt profile
 * with the state in PostgreSQL: test/examples/operator-checkouts-scenario.ts, from the checkouts
 * that leave the object out of the program (the default profile's file runs them all).
 */
import { describeOperatorCheckouts } from "./operator-checkouts-scenario.js";

describeOperatorCheckouts({
  profile: "alt",
  backend: "postgres",
  cases: [
    { checkout: "without the set member", object: "fleet[b]" },
    { checkout: "with no program", object: "web" },
  ],
});
