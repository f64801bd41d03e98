#!/usr/bin/env node
/** `pulumi-monitoring-fleet <command> [options]`, the same as `pulumi-monitoring fleet`. */
import { runFleet } from "./stacks/run.js";

// Exit explicitly: after a second Ctrl-C, abandoned CLI processes must not keep the fleet alive.
void runFleet(process.argv.slice(2)).then((code) => process.exit(code));
