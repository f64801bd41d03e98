#!/usr/bin/env node
/** `pulumi-monitoring-import`: see cli/import/main.ts and `--help`. */
import { importCommand } from "./main.js";

void importCommand.run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
