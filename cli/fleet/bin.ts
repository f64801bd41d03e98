#!/usr/bin/env node
/** `pulumi-monitoring-fleet <command> [options]`, the same as `pulumi-monitoring fleet`. */
import { exitOnceWritten } from "../command/exit.js";
import { fleet } from "./command.js";

// Exit explicitly: after a second Ctrl-C, abandoned CLI processes must not keep the fleet alive.
void fleet.run(process.argv.slice(2)).then(exitOnceWritten);
