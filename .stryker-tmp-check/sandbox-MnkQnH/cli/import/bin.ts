#!/usr/bin/env node
// @ts-nocheck
/** `pulumi-monitoring-import`: see cli/import/main.ts and `--help`. */
import { runImport } from "./main.js";

void runImport(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
